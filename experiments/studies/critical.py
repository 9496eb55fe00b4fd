"""The critical size of a polyform piece set: the N at which an N-piece region tiled by N pieces drawn at random
from the set is expected to have one solution (seed 000's c; seed 002 puts it near 75 for Eternity).

Below c, a random N-piece puzzle has on average far fewer than one solution, and those few are not found by
sampling random puzzles: nearly every one has none.  So the expectation is measured where it is large, and
divided down.  Offer a random region of N pieces' area *every* piece of the set (M of them): the number of
tilings it has, T(N), counts every N-subset's tilings at once, and since each N-subset of a random draw is
itself a random draw, E[T(N)] = C(M, N) E(N).  So E(N) = E[T(N)] / C(M, N), and c is where
E[T(c)] = C(M, c): the log of the tilings catching up with the log of the ways to choose the pieces.

E[T(N)] is measured at sizes where it can be, over random regions (``tilability.sample_region_first``: the
cells the first N pieces of a randomised search cover, from the edge of the set's own board), each counted
exactly or estimated without bias (``baseline.poly.counting``).  Selby's crude model has the count of an
N-piece puzzle as N! t^N, so T(N) = M!/(M-N)! t^N, and the measured T(N) give t at each N (``t_N``).  The
critical size and the whole set's solutions follow from t: E(N) = N! t^N crosses 1 at c, and a region of all
M pieces has M! t^M tilings (seed 000: about 10^95 for Eternity's 209).  Where t drifts with N (boundary
effects: a small region has more of its cells on its rim), the drift is fitted as
t_N = t_inf (1 - a / sqrt(N)) (a region's rim holds a share of its cells that falls as N^(-1/2)) and
extrapolated; the interval comes from resampling the regions at each size (bootstrap).

Where it can fail: t is measured at small N and carried to c and beyond, so a drift that the fit's form
does not capture moves c; regions cut by a search are easier to tile than arbitrary ones of the same area;
and an estimate's standard error, from a finite number of probes, can understate a heavy tail.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from baseline.poly.counting import DEFAULT_BUDGET, estimate_count
from baseline.xcc.backtrack import random_prefix
from baseline.xcc.searches import make_search
from puzzles.errors import UsageError
from puzzles.estimates.tilability import sample_region_first
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

LN10 = math.log(10)


def log_choose(m: int, n: int) -> float:
    """ln C(m, n)."""
    return math.lgamma(m + 1) - math.lgamma(n + 1) - math.lgamma(m - n + 1)


def _all_pieces_state(base: PolyformPuzzle, n: int, rng: random.Random) -> PolyformPuzzle:
    """A random region of ``n`` pieces' area with every piece of the set on offer (one copy each)."""
    region, _ = sample_region_first(base, n, rng, random_prefix)
    pieces = [PolyPiece(pc.name, pc.cells) for pc in base.pieces]
    return PolyformPuzzle(base.grid_name, region, pieces, base.mirror, name=f"{base.name}-region{n}")


def tilings(
    base: PolyformPuzzle,
    n: int,
    regions: int,
    seed: int = 0,
    probes: int = 200,
    budget: int = DEFAULT_BUDGET,
    time_s: float | None = None,
) -> list[dict[str, Any]]:
    """T for ``regions`` random regions of ``n`` pieces' area, every piece offered: per region its estimate,
    standard error and whether it is exact."""
    out = []
    for j in range(regions):
        rng = random.Random(f"{seed}/{base.name}/{n}/{j}")
        state = _all_pieces_state(base, n, rng)
        search = make_search(state.to_xcc(), engine="poly", grid=state.grid_name)
        r = estimate_count(search, probes=probes, seed=seed + j, budget=budget, time_s=time_s)
        out.append({"solutions": r["solutions"], "stderr": r["solutions_stderr"], "exact": r["exact"]})
    return out


def _t_of(mean_t: float, m: int, n: int) -> float | None:
    """Selby's t from the mean tilings of n-piece regions with all m pieces offered: T = m!/(m-n)! t^n."""
    if mean_t <= 0:
        return None
    return math.exp((math.log(mean_t) - (math.lgamma(m + 1) - math.lgamma(m - n + 1))) / n)


def _fit(ns: list[int], ts: list[float]) -> tuple[float, float]:
    """t_N = t_inf (1 - a / sqrt(N)), fitted by least squares in 1/sqrt(N): the share of a 2-D region's cells
    on its rim goes as N^(-1/2), and rim cells are where a region is harder to tile.  One size: t constant."""
    if len(ns) == 1:
        return ts[0], 0.0
    x = np.array([1.0 / math.sqrt(n) for n in ns])
    slope, intercept = np.polyfit(x, np.array(ts), 1)
    return float(intercept), float(-slope / intercept) if intercept else 0.0


