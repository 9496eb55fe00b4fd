"""Spread and significance of benchmark times: what a reviewer asks of a table before believing a ranking.

* ``spread``: a configuration's median with its interquartile range, and PAR-2 with a bootstrap 95% interval
  (resampling its cells);
* ``paired``: two configurations on the cells both ran (same instance, same repeat): the instances each answers
  that the other does not, the per-cell speedups with their geometric mean and a bootstrap 95% interval, and
  the Wilcoxon signed-rank test's p-value (scipy) on the PAR-2 times;
* ``verdict``: the one line a reviewer can quote.

The bootstrap is seeded, so a table printed twice is the same table.  Times are PAR-2 times (an unanswered
cell counts twice its limit), so a cell one configuration answers and the other does not weighs in the test.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import numpy as np

BOOTSTRAP = 2000  # resamples of a bootstrap interval
SEED = 20070728  # the bootstrap's seed: Eternity II's launch day
ALPHA = 0.05
# a speedup below this counts as none: times of a few milliseconds differ by the clock's grain, not by the solver
FLOOR_S = 1e-3


def _rng() -> np.random.Generator:
    return np.random.default_rng(SEED)


def iqr(ts: list[float]) -> tuple[float, float] | None:
    """The interquartile range (25th and 75th percentiles) of ``ts``; None for fewer than two."""
    if len(ts) < 2:
        return None
    q1, q3 = np.percentile(np.asarray(ts, dtype=float), [25, 75])
    return float(q1), float(q3)


def bootstrap_mean(ts: list[float], level: float = 0.95) -> tuple[float, float] | None:
    """A percentile bootstrap interval of the mean of ``ts`` (PAR-2 over cells); None for fewer than two."""
    if len(ts) < 2:
        return None
    a = np.asarray(ts, dtype=float)
    idx = _rng().integers(0, len(a), size=(BOOTSTRAP, len(a)))
    means = a[idx].mean(axis=1)
    lo, hi = np.percentile(means, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return float(lo), float(hi)


@dataclass
class Paired:
    """Configuration ``a`` against ``b`` on the cells both ran."""

    a: str
    b: str
    pairs: int  # cells both ran
    only_a: list[str]  # instances (cell names) a answered and b did not
    only_b: list[str]
    both: int  # cells both answered
    a_faster: int  # cells where a took less time (PAR-2 times, beyond FLOOR_S)
    b_faster: int
    speedup: float | None  # geometric mean of b's time / a's time: above 1, a is faster
    speedup_ci: tuple[float, float] | None
    p_value: float | None  # Wilcoxon signed-rank, two-sided; None when every pair ties or there are too few
    tested: int = 0  # the pairs that differ: the test's n
    speedup_both: float | None = None  # the geometric mean over the cells both answered (no censored time in it)
    overloaded: int = 0  # cells of either side measured on an overloaded machine

    @property
    def p_floor(self) -> float | None:
        """The smallest two-sided p-value the exact test can give with ``tested`` pairs (every sign alike):
        2 / 2^n.  With 3 pairs it is 0.25: no difference can be significant, whatever the times."""
        return None if self.tested < 1 else min(1.0, 2.0 / 2**self.tested)

    @property
    def significant(self) -> bool:
        """Whether the difference is significant at ``ALPHA``."""
        return self.p_value is not None and self.p_value < ALPHA

    def as_dict(self) -> dict:
        """The comparison as JSON-ready fields, with its verdict."""
        return {
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "both_answered": self.both,
            "a_faster": self.a_faster,
            "b_faster": self.b_faster,
            "speedup": self.speedup,
            "speedup_ci": list(self.speedup_ci) if self.speedup_ci else None,
            "p_value": self.p_value,
            "tested_pairs": self.tested,
            "p_floor": self.p_floor,
            "speedup_both_answered": self.speedup_both,
            "overloaded_cells": self.overloaded,
            "significant": self.significant,
            "verdict": verdict(self),
        }


def geometric_ci(ratios: list[float], level: float = 0.95) -> tuple[float, float] | None:
    """A bootstrap interval of the geometric mean of ``ratios`` (resampled in log space)."""
    if len(ratios) < 2:
        return None
    logs = np.log(np.asarray(ratios, dtype=float))
    idx = _rng().integers(0, len(logs), size=(BOOTSTRAP, len(logs)))
    means = logs[idx].mean(axis=1)
    lo, hi = np.percentile(means, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
    return float(math.exp(lo)), float(math.exp(hi))


def wilcoxon_p(x: list[float], y: list[float]) -> float | None:
    """The two-sided Wilcoxon signed-rank p-value of paired ``x`` against ``y``; None when all pairs tie or
    there are fewer than two that differ."""
    from scipy.stats import wilcoxon

    diffs = [a - b for a, b in zip(x, y) if abs(a - b) > FLOOR_S]
    if len(diffs) < 2:
        return None
    return float(wilcoxon(diffs).pvalue)


def paired(a: str, b: str, cells_a: dict, cells_b: dict) -> Paired:
    """``a`` against ``b``: ``cells_x`` maps a cell (instance name, repeat) to (answered, PAR-2 time)."""
    keys = sorted(set(cells_a) & set(cells_b), key=str)
    only_a = sorted({str(k[0]) for k in keys if cells_a[k][0] and not cells_b[k][0]})
    only_b = sorted({str(k[0]) for k in keys if cells_b[k][0] and not cells_a[k][0]})
    ta = [max(cells_a[k][1], FLOOR_S) for k in keys]
    tb = [max(cells_b[k][1], FLOOR_S) for k in keys]
    ratios = [y / x for x, y in zip(ta, tb)]
    speedup = math.exp(statistics.fmean(math.log(r) for r in ratios)) if ratios else None
    solved = [y / x for k, x, y in zip(keys, ta, tb) if cells_a[k][0] and cells_b[k][0]]
    speedup_both = math.exp(statistics.fmean(math.log(r) for r in solved)) if solved else None
    return Paired(
        a=a,
        b=b,
        pairs=len(keys),
        only_a=only_a,
        only_b=only_b,
        both=sum(1 for k in keys if cells_a[k][0] and cells_b[k][0]),
        a_faster=sum(1 for x, y in zip(ta, tb) if y - x > FLOOR_S),
        b_faster=sum(1 for x, y in zip(ta, tb) if x - y > FLOOR_S),
        speedup=speedup,
        speedup_ci=geometric_ci(ratios),
        p_value=wilcoxon_p(ta, tb),
        tested=sum(1 for x, y in zip(ta, tb) if abs(x - y) > FLOOR_S),
        speedup_both=speedup_both,
    )


def verdict(p: Paired) -> str:
    """One line a reviewer can quote."""
    if not p.pairs:
        return f"{p.a} and {p.b} ran no cell in common: no comparison"
    ci = f" (95% CI {p.speedup_ci[0]:.2f}-{p.speedup_ci[1]:.2f})" if p.speedup_ci else ""
    if p.p_value is None:
        pv = "too few differing pairs for a test"
    else:
        pv = f"Wilcoxon signed-rank p = {p.p_value:.3g} on n = {p.tested} differing pairs (the least n allows: {p.p_floor:.2g})"
        if p.p_floor is not None and p.p_floor >= ALPHA:
            pv += ", so no difference could be significant"
    if p.speedup is None:
        how = "no times"
    elif p.speedup >= 1:
        how = f"{p.a} is {p.speedup:.2f}x as fast as {p.b}{ci}"
    else:
        how = f"{p.a} is {1 / p.speedup:.2f}x slower than {p.b}{ci}"
    sig = "significant at 5%" if p.significant else "not significant at 5%"
    both = ""
    if p.speedup_both is not None and p.both < p.pairs:  # censored cells pooled above: the common ones apart
        r = p.speedup_both
        both = (f"; on the {p.both} cells both answered, {p.a} is "
                + (f"{r:.2f}x as fast" if r >= 1 else f"{1 / r:.2f}x slower"))  # fmt: skip
    over = f"; {p.overloaded} of the cells were measured on an overloaded machine" if p.overloaded else ""
    return (
        f"On {p.pairs} paired cells, {how} (geometric mean of per-cell ratios, PAR-2){both}; {p.a} faster on "
        f"{p.a_faster}, {p.b} on {p.b_faster}; answered by {p.a} only: {len(p.only_a)}, by {p.b} only: "
        f"{len(p.only_b)}; {pv}: {sig}{over}."
    )
