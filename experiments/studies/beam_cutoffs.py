"""Seed 000's instability claim, on generated boards: a depth-first search that keeps at each level only the
children whose score passes a fixed cutoff does far worse than a new beam search at the same cost.

The cutoffs are as favourable as a depth-first search can be given: the worst score the beam itself kept at
each level of the same board (the beam's level statistics, ``worst``). The search expands the best child
first, with the beam's own expansion and score (``BeamRun``: same candidates, same pairing score), and the
beam's exhaustive end game below its last scored level. It may spend what the beam spent, in nodes (children
made), and solves the board or not within that. Selby's argument: the number of states that pass a fixed
cutoff at level k is a product of k random factors, so it swings by orders of magnitude from board to board
and level to level, where a beam holds it at its width: the search either starves (nothing passes) or
drowns (the budget goes to one level's flood)."""

from __future__ import annotations

import statistics

import numpy as np

from experiments.studies.beam_theory import _wilson


def _beam(puzzle, width: int, time_s: float):
    """One beam run (mode first, seed 0): solved, the nodes it spent, each level's worst kept score."""
    import solving

    res, verified = solving.solve_verified(
        solving.get("beam", {"width": width}), puzzle, "first", solving.Limits(time_s=time_s)
    )
    worst = {lv["level"]: lv["worst"] for lv in res.stats.get("levels", [])}
    return bool(verified), int(res.measured.nodes or 0), worst


def cutoff_dfs(puzzle, width: int, cutoffs: dict[int, float], budget: int) -> tuple[bool, int, int]:
    """Depth first, best child first, a child at level k kept only if its score is at least ``cutoffs[k]``
    (no cutoff below the last scored level: the end game). Returns (solved, nodes made, deepest level)."""
    import solving
    from baseline.beam.frontier import Frontier
    from baseline.beam.run import BeamRun

    opts = solving.get("beam", {"width": width}).opts.as_dict()
    run = BeamRun(puzzle, opts, best=False)
    n, nodes, deepest = run.n, 0, 0
    stack = [(0, run.root())]
    while stack:
        k, state = stack.pop()
        deepest = max(deepest, k)
        if k == n:
            return True, nodes, deepest
        parts = run._children_of(k, state, 1, False)
        parent, cand, mis, score = (np.concatenate([p[i] for p in parts]) for i in range(4))
        nodes += len(score)
        if nodes > budget:
            return False, nodes, deepest
        cut = cutoffs.get(k + 1)
        keep = np.flatnonzero(score >= cut) if cut is not None else np.arange(len(score))
        if not len(keep):
            continue
        keep = keep[np.argsort(score[keep], kind="stable")]  # worst first: the best is popped first
        children = Frontier(*run._materialise(k, state, parent[keep], cand[keep], mis[keep]), score[keep])
        for i in range(len(keep)):
            stack.append((k + 1, Frontier(*(a[i : i + 1] for a in children))))
    return False, nodes, deepest


def cutoff_runs(rows: int, cols: int, frame: int, inner: int, widths: list[int], boards: int, time_s: float = 60.0):
    """A row a (board, width): the beam's run, then the cutoff search given the beam's cutoffs and its nodes."""
    from puzzles.make.generate import edge_puzzle

    out = []
    for b in range(boards):
        puzzle, _ = edge_puzzle(rows, cols, frame, inner, seed=b)
        for w in widths:
            solved, spent, worst = _beam(puzzle, w, time_s)
            dfs, nodes, deepest = cutoff_dfs(puzzle, w, worst, max(spent, 1))
            out.append({
                "width": w, "board": b, "beam solved": solved, "beam nodes": spent, "levels scored": len(worst),
                "dfs solved": dfs, "dfs nodes": nodes, "dfs deepest": deepest, "cells": rows * cols,
            })  # fmt: skip
    return out


def cutoff_table(runs: list[dict]) -> list[dict]:
    """A row a width: boards the beam solved and boards the cutoff search solved at the beam's cost."""
    rows = []
    for w in sorted({r["width"] for r in runs}):
        mine = [r for r in runs if r["width"] == w]
        beam, dfs = sum(r["beam solved"] for r in mine), sum(r["dfs solved"] for r in mine)
        (blo, bhi), (dlo, dhi) = _wilson(beam, len(mine)), _wilson(dfs, len(mine))
        rows.append({
            "width": w,
            "beam solves": f"{beam}/{len(mine)} ({blo:.2f}-{bhi:.2f})",
            "cutoff DFS solves, same nodes": f"{dfs}/{len(mine)} ({dlo:.2f}-{dhi:.2f})",
            "beam nodes (median)": f"{statistics.median(r['beam nodes'] for r in mine):,.0f}",
            "DFS deepest level (median)": f"{statistics.median(r['dfs deepest'] for r in mine):g} of {mine[0]['cells']}",
        })  # fmt: skip
    return rows
