"""docs/results/owen.md, "The model held to counts": its table is what `eternity plot --kind owen` prints from the
committed run, and the figures its prose quotes are the run's."""

from __future__ import annotations

import math
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
