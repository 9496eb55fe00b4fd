"""Selby's piece-tilability model ([Selby2001]; docs/references.md), fitted from excess-piece exhausts.

Each piece i gets a log-weight l_i; a set X of k pieces tiles a region of
size k with probability exp(m + sum_{i in X} l_i), m a per-size constant
(the weights are centred: only their differences matter for a fixed k).
A *state* is a region of k pieces' area with n > k pieces on offer; its
solutions (found by exhausting it) are the observations.  Treating them as
a Poisson process, the log-likelihood is

    L = sum_i a_i l_i + m * S - sum_states exp(m) e_k(p_B)

with a_i the number of solutions that use piece i, S the number of
solutions, and e_k(p_B) the k-th elementary symmetric polynomial of the
weights p_i = exp(l_i) of the state's pieces B -- the A_k term of [Selby2001],
the expected number of solutions of the state, computed exactly by the
usual O(n k) recursion.  Its gradient needs e_{k-1} of B without i, for
each i, by the same recursion.  A small ridge penalty keeps a piece that
never appears finite.

Sampling states (``regions``): by default the region a random partial
tiling of the puzzle's board leaves when k pieces' area is left (bounded
by placed pieces and the board's edge, as in a real search), with every
piece on offer (the excess is the rest of the set, as Selby offered 90 of
209): the tilings then come from all pieces, not from the few that cut the
region.  ``first`` and ``apart`` cut regions from a window at the board's
edge instead (any board size; see ``sample_state``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

from puzzles.errors import UsageError
from puzzles.estimates.tilability_design import offer_limit
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece
from puzzles.xcc import XCC


@dataclass
class State:
    """One exhausted state: its pieces (indices into the puzzle's), size k, and the
    likelihood's sufficient statistics: how many tilings the exhaust found and, for each
    piece, how many of them use it (piece sets themselves are not needed, and a state
    with all pieces on offer can have millions of tilings)."""

    pieces: list[int]
    k: int
    count: int = 0
    uses: dict[int, int] = field(default_factory=dict)  # piece -> tilings that use it

    @classmethod
    def from_sets(cls, pieces: list[int], k: int, sets: dict[tuple[int, ...], int]) -> State:
        """From {piece set: tilings}."""
        uses: dict[int, int] = {}
        for X, mult in sets.items():
            for i in X:
                uses[i] = uses.get(i, 0) + mult
        return cls(list(pieces), k, sum(sets.values()), uses)


def sample_region(
    p: PolyformPuzzle, k: int, rng: random.Random, xcc=None, node_cap: int = 400, attempts: int = 30, prefix=None
) -> list:
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
        raise UsageError(f"region size {k} is more than the board holds")
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
        at_site = owner[by_item[item_ptr[site] : item_ptr[site + 1]]]
        opts = at_site[valid[at_site]].tolist()
        rng.shuffle(opts)
        for o in opts:
            nxt = cov.copy()
            nxt[items[ptr[o] : ptr[o + 1]]] = True
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
                    got[items[ptr[o] : ptr[o + 1]]] = True
        else:
            got = dfs(np.zeros(xcc.n_items, bool), n_cells)
        if got is not None:
            return [c for c, used in zip(cells, got[:n_cells]) if not used]
    raise RuntimeError("no random partial tiling leaves a region of that size; try another seed")


def board_window(p: PolyformPuzzle, size: int, rng: random.Random) -> list:
    """Up to ``size`` cells of the board nearest (breadth first, in that order) to a random cell on its edge."""
    grid = p.grid
    board = set(map(tuple, p.region))
    rim = sorted(c for c in board if any(nb not in board for nb in grid.neighbours(c)))
    start = rim[rng.randrange(len(rim))]
    seen, order, frontier = {start}, [start], [start]
    while frontier and len(order) < size:
        nxt = []
        for c in frontier:
            for nb in grid.neighbours(c):
                if nb in board and nb not in seen:
                    seen.add(nb)
                    nxt.append(nb)
        rng.shuffle(nxt)
        order += nxt
        frontier = nxt
    return order[:size]


def sample_region_first(
    p: PolyformPuzzle, k: int, rng: random.Random, prefix, attempts: int = 30
) -> tuple[list, list[int]]:
    """The cells the first ``k`` pieces of a randomised search cover, from a random edge of the board.

    Around a random cell on the board's edge: the nearest 2k pieces' area of
    cells must be covered (primary items), the next 2k pieces' area may be
    (secondary), every piece of the puzzle is on offer, and a randomised most
    constrained search (``prefix``, as in ``sample_region``) places k pieces:
    their cells are the region.  Such regions vary from sample to sample and
    have the shapes a search leaves (the board's edge on one side, placed
    pieces' outlines elsewhere), on boards of any size: Eternity's full
    dodecagon needs no complete partial tiling, only a window of it.
    Returns the region and the indices of the k pieces that cut it."""
    area = len(p.pieces[0].cells)
    names = [pc.name for pc in p.pieces]
    for _ in range(attempts):
        cells = board_window(p, 4 * k * area, rng)
        xcc = _window_xcc(p, cells, min(2 * k * area, len(cells)), names)
        chosen = prefix(xcc, k, rng.randrange(1 << 30)) if xcc.n_options else None
        if chosen is not None:
            return sorted(c for o in chosen for c in xcc.decode[o].cells), [xcc.decode[o].piece for o in chosen]
    raise RuntimeError("no random partial tiling of k pieces from the board's edge; try another seed")


def _window_xcc(p: PolyformPuzzle, cells: list, n_must: int, names: list[str]) -> XCC:
    """Every piece's placements in ``cells``; the first ``n_must`` cells primary, the rest and the
    pieces secondary.  Integer items straight into the arrays (no item strings per placement:
    a window of Eternity's board has about 38,000 placements)."""
    sub = PolyformPuzzle(p.grid_name, cells, [PolyPiece(pc.name, pc.cells) for pc in p.pieces], p.mirror)
    index = {c: i for i, c in enumerate(cells)}
    table = sub.placements()  # its cell indices are into sorted(cells); the items follow ``cells``
    n_cells = len(cells)
    ptr, flat = table.xcc_rows(
        n_cells + table.piece.astype(np.int64), np.array([index[c] for c in table.cells], np.int64)
    )
    return XCC(
        item_names=[PolyformPuzzle.cell_item(c) for c in cells] + names,
        n_primary=n_must,
        opt_ptr=ptr.astype(np.int32),
        opt_items=flat.astype(np.int32),
        opt_colors=np.zeros(len(flat), np.int32),
        decode=table,
    )


def sample_state(
    p: PolyformPuzzle, k: int, excess: int, rng: random.Random, xcc=None, prefix=None, regions: str = "last"
) -> tuple[PolyformPuzzle, list[int]]:
    """An excess-piece state: a region of k pieces and k + excess of the puzzle's pieces.

    ``regions``: ``last``, the region a random partial tiling of the whole
    board leaves (``sample_region``); ``first``, the cells the first k
    pieces of such a tiling cover (``sample_region_first``); ``apart``, as
    ``first`` with the state's pieces drawn from the pieces that did not cut
    the region, so no state holds its region's own tiling by construction
    (``first`` states often do: the cutting pieces are the ones a search
    places first, which favours easily placed pieces)."""
    n = k + excess
    if n > offer_limit(len(p.pieces), k, regions):
        raise UsageError(
            f"region size {k} plus excess {excess} is more than the {len(p.pieces)} pieces"
            + (f" less the {k} that cut the region" if regions == "apart" else "")
        )
    sizes = {len(pc.cells) for pc in p.pieces}
    if len(sizes) != 1:
        raise UsageError("the tilability model needs pieces of one size")
    if regions in ("first", "apart"):
        if prefix is None:
            raise UsageError(f"regions={regions} needs a native prefix search")
        if regions == "apart":  # the cut first, then the state's pieces from the others
            region, cut = sample_region_first(p, k, rng, prefix)
            chosen = sorted(rng.sample(sorted(set(range(len(p.pieces))) - set(cut)), n))
        else:
            chosen = sorted(rng.sample(range(len(p.pieces)), n))
            region, _ = sample_region_first(p, k, rng, prefix)
    else:
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
    f = np.ones(len(w))  # e_j(w without i) = e_j(w) - w_i e_{j-1}(w without i), for all i at once
    for j in range(1, k):
        f = e[j] - w * f
    return f


def _data(states: list[State], n_pieces: int):
    a = np.zeros(n_pieces)
    for s in states:
        for i, mult in s.uses.items():
            a[i] += mult
    return a, sum(s.count for s in states)


def log_likelihood(states: list[State], l: np.ndarray, m: float, per_state: bool = False) -> float:
    """The Poisson log-likelihood of the states' solutions under weights l and constant m.

    ``per_state``: each state gets its own constant (Selby's region terms,
    maximised out), which leaves the conditional likelihood of *which* piece
    sets tile, given how many do: sum over solutions of
    log(prod p_X / e_k(p_B)).  Region shape then cannot masquerade as piece
    quality."""
    p = np.exp(l)
    a, total = _data(states, len(l))
    if per_state:
        return float(
            a @ l
            - sum(
                c * np.log(esp(p[list(B)], k)[k]) for (B, k), (_, c) in _groups([s for s in states if s.count]).items()
            )
        )
    expected = sum(n * np.exp(m) * esp(p[list(B)], k)[k] for (B, k), (n, _) in _groups(states).items())
    return float(a @ l + m * total - expected)


def _groups(states: list[State]) -> dict:
    """(pieces, k) -> (states, tilings): states offered the same pieces share their e_k, so the
    likelihood computes it once (with every piece on offer, once for all the states)."""
    out: dict = {}
    for s in states:
        key = (tuple(s.pieces), s.k)
        n, c = out.get(key, (0, 0))
        out[key] = (n + 1, c + s.count)
    return out


@dataclass
class Fit:
    """A fitted tilability model: the weights, their errors and the fit's statistics."""

    weights: np.ndarray  # l_i, centred
    m: float
    log_likelihood: float
    solutions: int


def fit(states: list[State], n_pieces: int, ridge: float = 0.5, per_state: bool = False) -> Fit:
    """Maximum likelihood weights (with a small ridge), by L-BFGS with the exact gradient.

    ``per_state``: region terms per state (see ``log_likelihood``); only
    states with solutions then carry information, and ``m`` is left at 0."""
    from scipy.optimize import minimize

    a, total = _data(states, n_pieces)
    groups = _groups([s for s in states if s.count] if per_state else states)

    def f(theta):
        l, m = theta[:-1], theta[-1]
        p = np.exp(l)
        val = a @ l + (0.0 if per_state else m * total) - ridge * (l @ l)
        grad = a - 2 * ridge * l
        gm = 0.0 if per_state else float(total)
        em = 1.0 if per_state else np.exp(m)
        for (pieces, k), (n_states, n_sol) in groups.items():
            idx = np.asarray(pieces)
            w = p[idx]
            ek = esp(w, k)[k]
            if per_state:  # - S log e_k
                val -= n_sol * np.log(ek)
                grad[idx] -= n_sol * w * esp_without(w, k) / ek
            else:
                val -= n_states * em * ek
                gm -= n_states * em * ek
                grad[idx] -= n_states * em * w * esp_without(w, k)
        return -val, -np.concatenate([grad, [gm]])

    x0 = np.concatenate([np.zeros(n_pieces), [_uniform_m(states, total, per_state)]])
    res = minimize(f, x0, jac=True, method="L-BFGS-B")
    l, m = res.x[:-1], res.x[-1]
    shift = l.mean()  # only differences matter at a fixed size: centre, and move the mean into m
    ks = {s.k for s in states}
    k = ks.pop() if len(ks) == 1 else 0
    l = l - shift
    m = 0.0 if per_state else m + k * shift
    return Fit(l, float(m), log_likelihood(states, l, m, per_state), total)


def _uniform_m(states: list[State], total: int, per_state: bool) -> float:
    """The constant with which uniform weights predict the observed number of solutions (0 with region terms)."""
    if per_state:
        return 0.0
    e0 = sum(esp(np.ones(len(s.pieces)), s.k)[s.k] for s in states)
    return float(np.log(max(total, 0.5) / e0)) if e0 > 0 else 0.0


def uniform_fit(states: list[State], n_pieces: int, per_state: bool = False) -> Fit:
    """All weights equal, m fitted: the baseline a fitted model must beat."""
    a, total = _data(states, n_pieces)
    m = _uniform_m(states, total, per_state)
    l = np.zeros(n_pieces)
    return Fit(l, m, log_likelihood(states, l, m, per_state), total)


def rank_correlation(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rank correlation of ``x`` and ``y``."""
    from scipy.stats import spearmanr

    r = spearmanr(x, y).statistic
    return float(r) if np.isfinite(r) else 0.0


def piece_uses(puzzle, solutions, count: int | None = None, stats: dict | None = None) -> dict:
    """The data one exhaust of an excess-piece state gives the model: its tilings, how many
    distinct piece sets they use, and for each piece how many tilings use it (the likelihood's
    sufficient statistics).  The runner's cells apply it to their solutions (``ExcessFamily.detail``);
    an exhaust in mode count kept the per-piece counts natively (``stats["piece_uses"]``, the
    ``poly`` engine) and lists no tilings: then those are used (piece sets unknown: None)."""
    if not solutions and stats and "piece_uses" in stats:
        return {"tilings": int(count or 0), "piece_sets": None, "piece_uses": dict(sorted(stats["piece_uses"].items()))}
    uses: dict[str, int] = {}
    sets = set()
    for sol in solutions:
        names = [puzzle.pieces[pl.piece].name for pl in sol]
        sets.add(frozenset(names))
        for n in names:
            uses[n] = uses.get(n, 0) + 1
    return {"tilings": len(solutions), "piece_sets": len(sets), "piece_uses": dict(sorted(uses.items()))}


# ------------------------------------------------------------------ Selby's region terms, fitted
def _esp_rows(w: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """e_k of each row of ``w`` (zeros pad a row: they add nothing), and e_{k-1} of the row without each
    element (the gradient's term), for all rows at once."""
    e = np.zeros((len(w), k + 1))
    e[:, 0] = 1.0
    for j in range(w.shape[1]):
        e[:, 1:] = e[:, 1:] + w[:, j : j + 1] * e[:, :-1]
    f = np.ones_like(w)
    for j in range(1, k):
        f = e[:, j : j + 1] - w * f
    return e[:, k], f


@dataclass
class ShapedFit:
    """Selby's model with region terms: a state of region R offered pieces B has
    exp(m + beta . (f(R) - mean) / scale + sum_{i in X} l_i) expected tilings by each k-set X of B."""

    weights: np.ndarray  # l_i, centred
    beta: np.ndarray  # one a feature, on the standardised features
    m: float
    mean: np.ndarray  # the features' means and scales the fit standardised by
    scale: np.ndarray
    log_likelihood: float
    solutions: int

    def region_term(self, features: np.ndarray) -> np.ndarray:
        """beta . standardised features, one a row of ``features``: the region's share of a state's log-score."""
        return ((np.atleast_2d(features) - self.mean) / self.scale) @ self.beta


def fit_shaped(
    states: list[State], features: np.ndarray, n_pieces: int, ridge: float = 0.5, beta_ridge: float = 0.01
) -> ShapedFit:
    """Maximum likelihood of the per-piece weights and the region terms together (one row of ``features``
    a state, standardised here), by L-BFGS with the exact gradient: the Poisson likelihood of
    ``log_likelihood`` with each state's constant ``m + beta . f``.  All states must be of one size k."""
    from scipy.optimize import minimize

    ks = {s.k for s in states}
    if len(ks) != 1:
        raise UsageError(f"fit_shaped: states of one size, not {sorted(ks)}")
    k = ks.pop()
    feats = np.asarray(features, float)
    mean = feats.mean(axis=0)
    scale = feats.std(axis=0)
    scale[scale == 0] = 1.0
    z = (feats - mean) / scale
    width = max(len(s.pieces) for s in states)
    idx = np.zeros((len(states), width), np.int64)
    mask = np.zeros((len(states), width))
    for r, s in enumerate(states):
        idx[r, : len(s.pieces)] = s.pieces
        mask[r, : len(s.pieces)] = 1.0
    counts = np.array([s.count for s in states], float)
    a, total = _data(states, n_pieces)
    n_f = z.shape[1]

    def f(theta):
        l, beta, m = theta[:n_pieces], theta[n_pieces : n_pieces + n_f], theta[-1]
        w = np.exp(l)[idx] * mask
        ek, ew = _esp_rows(w, k)
        lam = np.exp(m + z @ beta) * ek  # each state's expected tilings
        val = a @ l + counts @ (m + z @ beta) - lam.sum() - ridge * (l @ l) - beta_ridge * (beta @ beta)
        gl = a - 2 * ridge * l
        contrib = (np.exp(m + z @ beta)[:, None] * w * ew) * mask
        np.subtract.at(gl, idx.ravel(), contrib.ravel())
        gb = z.T @ (counts - lam) - 2 * beta_ridge * beta
        gm = float(counts.sum() - lam.sum())
        return -val, -np.concatenate([gl, gb, [gm]])

    e0 = sum(esp(np.ones(len(s.pieces)), k)[k] for s in states)
    x0 = np.concatenate([np.zeros(n_pieces + n_f), [np.log(max(total, 0.5) / e0)]])
    res = minimize(f, x0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    l, beta, m = res.x[:n_pieces], res.x[n_pieces : n_pieces + n_f], res.x[-1]
    shift = l.mean()
    return ShapedFit(l - shift, beta, float(m + k * shift), mean, scale, float(-res.fun), total)


def shaped_log_likelihood(states: list[State], features: np.ndarray, ft: ShapedFit) -> float:
    """The Poisson log-likelihood of held-out states under a shaped fit (no penalty)."""
    k = states[0].k
    width = max(len(s.pieces) for s in states)
    w = np.zeros((len(states), width))
    for r, s in enumerate(states):
        w[r, : len(s.pieces)] = np.exp(ft.weights[s.pieces])
    ek, _ = _esp_rows(w, k)
    mterm = ft.m + ft.region_term(features)
    counts = np.array([s.count for s in states], float)
    a, _ = _data(states, len(ft.weights))
    return float(a @ ft.weights + counts @ mterm - (np.exp(mterm) * ek).sum())
