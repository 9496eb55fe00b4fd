"""The documentation: reference pages that cannot drift, a short README whose commands run, citations that resolve.

The site's reference pages are written from the parser, the registry and the config schema
(``eternity/reference.py``); these tests hold the writers to the code (every subcommand present, a
missing help text an error) and the README and the docs to their promises.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import solving
from eternity import cli, reference
from solving import Option, SolverBase

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent


# ------------------------------------------------------------------------------------- the reference pages


def _all_commands(parser, prefix="eternity"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield f"{prefix} {name}", sub
                yield from _all_commands(sub, f"{prefix} {name}")


def test_every_subcommand_and_flag_is_in_the_cli_reference():
    parser = cli.build_parser()
    page = reference.cli_markdown(parser)
    commands = list(_all_commands(parser))
    assert len(commands) >= 20
    for full, sub in commands:
        assert f"\n## {full}\n" in page, f"{full} missing from the command-line reference"
        section = page.split(f"\n## {full}\n", 1)[1].split("\n## ", 1)[0]
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in section, f"{full} {flag} missing from its section"


def test_a_subcommand_without_help_fails_the_cli_reference():
    parser = cli.build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            action.add_parser("undocumented")  # no help=
    with pytest.raises(reference.MissingHelp, match="undocumented"):
        reference.cli_markdown(parser)


def test_an_argument_without_help_fails_the_cli_reference():
    parser = cli.build_parser()
    sub = dict(_all_commands(parser))["eternity solve"]
    sub.add_argument("--brand-new-flag")
    with pytest.raises(reference.MissingHelp, match="brand_new_flag"):
        reference.cli_markdown(parser)


class _Documented(SolverBase):
    """`documented`: a test double whose every option has help."""

    name = "documented"
    OPTIONS = {"depth": Option(int, 3, "how deep", lo=1, hi=9), "order": Option(str, "a", "which order", ("a", "b"))}


class _Undocumented(SolverBase):
    """`undocumented`: a test double with an option left without help."""

    name = "undocumented"
    OPTIONS = {"depth": Option(int, 3, "how deep", lo=1), "secret": Option(int, 0)}


def test_every_shipped_solver_and_option_is_in_the_solvers_reference():
    page = reference.solvers_markdown()
    from solving import registry

    for name in registry.own():
        assert f"\n## {name}\n" in page
        section = page.split(f"\n## {name}\n", 1)[1].split("\n## ", 1)[0]
        for opt in solving.solver_class(name).OPTIONS:
            assert f"| `{opt}` |" in section, f"{name}: option {opt} missing"


def test_an_option_without_help_fails_the_solvers_reference(monkeypatch):
    from solving import registry

    # registered for this test only: the agreement tests iterate over the registry
    monkeypatch.setattr(
        registry, "_extra", {"documented": f"{__name__}:_Documented", "undocumented": f"{__name__}:_Undocumented"}
    )
    monkeypatch.setattr(registry, "_classes", dict(registry._classes))
    page = reference.solvers_markdown(["documented"])
    assert "| `depth` | integer | `3` | 1..9 | how deep |" in page
    assert "`a`, `b`" in page
    with pytest.raises(reference.MissingHelp, match="'secret'"):
        reference.solvers_markdown(["documented", "undocumented"])


def test_the_config_reference_covers_every_field():
    from experiments import config, families

    page = reference.config_markdown()
    for model in (config.Config, config.SolverSpec, families.EdgeFamily, families.ExcessFamily, families.Range):
        section = page.split(f"\n## {model.__name__}\n", 1)[1].split("\n## ", 1)[0]
        for field in model.model_fields:
            assert f"| `{field}` |" in section, f"{model.__name__}.{field}"


# ---------------------------------------------------------------------------------------------- the README


def test_the_readme_is_short():
    assert len(README.read_text().splitlines()) <= 300


def test_the_readme_results_table_is_the_stored_run(tmp_path):
    """The README's one results table is what `eternity table` prints from the stored run, not typed."""
    import shutil

    from experiments.report import table

    db = tmp_path / "quick.sqlite"
    shutil.copyfile(ROOT / "docs" / "runs" / "quick.sqlite", db)
    assert table(str(db), view="winners") in README.read_text()


