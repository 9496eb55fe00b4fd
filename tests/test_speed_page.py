"""docs/results/speed.md: the trees its rates are measured on are held to the searches that make them (a
tree's size does not depend on the machine); the rates themselves are dated one-offs of the named
benchmark scripts, which the page says."""

from __future__ import annotations

import re

import pytest
from helpers.run_tables import page, printed

PAGE = page("speed.md")


def _count(*argv: str) -> tuple[int, int]:
    m = re.search(r"count (\d+) .* nodes (\d+)", printed("solve", *argv, "--mode", "count"))
    return int(m.group(1)), int(m.group(2))


def test_the_exact_cover_trees():
    count, nodes = _count("pentomino-6x10", "--solver", "backtrack")
    assert f"`pentomino-6x10` ({count:,} solutions, {nodes:,} nodes)" in PAGE
    count, _ = _count("queens-12", "--solver", "backtrack")
    assert f"`queens-12` ({count:,} solutions)" in PAGE


def test_the_edge_tree_both_solvers_visit():
    count, placements = _count("brendan-6x6", "--solver", "edge-backtrack")
    assert f"`brendan-6x6`, count ({count} boards)" in PAGE
    assert f"exactly the same {placements:,} nodes on `brendan-6x6`" in PAGE


@pytest.mark.slow
def test_owen_a_tree():
    _, nodes = _count("owen-a", "--solver", "backtrack", "--opt", "engine=bitset")
    assert f"`owen-a` ({nodes / 1e6:.1f} M nodes)" in PAGE


def test_the_rates_are_dated():
    assert "one-off measurements of November 2026" in PAGE
