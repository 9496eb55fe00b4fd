"""Branch rules of the dlx engine (site, piece, static orders) and the study of seed 000's branching
claims: every rule counts the same solutions; a tree's nodes are its b_i profile's N; the verdicts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from experiments.studies import branching as B
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.make.generate import edge_puzzle, polyomino_puzzle


def _count(puzzle, branch: str, **extra):
    res = solving.get("backtrack", {"branch": branch, **extra}).solve(puzzle, mode="count")
    return res.count, res.stats


@pytest.mark.parametrize("name", ["brendan-4x4", "box-4x5"])
def test_every_branch_rule_counts_the_same_solutions(name):
    puzzle = polyomino_puzzle(4, 5, 4, seed=3)[0] if name == "box-4x5" else catalog.load(name)
    counts = {rule: _count(puzzle, rule)[0] for rule in B.RULES}
    assert len(set(counts.values())) == 1 and counts["mrv"] > 0, counts


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 5))
def test_branch_rules_agree_on_random_boards(seed, inner):
    puzzle, _ = edge_puzzle(4, 4, 2, inner, seed=seed)
    counts = {rule: _count(puzzle, rule)[0] for rule in B.RULES}
    assert len(set(counts.values())) == 1, counts


def test_the_rules_make_different_trees_and_the_profile_gives_the_tree():
    puzzle = catalog.load("brendan-4x4")
    nodes = {}
    for rule in B.RULES:
        _, stats = _count(puzzle, rule)
        ex = B.Exhaust(rule, True, stats["nodes"], None, None, stats["nodes_per_level"])
        assert B.tree_of(ex.factors) == pytest.approx(1 + stats["nodes"])  # N = 1 + b0 (1 + b1 (1 + ...))
        nodes[rule] = stats["nodes"]
    assert len(set(nodes.values())) >= 4, nodes  # the rule is really used
    assert nodes["mrv"] <= nodes["site"] < nodes["piece"] < nodes["piece-order"], nodes


def test_piece_rules_need_every_piece_used_and_the_rule_needs_dlx():
    base, _ = polyomino_puzzle(4, 5, 4, seed=1)
    spare = base.__class__(base.grid_name, base.region[:16], base.pieces, base.mirror, "spare")
    with pytest.raises(UsageError, match="every piece used"):
        _count(spare, "piece")
    assert _count(spare, "site")[0] >= 0
    with pytest.raises(UsageError, match="engine dlx"):
        _count(base, "site", engine="bitset")
    with pytest.raises(UsageError, match="edge or polyform"):
        _count(catalog.load("queens-5"), "site")


def test_the_site_against_piece_verdicts():
    def ex(rule, nodes, finished=True, count=2):
        return B.Exhaust(rule, finished, nodes, count, 0.1, [])

    by = {
        "a": {"site": ex("site", 10), "piece": ex("piece", 100)},
        "b": {"site": ex("site", 100), "piece": ex("piece", 10)},
        "c": {"site": ex("site", 10), "piece": ex("piece", 50, finished=False)},
        "d": {"site": ex("site", 10, False), "piece": ex("piece", 50, False)},
        "e": {"site": ex("site", 10), "piece": ex("piece", 10, count=3)},
    }
    rows = {r["puzzle"]: r for r in B.site_vs_piece(by)}
    assert rows["a"]["site beats piece"] == "holds"
    assert rows["b"]["site beats piece"] == "fails"
    assert rows["c"]["site beats piece"] == "holds (piece at its limit)"
    assert rows["c"]["piece"] == ">= 50"
    assert rows["d"]["site beats piece"] == "neither finished"
    assert rows["e"]["counts agree"].startswith("NO")


def test_the_exchange_argument_sorted_factors_make_the_smallest_tree():
    f = [3.0, 1.0, 4.0, 1.5, 2.0]
    assert B.tree_of(sorted(f)) < B.tree_of(f) < B.tree_of(sorted(f, reverse=True))
    assert B.deferral(sorted(f)) == pytest.approx(1.0)
    assert B.deferral(sorted(f, reverse=True)) == pytest.approx(-1.0)
    # the rule of most deferral has the smallest tree here: counted as a hit
    by = {
        "p": {"mrv": B.Exhaust("mrv", True, 10, 1, 0, [1, 2, 6]), "site": B.Exhaust("site", True, 20, 1, 0, [4, 8, 12])}
    }
    v = B.exchange_verdict(by)
    assert v["puzzles"] == 1 and v["most deferred is smallest"] == 1
