"""Which samplers are uniform: a chi-square test of each sampler's draws over a small puzzle's solutions.

The puzzle's solutions are enumerated (``backtrack``, mode all); each sampler draws ``n`` boards, every one
verified; the draws are binned by solution and held against the uniform distribution by Pearson's chi-square
test (scipy).  A p-value far below 0.05 says the sampler is not uniform on this puzzle; a p-value above it says
the test found no departure at this sample size (not a proof of uniformity).

The samplers: the exact diagram sampler (``backtrack``, mode sample), UniGen (almost uniform, with its
guarantee), CMSGen (uniform-like, no guarantee), and, as a control the test must reject, the first solution
of the native search under random tie-breaking (``backtrack`` mode first with a seed a draw), which is what a
"random solution" from a plain search is.
"""

from __future__ import annotations

import time

import solving
from puzzles import catalog
from puzzles.errors import UsageError
from solving import Limits

SAMPLERS = ("backtrack", "unigen", "cmsgen", "backtrack-first-random")
GUARANTEES = {
    "backtrack": "exact uniform (the diagram of all solutions)",
    "unigen": "almost uniform (UniGen's guarantee)",
    "cmsgen": "uniform-like, no guarantee",
    "backtrack-first-random": "none: the first board of a randomised search (the control)",
}


def _key(board) -> tuple:
    return tuple(sorted(map(repr, board)))


def draws(puzzle, sampler: str, n: int, seed: int = 1) -> list:
    """``n`` verified boards of ``puzzle`` from ``sampler``."""
    if sampler == "backtrack-first-random":
        out = []
        for i in range(n):
            res, ok = solving.solve_verified(solving.get("backtrack", {"seed": seed + i}), puzzle, "first", Limits())
            assert ok, res.message
            out += res.solutions
        return out
    opts = {"seed": seed}
    res, ok = solving.solve_verified(solving.get(sampler, opts), puzzle, "sample", Limits(solutions=n))
    if not ok or len(res.solutions) != n:
        raise RuntimeError(f"{sampler}: {res.status} {res.message}")
    return res.solutions


def uniformity_table(name: str = "dominoes-4x4", n: int = 3600, samplers=SAMPLERS, seed: int = 1) -> list[dict]:
    """The chi-square test of each sampler on the built-in ``name``: one row a sampler."""
    from scipy.stats import chisquare

    puzzle = catalog.load(name)
    res, _ = solving.solve_verified(solving.get("backtrack"), puzzle, "all", Limits())
    index = {_key(b): i for i, b in enumerate(res.solutions)}
    rows = []
    for s in samplers:
        try:
            t0 = time.perf_counter()
            boards = draws(puzzle, s, n, seed)
        except UsageError as e:  # the counters extra absent: the row says so
            rows.append({"sampler": s, "guarantee": GUARANTEES[s], "draws": 0, "p_value": None, "note": str(e)})
            continue
        bins = [0] * len(index)
        for b in boards:
            bins[index[_key(b)]] += 1
        p = float(chisquare(bins).pvalue)
        rows.append(
            {
                "sampler": s,
                "guarantee": GUARANTEES[s],
                "draws": len(boards),
                "solutions": len(index),
                "never_drawn": bins.count(0),
                "min_bin": min(bins),
                "max_bin": max(bins),
                "chi2_p_value": p,
                "uniform_at_5pct": "no departure found" if p >= 0.05 else "rejected",
                "seconds": round(time.perf_counter() - t0, 2),
            }
        )
    return rows
