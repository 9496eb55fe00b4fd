"""Brendan Owen's probability model for edge-matching puzzles ([Owen]; docs/references.md).

Counts piece configurations exactly and multiplies by the probability that
all joins match, where that probability respects the finite number of
edges of each colour:

* ``P(pc, pe, pi) = P(ac, pc) P(ae, pe) P(ai, pi) 4**pi`` configurations;
* frame joins: ``V_b(i, b) = sum_j V_b(i-1, b-j) P(n_i, j)**2 C(b, j)``,
  ``p_b(b) = V_b(B, b) / P(T_b, b)**2``;
* inner joins: ``V_m(i, m) = sum_j V_m(i-1, m-j) P(2 n_i, 2 j) C(m, j)``,
  ``p_m(m) = V_m(M, m) / P(2 T_m, 2 m)``;
* ``S = P * p_b(b) * p_m(m)`` for a (partially) filled board, and the
  expected nodes of a backtracking search = the sum of S over the depths of
  its search order.

* invalid inner joins ([Owen], "estimates with invalid joins"):
  ``p_m(m, v) = p_m(m-1, v) - p_m(m, v+1)``, ``p_m(m, m) = p_m(m)``, and a
  slip array ``d`` weighs ``i`` invalid joins after ``p`` pieces by
  ``W(p, i) = sum_k W(d_i - 1, k) C(j(p) - j(d_i - 1), i - k)``;
* the critical size of a generator family: the inner-colour count where the
  expected number of solutions crosses 1.

The logs of the counts are computed in floating point (a log-sum-exp a term of the
recursion: milliseconds where the exact integers grow to thousands of digits); the
probabilities of the slips, which subtract, exactly (Python integers and fractions).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle

LN10 = math.log(10)


def perm(n: int, k: int) -> int:
    """P(n, k) = n! / (n-k)! (0 when k > n)."""
    if k < 0 or k > n:
        return 0
    return math.perm(n, k)


def log10(x) -> float:
    """log10 of a positive int or Fraction of any size (-inf for 0)."""
    from fractions import Fraction

    if isinstance(x, Fraction):
        if x.numerator == 0:
            return float("-inf")
        return math.log10(x.numerator) - math.log10(x.denominator)
    return math.log10(x) if x > 0 else float("-inf")


def _halves(pieces: np.ndarray, where: np.ndarray) -> list[int]:
    """n_i for each colour on the sides ``where`` selects (half its count), colours in the order they
    first appear reading the pieces side by side (the order of the V recursion's sum)."""
    flat = pieces.ravel()[where.ravel()]
    _, first, counts = np.unique(flat, return_index=True, return_counts=True)
    return [int(counts[i]) // 2 for i in np.argsort(first, kind="stable")]


@dataclass
class Model:
    """The counts the model needs, read from a puzzle's pieces."""

    ac: int  # available (not fixed) corner, edge, inner pieces
    ae: int
    ai: int
    frame_n: list[int]  # n_i per frame colour (2 n_i frame edges of colour i)
    inner_n: list[int]  # n_i per inner colour (2 n_i inner edges)

    @classmethod
    def of(cls, p: EdgePuzzle) -> Model:
        """The model's counts of a puzzle: its free corners, edges and inners and each colour's joins."""
        fixed = {f.piece for f in p.fixed}
        free = np.ones(p.n_pieces, bool)
        free[list(fixed)] = False
        greys = (p.pieces[free] == 0).sum(axis=1)
        frame, coloured = p.frame_sides(), p.pieces != 0
        return cls(
            int((greys == 2).sum()),
            int((greys == 1).sum()),
            int((greys == 0).sum()),
            _halves(p.pieces, frame),
            _halves(p.pieces, coloured & ~frame),
        )

    @property
    def tb(self) -> int:
        """T_b: frame joins in all."""
        return sum(self.frame_n)

    @property
    def tm(self) -> int:
        """T_m: inner joins in all."""
        return sum(self.inner_n)

    def log_vb(self) -> np.ndarray:
        """ln V_b(B, b) for b = 0 .. T_b, in floating point (``_log_v``)."""
        return _log_v(tuple(self.frame_n), frame=True)

    def log_vm(self) -> np.ndarray:
        """ln V_m(M, m) for m = 0 .. T_m, in floating point."""
        return _log_v(tuple(self.inner_n), frame=False)

    def vm(self) -> list[int]:
        """V_m(M, m) for m = 0 .. T_m."""
        return _v(tuple(self.inner_n), frame=False)


@lru_cache(maxsize=64)
def _v(ns: tuple[int, ...], frame: bool) -> list[int]:
    total = sum(ns)
    v = [1] + [0] * total
    for n in ns:
        w = [0] * (total + 1)
        for b in range(total + 1):
            s = 0
            for j in range(0, min(n, b) + 1):
                if v[b - j]:
                    f = perm(n, j) ** 2 if frame else perm(2 * n, 2 * j)
                    s += v[b - j] * f * math.comb(b, j)
            w[b] = s
        v = w
    return v


_lgamma = np.vectorize(math.lgamma, otypes=[float])


def _log_perm(a: int, k):
    """ln P(a, k), for one k or an array of them."""
    return math.lgamma(a + 1) - _lgamma(a - np.asarray(k) + 1)


@lru_cache(maxsize=64)
def _log_v(ns: tuple[int, ...], frame: bool) -> np.ndarray:
    """``_v`` in logarithms: the same recursion, each sum a log-sum-exp over the colour's j.  The
    exact integers have thousands of digits on a large board (a 20x20 sweep took 35 s); the logs
    take milliseconds and agree with them to about 1e-14 relative (tests/test_estimate.py)."""
    total = sum(ns)
    b = np.arange(total + 1)
    lg_b = _lgamma(b + 1.0)
    lv = np.full(total + 1, -np.inf)
    lv[0] = 0.0
    for n in ns:
        js = np.arange(n + 1)
        lf = 2 * _log_perm(n, js) if frame else _log_perm(2 * n, 2 * js)
        lg_j = _lgamma(js + 1.0)
        w = np.full(total + 1, -np.inf)
        for j in range(min(n, total) + 1):
            term = lv[: total + 1 - j] + lf[j] + lg_b[j:] - lg_j[j] - lg_b[: total + 1 - j]
            w[j:] = np.logaddexp(w[j:], term)
        lv = w
    return lv


MAX_OWEN_JOINS = 10_000  # the V tables cost about (joins)^2 / 10^8 seconds: 1 s at this size


class Estimator:
    """S for any partial board of one puzzle, with the V tables computed once."""

    def __init__(self, p: EdgePuzzle):
        self.p = p
        self.m = Model.of(p)
        joins = self.m.tb + self.m.tm
        if joins > MAX_OWEN_JOINS:
            raise UsageError(
                f"Owen's model takes time quadratic in a board's joins: this one has {joins:,}, the model is "
                f"computed up to {MAX_OWEN_JOINS:,} (a 70x70 board; a 300x300 one would take minutes)"
            )
        self._lvb = self.m.log_vb()
        self._lvm = self.m.log_vm()

    def log_pb(self, b: int) -> float:
        """log10 p_b(b): the chance that b frame joins all match."""
        if b > self.m.tb:
            return float("-inf")
        return (self._lvb[b] - 2 * float(_log_perm(self.m.tb, b))) / LN10

    def log_pm(self, m: int) -> float:
        """log10 p_m(m): the chance that m inner joins all match."""
        if m > self.m.tm:
            return float("-inf")
        return (self._lvm[m] - float(_log_perm(2 * self.m.tm, 2 * m))) / LN10

    def pm_exact(self, m: int) -> Fraction:
        """p_m(m): all of m inner joins valid, as an exact fraction (the slips' differences need it)."""
        if m > self.m.tm:
            return Fraction(0)
        return Fraction(self.m.vm()[m], perm(2 * self.m.tm, 2 * m))

    def pm_invalid(self, m_max: int, n_max: int) -> list[list[Fraction]]:
        """``q[m][i] = p_m(m, m - i)``: the first m - i of m inner joins valid and
        the last i invalid, for m <= m_max, i <= n_max (exact).

        From ``p_m(m, v) = p_m(m-1, v) - p_m(m, v+1)``: ``q[m][i] = q[m-1][i-1] - q[m][i-1]``.
        """
        q = [[Fraction(0)] * (n_max + 1) for _ in range(m_max + 1)]
        for m in range(m_max + 1):
            q[m][0] = self.pm_exact(m)
            for i in range(1, min(m, n_max) + 1):
                q[m][i] = q[m - 1][i - 1] - q[m][i - 1]
        return q

    def log_configs(self, pc: int, pe: int, pi: int) -> float:
        """log10 of the ways to put pc corners, pe edges and pi inners (the inners turned four ways)."""
        m = self.m
        x = perm(m.ac, pc) * perm(m.ae, pe) * perm(m.ai, pi) * 4**pi
        return log10(x)

    def log_s(self, pc: int, pe: int, pi: int, b: int, m: int) -> float:
        """log10 of the expected partial boards with those pieces placed and b, m joins all matching."""
        return self.log_configs(pc, pe, pi) + self.log_pb(b) + self.log_pm(m)

    def cell_kind(self, cell: int) -> str:
        """Corner, edge or inner, by the sides of the cell that face outside."""
        out = sum(self.p.outside_sides(cell))
        return {0: "inner", 1: "edge"}.get(out, "corner")

    def walk(self, order: list[int]) -> list[tuple[int, int, int, int, int]]:
        """(corners, edges, inners placed, frame joins, inner joins) after each
        depth of ``order``; fixed cells count as placed from the start and are
        not depths of their own (their joins are left in ``fixed_joins``)."""
        p = self.p
        placed = {f.cell for f in p.fixed}
        counts: Counter[str] = Counter()
        b = m = 0

        def joins_with(cell):
            nb, nm = 0, 0
            k1 = self.cell_kind(cell)
            for s in range(4):
                q = p.neighbour(cell, s)
                if q >= 0 and q in placed:
                    if k1 != "inner" and self.cell_kind(q) != "inner":
                        nb += 1
                    else:
                        nm += 1
            return nb, nm

        fixed, placed = sorted(placed), set()
        for cell in fixed:  # joins among the fixed cells, each once
            db, dm = joins_with(cell)
            placed.add(cell)
            b, m = b + db, m + dm
        self.fixed_joins = (b, m)
        out = []
        for cell in order:
            if cell in placed:
                continue
            db, dm = joins_with(cell)
            b, m = b + db, m + dm
            placed.add(cell)
            counts[self.cell_kind(cell)] += 1
            out.append((counts["corner"], counts["edge"], counts["inner"], b, m))
        return out

    def profile(self, order: list[int], slips: list[int] | None = None) -> list[float]:
        """log10 of the expected partial solutions (nodes) after each depth of
        ``order``.  With ``slips`` (depths d_1 <= d_2 <= ... counted in placed
        pieces, fixed ones included), inner joins may be invalid as the slip
        array allows; frame joins must match ([Owen]; docs/references.md)."""
        steps = self.walk(order)
        if not slips:
            return [self.log_s(*st) for st in steps]
        n_fixed = len({f.cell for f in self.p.fixed})
        slips = sorted(int(d) for d in slips)
        # j(p): inner joins after p placed pieces, p counted with the fixed ones.
        j = [self.fixed_joins[1]] * (n_fixed + 1) + [st[4] for st in steps]
        w = _slip_weights(j, slips)
        q = self.pm_invalid(max(j), len(slips))
        out = []
        for k, (pc, pe, pi, b, m) in enumerate(steps):
            p_ = n_fixed + 1 + k
            pm = sum((q[m][i] * w[p_][i] for i in range(len(slips) + 1) if i <= m), Fraction(0))
            out.append(self.log_configs(pc, pe, pi) + self.log_pb(b) + log10(pm))
        return out


def _slip_weights(j: list[int], d: list[int]) -> list[list[int]]:
    """W(p, i) for p = 0..len(j)-1, i = 0..len(d): the ways to place exactly i
    invalid inner joins among the j(p) joins made after p pieces so that the
    k-th invalid join lies after depth d_k - 1 ([Owen]'s recursion)."""
    P, N = len(j) - 1, len(d)
    W = [[1] + [0] * N for _ in range(P + 1)]
    for i in range(1, N + 1):
        di = d[i - 1]
        for p_ in range(P + 1):
            if p_ < di:
                continue
            base = j[min(di - 1, P)] if di >= 1 else 0
            W[p_][i] = sum(W[max(di - 1, 0)][k] * math.comb(j[p_] - base, i - k) for k in range(i))
    return W


def symmetry_factors(p: EdgePuzzle) -> dict:
    """Owen's table: board, symmetric pieces, identical pieces, total."""
    if p.fixed:
        board = 1
    else:
        board = 4 if p.rows == p.cols else 2
    sym = 1
    groups: Counter = Counter()
    for q in range(p.n_pieces):
        sym *= 4 // len(p.distinct_rotations(q))
        groups[min(p.placed(q, r) for r in range(4))] += 1
    ident = 1
    for k in groups.values():
        ident *= math.factorial(k)
    return {"board": board, "symmetric_pieces": sym, "identical_pieces": ident, "total": board * sym * ident}


def log_expected_solutions(p: EdgePuzzle) -> float:
    """log10 of the expected number of solutions of the whole board."""
    est, (pc, pe, pi) = _whole_board(p)
    R, C = p.rows, p.cols
    b = 2 * (R - 1) + 2 * (C - 1)
    m = (R - 1) * (C - 2) + (R - 2) * (C - 1)
    return est.log_s(pc, pe, pi, b, m)


def join_probabilities(p: EdgePuzzle) -> dict[str, list[float]]:
    """Seed 001's figures 1 and 2: the probability that the k-th frame (inner) join is valid when the k - 1
    before it are, p_b(k) / p_b(k - 1), for k = 1 .. the board's frame (inner) joins."""
    est = Estimator(p)

    def steps(log_p, n: int) -> list[float]:
        out, before = [], 0.0
        for k in range(1, n + 1):
            now = log_p(k)
            out.append(10 ** (now - before) if math.isfinite(now) else 0.0)
            before = now
        return out

    fj = 2 * (p.rows - 1) + 2 * (p.cols - 1)
    return {"frame": steps(est.log_pb, fj), "inner": steps(est.log_pm, p.n_joins - fj)}


def naive_estimate(p: EdgePuzzle) -> dict:
    """Owen's first, naive estimate (seed 001): each frame join valid with probability 1/(frame colours), each
    inner join with 1/(inner colours), all independent; times the configurations, the expected solutions.
    Owen's figures for Eternity II: 1.88e-559 and about 0.02 solutions (the model proper gives far more)."""
    frame, inner = p.colour_classes()
    fj = 2 * (p.rows - 1) + 2 * (p.cols - 1)  # the joins along the rim, between two rim cells
    ij = p.n_joins - fj
    log_p = -(fj * math.log10(len(frame)) if frame else 0.0) - (ij * math.log10(len(inner)) if inner else 0.0)
    log_c = log_configurations(p)
    return {
        "frame_joins": fj,
        "inner_joins": ij,
        "frame_colors": len(frame),
        "inner_colors": len(inner),
        "log10_all_joins_valid": log_p,
        "log10_expected_solutions": log_p + log_c,
    }


def log_configurations(p: EdgePuzzle) -> float:
    """log10 of the configurations of the whole board Owen's model counts before any join is asked to match:
    corners, edges and inner pieces on the cells of their kind that no fixed piece holds, the inner ones in
    any of four turns (Eternity II with its one fixed piece: 4! 56! 195! 4^195 = 1.115 x 10^557)."""
    est, (pc, pe, pi) = _whole_board(p)
    return est.log_configs(pc, pe, pi)


def _whole_board(p: EdgePuzzle) -> tuple[Estimator, tuple[int, int, int]]:
    """The estimator of ``p`` and the corners, edges and inner pieces a whole board places (fixed ones aside)."""
    est = Estimator(p)
    R, C = p.rows, p.cols
    fixed_kinds = Counter(est.cell_kind(f.cell) for f in p.fixed)
    sc, se, si = 4, 2 * R + 2 * C - 8, (R - 2) * (C - 2)
    return est, (sc - fixed_kinds["corner"], se - fixed_kinds["edge"], si - fixed_kinds["inner"])


def expected_solutions(p: EdgePuzzle) -> float:
    """Owen's expected number of solutions (inf when beyond float range)."""
    if not isinstance(p, EdgePuzzle) or not p.bordered or p.rows < 2 or p.cols < 2:
        raise UsageError("Owen's model covers bordered edge-matching puzzles")
    lg = log_expected_solutions(p)
    return 10**lg if lg < 308 else float("inf")


def search_nodes(p: EdgePuzzle, order: list[int], slips: list[int] | None = None) -> tuple[float, list[float]]:
    """log10 of the expected total nodes of a backtracking search in ``order``
    (allowing invalid inner joins as ``slips`` says), and log10 of the nodes at
    each depth."""
    prof = Estimator(p).profile(order, slips)
    mx = max(prof)
    total = mx + math.log10(sum(10 ** (x - mx) for x in prof))
    return total, prof


def classify(p) -> tuple[float, str]:
    """(expected solutions, class) for the runner: sub-critical below 1."""
    s = expected_solutions(p)
    return s, ("sub-critical" if s < 1 else "super-critical")


def critical_size(rows: int, cols: int, frame_colors: int, seeds: int = 3, max_inner: int = 40) -> dict:
    """Where a generator family (rows x cols, ``frame_colors``) turns
    sub-critical: the inner-colour count at which log10 of the expected
    solutions, averaged over ``seeds`` generated instances, crosses 0
    (linear interpolation between the integer counts on either side).

    Returns ``{"critical_inner_colors": float | None, "table": [(i, mean log10 S)]}``;
    None when the estimate never crosses 1 within ``max_inner`` colours.
    """
    from puzzles.make import generate

    table = []
    for i in range(1, max_inner + 1):
        logs = []
        for seed in range(seeds):
            try:
                p, _ = generate.edge_puzzle(rows, cols, frame_colors, i, seed)
            except ValueError:
                break
            logs.append(log_expected_solutions(p))
        if not logs:
            break
        table.append((i, sum(logs) / len(logs)))
        if table[-1][1] < 0 and len(table) > 1:
            (i0, l0), (_, l1) = table[-2], table[-1]
            if l0 >= 0:
                return {"critical_inner_colors": i0 + l0 / (l0 - l1), "table": table}
    return {"critical_inner_colors": None, "table": table}