def _crossing(t_inf: float, a: float, m: int) -> float | None:
    """The real N in 1..m where ln(N! t_N^N) crosses 0 (None when it does not within the set)."""

    def f(x: float) -> float:
        t = t_inf * (1 - a / math.sqrt(x))
        return math.lgamma(x + 1) + x * math.log(t) if t > 0 else -math.inf

    lo, hi = 1.0, float(m)
    if f(hi) < 0:
        return None
    if f(lo) >= 0:
        return lo
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    return (lo + hi) / 2


def _summary(ns: list[int], per_n: dict[int, list[float]], m: int) -> dict[str, Any] | None:
    means = {n: float(np.mean(per_n[n])) for n in ns}
    used = [n for n in ns if means[n] > 0]
    if not used:
        return None
    ts = [_t_of(means[n], m, n) for n in used]
    t_inf, a = _fit(used, [t for t in ts if t is not None])
    c = _crossing(t_inf, a, m)
    t_m = t_inf * (1 - a / math.sqrt(m))
    log10_all = (math.lgamma(m + 1) + m * math.log(t_m)) / LN10 if t_m > 0 else None
    return {"t_inf": t_inf, "a": a, "critical": c, "log10_solutions_all": log10_all}


def critical_size(
    base: PolyformPuzzle,
    sizes: list[int],
    regions: int = 8,
    seed: int = 0,
    probes: int = 200,
    budget: int = DEFAULT_BUDGET,
    time_s: float | None = None,
    resamples: int = 400,
    progress: Callable[[dict], None] | None = None,
) -> dict[str, Any]:
    """The critical size of ``base``'s piece set and the solutions of a region of all its pieces (module
    docstring), from ``regions`` random regions at each of ``sizes`` (pieces' area), with a 90% interval
    from resampling the regions.

    Args:
        base: a polyform puzzle whose pieces are the set (one size of piece) and whose region is the board
            the random regions are cut from.
        sizes: region sizes N to measure, in pieces.
        regions: random regions at each size.
        seed: the regions' and the probes' seed.
        probes: probes of each region's count estimate (a region whose exhaust fits ``budget`` is exact).
        budget: placements an exhaust may take in a probe.
        time_s: the most seconds one region's estimate may take.
        resamples: bootstrap resamples of the regions for the interval.
        progress: called after each region with the size, the region and its estimate.
    """
    m = len(base.pieces)
    if len({len(pc.cells) for pc in base.pieces}) != 1 or any(pc.count != 1 for pc in base.pieces):
        raise UsageError("critical size: the set's pieces must be of one size, one copy each")
    bad = [n for n in sizes if not 1 <= n < m]
    if bad:
        raise UsageError(f"critical size: region sizes are 1 to {m - 1} pieces (the set has {m}), not {bad[0]}")
    per_n: dict[int, list[float]] = {}
    rows = []
    for n in sizes:
        got = []
        for j, r in enumerate(tilings(base, n, regions, seed, probes, budget, time_s)):
            got.append(r["solutions"])
            if progress is not None:
                progress({"size": n, "region": j + 1, "tilings": r["solutions"]})
        per_n[n] = got
        mean = float(np.mean(got))
        se = float(np.std(got, ddof=1) / math.sqrt(len(got))) if len(got) > 1 else None
        t = _t_of(mean, m, n)
        log_e = math.log10(mean) - log_choose(m, n) / LN10 if mean > 0 else None
        rows.append(
            {
                "size": n,
                "regions": len(got),
                "mean_tilings_all_pieces": mean,
                "stderr": se,
                "log10_expected_solutions": log_e,
                "selby_t": t,
            }
        )
    point = _summary(sizes, per_n, m)
    rng = np.random.default_rng(seed)
    boot_c, boot_all = [], []
    for _ in range(resamples):
        sample = {n: list(rng.choice(per_n[n], size=len(per_n[n]), replace=True)) for n in sizes}
        s = _summary(sizes, sample, m)
        if s is not None:
            boot_c.append(s["critical"] if s["critical"] is not None else math.inf)
            if s["log10_solutions_all"] is not None:
                boot_all.append(s["log10_solutions_all"])

    def interval(xs: list[float]) -> list[float | None] | None:
        """The 5th and 95th percentiles; None for a bound past the set (no crossing within it)."""
        if not xs:
            return None
        lo, hi = (float(np.percentile(xs, q, method="nearest")) for q in (5, 95))
        return [lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None]

    return {
        "set": base.name,
        "pieces": m,
        "sizes": rows,
        "selby_t_inf": point["t_inf"] if point else None,
        "selby_t_drift": point["a"] if point else None,
        "critical_size": point["critical"] if point else None,
        "critical_size_90": interval(boot_c),
        "log10_solutions_all_pieces": point["log10_solutions_all"] if point else None,
        "log10_solutions_all_pieces_90": interval(boot_all),
        "method": "tilings of random regions with every piece offered, divided by C(M, N); Selby's t fitted "
        "as t_inf (1 - a/sqrt(N)) and carried to c and to M (experiments/studies/critical.py)",
    }


