"""`edge-estimate`: an edge board's solutions counted by sampling, where no exhaust finishes.

Knuth's estimator (1975) with exact leaves.  A probe fills the first ``depth`` free cells of a search order (the spiral by default)
at random, one legal placement at a time, multiplying the numbers of choices met on the way (``w``); the rest
of the board, with that prefix fixed, is then counted exactly by ``edge-backtrack``.  ``w`` times that count
is an unbiased estimate of the whole count, as the prefixes are the parts of ``baseline/edge/split.py``
weighted by the inverse of their chance of being drawn.  The mean of independent probes, its standard error
and a normal 95% interval are the answer, which is marked approximate: the interval is a statistical
statement, not a bound, and it can miss where a few rare prefixes hold most of the solutions.

The count is the native search's (pieces told apart by index, a symmetric piece's look counted once), so it is
held against ``edge-backtrack --mode count`` on any board both finish; the same probes estimate the native
search's tree and so the time its exhaust would take (``native_s``).  A shallower prefix gives a tighter
interval for dearer probes: ``depth=0`` picks the shallowest whose probes search ``probe_nodes`` nodes
on average (400 probes of 2 million nodes: about 15 s)."""

from __future__ import annotations

import math
import random
import time
from fractions import Fraction
from typing import Any

from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle, Fixed
from puzzles.kinds.orders import search_order
from puzzles.puzzle import EDGES
from solving import Limits, Option, Opts, SolverBase, SolveResult, Status

from .backtrack import EdgeBacktrack

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval
PILOTS = 8  # probes a trial depth is measured on (their exact counts' nodes)


def evidence(probes: int, depth: int, low: float | int, high: float | int) -> str:
    """The evidence of an estimated count: how it was measured and its interval (``approximate``: the
    cross-checks never hold it against exact counts)."""
    return (f"approximate (Knuth's estimator, {probes} probes at depth {depth}, exact below; "
            f"95% interval [{sci(low)}, {sci(high)}])")  # fmt: skip


class EdgeEstimateOptions(Opts):
    """The options of `edge-estimate`."""

    probes = Option(int, 400, "random prefixes, each counted exactly below", lo=2)
    depth = Option(
        int, 0, "free cells of the order each probe fills at random (0: the shallowest whose exact counts search "
        "at most probe_nodes nodes on average)", lo=0,
    )  # fmt: skip
    probe_nodes = Option(
        int, 2_000_000, "with depth 0: the nodes a probe's exact count may search on average (the work of a "
        "probe: about 0.03 s at the native search's 70 million nodes a second)", lo=1,
    )  # fmt: skip
    seed = Option(int, 1, "the probes' random seed", lo=0)
    order = Option(
        str, "spiral", "the static order of the probes' cells and of the exact counts below them (the spiral, the "
        "rim first, is the native count's fastest on square boards)", ("rowscan", "colscan", "spiral", "frame-first"),
    )  # fmt: skip


class _Prefixes:
    """Random legal fillings of a board's first free cells in a search order, drawn as the native search
    branches: identical pieces merged (one choice a group, weighted by its copies left)."""

    def __init__(self, p: EdgePuzzle, depth: int, order: str):
        self.p = p
        self.cells = [c for c in search_order(p, order) if c not in {f.cell for f in p.fixed}][:depth]
        self.known0 = {f.cell: p.placed(f.piece, f.rotation) for f in p.fixed}
        self.groups = p.identical_groups()  # the free pieces, by look
        self.by_cell = {
            c: [(g, r, p.placed(g, r)) for g in self.groups for r in p.distinct_rotations(g)
                if p.fits_border(c, p.placed(g, r))]
            for c in self.cells
        }  # fmt: skip

    def draw(self, rng: random.Random) -> tuple[int, list[Fixed], list[int]]:
        """One random prefix: the weight of its count (the product of the choices, each times the copies
        of its group left; 0 at a dead end), its placements, and the choices at each depth (the native
        tree's nodes above the exact count, by Knuth's sum)."""
        p, known = self.p, dict(self.known0)
        left = {g: list(members) for g, members in self.groups.items()}
        w, widths = 1, []
        fixed: list[Fixed] = []
        for c in self.cells:
            fits = []
            for g, r, cols in self.by_cell[c]:
                if left[g] and all(
                    (nb := p.neighbour(c, side)) < 0 or nb not in known or known[nb][(side + 2) % 4] == cols[side]
                    for side in range(4)
                ):
                    fits.append((g, r, cols))
            widths.append(len(fits))
            if not fits:
                return 0, fixed, widths
            g, _, cols = rng.choice(fits)
            w *= len(fits) * len(left[g])
            q = left[g].pop(0)  # any copy: the count below is the same for each
            r = next(t for t in range(4) if p.placed(q, t) == cols)
            known[c] = cols
            fixed.append(Fixed(c, q, r))
        return w, fixed, widths


