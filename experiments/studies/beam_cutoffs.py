"""Seed 000's instability claim, on generated boards: a depth-first search that keeps at each level only the
children whose score passes a fixed cutoff does far worse than a new beam search at the same cost.

The search expands the best child first, with the beam's own expansion and score (``BeamRun``: same
candidates, same pairing score), and searches the beam's end game (its last levels, which it exhausts) without
a cutoff. It may spend what the beam spent, in nodes (children made). Two sets of cutoffs, each the worst
score the beam kept at each level: the same board's (as favourable as cutoffs can be: on a board the beam
solves, its solution's ancestors pass them) and the next board's of the family (fixed in advance, as a
search with cutoffs has them). Selby's argument: how many states pass a fixed cutoff at level k is a product
of k random factors, so it swings by orders of magnitude from board to board and level to level, where a
beam holds it at its width: the search either starves (nothing passes) or drowns (the budget goes to one
level's flood)."""

from __future__ import annotations

import statistics

import numpy as np

from experiments.studies.beam_theory import share

TIE = 1e-7  # above the beam's tie-break draw (1e-9 a child), far below a score's steps


def _beam(puzzle, width: int, time_s: float):
    """One beam run (mode first, seed 0): solved, the nodes it spent, each level's worst kept score."""
    import solving

    res, verified = solving.solve_verified(
        solving.get("beam", {"width": width}), puzzle, "first", solving.Limits(time_s=time_s)
    )
    levels = res.stats.get("levels", [])
    worst = {lv["level"]: lv["worst"] for lv in levels}
    first = next((lv["best"] for lv in levels if lv["level"] == 1), 0.0)
    return bool(verified), int(res.measured.nodes or 0), worst, first


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
        # the beam draws its ties apart by less than 1e-9: its worst kept score sits that much above the state's own
        keep = np.flatnonzero(score >= cut - TIE) if cut is not None else np.arange(len(score))
        if not len(keep):
            continue
        keep = keep[np.argsort(score[keep], kind="stable")]  # worst first: the best is popped first
        new = run._materialise(k, state, parent[keep], cand[keep], mis[keep])  # the six state arrays
        children = Frontier(*new, score[keep])  # type: ignore[call-arg]
        for i in range(len(keep)):
            stack.append((k + 1, Frontier(*(a[i : i + 1] for a in children))))
    return False, nodes, deepest


def cutoff_runs(rows: int, cols: int, frame: int, inner: int, widths: list[int], boards: int, time_s: float = 60.0):
    """A row a (board, width): the beam's run, then the cutoff search given the beam's nodes twice: with the
    cutoffs the beam met on this board (``own``: as favourable as can be, since a board the beam solves has its
    solution's ancestors above them) and with those it met on the next board of the family (``learnt``: fixed
    in advance, as a search with cutoffs would have them), moved by the difference of the two boards' best
    first-level scores, as a board's scores sit on its own scale (its colour counts)."""
    from puzzles.make.generate import edge_puzzle

    puzzles = [edge_puzzle(rows, cols, frame, inner, seed=b)[0] for b in range(boards + 1)]
    beams = {(b, w): _beam(puzzles[b], w, time_s) for b in range(boards + 1) for w in widths}
    out = []
    for b in range(boards):
        for w in widths:
            solved, spent, worst, first = beams[(b, w)]
            own = cutoff_dfs(puzzles[b], w, worst, max(spent, 1))
            _, _, other, other_first = beams[(b + 1, w)]
            shift = first - other_first  # scores are on each board's own scale: the next board's, moved onto this
            learnt = cutoff_dfs(puzzles[b], w, {k: c + shift for k, c in other.items()}, max(spent, 1))
            out.append({
                "width": w, "board": b, "beam solved": solved, "beam nodes": spent, "levels scored": len(worst),
                "own solved": own[0], "own nodes": own[1], "own deepest": own[2],
                "learnt solved": learnt[0], "learnt nodes": learnt[1], "learnt deepest": learnt[2],
                "cells": rows * cols,
            })  # fmt: skip
    return out


def cutoff_table(runs: list[dict]) -> list[dict]:
    """A row a width: boards the beam solved, and boards the cutoff search solved at the beam's cost with the
    board's own cutoffs and with the next board's."""

    rows = []
    for w in sorted({r["width"] for r in runs}):
        mine = [r for r in runs if r["width"] == w]
        n = len(mine)
        rows.append({
            "width": w,
            "beam solves": share(sum(r["beam solved"] for r in mine), n),
            "DFS, the board's own cutoffs": share(sum(r["own solved"] for r in mine), n),
            "DFS, the next board's cutoffs": share(sum(r["learnt solved"] for r in mine), n),
            "beam nodes (median)": f"{statistics.median(r['beam nodes'] for r in mine):,.0f}",
            "deepest level, own / next (median)": f"{statistics.median(r['own deepest'] for r in mine):g} / "
            f"{statistics.median(r['learnt deepest'] for r in mine):g} of {mine[0]['cells']}",
        })  # fmt: skip
    return rows
