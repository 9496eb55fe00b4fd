"""The rooms hold: the modules that moved keep answering at their old names (a plug-in written against them still
loads, with a deprecation warning), the project's own code uses the new names only, no module is over the house's
600 lines, and no Markdown link in the tree points at a file that is not there."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "helpers"))
from module_sizes import over  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _all_moved() -> dict[str, str]:
    """Every top-level package's moved modules: ``puzzles``', the runner's rooms and the solver floor's."""
    import baseline
    import experiments
    from puzzles._moved import MOVED

    return {**MOVED, **experiments.MOVED, **baseline.MOVED}


def test_a_moved_module_answers_at_its_old_name_as_the_same_module():
    for old, new in _all_moved().items():
        with pytest.warns(DeprecationWarning, match="moved to"):
            sys.modules.pop(old, None)
            __import__(old)
        assert sys.modules[old] is sys.modules[new] and sys.modules[new].__name__ == new


def test_a_plugin_written_against_the_old_paths_still_loads(tmp_path):
    (tmp_path / "old_plugin.py").write_text(
        "from puzzles.edge import EdgePuzzle\nfrom puzzles import generate\nfrom puzzles.formats import read_puzzle\n"
        "p, _ = generate.edge_puzzle(3, 3, 2, 2, seed=1)\nassert isinstance(p, EdgePuzzle) and callable(read_puzzle)\n"
        "print('loaded')\n"
    )
    r = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", str(tmp_path / "old_plugin.py")],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert r.returncode == 0 and "loaded" in r.stdout, r.stderr
    assert "puzzles.edge moved to puzzles.kinds.edge" in r.stderr


def test_the_project_imports_its_modules_by_their_new_names():
    MOVED = _all_moved()
    names = "|".join(re.escape(o) for o in MOVED)
    old = re.compile(
        rf"^\s*(from|import) ({names})\b|^\s*from puzzles import .*\b({'|'.join(o.split('.')[1] for o in MOVED)})\b"
    )
    found = []
    for pkg in (
        "puzzles",
        "solving",
        "baseline",
        "cpmodel",
        "encoders",
        "experiments",
        "eternity",
        "tests",
        "benchmarks",
    ):
        for f in (ROOT / pkg).rglob("*.py"):
            if f.name in ("_moved.py", "test_rooms.py"):
                continue
            for n, line in enumerate(f.read_text().splitlines(), 1):
                if old.search(line):
                    found.append(f"{f.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, found[:10]


def test_no_module_is_over_600_lines():
    assert over(ROOT, 600) == []


LINK = re.compile(r"\]\(([^)\s]+?)(?:#[^)]*)?\)")


def test_no_markdown_link_points_at_a_missing_file():
    missing = []
    for f in [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]:
        if "build" in f.parts:
            continue
        text = re.sub(r"```.*?```", "", f.read_text(), flags=re.S)  # code blocks are shown, not followed
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target) or target.startswith(("#", "/")):
                continue
            if not (f.parent / target).exists():
                missing.append(f"{f.relative_to(ROOT)} -> {target}")
    assert not missing, missing


def test_the_committed_reference_pages_are_current():
    from eternity import reference

    for rel, text in reference.pages().items():
        assert (ROOT / "docs" / rel).read_text() == text, f"docs/{rel} is stale: run `python -m eternity.reference`"
