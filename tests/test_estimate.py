"""Owen's model against seed 001's table and against measured search trees."""

import math

import pytest

from puzzles import catalog, estimate, generate, solvers
from puzzles.orders import search_order


def test_eternity2_expected_solutions():
    assert estimate.expected_solutions(catalog.load("eternity2")) == pytest.approx(14702, rel=0.01)


def test_puzzle_a_and_b():
    assert round(estimate.expected_solutions(catalog.load("owen-a"))) == 146
    b = catalog.load("eternity2-clue1")
    assert estimate.expected_solutions(b) == pytest.approx(262_881_014_825, rel=0.01)
    assert estimate.symmetry_factors(b) == {"board": 4, "symmetric_pieces": 4, "identical_pieces": 384, "total": 6144}
    assert estimate.symmetry_factors(catalog.load("owen-a"))["total"] == 4


def test_eternity2_search_tree_rowscan_from_the_bottom():
    p = catalog.load("eternity2")
    total, prof = estimate.search_nodes(p, search_order(p, "rowscan-up"))
    assert 10 ** total == pytest.approx(1.365e47, rel=0.01)
    assert len(prof) == 255


def test_node_estimate_tracks_the_measured_tree():
    p = catalog.load("owen-a")
    total, prof = estimate.search_nodes(p, search_order(p, "rowscan"))
    r = solvers.get("edge-backtrack", {"order": "rowscan"}).solve(p, mode="count")
    measured = r.stats["nodes"]
    assert abs(total - math.log10(measured)) < 0.1  # within ~25%


def test_fewer_colours_more_solutions():
    lo = estimate.expected_solutions(generate.edge_puzzle(6, 6, 2, 3, 1)[0])
    hi = estimate.expected_solutions(generate.edge_puzzle(6, 6, 2, 9, 1)[0])
    assert lo > 1 > hi
    assert estimate.classify(generate.edge_puzzle(6, 6, 2, 9, 1)[0])[1] == "sub-critical"


def test_not_for_polyforms():
    with pytest.raises(ValueError):
        estimate.expected_solutions(catalog.load("pentomino-3x20"))
