"""Selby's crude model of a polyform puzzle (seed 000): each piece has t ways, on average, of covering a site,
so with i pieces placed a site has b_i = (N - i) t ways to be covered.

* the solutions of an N-piece puzzle: the product of the b_i, N! t^N;
* the critical size c: the least N for which N! t^N reaches one;
* an exhaustive search's nodes: 1 + b_0 (1 + b_1 (1 + ...)), the sum over k of N!/(N-k)! t^k (every partial
  tiling of k pieces is a node).

The talk calls the model "too crude to use the numbers which come out of it"; it predicts "about 10^12"
operations to exhaust the critical size, which Selby believes far too low, and he guesses at least 10^20 for
one solution by plain exhaust.  This module computes what the model gives for any t, so that the talk's and
seed 002's figures can be held to it.  Read as the seeds write them, "t about 0.03" admits t = 0.0348, which gives
c = 75 (seed 002's figure) and 10^12.5 nodes to exhaust it (the talk's "about 10^12"): the model as written
reproduces both; t = 0.03 to the digit gives c = 88 and 10^14.7.  The talk's c of "about 70 or 80" and its 10^95
solutions were estimated "in a way not dependent on" this model, so the model is not held to them.
All values are log10, from ``math.lgamma``: exact to rounding for any size.
"""

from __future__ import annotations

import math

LOG10 = math.log(10)


def log10_solutions(n: int, t: float) -> float:
    """log10 of N! t^N."""
    return (math.lgamma(n + 1) + n * math.log(t)) / LOG10


def critical(t: float, limit: int = 100_000) -> int | None:
    """The least N with N! t^N >= 1 (None past ``limit``)."""
    for n in range(1, limit + 1):
        if log10_solutions(n, t) >= 0:
            return n
    return None


def log10_exhaust(n: int, t: float) -> float:
    """log10 of the nodes of an exhaustive search of an N-piece puzzle: the sum over k = 0..N of
    N!/(N-k)! t^k (summed in log space)."""
    terms = [(math.lgamma(n + 1) - math.lgamma(n - k + 1) + k * math.log(t)) / LOG10 for k in range(n + 1)]
    top = max(terms)
    return top + math.log10(sum(10 ** (x - top) for x in terms))


def t_for_critical(c: float) -> float:
    """The t at which the critical size is ``c`` (c! t^c = 1): t = (c!)^(-1/c)."""
    return math.exp(-math.lgamma(c + 1) / c)


def model(t: float, pieces: int) -> dict:
    """What the crude model gives for ``t`` and a set of ``pieces``: c, the solutions of the full set, the
    exhaust of a critical-size puzzle and of the full set (log10)."""
    c = critical(t)
    return {
        "t": t,
        "pieces": pieces,
        "critical_size": c,
        "log10_solutions_all_pieces": log10_solutions(pieces, t),
        "log10_exhaust_at_critical": None if c is None else log10_exhaust(c, t),
        "log10_exhaust_all_pieces": log10_exhaust(pieces, t),
        "t_for_c_75": t_for_critical(75),
        "log10_exhaust_at_75": log10_exhaust(75, t_for_critical(75)),
    }


def lines(m: dict) -> list[str]:
    """``model``'s figures as `eternity estimate --selby-t` prints them, beside the talk's and seed 002's."""
    c, n = m["critical_size"], m["pieces"]
    out = [
        f"Selby's crude model, t = {m['t']:g}, b_i = (N - i) t, {n} pieces (seed 000)",
        f"critical size       c = {c} (the least N with N! t^N >= 1); seed 002: 75 from this model; seed 000's "
        "70-80 was estimated apart from it",
        f"all {n} pieces      10^{m['log10_solutions_all_pieces']:.1f} solutions (N! t^N); seed 002: 10^95 with t "
        "about 0.03; seed 000's 10^95 was estimated apart from the model",
    ]
    if c is not None:
        out.append(
            f"exhaust at c        10^{m['log10_exhaust_at_critical']:.1f} nodes (1 + b_0(1 + b_1(1 + ...)) at N = c), "
            "the cost of one solution of the full set by plain exhaust in this model; seed 000: the model predicts "
            "about 10^12, Selby guesses at least 10^20"
        )
    out += [
        f"exhaust, all pieces 10^{m['log10_exhaust_all_pieces']:.1f} nodes (no stop at a solution)",
        f"t for c = 75        {m['t_for_c_75']:.4f} (c! t^c = 1), which is about 0.03: seed 002's t and c agree, and "
        f"the exhaust at c = 75 is 10^{m['log10_exhaust_at_75']:.1f} nodes, the talk's about 10^12",
        "the model is, in the talk's words, too crude to use its numbers: it holds as a plausibility argument",
    ]
    return out
