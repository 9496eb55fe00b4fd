"""docs/results/owen.md, "The model held to counts": its table is what `eternity plot --kind owen` prints from the
committed run, and the figures its prose quotes are the run's."""

from __future__ import annotations

import math
import sqlite3
import statistics
from pathlib import Path

from helpers.run_tables import copied, printed

from experiments.studies import owen_counts

ROOT = Path(__file__).resolve().parent.parent
PAGE = " ".join((ROOT / "docs" / "results" / "owen.md").read_text().split())
SNIPPET = ROOT / "docs" / "results" / "tables" / "owen_counts.md"
RUN = "owen_counts.sqlite"


def _points() -> list[dict]:
    with copied(RUN) as db:
        return owen_counts.points(str(db))


def test_the_table_is_the_commands(tmp_path):
    with copied(RUN) as db:
        out = printed("plot", str(db), "--kind", "owen", "-o", str(tmp_path / "owen.png"))
    assert (tmp_path / "owen.png").stat().st_size > 10_000
    table = out.split("\n\n")[0] + "\n"
    assert table == SNIPPET.read_text()
    summary = out.split("\n\n")[1].splitlines()[0]
    assert " ".join(summary.split()) in PAGE
    assert (ROOT / "docs" / "images" / "owen-counts.png").exists()


def test_the_headline_figures_are_the_runs():
    pts = _points()
    s = owen_counts.summary(pts)
    assert s["beyond_reach_measured"] >= 30
    assert f"**{s['beyond_reach_measured']} boards** are counted beyond the native count's reach" in PAGE
    far = [q["native_s"] for q in pts if q["beyond"] and q["measured"] is not None]
    assert f"from {min(far) / 3600:.1f} hours to 10^{math.log10(max(far)):.0f} s" in PAGE
    assert f"up to {s['largest_estimate'] / 1e21:.1f} x 10^21 solutions" in PAGE
    assert f"{s['covered']} of the {s['both']} boards counted both ways" in PAGE
    assert s["covered"] >= 0.8 * s["both"]  # a nominal 95% interval; a few misses are its nature, many a bug


def test_puzzle_b_by_the_second_method():
    b = next(q for q in _points() if q["name"] == "eternity2-clue1")
    seed_count = 115_071_633_408  # the exhaustion's 28,767,908,352 times the symmetric-piece factor 4
    assert b["low"] <= seed_count <= b["high"]
    low, high = (f"{x / 4 / 1e10:.2f}" for x in (b["low"], b["high"]))
    assert f"[{low} x 10^10, {high} x 10^10]" in PAGE
    assert b["exact"] == seed_count and "28,767,908,352" in PAGE


def _cell(name: str, config: str) -> dict:
    with copied(RUN) as db:
        con = sqlite3.connect(db)
        row = con.execute(
            "SELECT r.wall_s FROM results r JOIN instances i ON i.id = r.instance WHERE i.name = ? AND r.config = ?",
            (name, config),
        ).fetchone()
        cells = con.execute("SELECT count(*) FROM results").fetchone()[0]
        con.close()
    return {"wall_s": row[0], "cells": cells}


def test_the_prose_figures_are_the_runs():
    pts = _points()
    assert f"({_cell('owen-a', 'native')['cells']} cells," in PAGE
    # where the measures are tight: the medians and the worst board
    tight = {("6x6", 2), ("6x6", 3), ("6x6", 4), ("7x7", 4), ("7x7", 5), ("8x8", 5)}
    by: dict = {}
    for q in pts:
        if (q["size"], q["inner"]) in tight and q["family"] != "owen-puzzles" and q["log_ratio"] is not None:
            by.setdefault((q["size"], q["inner"]), []).append(q["log_ratio"])
    assert by.keys() == tight
    assert max(abs(statistics.median(v)) for v in by.values()) <= 0.25
    worst = max(abs(x) for v in by.values() for x in v)
    assert f"no board strays by more than a factor {math.ceil(10**worst)}" in PAGE
    # near the critical point: 6x6 with 6 colours
    near = [q for q in pts if q["size"] == "6x6" and q["inner"] == 6]
    got = sorted(q["measured"] for q in near)
    want = sorted(q["expected"] for q in near)
    assert f"{got[0]:.0f} to {got[-1]:.0f} solutions" in PAGE and f"{want[0]:.1f} to {want[-1]:.0f} expected" in PAGE
    # the one board the interval misses
    (miss,) = [q for q in pts if q["exact"] is not None and q["estimate"] is not None
               and not q["low"] <= q["exact"] <= q["high"]]  # fmt: skip
    assert (
        f"{miss['exact']} solutions, estimated {miss['estimate']:.1f} with [{miss['low']:.0f}, {miss['high']:.1f}]"
        in (PAGE)
    )
    # Puzzles A and B
    b = next(q for q in pts if q["name"] == "eternity2-clue1")
    assert f"is {b['estimate'] / 4 / 1e10:.2f} x 10^10 boards" in PAGE
    assert f"in {_cell('eternity2-clue1', 'sampled')['wall_s']:.0f} s" in PAGE
    assert f"({_cell('eternity2-clue1', 'native')['wall_s']:.0f} s in this run)" in PAGE
    a = next(q for q in pts if q["name"] == "owen-a")
    assert (
        f"Puzzle A: {a['estimate']:.0f} estimated, [{a['low']:.0f}, {a['high']:.0f}], against {a['exact']} counted"
        in PAGE
    )
