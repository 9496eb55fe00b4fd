"""Placements per second of `edge-backtrack` on 8x8 puzzles, per search order.

    .venv/bin/python benchmarks/bench_edge.py [--seconds 10] [--puzzle brendan-8x8]

Counts for a fixed time (the count itself would take hours), after a warm-up
call so the numba cache is loaded; prints placements per second per order.
"""

import argparse
import time

import solving
from puzzles import catalog


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--puzzle", default="brendan-8x8")
    ap.add_argument("--orders", default="rowscan,colscan,spiral,frame-first")
    a = ap.parse_args()
    p = catalog.load(a.puzzle)
    t0 = time.perf_counter()
    solving.get("edge-backtrack").solve(catalog.load("brendan-4x4"), mode="count")
    print(f"warm-up (numba cache load or compile): {time.perf_counter() - t0:.2f} s")
    for order in a.orders.split(","):
        r = solving.get("edge-backtrack", {"order": order}).solve(
            p, mode="count", limits=solving.Limits(time_s=a.seconds)
        )
        print(
            f"{a.puzzle:>14} {order:>12}: {r.stats['nodes']:>13,} placements in {r.stats['time_s']:.1f} s "
            f"= {r.stats['placements_per_s'] / 1e6:6.1f} M/s"
        )


if __name__ == "__main__":
    main()
