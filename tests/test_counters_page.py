"""docs/results/counting.md's section on the model counters: its figures are the committed run's."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from helpers.run_tables import printed

ROOT = Path(__file__).resolve().parent.parent
PAGE = " ".join((ROOT / "docs" / "results" / "counting.md").read_text().split())
RUN = ROOT / "docs" / "runs" / "counters.sqlite"


def _cells() -> dict:
    con = sqlite3.connect(f"file:{RUN}?immutable=1", uri=True)
    try:
        q = (
            "SELECT i.name, r.config, r.status, r.count, r.search_s, r.evidence FROM results r "
            "JOIN instances i ON i.id = r.instance"
        )
        return {(n, c): rest for n, c, *rest in con.execute(q)}
    finally:
        con.close()


def test_the_counters_figures_are_the_runs():
    cells = _cells()
    g, d, e = (cells[("dominoes-10x10", c)] for c in ("ganak/count", "diagram", "enumeration"))
    assert g[1] == d[1] == 258584046368 and e[0] == "limit"
    assert f"258,584,046,368 tilings in {g[2]:.1f} s of search, the diagram in {d[2]:.3f} s" in PAGE
    for box in ("pentomino-4x15", "pentomino-5x12", "pentomino-6x10"):
        assert cells[(box, "ganak/count")][0] == cells[(box, "approxmc/count")][0] == "limit"
    small = [cells[("pentomino-3x20", c)] for c in ("ganak/count", "approxmc/count", "enumeration")]
    assert min(small[0][2], small[1][2]) > 100 and f"the enumeration takes {small[2][2]:.3f} s" in PAGE
    a8, x8 = cells[("dominoes-8x8", "approxmc/count")], cells[("dominoes-8x8", "diagram")]
    aq, xq = cells[("queens-8", "approxmc/count")], cells[("queens-8", "diagram")]
    assert f"{a8[1]:,} for `dominoes-8x8`'s {x8[1]:,} and {aq[1]} for `queens-8`'s {xq[1]}" in PAGE
    for approx, exact in ((a8[1], x8[1]), (aq[1], xq[1])):
        assert exact / 1.8 <= approx <= exact * 1.8
    assert a8[3].startswith("approximate (epsilon 0.8, delta 0.2)")


def _memo(puzzle: str) -> dict:
    return json.loads(printed("solve", puzzle, "--mode", "count", "--opt", "memo=true", "--json"))


def test_the_memo_tables_counts_and_diagrams_are_the_commands():
    """The memo table's columns that do not depend on the machine: each count, the memoised search's nodes and
    its diagram's nodes (the times are the benchmark's one-off of its date)."""
    table = (ROOT / "docs" / "results" / "tables" / "memo.md").read_text()
    rows = {r[0]: r for r in ([c.strip() for c in ln.split("|")[1:-1]] for ln in table.splitlines()) if r}
    for puzzle in ("dominoes-6x8", "dominoes-8x8", "trominoes-3x15", "aztec-6", "dominoes-10x10", "pentominoes-3x30"):
        d = _memo(puzzle)
        row = rows[puzzle]
        assert (row[1], row[5], row[6]) == (
            f"{d['count']:,}",
            f"{d['stats']['nodes']:,}",
            f"{d['stats']['diagram_nodes']:,}",
        )
    d = _memo("dominoes-10x10")
    assert f"# {d['count']}, from a diagram of {d['stats']['diagram_nodes']:,} nodes" in PAGE
    assert "a one-off of 2026-11-25 for the times" in PAGE  # the times are dated
