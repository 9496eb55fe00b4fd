"""How many solutions a polyform puzzle has, by random probes that end in exhausts.

Knuth's probe (``estimate``) weighs a random path from the root by the branching it meets; the mean
over probes is unbiased, but near the critical size it is heavy-tailed: the solutions sit in rare
deep branches that few probes reach, and a few hundred probes miss by a factor of ten (pentominoes
in a 6x10 box: 623 +- 396 against the exact 9,356).  Here a probe descends the same way, but at
every node it first tries to exhaust the node's subtree within ``budget`` placements; when the
exhaust finishes, the subtree's exact count (weighted by the path) ends the probe.  Only the top of
the tree is sampled, where the branching is wide and even; the deep, thin part where the variance
lives is counted.  Whether a subtree's exhaust finishes depends on the subtree alone, so the
estimate stays unbiased (by induction from the leaves: each node's value has the node's count as
its mean), and its standard error comes from the spread of independent probes.

The descent uses the engine's own site choice and one-level lookahead (``estimate._children``), so
the nodes are those of ``backtrack --opt engine=poly``; a puzzle whose whole exhaust fits the budget
is counted exactly by the first probe, with a standard error of zero.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from baseline.poly import engine as poly
from baseline.poly.estimate import _children
from baseline.runtime.kernel import DONE

DEFAULT_BUDGET = 20_000  # placements an exhaust may take before the probe branches instead (about 1 ms)
EXACT_BUDGET = 2_000_000  # placements the whole exhaust may take before the probes start (about a second)


@njit(cache=True)
def _first_free(board, scan):
    """The first site of the scan order that the board leaves free (the engine's own start)."""
    p = 0
    while p < scan.shape[0] and poly._bit(board, scan[p]):
        p += 1
    return p


def _probe(
    search, start: np.ndarray, budget: int, rng: random.Random, cur, viable, levels, deadline: float | None = None
) -> tuple[float, float, int] | None:
    """One probe from ``start``: (its weighted solutions, its weighted nodes, the level its exhaust started at,
    -1 when it ended without one); adds its weighted nodes per level to ``levels``.  None when ``deadline`` (on
    ``time.perf_counter``) passed on the way: the probe is dropped whole (a probe cut short would bias the
    mean), and ``levels`` is left as it was."""
    a = search.a
    area = a.area if search.pockets else 0
    board = start.copy()
    mine = np.zeros_like(levels)
    out = _walk(search, board, budget, rng, cur, viable, mine, area, a, deadline)
    if out is not None:
        levels += mine
    return out


def _walk(search, board, budget, rng, cur, viable, levels, area, a, deadline):
    """The probe's path, level by level (``_probe``)."""
    w, sols, nodes, lv = 1.0, 0.0, 0.0, 0
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        search.restart(board)
        if search.step(budget, False) == DONE:  # the subtree fits the budget: its exact count
            sols += w * search.count
            nodes += w * search.nodes
            prof = search.prof
            top = min(len(levels) - lv, len(prof))
            levels[lv : lv + top] += w * prof[:top]
            return sols, nodes, lv
        search.wit[:] = -1
        p = _first_free(board, a.scan)
        d, v, n_sol = _children(p, board, a, search.sites, search.wit, search.later, area, search.stamp,
                                search.stack, search.scratch, search.best_buf, cur, viable)  # fmt: skip
        if d < 0:  # every site covered (only a start state can be so)
            return sols + (w if poly._covered(board, a.prim) else 0.0), nodes, -1
        nodes += w * d
        if lv < len(levels):
            levels[lv] += w * d
        sols += w * n_sol
        if v == 0:
            return sols, nodes, -1
        o = int(viable[rng.randrange(v)])
        poly._place(o, board, a.ow_ptr, a.ow_idx, a.ow_mask, a.tag, True)
        w *= v
        lv += 1


EXACT_SLICE = 20_000  # placements between two looks at the clock in the exact attempt


def estimate_count(
    search,
    probes: int = 1000,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    board: np.ndarray | None = None,
    time_s: float | None = None,
    progress: Callable[..., None] | None = None,
    exact_budget: int = EXACT_BUDGET,
) -> dict[str, Any]:
    """The solution count of ``search``'s puzzle (a ``PolySearch``) from the empty region or from ``board``,
    by probes that end in exhausts (module docstring).

    Args:
        search: the poly engine's search of the puzzle.
        probes: how many probes at most.
        seed: the probes' random seed.
        budget: placements an exhaust may take before a probe branches instead of counting.
        board: a start state (the engine's item bitset); None: the empty region.
        time_s: stop after this many seconds (at least one probe).
        progress: called now and then with the probes so far and the running estimate.
        exact_budget: placements the whole exhaust may take first; when it finishes, the count is exact.

    Returns:
        ``solutions`` (the mean) and ``solutions_stderr``, ``nodes`` and ``nodes_stderr`` (the engine's
        tree), ``exact`` (True when the whole exhaust fitted the budget), the probes, the seconds, and
        ``log10_nodes_per_level``.
    """
    a = search.a
    start = (board if board is not None else np.zeros(a.n_words, np.uint64)).astype(np.uint64)
    depth = len(search.prof) + 1
    levels = np.zeros(depth, np.float64)
    cur = np.zeros(max(1, a.max_col), np.int64)
    viable = np.zeros(max(1, a.max_col), np.int64)
    rng = random.Random(seed)
    sols: list[float] = []
    nodes: list[float] = []
    t0 = time.perf_counter()
    last = t0
    exact = False
    if exact_budget > budget:  # the whole tree first, when it is small enough to count
        search.restart(start)
        code, spent = None, 0
        while code != DONE and spent < exact_budget:  # in slices: the time limit holds here too
            step = min(EXACT_SLICE, exact_budget - spent)
            code = search.step(step, False)
            spent += step
            if time_s is not None and time.perf_counter() - t0 >= time_s:
                break
        if code == DONE:
            sols, nodes, exact = [float(search.count)], [float(search.nodes)], True
            top = min(len(levels), len(search.prof))
            levels[:top] += search.prof[:top]
    deadline = None if time_s is None else t0 + time_s
    while len(sols) < probes and not exact:
        got = _probe(search, start, budget, rng, cur, viable, levels, deadline if sols else None)
        if got is None:  # the time limit, in a probe after the first: dropped whole
            break
        s, n, at = got
        sols.append(s)
        nodes.append(n)
        if at == 0:
            exact = True  # the root's own exhaust finished: the count is exact, one probe says all
            break
        now = time.perf_counter()
        if progress is not None and now - last > 1.0:
            last = now
            progress(probes=len(sols), solutions=round(float(np.mean(sols)), 3), seconds=round(now - t0, 1))
        if time_s is not None and now - t0 >= time_s:
            break
    search.restart(start)
    s_a, n_a = np.array(sols), np.array(nodes)
    k = len(s_a)
    se = float(s_a.std(ddof=1) / math.sqrt(k)) if k > 1 else (0.0 if exact else None)
    nse = float(n_a.std(ddof=1) / math.sqrt(k)) if k > 1 else (0.0 if exact else None)
    per_level = levels / k
    top = int(np.nonzero(per_level)[0].max()) + 1 if per_level.any() else 0
    return {
        "solutions": float(s_a.mean()),
        "solutions_stderr": se,
        "nodes": float(n_a.mean()),
        "nodes_stderr": nse,
        "exact": exact,
        "probes": k,
        "budget": budget,
        "seconds": round(time.perf_counter() - t0, 3),
        "log10_nodes_per_level": [round(math.log10(v), 3) if v > 0 else None for v in per_level[:top]],
    }


def selby_t(solutions: float, n_pieces: int) -> float | None:
    """Selby's t in S = N! t^N: the typical number of ways one piece tiles a site, from a count S of an
    N-piece puzzle (seed 000 puts it near 0.03 for Eternity's pieces).  None when S is not positive."""
    if solutions <= 0 or n_pieces < 1:
        return None
    return math.exp((math.log(solutions) - math.lgamma(n_pieces + 1)) / n_pieces)


def branching(log10_nodes_per_level: list[float | None]) -> list[float | None]:
    """b_i, the tree's branching from level i to level i + 1 (Selby's per-step model), from the nodes
    per level: the product of the b_i up to a level is its node count over the first level's."""
    out: list[float | None] = []
    for x, y in zip(log10_nodes_per_level, log10_nodes_per_level[1:]):
        out.append(None if x is None or y is None else round(10 ** (y - x), 4))
    return out