def _shell_commands(text: str) -> list[list[str]]:
    """The ```sh blocks of a markdown file, each a list of commands (comments dropped)."""
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    out = []
    for b in blocks:
        cmds = []
        for line in b.splitlines():
            line = line.split(" #", 1)[0].strip()
            if line and not line.startswith("#"):
                cmds.append(line)
        out.append(cmds)
    return out


def _runs_in_seconds(cmd: str) -> bool:
    """What the test runs: eternity commands that take seconds (a minute-long limit, make, apt and
    activating the environment are left to the reader)."""
    words = shlex.split(cmd)
    if words[0] != "eternity":
        return False
    if "--time-limit" in words and float(words[words.index("--time-limit") + 1]) >= 60:
        return False
    if words[1:2] == ["hunt"] and "--merge" not in words:  # a hunt runs for its budget, hours as written
        from experiments.hunt import parse_budget

        budget = parse_budget(words[words.index("--budget") + 1]) if "--budget" in words else None
        return budget is not None and budget < 60
    return True


def _run_blocks(text: str, tmp_path: Path) -> list[str]:
    for d in ("docs", "data", "experiments"):
        os.symlink(ROOT / d, tmp_path / d)
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    ran = []
    for cmds in _shell_commands(text):
        for cmd in cmds:
            if not _runs_in_seconds(cmd):
                break  # what follows in the block may need its output
            r = subprocess.run(cmd, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
            assert r.returncode == 0, f"{cmd!r} exited {r.returncode}: {r.stderr[-1500:]}"
            ran.append(cmd)
    return ran


def test_the_readme_commands_run_as_written(tmp_path):
    ran = _run_blocks(README.read_text(), tmp_path)
    assert len(ran) >= 15, ran
    assert (tmp_path / "found.svg").exists() and (tmp_path / "cactus.png").exists()


@pytest.mark.slow
def test_the_tutorial_commands_run_as_written(tmp_path):
    ran = _run_blocks((ROOT / "docs" / "tutorial.md").read_text(), tmp_path)
    assert len(ran) >= 15, ran


# ------------------------------------------------------------------------------------ words and citations

TEXT_FILES = [
    p
    for p in ROOT.rglob("*")
    if p.suffix in (".md", ".py", ".toml")
    and p.is_file()
    and not any(
        part in (".venv", ".git", "build", "__pycache__", ".hypothesis") or part.endswith(".egg-info")
        for part in p.relative_to(ROOT).parts
    )
]


def test_the_repository_speaks_of_the_project_only():
    pattern = re.compile(r"\bs[t]op [0-9]+|this s[t]op|later s[t]op|earlier s[t]op|i[s]sue [0-9]+", re.I)
    hits = [
        f"{p.relative_to(ROOT)}: {m.group(0)}"
        for p in TEXT_FILES
        if p.suffix in (".md", ".py")
        for m in pattern.finditer(p.read_text(errors="replace"))
    ]
    assert not hits, hits


def test_every_citation_resolves_to_a_reference():
    refs_page = (ROOT / "docs" / "references.md").read_text()
    keys = set(re.findall(r"^- \[([^\]]+)\] ", refs_page, re.M))
    assert {"Selby2001", "Owen", "Knuth", "Book-ch6", "BoardState", "NYMN2017"} <= keys
    # an author-year key (a name and a year in brackets) or one of the named keys, anywhere in code and docs
    named = {k for k in keys if not re.search(r"\d{4}$", k)}
    cite = re.compile(r"\[([A-Z][A-Za-z+-]*\d{4}[a-z]?|" + "|".join(map(re.escape, named)) + r")\]")
    cited = {}
    for p in TEXT_FILES:
        if p.name == "references.md":
            continue
        for m in cite.finditer(p.read_text(errors="replace")):
            cited.setdefault(m.group(1), str(p.relative_to(ROOT)))
    missing = {k: where for k, where in cited.items() if k not in keys}
    assert not missing, missing
    assert len(cited) >= 15


# ------------------------------------------------------------------------------------- the notebook page


def test_the_notebook_page_runs_as_written(tmp_path, monkeypatch):
    """Every Python cell of the worked notebook page, in order, in one namespace, in an empty folder."""
    page = (ROOT / "docs" / "guide" / "python.md").read_text()
    cells = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert len(cells) >= 5
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for i, cell in enumerate(cells):
        exec(compile(cell, f"docs/guide/python.md, cell {i + 1}", "exec"), namespace)
    assert (tmp_path / "owen-a.svg").read_text().startswith("<")
    assert len(namespace["cells"]) == 6