class EdgeEstimate(SolverBase):
    """`edge-estimate`: an edge board's count estimated by random prefixes counted exactly below them.

    An estimate with its 95% interval, labelled approximate: never an exhaustion."""

    name = "edge-estimate"
    NATIVE = True
    TAKES = frozenset({EDGES})
    MODES = ("count",)
    Options = EdgeEstimateOptions
    opts: EdgeEstimateOptions

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        if self.opts.depth and self.opts.depth >= puzzle.n_cells - len(puzzle.fixed):
            raise UsageError(f"solver edge-estimate: depth {self.opts.depth} leaves no cell to count exactly")

    def _probe(self, pre: _Prefixes, rng: random.Random, limits: Limits) -> tuple[int, int, int, float, int] | None:
        """One probe: its estimate; the nodes its exact count searched, and those nodes weighted by the tree's
        widths above (``w`` without the copies); the exact count's search time; the nodes above it by Knuth's
        sum.  None if the limit ended its exact count."""
        w, fixed, widths = pre.draw(rng)
        above, width = 0, 1
        for k in widths:
            width *= k
            above += width
        if not w:
            return 0, 0, 0, 0.0, above
        p = pre.p
        sub = EdgePuzzle(p.rows, p.cols, p.pieces, list(p.fixed) + fixed, name=p.name)
        res = EdgeBacktrack({"order": self.opts.order}).solve(sub, mode="count", limits=limits)
        if res.status not in (Status.SOLVED, Status.UNSAT):
            return None
        nodes, search_s = int(res.stats.get("nodes", 0)), float(res.stats.get("time_s", 0.0))
        return w * int(res.count or 0), nodes, width * nodes, search_s, above

    def _pick_depth(self, p: EdgePuzzle, deadline: float | None) -> int:
        """The shallowest depth whose pilot probes' exact counts search at most ``probe_nodes`` nodes each on
        average: nodes, not seconds, so that the same board and seed give the same depth on any machine."""
        free = p.n_cells - len(p.fixed)
        budget = self.opts.probe_nodes
        rng = random.Random(self.opts.seed + 7919)

        def mean_nodes(d: int) -> float:
            pre, total = _Prefixes(p, d, self.opts.order), 0
            for _ in range(PILOTS):
                left = None if deadline is None else deadline - time.perf_counter()
                if left is not None and left <= 0:
                    return math.inf
                out = self._probe(pre, rng, Limits(time_s=left, nodes=PILOTS * budget))
                if out is None:
                    return math.inf
                total += out[1]
            return total / PILOTS

        d = max(1, free // 2)
        while d < free - 1 and mean_nodes(d) > budget:
            d += 1
        while d > 1 and mean_nodes(d - 1) <= budget:
            d -= 1
        return d

    @override
    def solve(self, puzzle: EdgePuzzle, *, mode="count", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        o = self.opts
        limits = limits or Limits()
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else t0 + limits.time_s
        p = puzzle.dense_colours()
        depth = o.depth or self._pick_depth(p, deadline)
        build_s = time.perf_counter() - t0
        pre = _Prefixes(p, depth, o.order)
        rng = random.Random(o.seed)
        xs: list[int] = []
        searched = weighted = above = 0
        sub_s = 0.0
        for i in range(o.probes):
            left = None if deadline is None else deadline - time.perf_counter()
            out = None if left is not None and left <= 0 else self._probe(pre, rng, Limits(time_s=left))
            if out is None:
                break
            x, n, wn, s, a = out
            xs.append(x)
            searched += n
            weighted += wn
            above += a
            sub_s += s
            if progress is not None and (i + 1) % 50 == 0:
                progress({"probes": i + 1, "estimate": number(Fraction(sum(xs), len(xs)))})
        stats: dict[str, Any] = {"build_s": build_s, "time_s": time.perf_counter() - t0 - build_s, "depth": depth,
                                 "probes": len(xs), "zero_probes": sum(1 for x in xs if x == 0)}  # fmt: skip
        if len(xs) < 2:
            return SolveResult(Status.LIMIT, [], None, None, stats, f"the time limit ended the probes at {len(xs)}")
        mean, se, low, high = interval(xs)
        tree = (weighted + above) / len(xs)  # Knuth's estimate of the exhaust's nodes (the prefix and the rest)
        stats |= {"estimate": number(mean), "stderr": number(se), "low": number(low), "high": number(high),
                  "nodes": searched, "tree_nodes": tree,
                  "native_s": tree * sub_s / searched if searched else None}  # fmt: skip
        if len(xs) < o.probes:
            why = f"the time limit ended the probes at {len(xs)} of {o.probes}: no estimate"
            return SolveResult(Status.LIMIT, [], None, None, stats, why)
        if not mean:
            why = f"no probe of {len(xs)} met a solution: the count is not estimated (it may be 0)"
            return SolveResult(Status.LIMIT, [], None, None, stats, why)
        # a probe met a solution, so the board has one at least: a mean below 1/2 does not round to "count 0"
        count = max(1, round(mean))
        said = f"{len(xs)} probes at depth {depth}"
        if count != round(mean):
            said += f"; the estimate {float(mean):.3g} rounds below the solution a probe met: count 1"
        res = SolveResult(Status.SOLVED, [], count, None, stats, said)
        res.evidence = evidence(len(xs), depth, stats["low"], stats["high"])
        return res


def interval(xs: list[int]) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """The mean of the probes' estimates, its standard error and its 95% normal interval (the low end at 0 at
    least), in exact arithmetic: a count of hundreds of digits overflows no float."""
    n, total = len(xs), sum(xs)
    mean = Fraction(total, n)
    var_of_mean = Fraction(n * sum(x * x for x in xs) - total * total, n * n * (n - 1))
    se = _sqrt(var_of_mean)
    half = se * Fraction(Z95)
    return mean, se, max(Fraction(0), mean - half), mean + half


def _sqrt(f: Fraction) -> Fraction:
    """The square root of a non-negative fraction, to about 20 significant digits."""
    if f <= 0:
        return Fraction(0)
    shift = max(0, 20 - (f.numerator.bit_length() - f.denominator.bit_length()) // 7)  # decimal places kept
    return Fraction(math.isqrt(f.numerator * 10 ** (2 * shift) // f.denominator), 10**shift)


def number(f: Fraction) -> float | int:
    """A statistic as JSON can hold it: a float where one holds it, else the whole number nearest."""
    return float(f) if abs(f) < 1e300 else round(f)


def sci(v: float | int) -> str:
    """Four significant digits of a float or of a whole number too large for one."""
    if isinstance(v, float) or abs(v) < 10**300:
        return f"{float(v):.4g}"
    digits = str(abs(v))
    return f"{'-' if v < 0 else ''}{digits[0]}.{digits[1:4]}e+{len(digits) - 1}"
