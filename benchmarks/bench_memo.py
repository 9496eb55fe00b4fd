"""Memoised counting (``backtrack --opt memo=true``, DXZ) against the plain Algorithm C count and
against xcover's ZDD mode, on the same XCC problems, interleaved, in one run.

    .venv/bin/pip install xcover       # optional peer
    .venv/bin/python benchmarks/bench_memo.py [--repeats 3]

In-process times of the count alone (the XCC built, the numba kernels warmed
first); best of the repeats, in the order plain, memo, xcover within each
repeat.  The plain count and xcover run only on the instances marked as
finishing (the plain search enumerates every solution; xcover's ZDD mode ran
over 20 minutes on dominoes-10x10 without an answer).  xcover's count is read
from its ZDD nodes (index, option, lo, hi) and checked against ours.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from baseline.runtime.kernel import BUDGET, NO_BOUND
from baseline.xcc.backtrack import count_xcc
from baseline.xcc.memo import MemoSearch
from puzzles import catalog

# (puzzle, whether the plain search finishes in minutes)
INSTANCES = [
    ("dominoes-6x8", True),
    ("dominoes-8x8", True),
    ("trominoes-3x15", True),
    ("aztec-6", True),
    ("pentomino-6x10", True),
    ("queens-12", True),
    ("dominoes-10x10", False),
    ("aztec-10", False),
    ("pentominoes-3x30", False),
    ("tetrominoes-4x20", False),
]


def memo_count(xcc) -> tuple[int, dict]:
    s = MemoSearch(xcc)
    while s.step(NO_BOUND) == BUDGET:
        pass
    return s.diagram().count(), {"nodes": s.nodes, **s.stats()}


def xcover_count(xcc) -> int | None:
    try:
        import xcover
    except ImportError:
        return None
    opts = [
        [xcc.item_names[i] for i in xcc.opt_items[xcc.opt_ptr[k] : xcc.opt_ptr[k + 1]]] for k in range(xcc.n_options)
    ]
    c = {0: 0, 1: 1}
    root = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for idx, _opt, lo, hi in xcover.covers_zdd(
            opts,
            primary=xcc.item_names[: xcc.n_primary],
            secondary=xcc.item_names[xcc.n_primary :],
            use_memo_cache=True,
        ):
            c[idx] = c[lo] + c[hi]
            root = idx
    return c[root]


def timed(fn, *args):
    """(seconds, result) of one call."""
    t0 = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--xcover-cap", type=int, default=200_000, help="skip xcover above this many options x items")
    a = ap.parse_args()
    warm = catalog.load("dominoes-2x3").to_xcc()
    memo_count(warm), count_xcc(warm, "bitset"), xcover_count(warm)
    print(
        "| puzzle | count | plain s | memo s | plain / memo | memo nodes | diagram nodes | xcover ZDD s | "
        "xcover count |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for name, plain_ok in INSTANCES:
        xcc = catalog.load(name).to_xcc()
        times: dict[str, list[float]] = {"plain": [], "memo": [], "xcover": []}
        n_plain = n_x = None
        for _ in range(a.repeats):  # interleaved: one of each per round
            if plain_ok:
                t, n_plain = timed(count_xcc, xcc, "bitset")
                times["plain"].append(t)
            t, (n_memo, st) = timed(memo_count, xcc)
            times["memo"].append(t)
            if plain_ok and xcc.n_options * xcc.n_items <= a.xcover_cap:  # (it took over 20 min on 10x10)
                t, n_x = timed(xcover_count, xcc)
                times["xcover"].append(t)
        if n_plain is not None:
            assert n_plain == n_memo, (name, n_plain, n_memo)
        t_plain, t_memo, t_x = (min(v) if v else float("nan") for v in times.values())
        ratio = f"{t_plain / t_memo:,.1f}x" if times["plain"] else "(plain not run)"
        xc = "not run" if n_x is None else (f"{n_x:,} ({'right' if n_x == n_memo else 'WRONG'})")
        print(
            f"| {name} | {n_memo:,} | {t_plain:.3f} | {t_memo:.4f} | {ratio} | {st['nodes']:,} | "
            f"{st['diagram_nodes']:,} | {t_x:.3f} | {xc} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
