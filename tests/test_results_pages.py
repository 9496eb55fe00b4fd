"""The results pages' figures and their commands: every command a page names parses, names real solver
options and real scripts, and the quick figures are run and found on their page as printed."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from eternity import cli
from solving.registry import solver_class

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs" / "results").glob("*.md"))
# placeholders the pages use in command templates, and a value of the right type for each
PLACEHOLDERS = {
    "B": "5",
    "M": "3",
    "K": "4",
    "S": "0",
    "N": "8",
    "PUZZLE": "queens-8",
    "BOARD": "b.json",
    "FORMAT": "xcc",
    "FILE": "f.out",
    "WEIGHTS": "w.json",
}


def page_commands(text: str) -> list[str]:
    """The `eternity ...` commands of a page: in backticks, and the lines of its shell blocks."""
    found = re.findall(r"`(eternity [^`]+)`", text)
    for block in re.findall(r"```(?:sh|bash|console)?\n(.*?)```", text, re.S):
        found += [ln.strip().split(" #")[0] for ln in block.splitlines() if ln.strip().startswith("eternity ")]
    return [" ".join(c.split()) for c in found]


def _argv(command: str) -> list[str]:
    command = re.sub(r"\[([^\]]+)\]", r"\1", command)  # an optional part, taken
    return [PLACEHOLDERS.get(t, t) for t in shlex.split(command)[1:]]


def all_commands():
    for page in PAGES:
        for c in page_commands(page.read_text()):
            argv = _argv(c)
            if len(argv) > 1:  # a bare `eternity table` names the command in prose
                yield page.name, c, argv


def test_the_pages_name_many_commands():
    assert len(list(all_commands())) >= 100


def test_every_command_on_the_results_pages_parses_with_real_options():
    parser = cli.build_parser()
    bad = []
    for page, command, argv in all_commands():
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                ns = parser.parse_args(argv)
        except (SystemExit, Exception) as e:  # noqa: BLE001 - the parser's own error is the finding
            bad.append(f"{page}: {command}: {str(e) or err.getvalue().strip()}")
            continue
        solver = getattr(ns, "solver", None)
        opts = getattr(ns, "opt", None) or []
        if isinstance(solver, str) and opts:
            known = solver_class(solver).OPTIONS
            for kv in opts:
                key = kv.partition("=")[0]
                if key not in known:
                    bad.append(f"{page}: {command}: {solver} has no option {key!r}")
    assert bad == []


def test_every_script_and_make_target_a_page_names_exists():
    makefile = (ROOT / "Makefile").read_text()
    missing = []
    for page in PAGES:
        text = page.read_text()
        for script in set(re.findall(r"(benchmarks/[\w/]+\.py)", text)):
            if not (ROOT / script).exists():
                missing.append(f"{page.name}: {script}")
        for target in set(re.findall(r"`make ([\w-]+)", text)):
            if not re.search(rf"^{re.escape(target)}:", makefile, re.M):
                missing.append(f"{page.name}: make {target}")
    assert missing == []


def _eternity_json(*argv: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "eternity", *argv, "--json"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return json.loads(out.stdout)


def _page(name: str) -> str:
    return " ".join((ROOT / "docs" / "results" / name).read_text().split())


# (page, what, the command's figure, as the page prints it)
QUICK = [
    (
        "eternity1.md",
        "polydrafters and polydudes at 8",
        lambda: _eternity_json("enumerate", "drafter", "--size", "8"),
        lambda d: f"| 8 | {d['without_holes']:,} | 17,705 | {d['free']:,} | 18,664 | {d['polydudes']} | 517 | 513 |",
    ),
    (
        "owen.md",
        "the naive estimate",
        lambda: _eternity_json("estimate", "eternity2"),
        lambda d: (
            f"{10 ** (d['naive']['log10_all_joins_valid'] % 1):.2f} x 10^{int(d['naive']['log10_all_joins_valid']) - 1}"
        ),
    ),
    (
        "classics.md",
        "Grundy's chapter errors to heap 30",
        lambda: _eternity_json("game", "grundy", "--max", "30"),
        lambda d: (
            "the chapter marks 20, 23 and 26 lost"
            if {e for e in d["chapter_errors"] if "misere value L printed" in e}
            >= {f"heap {h}: misere value L printed, W" for h in (20, 23, 26)}
            else "no such errors"
        ),
    ),
    (
        "classics.md",
        "the magic hexagon of order 3",
        lambda: _eternity_json("game", "hexagon", "--order", "3"),
        lambda d: f"all 15 lines sum to {next(x['magic_sum'] for x in d if x['order'] == 3)}",
    ),
]


@pytest.mark.parametrize("page,what,run,shown", QUICK, ids=[q[1] for q in QUICK])
def test_a_quick_figure_is_printed_as_its_page_says(page, what, run, shown):
    assert shown(run()) in _page(page), what


def test_the_tilability_agreement_of_the_shipped_fits():
    out = subprocess.run(
        [sys.executable, "benchmarks/tilability_figures.py", "agree"], capture_output=True, text=True, check=True,
        cwd=ROOT,
    ).stdout  # fmt: skip
    figure = out.strip().rsplit(" ", 1)[1]
    assert figure == "0.885"
    assert f"rank correlation {figure}" in _page("tilability.md")
