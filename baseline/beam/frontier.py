"""The beam's frontier: one row a state, the helpers that pick and gather rows of a level, and how
a pass over the levels ends.

State arrays (one row a state): ``cands[i, d]`` the candidate placed at depth d (an index into
the candidates of ``baseline.edge.tables``), ``used[i, q]``, ``rem[i, c]`` colour-c edges left on
unused pieces, ``need[i, c]`` open colour-c edges on the board, ``mis[i]`` mismatched joins.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np
from numba import njit


@njit(cache=True)
def _per_parent(ranked, parent, cap, width, n_parents):
    """The first `width` of `ranked`, each parent's first `cap` children before any parent's next
    one; the rest fill what is left of the width in rank order (a strict cap kept one state a
    level from a single root)."""
    cnt = np.zeros(n_parents, np.int64)
    out = np.empty(min(width, ranked.shape[0]), np.int64)
    taken = np.zeros(ranked.shape[0], np.bool_)
    m = 0
    for t in range(ranked.shape[0]):
        if m == out.shape[0]:
            break
        i = ranked[t]
        if cnt[parent[i]] < cap:
            cnt[parent[i]] += 1
            out[m] = i
            taken[t] = True
            m += 1
    for t in range(ranked.shape[0]):
        if m == out.shape[0]:
            break
        if not taken[t]:
            out[m] = ranked[t]
            m += 1
    return out[:m]


def _take(parts, x, idx):
    """Array x of the children at indices idx of the parts laid end to end (``BeamRun._children_of``)."""
    if len(parts) == 1:
        return parts[0][x][idx]
    starts = np.cumsum([0] + [len(p[x]) for p in parts])
    which = np.searchsorted(starts, idx, side="right") - 1
    out = np.empty(len(idx), parts[0][x].dtype)
    for j, p in enumerate(parts):
        sel = which == j
        out[sel] = p[x][idx[sel] - starts[j]]
    return out


class Frontier(NamedTuple):
    """The beam's states, one row each (module docstring: State arrays)."""

    cands: np.ndarray  # [i, d] the candidate placed at depth d
    used: np.ndarray  # [i, q] piece q is placed
    rem: np.ndarray  # [i, pool * n_col + c] colour-c edges left on unused pieces, per pool
    need: np.ndarray  # [i, pool * n_col + c] open colour-c edges on the board, per pool
    mis: np.ndarray  # [i] mismatched joins
    hash: np.ndarray  # [i] Zobrist hash of the placed pieces and the open edges
    score: np.ndarray  # [i] the state's score (higher is better)


class PassEnd(enum.StrEnum):
    """How a beam pass (``BeamRun._pass``, ``_one_run``) ended."""

    SOLUTION = "solution"  # a solution (mode first)
    BOARD = "board"  # a full board with mismatches (mode best)
    PERFECT = "perfect"  # a full board without one (mode best): nothing left to improve
    DEAD = "dead"  # every state died
    LIMIT = "limit"  # the deadline


def diversity(states: Frontier, k: int, pairs: int = 2000) -> dict:
    """How alike a level's states are (option ``diversity``): distinct piece sets, distinct ancestors at
    depth k // 2 (the lineages the beam still holds), and the mean share of the k placements that two
    random states have in common (the same candidate at the same depth)."""
    w = len(states.cands)
    if w == 0 or k == 0:
        return {"piece_sets": 0, "lineages_half": 0, "shared": 0.0}
    sets = len(np.unique(np.packbits(states.used, axis=1), axis=0))
    half = max(1, k // 2)
    lineages = len(np.unique(states.cands[:, :half], axis=0))
    rng = np.random.default_rng(k)
    a, b = rng.integers(0, w, pairs), rng.integers(0, w, pairs)
    keep = a != b
    shared = float((states.cands[a[keep], :k] == states.cands[b[keep], :k]).mean()) if keep.any() else 1.0
    return {"piece_sets": int(sets), "lineages_half": int(lineages), "shared": round(shared, 4)}