CRITICAL_SIZES = (3, 5, 7, 9, 11)  # sizes a family's critical size is measured at by default


def default_sizes(m: int) -> list[int]:
    """Sizes at which to measure a set of ``m`` pieces: 3 to 11 by 2, within the set."""
    return [n for n in CRITICAL_SIZES if n < m] or [max(1, m - 1)]


def cache_dir() -> Path:
    """Where measured critical sizes are kept: ``$ETERNITY_CACHE_DIR/critical``, else
    ``~/.cache/eternity/critical``."""
    root = os.environ.get("ETERNITY_CACHE_DIR") or str(Path.home() / ".cache" / "eternity")
    return Path(root) / "critical"


def cached_critical_size(
    base: PolyformPuzzle,
    sizes: list[int],
    regions: int,
    seed: int,
    probes: int,
    budget: int = DEFAULT_BUDGET,
    progress: Callable[[dict], None] | None = None,
) -> dict[str, Any]:
    """``critical_size`` with no time limit (so the same arguments give the same figures), kept on disk
    under a key of the set's pieces, its board and the arguments: a runner that classes a family's
    instances by it measures a set once, not at every run or resume."""
    key = json.dumps(
        {
            "pieces": sorted(sorted(map(list, pc.cells)) for pc in base.pieces),
            "region": sorted(map(list, base.region)),
            "grid": base.grid_name,
            "mirror": base.mirror,
            "sizes": list(sizes),
            "regions": regions,
            "seed": seed,
            "probes": probes,
            "budget": budget,
        },
        sort_keys=True,
    )
    path = cache_dir() / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"
    kept = _unsealed(path, key)
    if kept is not None:
        return kept
    got = critical_size(base, sizes, regions, seed, probes, budget, None, progress=progress)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "result": got, "seal": _seal(key, got)}))
        os.replace(tmp, path)
    except OSError:  # a read-only home: measured again next time, nothing lost
        pass
    return got


def _seal(key: str, result: dict[str, Any]) -> str:
    return hashlib.sha256((key + "\0" + json.dumps(result, sort_keys=True)).encode()).hexdigest()


def _unsealed(path: Path, key: str) -> dict[str, Any] | None:
    """A cached measurement, when its file is whole and its seal holds (the key and the figures hashed together):
    an edited interval would class sub-critical instances as super-critical, and a file of ``{}`` or ``null``
    would fail the run; either is measured again instead."""
    try:
        d = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(d, dict) or d.get("key") != key or not isinstance(d.get("result"), dict):
        return None
    if d.get("seal") != _seal(key, d["result"]) or "pieces" not in d["result"]:
        return None
    return d["result"]


def classify_size(n: int, result: dict[str, Any]) -> str:
    """The class of an n-piece puzzle of a set whose critical size was measured (``critical_size``):
    sub-critical below the 90% interval, super-critical above it, near-critical inside it.  A bound past
    the set (no crossing within it) counts as the set's size."""
    lo, hi = result.get("critical_size_90") or [None, None]
    lo = result["pieces"] if lo is None else lo
    hi = result["pieces"] if hi is None else hi
    if n < lo:
        return "sub-critical"
    if n > hi:
        return "super-critical"
    return "near-critical"


def expected_solutions(n: int, result: dict[str, Any]) -> float | None:
    """N! t_N^N: the expected solutions of an n-piece puzzle of the set by the fit of ``critical_size``."""
    t_inf, a = result.get("selby_t_inf"), result.get("selby_t_drift") or 0.0
    if t_inf is None:
        return None
    t = t_inf * (1 - a / math.sqrt(n))
    if t <= 0:
        return 0.0
    return float(math.exp(min(700.0, math.lgamma(n + 1) + n * math.log(t))))
