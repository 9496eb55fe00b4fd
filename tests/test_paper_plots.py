"""Scatter and quantile plots as files a paper takes (PNG, PDF, SVG), their points held to the store read by SQL
here: a scatter point for each cell both configurations ran, an unanswered cell past the limit."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from eternity.cli import main
from experiments.cells import cells
from experiments.pair_plots import EDGE, quantiles, scatter_points

QUICK = Path(__file__).resolve().parent.parent / "docs" / "runs" / "quick.sqlite"
HEADERS = {"png": b"\x89PNG", "pdf": b"%PDF", "svg": b"<?xml"}


@pytest.mark.parametrize("fmt", sorted(HEADERS))
def test_scatter_and_quantile_plots_are_written_in_each_format(tmp_path, fmt, capsys):
    db = tmp_path / "q.sqlite"
    shutil.copyfile(QUICK, db)
    for kind, extra in (("scatter", ["--configs", "backtrack/first,sat/first"]), ("quantile", [])):
        out = tmp_path / f"{kind}.{fmt}"
        assert main(["plot", str(db), "--kind", kind, *extra, "-o", str(out)]) == 0
        assert out.read_bytes()[:5].startswith(HEADERS[fmt]), kind


def test_the_scatters_points_are_the_cells_both_ran_by_sql():
    con = sqlite3.connect(f"file:{QUICK}?immutable=1", uri=True)
    a, b = "backtrack/first", "cpmpy[backend=choco]/first"
    pairs = con.execute(
        "SELECT x.status, y.status, x.time_limit FROM results x JOIN results y ON x.instance = y.instance AND "
        "x.repeat = y.repeat WHERE x.config = ? AND y.config = ? AND x.status != 'unavailable' AND "
        "y.status != 'unavailable'",
        (a, b),
    ).fetchall()
    con.close()
    pts = scatter_points(cells(str(QUICK)), a, b, "solve")
    assert len(pts) == len(pairs) > 0
    unanswered = sum(1 for _, sb, _ in pairs if sb not in ("solved", "unsatisfiable"))
    assert sum(1 for *_, ob in pts if not ob) == unanswered
    for _, _, tb, _, ob in pts:
        if not ob:
            assert tb == EDGE * max(t for *_, t in pairs)
    n, ts = quantiles(cells(str(QUICK)), "solve")[a]
    assert ts == sorted(ts) and len(ts) <= n


def test_a_scatter_needs_two_configurations_it_can_name(tmp_path, capsys):
    db = tmp_path / "q.sqlite"
    shutil.copyfile(QUICK, db)
    for extra in ([], ["--configs", "backtrack/first"], ["--configs", "nosuch,sat/first"]):
        assert main(["plot", str(db), "--kind", "scatter", *extra, "-o", str(tmp_path / "s.png")]) == 2
        assert "there are:" in capsys.readouterr().err
    assert not (tmp_path / "s.png").exists()
