"""docs/results/selby.md: every table on it is its command's output, regenerated here (the studies that
take minutes in the slow run), and the page's prose figures are the tables'."""

from __future__ import annotations

import math
import re
import shlex
from pathlib import Path

import pytest
from helpers.run_tables import printed

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "results" / "selby.md"
TABLES = ROOT / "docs" / "results" / "tables"
# each snippet, the command that makes it, and whether its output is plain text (fenced on the page)
SNIPPETS = {
    "selby_branching": ("selby branching docs/runs/branching.sqlite", False, False),
    "selby_landmarks": ("tilability show data/eternity1/tilability_weights_k12_first_1280.json", True, False),
    "selby_crude": ("estimate --selby-t 0.0348", True, False),
    "selby_beam_tree": ("selby beam-tree --width 100 --seeds 200", False, True),
    "selby_beam_diversity": (
        "selby beam-diversity --seeds 10 --widths 256,1024,4096,16384 --inner-colors 6",
        False,
        True,
    ),
    "selby_parity": ("selby parity --states 20 --seed 1 --time-limit 30", True, True),
    "selby_beam_cutoffs": ("selby beam-cutoffs --inner-colors 6 --widths 256,1024,4096 --seeds 10", False, True),
    "selby_beam_width_6": (
        "selby beam-width --inner-colors 6 --widths 16,64,256,1024,4096,16384 --seeds 10 --budget 2e6 --quiet",
        False,
        True,
    ),
    "selby_beam_width_7": (
        "selby beam-width --inner-colors 7 --widths 64,256,1024,4096,16384 --seeds 10 --budget 4e6 --quiet",
        False,
        True,
    ),
}


def _output(command: str, text: bool) -> str:
    out = printed(*shlex.split(command))
    return f"```text\n{out}```\n" if text else out


def test_the_page_includes_every_snippet_and_names_its_command():
    page = PAGE.read_text()
    for name, (command, _, _) in SNIPPETS.items():
        assert f'--8<-- "docs/results/tables/{name}.md"' in page, name
        words = command.replace(" --quiet", "").split()
        assert any(all(w in line for w in words) for line in page.splitlines()), command
    for png in re.findall(r"\]\(\.\./images/(selby_[\w]+\.png)\)", page):  # each plot committed, its command named
        assert (ROOT / "docs" / "images" / png).read_bytes()[:4] == b"\x89PNG" and f"--plot {png}" in page


@pytest.mark.parametrize("name", [n for n, (_, _, slow) in SNIPPETS.items() if not slow])
def test_a_quick_table_is_its_command_output(name):
    command, text, _ = SNIPPETS[name]
    assert (TABLES / f"{name}.md").read_text() == _output(command, text)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n, (_, _, slow) in SNIPPETS.items() if slow])
def test_a_slow_table_is_its_command_output(name):
    command, text, _ = SNIPPETS[name]
    assert (TABLES / f"{name}.md").read_text() == _output(command, text)


def _rows(name: str, part: int = 0) -> list[list[str]]:
    """The rows of the ``part``-th table of a snippet (header first)."""
    text = (TABLES / f"{name}.md").read_text().split("\n## ")[part]
    return [
        [c.strip() for c in line.split("|")[1:-1]]
        for line in text.splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]


