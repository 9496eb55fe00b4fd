"""Selby's piece-tilability model (seed 000), fitted from excess-piece exhausts.

Each piece i gets a log-weight l_i; a set X of k pieces tiles a region of
size k with probability exp(m + sum_{i in X} l_i), m a per-size constant
(the weights are centred: only their differences matter for a fixed k).
A *state* is a region of k pieces' area with n > k pieces on offer; its
solutions (found by exhausting it) are the observations.  Treating them as
a Poisson process, the log-likelihood is

    L = sum_i a_i l_i + m * S - sum_states exp(m) e_k(p_B)

with a_i the number of solutions that use piece i, S the number of
solutions, and e_k(p_B) the k-th elementary symmetric polynomial of the
weights p_i = exp(l_i) of the state's pieces B -- the A_k term of seed 000,
the expected number of solutions of the state, computed exactly by the
usual O(n k) recursion.  Its gradient needs e_{k-1} of B without i, for
each i, by the same recursion.  A small ridge penalty keeps a piece that
never appears finite.

Sampling states: the region a random partial tiling of the puzzle's board
leaves when k pieces' area is left (bounded by pieces and the board's
edge, as in a real search), and k + excess pieces drawn at random from the
puzzle's set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from .polyform import PolyformPuzzle, PolyPiece


@dataclass
class State:
    """One exhausted state: its pieces (indices into the puzzle's), size k, and solution piece sets."""

    pieces: list[int]
    k: int
    solutions: dict[tuple[int, ...], int] = field(default_factory=dict)  # piece set -> tilings


def sample_region(p: PolyformPuzzle, k: int, rng: random.Random, xcc=None, node_cap: int = 400,
                  attempts: int = 30, prefix=None) -> list:
    """The free part of the board after a random partial tiling leaves ``k`` pieces' area.

    A randomised most-constrained-cell search (each piece once, options in
    random order, backtracking when a cell has no fitting piece) places
    pieces until ``k`` pieces' area is left -- the kind of region a real
    search leaves (Selby's states came from real runs).  Each attempt gives up
    after ``node_cap`` nodes; RuntimeError after ``attempts`` attempts.
    Vectorised over the puzzle's XCC arrays (pass ``xcc`` to build them once
    for many samples).  ``prefix(xcc, depth, seed)``, a native randomised
    search returning the options of a partial solution (the runner passes
    ``baseline.backtrack.random_prefix``), replaces this slow search."""
    area = len(p.pieces[0].cells)
    cells = sorted(map(tuple, p.region))
    n_cells = len(cells)  # the XCC lists the region's cells first, sorted, then the pieces
    target = k * area
    if target > n_cells:
        raise ValueError(f"region size {k} is more than the board holds")
    xcc = xcc if xcc is not None else p.to_xcc()
    ptr, items = xcc.opt_ptr.astype(np.int64), xcc.opt_items.astype(np.int64)
    owner = np.repeat(np.arange(xcc.n_options), np.diff(ptr))
    by_item = np.argsort(items, kind="stable")  # entries grouped by item: the options covering each cell
    item_ptr = np.concatenate([[0], np.cumsum(np.bincount(items, minlength=xcc.n_items))])
    nodes = 0

    def dfs(cov: np.ndarray, free: int):
        nonlocal nodes
        nodes += 1
        if free <= target or nodes > node_cap:
            return cov if free == target else None
        valid = ~np.logical_or.reduceat(cov[items], ptr[:-1])
        counts = np.bincount(items[valid[owner]], minlength=xcc.n_items)[:n_cells].astype(float)
        counts[cov[:n_cells]] = np.inf
        site = int(np.argmin(counts))
        at_site = owner[by_item[item_ptr[site]:item_ptr[site + 1]]]
        opts = at_site[valid[at_site]].tolist()
        rng.shuffle(opts)
        for o in opts:
            nxt = cov.copy()
            nxt[items[ptr[o]:ptr[o + 1]]] = True
            got = dfs(nxt, free - area)
            if got is not None:
                return got
        return None

    for _ in range(attempts):
        nodes = 0
        if prefix is not None:  # a native search does the partial tiling (fast)
            chosen = prefix(xcc, (n_cells - target) // area, rng.randrange(1 << 30))
            got = None
            if chosen is not None:  # disjoint options of one area each: exactly k pieces' area is left
                got = np.zeros(xcc.n_items, bool)
                for o in chosen:
                    got[items[ptr[o]:ptr[o + 1]]] = True
        else:
            got = dfs(np.zeros(xcc.n_items, bool), n_cells)
        if got is not None:
            return [c for c, used in zip(cells, got[:n_cells]) if not used]
    raise RuntimeError("no random partial tiling leaves a region of that size; try another seed")


def sample_state(p: PolyformPuzzle, k: int, excess: int, rng: random.Random,
                 xcc=None, prefix=None) -> tuple[PolyformPuzzle, list[int]]:
    """An excess-piece state: a region of k pieces and k + excess of the puzzle's pieces."""
    n = k + excess
    if n > len(p.pieces):
        raise ValueError(f"region size {k} plus excess {excess} is more than the {len(p.pieces)} pieces")
    sizes = {len(pc.cells) for pc in p.pieces}
    if len(sizes) != 1:
        raise ValueError("the tilability model needs pieces of one size")
    chosen = sorted(rng.sample(range(len(p.pieces)), n))
    region = sample_region(p, k, rng, xcc, prefix=prefix)
    pieces = [PolyPiece(p.pieces[i].name, p.pieces[i].cells) for i in chosen]
    return PolyformPuzzle(p.grid_name, region, pieces, p.mirror, name=f"{p.name}-k{k}+{excess}"), chosen


# ------------------------------------------------------------------ the model
def esp(w: np.ndarray, k: int) -> np.ndarray:
    """Elementary symmetric polynomials e_0..e_k of the values w."""
    e = np.zeros(k + 1)
    e[0] = 1.0
    for x in w:
        e[1:] = e[1:] + x * e[:-1]
    return e


def esp_without(w: np.ndarray, k: int) -> np.ndarray:
    """e_{k-1} of w without element i, for every i (the gradient's term)."""
    e = esp(w, k)
    out = np.zeros(len(w))
    for i, x in enumerate(w):
        f = np.zeros(k + 1)  # e_j(w without i) = e_j(w) - x e_{j-1}(w without i)
        f[0] = 1.0
        for j in range(1, k + 1):
            f[j] = e[j] - x * f[j - 1]
        out[i] = f[k - 1]
    return out


def _data(states: list[State], n_pieces: int):
    a = np.zeros(n_pieces)
    total = 0
    for s in states:
        for X, mult in s.solutions.items():
            total += mult
            for i in X:
                a[i] += mult
    return a, total


def log_likelihood(states: list[State], l: np.ndarray, m: float) -> float:
    """The Poisson log-likelihood of the states' solutions under weights l and constant m."""
    p = np.exp(l)
    a, total = _data(states, len(l))
    expected = sum(np.exp(m) * esp(p[s.pieces], s.k)[s.k] for s in states)
    return float(a @ l + m * total - expected)


@dataclass
class Fit:
    weights: np.ndarray   # l_i, centred
    m: float
    log_likelihood: float
    solutions: int


def fit(states: list[State], n_pieces: int, ridge: float = 0.5) -> Fit:
    """Maximum likelihood weights (with a small ridge), by L-BFGS with the exact gradient."""
    from scipy.optimize import minimize

    a, total = _data(states, n_pieces)

    def f(theta):
        l, m = theta[:-1], theta[-1]
        p = np.exp(l)
        val = a @ l + m * total - ridge * (l @ l)
        grad = a - 2 * ridge * l
        gm = float(total)
        for s in states:
            idx = np.asarray(s.pieces)
            w = p[idx]
            ek = esp(w, s.k)[s.k]
            em = np.exp(m)
            val -= em * ek
            gm -= em * ek
            grad[idx] -= em * w * esp_without(w, s.k)
        return -val, -np.concatenate([grad, [gm]])

    # start m where uniform weights predict the observed number of solutions
    e0 = sum(esp(np.ones(len(s.pieces)), s.k)[s.k] for s in states)
    m0 = float(np.log(max(total, 0.5) / e0)) if e0 > 0 else 0.0
    x0 = np.concatenate([np.zeros(n_pieces), [m0]])
    res = minimize(f, x0, jac=True, method="L-BFGS-B")
    l, m = res.x[:-1], res.x[-1]
    shift = l.mean()  # only differences matter at a fixed size: centre, and move the mean into m
    ks = {s.k for s in states}
    k = ks.pop() if len(ks) == 1 else 0
    l = l - shift
    m = m + k * shift
    return Fit(l, float(m), log_likelihood(states, l, m), total)


def uniform_fit(states: list[State], n_pieces: int) -> Fit:
    """All weights equal, m fitted: the baseline a fitted model must beat."""
    a, total = _data(states, n_pieces)
    e0 = sum(esp(np.ones(len(s.pieces)), s.k)[s.k] for s in states)
    m = float(np.log(max(total, 0.5) / e0)) if e0 > 0 else 0.0
    l = np.zeros(n_pieces)
    return Fit(l, m, log_likelihood(states, l, m), total)


def rank_correlation(x: np.ndarray, y: np.ndarray) -> float:
    from scipy.stats import spearmanr

    r = spearmanr(x, y).statistic
    return float(r) if np.isfinite(r) else 0.0
