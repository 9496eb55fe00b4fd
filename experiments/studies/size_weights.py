"""Selby's weights for every size: a schedule fitted on the beam's own states.

Selby and Riordan fitted piece weights at 24 pieces' area from excess-piece exhausts, and had no data
for larger regions; they made the parameters of each larger size predict what the next smaller size's
model says of a state's children, the size-n weights a quadratic function of the size-24 ones, and found
the spread between pieces smaller early on (seed 000).  This module does the same, on the states a beam
run visits:

* the model: a state with N pieces left is tiled in about ``exp(m_N + sum of l_N(p) over its pieces
  left)`` ways, where ``l_N = alpha_N * l + beta_N * l**2`` of the base weights ``l`` (a weights file
  fitted by ``eternity tilability``);
* consistency: every tiling of a state passes through exactly one child at its most constrained site, so
  ``E_N(s) = sum over its live children c of E_{N-1}(c)``.  Written out, with ``d = l_N - l_{N-1}``:
  ``sum over s's pieces left of d(p) + (m_N - m_{N-1}) = log sum_c exp(-l_{N-1}(piece of c))``;
* the fit: from the smallest size seen upwards (where ``l`` is taken as it is), ``d = a l + b l**2`` is
  the least-squares fit of the right-hand side on the states of each size (their sums of ``l`` and
  ``l**2`` over the pieces left), pooled over ``band`` sizes for stability, and ``alpha``, ``beta``
  accumulate the steps;
* held out: the states of each band split in two (by their order); the fit on one half predicts the
  other's right-hand side, against the size-independent model (``d = 0``, a constant alone).

The beam reads the schedule from the weights file (``sizes``) and re-weighs its frontier at each level
(``baseline/beam/xcc.py``, ``_resize``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np


@dataclass
class BeamStates:
    """What the fit needs of the beam's states: for each sampled state, its pieces left (N), the sums of
    the base weights and of their squares over its pieces left, and the base weights of the pieces its
    live children place (``child_l[child_ptr[i]:child_ptr[i + 1]]``)."""

    n_left: list[int] = field(default_factory=list)
    s1: list[float] = field(default_factory=list)
    s2: list[float] = field(default_factory=list)
    child_ptr: list[int] = field(default_factory=lambda: [0])
    child_l: list[float] = field(default_factory=list)
    seconds: float = 0.0
    deepest: int = 0

    def __len__(self) -> int:
        return len(self.n_left)


def collect(puzzle, weights: str, width: int = 1000, seconds: float = 300.0, per_level: int = 300, seed: int = 0,
            options: dict | None = None, progress=None) -> BeamStates:  # fmt: skip
    """Run the polyform beam with the base ``weights`` for ``seconds`` and keep, at each level, up to
    ``per_level`` of the children it ranks (drawn at random among all its live children, not only those it
    keeps: the score's task is to rank them), each with its own live children."""
    from baseline.beam.options import OPTIONS
    from baseline.beam.xcc import XCCBeamRun
    from solving import Limits

    o = {k: v.default for k, v in OPTIONS.items()}
    o.update({"width": width, "weights": weights, "per_parent": 1, "seed": seed, **(options or {})})
    run = XCCBeamRun(puzzle, o)
    l_opt = run.opt_l
    l_all, l2_all = float(run.piece_l.sum()), float((run.piece_l**2).sum())
    rng = np.random.default_rng(seed)
    out = BeamStates()

    def observe(level, n_left, chosen, par, opt, sc, board, first, score) -> None:
        live = np.nonzero(np.isfinite(sc))[0]
        if len(live) == 0:
            return
        pick = np.sort(rng.choice(live, size=min(per_level, len(live)), replace=False))
        kids, kids_first = run.child_boards(board, first, par[pick], opt[pick])
        placed = np.concatenate([l_opt[chosen[par[pick]]], l_opt[opt[pick]][:, None]], axis=1)
        z = np.zeros(len(pick))
        par2, opt2, sc2, _, _, _ = run.expand(kids, kids_first, z, np.zeros(len(pick), np.uint64))
        order = np.argsort(par2, kind="stable")
        bounds = np.searchsorted(par2[order], np.arange(len(pick) + 1))
        for j in range(len(pick)):
            grand = order[bounds[j] : bounds[j + 1]]
            grand = grand[np.isfinite(sc2[grand])]
            if len(grand) == 0:
                continue  # a dead end: no tiling through it, log 0; the model has nothing to fit there
            out.n_left.append(int(round(n_left)) - 1)
            out.s1.append(l_all - float(placed[j].sum()))
            out.s2.append(l2_all - float((placed[j] ** 2).sum()))
            out.child_l.extend(l_opt[opt2[grand]].tolist())
            out.child_ptr.append(len(out.child_l))
        out.deepest = max(out.deepest, level + 1)
        if progress is not None:
            progress({"level": level + 1, "pieces_left": round(n_left), "states": len(out)})

    run.observe = observe
    t0 = time.perf_counter()
    run.solve(Limits(time_s=seconds), None)
    out.seconds = time.perf_counter() - t0
    return out


def _targets(ptr: np.ndarray, cl: np.ndarray, idx: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """log sum over each state's live children of exp(-l_{N-1}) for the states ``idx`` (their children's
    base weights ``cl[ptr[i]:ptr[i + 1]]``)."""
    lw = alpha * cl + beta * cl**2
    y = np.empty(len(idx))
    for j, i in enumerate(idx):
        v = -lw[ptr[i] : ptr[i + 1]]
        top = v.max()
        y[j] = top + np.log(np.exp(v - top).sum())
    return y


def _lsq(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.linalg.lstsq(x, y, rcond=None)[0]


def fit(data: BeamStates, band: int = 10) -> dict:
    """The schedule (module docstring): ``{"sizes": {N: (alpha, beta)}, "bands": [...]}``, each band with
    its sizes, states, step (a, b) and held-out errors (the fit against the size-independent model)."""
    if len(data) < 20:
        raise ValueError(f"too few beam states to fit sizes: {len(data)}")
    n = np.asarray(data.n_left)
    s1, s2 = np.asarray(data.s1), np.asarray(data.s2)
    ptr, cl = np.asarray(data.child_ptr), np.asarray(data.child_l)
    sizes = np.unique(n)
    lo = int(sizes.min())
    alpha, beta = 1.0, 0.0
    schedule: dict[int, tuple[float, float]] = {lo - 1: (1.0, 0.0)}
    bands = []
    for start in range(lo, int(sizes.max()) + 1, band):
        span = np.arange(start, start + band)
        idx = np.nonzero(np.isin(n, span))[0]
        # each state's own size: its children are weighed by the schedule one size below it
        y = np.empty(len(idx))
        for size in np.unique(n[idx]):
            sel = n[idx] == size
            a_, b_ = schedule.get(int(size) - 1, (alpha, beta))
            y[sel] = _targets(ptr, cl, idx[sel], a_, b_)
        cols = [s1[idx], s2[idx]]
        # each size its own constant (m_N - m_{N-1} differs by size); the slopes shared by the band
        dummies = [(n[idx] == size).astype(float) for size in np.unique(n[idx])]
        x = np.column_stack(cols + dummies)
        step = _lsq(x, y) if len(idx) > x.shape[1] else np.zeros(x.shape[1])
        a, b = float(step[0]), float(step[1])
        held = _held_out(x, y, len(cols))
        bands.append({"sizes": [int(span[0]), int(span[-1])], "states": int(len(idx)), "a": a, "b": b, **held})
        for size in span:  # the step is one size's: it accumulates size by size across the band
            alpha, beta = alpha + a, beta + b
            schedule[int(size)] = (alpha, beta)
    return {"sizes": {k: (round(v[0], 6), round(v[1], 6)) for k, v in sorted(schedule.items())}, "bands": bands}


def _held_out(x: np.ndarray, y: np.ndarray, n_slopes: int) -> dict:
    """Mean squared error on each half from a fit on the other, with the slopes and without them."""
    if len(y) < 2 * x.shape[1] + 4:
        return {"mse_sized": None, "mse_constant": None}
    halves = (np.arange(len(y)) % 2 == 0, np.arange(len(y)) % 2 == 1)
    err_s, err_c = 0.0, 0.0
    for train, test in (halves, halves[::-1]):
        xs = x[train]
        keep = xs.any(axis=0)
        keep[:n_slopes] = True
        full = np.zeros(x.shape[1])
        full[keep] = _lsq(xs[:, keep], y[train])
        err_s += float(((x[test] @ full - y[test]) ** 2).sum())
        const = np.zeros(x.shape[1])
        kc = keep.copy()
        kc[:n_slopes] = False
        const[kc] = _lsq(xs[:, kc], y[train])
        err_c += float(((x[test] @ const - y[test]) ** 2).sum())
    return {"mse_sized": err_s / len(y), "mse_constant": err_c / len(y)}


def document(base: dict, fitted: dict, data: BeamStates, width: int, seconds: float, band: int) -> dict:
    """The base weights document with the schedule and how it was fitted."""
    out = dict(base)
    out["sizes"] = {str(k): list(v) for k, v in fitted["sizes"].items()}
    out["sizes_fit"] = {
        "method": "consistency with the next smaller size on the beam's own states (experiments/studies/size_weights.py)",
        "beam_width": width,
        "beam_seconds": round(data.seconds, 1),
        "seconds_asked": seconds,
        "states": len(data),
        "deepest_level": data.deepest,
        "band": band,
        "bands": fitted["bands"],
    }
    return out
