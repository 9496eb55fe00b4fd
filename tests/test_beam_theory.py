"""Seed 000's idealised tree: one tree a seed whatever the search, the beam's limits (width beyond the
tree: the exhaustive best), the crossover and the instability claims, and the width study's shape."""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest

from experiments.studies import beam_theory as T


def _best_by_exhaust(tree: T.Tree, seed: int) -> float:
    keys, scores = np.array([seed], np.uint64), np.zeros(1)
    for d in range(tree.depth):
        kid, z = T.children(keys, tree.branching(d))
        keys, scores = kid.ravel(), (scores[:, None] + z).ravel()
    return float(scores.max())


def test_a_node_has_one_subtree_whoever_reaches_it():
    keys = np.array([5, 9, 5], np.uint64)
    kid, z = T.children(keys, 3)
    assert (kid[0] == kid[2]).all() and (z[0] == z[2]).all() and not (z[0] == z[1]).all()
    _, many = T.children(np.arange(20_000, dtype=np.uint64), 5)
    assert abs(many.mean()) < 0.02 and abs(many.std() - 1) < 0.02  # standard normal increments


def test_a_beam_wider_than_the_tree_finds_the_exhaustive_best_and_so_does_an_uncut_dfs():
    tree = T.Tree(depth=6, b0=4, b_end=2)
    for seed in range(5):
        best = _best_by_exhaust(tree, seed)
        assert T.beam(tree, 10_000, seed)[0] == pytest.approx(best)
        assert T.cutoff_dfs(tree, np.full(tree.depth, -np.inf), 10**9, seed) == pytest.approx(best)
        assert T.beam(tree, 1, seed)[0] <= best


def test_shared_runs_cover_the_level_they_deal_out():
    tree = T.Tree(depth=5, b0=3, b_end=3)
    # four runs of unlimited width dealt the tree: together they see every leaf, so the best of them is the best
    runs = [T.beam(tree, 10_000, 7, part, 4)[0] for part in range(4)]
    assert max(runs) == pytest.approx(_best_by_exhaust(tree, 7))


def test_the_beam_beats_narrow_shared_runs_and_a_dfs_on_old_cutoffs():
    r = T.trial(T.Tree(depth=20, b0=6, b_end=2), 40, 60, splits=(8,))
    rows = {row["policy"].split(",")[0]: row for row in r["rows"]}
    success = {k: int(v["success"].split("/")[0]) for k, v in rows.items()}
    beam, split, dfs = success["beam"], success["8 beams of width 5"], success["DFS with tree 0's beam cutoffs"]
    assert split < beam and dfs < beam, success


def test_the_width_study_rows(tmp_path):
    runs = T.width_runs(3, 3, 2, 2, [1, 8], 2, budget=500)
    assert {r["width"] for r in runs} == {1, 8} and len(runs) == 4
    for r in runs:
        assert r["runs"] >= 1 and (r["solved"] or r["nodes"] >= 500)
    rows = T.at_budget(runs, 500)
    assert [row["width"] for row in rows] == [1, 8]
    assert T.wilson(0, 10)[0] == 0 and T.wilson(10, 10)[1] == 1
    assert statistics.mean(T.wilson(5, 10)) == pytest.approx(0.5)


def test_tree_branching_falls_from_b0_to_b_end():
    tree = T.Tree(depth=10, b0=8, b_end=2)
    bs = [tree.branching(d) for d in range(tree.depth)]
    assert bs[0] == 8 and bs[-1] == 2 and all(a >= b for a, b in itertools.pairwise(bs))


def test_the_beams_diversity_counts_lineages_piece_sets_and_shared_placements():
    from baseline.beam.frontier import Frontier, diversity

    cands = np.array([[1, 2, 3, 4], [1, 2, 5, 6], [7, 8, 5, 6], [1, 2, 3, 4]])
    used = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0]], bool)
    z = np.zeros(4)
    d = diversity(Frontier(cands, used, z, z, z.astype(np.int64), z.astype(np.uint64), z), 4)
    assert d["piece_sets"] == 3 and d["lineages_half"] == 2
    assert 0 < d["shared"] < 1


def test_the_diversity_study_reads_the_beams_levels():
    runs = T.diversity_runs(4, 4, 2, 3, [4, 64], 1)
    assert {r["width"] for r in runs} == {4, 64}
    for r in runs:
        assert 1 <= r["lineages_half"] <= r["kept"] <= r["width"] and r["piece_sets"] <= r["kept"]
    assert [row["width"] for row in T.diversity_table(runs)] == [4, 64]


def test_the_width_plot_is_drawn(tmp_path):
    runs = T.width_runs(3, 3, 2, 2, [1, 8], 2, budget=500)
    out = tmp_path / "w.png"
    T.plot_width(runs, 500, "3x3", str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_cutoff_search_is_complete_without_cutoffs_and_starves_on_impossible_ones():
    from experiments.studies import beam_cutoffs as C
    from puzzles.make.generate import edge_puzzle

    puzzle, _ = edge_puzzle(4, 4, 2, 3, seed=1)
    solved, nodes, deepest = C.cutoff_dfs(puzzle, 8, {}, 10**7)  # no cutoff: a plain depth-first search
    assert solved and deepest == 16 and nodes > 0
    solved, nodes, deepest = C.cutoff_dfs(puzzle, 8, {k: float("inf") for k in range(1, 17)}, 10**7)
    assert not solved and deepest == 0 and nodes > 0  # every child of the root cut: nothing deeper


def test_the_cutoff_study_rows_and_command(capsys):
    import json

    from eternity.cli import main

    argv = ["selby", "beam-cutoffs", "--rows", "4", "--cols", "4", "--frame-colors", "2", "--inner-colors", "3"]
    assert main([*argv, "--seeds", "2", "--widths", "4,16", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["runs"]) == 4 and [r["width"] for r in out["table"]] == [4, 16]
    for r in out["runs"]:  # a search that solves did so within the beam's nodes
        for cut in ("own", "learnt"):
            assert not r[f"{cut} solved"] or r[f"{cut} nodes"] <= max(r["beam nodes"], 1)
        assert r["levels scored"] > 0 and r["cells"] == 16