def test_the_prose_figures_are_the_tables():
    page = " ".join(PAGE.read_text().split())
    branching = (TABLES / "selby_branching.md").read_text()
    # site against piece: the verdict counts and the ratio range quoted
    held = re.search(r"beats most constrained piece on (\d+) of (\d+) puzzles; fails on (\d+)", branching).groups()
    assert held[2] == "0" and "never made a larger tree than the most constrained piece" in page
    rows = _rows("selby_branching")[1:]
    ratio = [
        int(r[3].replace(",", "")) / int(r[2].replace(",", ""))
        for r in rows
        if not r[2].startswith(">") and not r[3].startswith(">")
    ]
    assert all(len(r) == 11 for r in rows)
    head = _rows("selby_branching")[0]
    worst = {
        r[0]
        for r in rows
        if max(range(1, 6), key=lambda i: int(r[i].replace(">= ", "").replace(",", "")) if r[i] != "-" else -1)
        != head.index("piece-order")
    }
    assert (
        len(worst) == 1 and f"on every puzzle but `{worst.pop()}`, where both static orders reach their limit" in page
    )
    lo, hi = re.search(r"the piece rule's tree is (\d+)x to ([\d,]+)x the site rule's", page).groups()
    assert round(min(ratio)) == int(lo) and round(max(ratio)) == int(hi.replace(",", ""))
    mrv_site = [
        float(r[7])
        for r in rows
        if r[7] != "-" and (r[0].startswith("edge") or r[0].startswith("brendan") or r[0].startswith("pentomino-"))
    ]
    lo2, hi2 = re.search(r"([\d.]+) to ([\d.]+) of its size there", page).groups()
    assert min(mrv_site) == float(lo2) and max(mrv_site) == float(hi2)
    # the exchange argument: no profile defers
    ex = _rows("selby_branching", 1)[1:]
    assert ex and all(r[4].startswith("-") for r in ex) and "every profile measured has negative deferral" in page
    ratio = [float(r[5]) for r in ex]
    assert f"every tree is {min(ratio):g} to {max(ratio) / 1e6:.2g} x 10^6 times the tree of its own factors" in page
    # the crude model
    crude = (TABLES / "selby_crude.md").read_text()
    assert "c = 75" in crude and "10^12.5 nodes" in crude and "passes 1 at N = 75" in page
    assert "takes 10^12.5 nodes" in page and "reproduced: 10^12.5 nodes at t = 0.0348" in page
    literal = "\n".join(printed("estimate", "--selby-t", "0.03").splitlines())
    assert "c = 88" in literal and "10^14.7" in literal and "t = 0.03 gives c = 88 and 10^14.7" in page
    # the landmarks: the split-half quoted is the fit's
    half = re.search(r"split-half rank correlation ([\d.]+)", (TABLES / "selby_landmarks.md").read_text()).group(1)
    assert f"split-half rank correlation {half} on the shipped fit" in page
    # parity: the factor, the tilings that match, the states that fail
    parity = (TABLES / "selby_parity.md").read_text()
    tilings, matching, factor = re.search(
        r"(\d+) tilings, (\d+) matching the parities; .* factor ([\d.]+)", parity
    ).groups()
    assert tilings == matching and f"all {tilings} tilings" in page and f"factor {factor}" in page
    fail, states = re.search(r"exact states \((\d+),.*?: (\d+) fail", parity).groups()[::-1]
    assert f"{fail} of {states}" in page
    # diversity: width 64 times larger, lineages about 30 times
    div = _rows("selby_beam_diversity")[1:]
    lineages = [int(r[5].replace(",", "")) for r in div]
    assert int(div[-1][0]) // int(div[0][0]) == 64 and "Width 64 times larger" in page
    assert 25 <= lineages[-1] / lineages[0] <= 35 and "about 30 times as many lineages" in page


def test_the_width_familys_expected_solutions(tmp_path):
    from puzzles.estimates.estimate import expected_solutions
    from puzzles.make.generate import edge_puzzle

    page = " ".join(PAGE.read_text().split())
    six, seven = (math.log10(expected_solutions(edge_puzzle(8, 8, 3, c, seed=0)[0])) for c in (6, 7))
    assert f"gives 10^{six:.1f} expected solutions on board 0), seven nearer it (10^{seven:.1f})" in page


def cutoff_figures() -> dict[str, str]:
    """The cutoff section's figures, from its table."""
    head, *body = _rows("selby_beam_cutoffs")
    col = {h: i for i, h in enumerate(head)}
    by = {r[0]: r for r in body}
    widths = ("256", "1024", "4096")

    def solved(w: str, column: str) -> str:
        return by[w][col[column]].split("/")[0]

    beam = [solved(w, "beam solves") for w in widths]
    nxt = [solved(w, "DFS, the next board's cutoffs") for w in widths]
    own = [solved(w, "DFS, the board's own cutoffs") for w in widths]
    assert own[1:] == beam[1:] and own[0] == "0" < beam[0]
    assert int(nxt[2]) < int(beam[2])
    deep = [by[w][col["deepest level, own / next (median)"]].split(" / ")[1].split(" ")[0] for w in widths]
    return {
        "CUT_NEXT": f"the beam solves {', '.join(beam[:2])} and {beam[2]} of 10 boards at widths 256, 1,024 and "
        f"4,096, the search {', '.join(nxt[:2])} and {nxt[2]}",
        "CUT_DEEP_NEXT": f"{', '.join(deep[:2])} and {deep[2]}",
        "CUT_OWN": f"{own[1]} and {own[2]} of 10 boards at widths 1,024 and 4,096, as many as the beam",
        "CUT_256_BEAM": f"{beam[0]} of 10",
    }


def test_the_cutoff_figures_are_the_tables():
    page = " ".join(PAGE.read_text().split())
    for key, value in cutoff_figures().items():
        assert key not in page and value in page, (key, value)
