"""docs/results/classics.md's table of the chapter's figures, held to the commands it names: the 3-D rooks,
McCarthy's halves, snakes and ladders and fox and geese in seconds; the halves at 10 and the 10 x 10 fox and
geese (minutes, 4.7 GB) in the slow run (`make results`)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_fox_and_geese_on_8x8_and_4x4():
    for first in ("fox", "geese"):
        d = _json("game", "foxgeese", "--first", first)
        assert d["complete"] and d["winner"] == "geese" and set(d["starts"].values()) == {"geese"}, first
    assert "| the geese win, from every fox start, either side first | reproduced |" in PAGE
    d = _json("game", "foxgeese", "--board", "4", "--start", "any")
    fox = [s for s, w in d["starts"].items() if w == "fox"]
    last = [s for s in d["starts"] if s.startswith(f"{d['board'] - 1},")]
    assert len(fox) == 2 and all(int(s.split(",")[0]) in (1, 2) for s in fox)
    assert last and all(d["starts"][s] == "geese" for s in last)
    assert "| only from the two middle squares; from the last row the geese win |" in PAGE


@pytest.mark.slow
def test_mccarthys_halves_at_10():
    distinct = {h["n"]: h["distinct"] for h in _json("checkerboard", "halves", "--max", "10")["halves"]}
    assert f"; {distinct[10]:,} for 10 |" in PAGE


@pytest.mark.slow
def test_fox_and_geese_on_10x10_with_two_foxes():
    d = _json("game", "foxgeese", "--board", "10", "--foxes", "2")
    assert d["complete"] and set(d["starts"].values()) == {"fox"}
    assert (
        f"**the foxes win**, from every start on the last row, whoever moves first ({d['positions']:,} positions)"
        in PAGE
    )
