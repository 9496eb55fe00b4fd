"""The end game's statistics: how well a score orders states by their fate (a concordance), each level's fates
and excess-piece exhausts summed up, and the critical level with its bootstrap interval.  Plain functions of the
rows the end game writes (``experiments.studies.endgame``), apart from its searches."""

from __future__ import annotations

import numpy as np

from puzzles.errors import UsageError


def concordance(score: np.ndarray, fate: np.ndarray) -> tuple[float, int]:
    """(the fraction of pairs of states with different fates that ``score`` orders as their fates are
    ordered, ties in score counting half; the number of such pairs).  Harrell's C: 0.5 is chance."""
    score, fate = np.asarray(score, float), np.asarray(fate, float)
    ds = np.sign(score[:, None] - score[None, :])
    df = np.sign(fate[:, None] - fate[None, :])
    upper = np.triu(np.ones_like(df, bool), 1) & (df != 0)
    n = int(upper.sum())
    if n == 0:
        return float("nan"), 0
    agree = (ds == df)[upper].sum() + 0.5 * (ds == 0)[upper].sum()
    return float(agree / n), n


def fate_summary(rows: list[dict]) -> dict:
    """How one level's exhausts ended, their median cost, and how deep the deepest got."""
    outcomes = [r["outcome"] for r in rows]
    return {
        "states": len(rows),
        **{o: outcomes.count(o) for o in ("tiled", "dead", "undecided")},
        "median_nodes": float(np.median([r["nodes"] for r in rows])) if rows else None,
        "median_seconds": float(np.median([r["seconds"] for r in rows])) if rows else None,
        "fewest_left": min((r["fewest_left"] for r in rows), default=None),
    }


def excess_summary(rows: list[dict]) -> dict:
    """One level's excess-piece exhausts: finished, cut short, tilings, cost."""
    done = [r for r in rows if r["outcome"] != "undecided"]
    return {
        "states": len(rows),
        "finished": len(done),
        "with_tilings": sum(1 for r in done if r["tilings"]),
        "tilings": int(sum(r["tilings"] for r in done)),
        "max_tilings": max((r["tilings"] for r in done), default=0),
        "median_nodes": float(np.median([r["nodes"] for r in rows])) if rows else None,
        "median_seconds": float(np.median([r["seconds"] for r in rows])) if rows else None,
        "seconds": round(float(sum(r["seconds"] for r in rows)), 1),
    }


def critical(rows: list[dict], boot: int = 2000, seed: int = 0) -> dict:
    """Selby's critical size by his excess-piece route: a state of k pieces' area offered n pieces has
    ``tilings / C(n, k)`` expected tilings for a k-set drawn from them; their mean over states is E(k), a
    region of k with k pieces.  Seed 000's crude model E(N) = N! t^N then gives t, the size c where
    E(c) = 1, and the full board's E(209); the intervals are a bootstrap over states (90%)."""
    from math import comb, lgamma, log

    done = [r for r in rows if r["outcome"] != "undecided"]
    ks = {r["left"] for r in done}
    if len(ks) != 1 or not done:
        raise UsageError("endgame: the critical size needs finished excess exhausts of one size")
    k = ks.pop()
    e = np.array([r["tilings"] / comb(len(r["own"]) + len(r["offered"]), k) for r in done])

    def figures(mean: float) -> tuple[float, float, float]:
        if mean <= 0:
            return float("nan"), float("nan"), float("nan")
        log_t = (log(mean) - lgamma(k + 1)) / k
        # E(N) = N! t^N crosses 1 where lgamma(N + 1) + N log t = 0: the first N where it turns positive
        c = next((n for n in range(1, 100_000) if lgamma(n + 1) + n * log_t >= 0), float("inf"))
        return float(np.exp(log_t)), float(c), float((lgamma(210) + 209 * log_t) / log(10))

    t, c, full = figures(float(e.mean()))
    rng = np.random.default_rng(seed)
    draws = np.array([figures(float(rng.choice(e, len(e)).mean())) for _ in range(boot)])
    lo, hi = np.nanpercentile(draws, 5, axis=0), np.nanpercentile(draws, 95, axis=0)
    return {
        "size": k,
        "states": len(done),
        "states_with_tilings": int((e > 0).sum()),
        "E_random_k_set": float(e.mean()),
        "log10_E": float(np.log10(e.mean())) if e.mean() > 0 else None,
        "t": t,
        "t_90": [float(lo[0]), float(hi[0])],
        "critical_size": c,
        "critical_size_90": [float(lo[1]), float(hi[1])],
        "log10_full_board_tilings": full,
        "log10_full_board_tilings_90": [float(lo[2]), float(hi[2])],
    }
