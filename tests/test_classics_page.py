"""docs/results/classics.md's table of the chapter's figures, held to the commands it names where they run in
seconds: the 3-D rooks, McCarthy's halves and snakes and ladders."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = " ".join((ROOT / "docs" / "results" / "classics.md").read_text().split())


def _json(*argv: str):
    out = subprocess.run(
        [sys.executable, "-m", "eternity", *argv, "--json"], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return json.loads(out)


def test_the_3d_rooks():
    counts = {r["R"]: r["count"] for r in _json("checkerboard", "rooks3d")["rooks3d"]}
    assert "| 12, 132, 847, 3,921 | the same | reproduced |" in PAGE
    assert [counts[r] for r in (1, 2, 3, 4)] == [12, 132, 847, 3921]
    assert f"| 14,506, 45,402 | {counts[5]:,}, {counts[6]:,} | corrected |" in PAGE


def test_mccarthys_halves():
    distinct = {h["n"]: h["distinct"] for h in _json("checkerboard", "halves", "--max", "9")["halves"]}
    assert "| 6, 92,263 | the same | reproduced |" in PAGE and (distinct[4], distinct[8]) == (6, 92263)
    odd = ", ".join(f"{distinct[n]:,}" for n in (3, 5, 7, 9))
    assert f"| open | {odd}; " in PAGE


def test_snakes_and_ladders():
    d = _json("game", "snakes")
    assert f"| 20, 8 | {d['most_likely']}, {d['least']} | reproduced |" in PAGE
    assert f"the median is {d['median']}, the mean {d['mean']:.2f}" in PAGE
