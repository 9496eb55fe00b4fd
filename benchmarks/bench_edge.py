"""Placements per second of `edge-backtrack` on 8x8 puzzles, per search order and kernel.

    .venv/bin/python benchmarks/bench_edge.py [--seconds 10] [--rounds 3] [--puzzle brendan-8x8]
        [--orders rowscan,spiral] [--kernels generated,generated-depth,tables]

Counts for a fixed time (the count itself would take hours), after a first call that compiles or
loads each kernel, so neither compilation nor cache loading is in a rate.  The kernels run
interleaved, round by round, and the ratio of each kernel to the last one named is printed per
round: a ratio measured in one session, not a wall-clock figure.
"""

import argparse
import statistics

import solving
from puzzles import catalog


def options(order: str, kernel: str) -> dict:
    """``tables``, ``generated`` or ``generated-`` with ``depth``/``shape`` (unrolling) and
    ``masks``/``lists`` (candidates), e.g. ``generated-shape-lists``."""
    kind, *rest = kernel.split("-")
    opts = {"order": order, "kernel": kind}
    for x in rest:  # generated-depth, generated-shape-lists, ...
        opts["candidates" if x in ("masks", "lists") else "unroll"] = x
    return opts


def rate(puzzle, order: str, kernel: str, seconds: float) -> tuple[int, float, float]:
    r = solving.get("edge-backtrack", options(order, kernel)).solve(
        puzzle, mode="count", limits=solving.Limits(time_s=seconds)
    )
    return r.stats["nodes"], r.stats["time_s"], r.stats["placements_per_s"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--puzzle", default="brendan-8x8")
    ap.add_argument("--orders", default="rowscan,spiral")
    ap.add_argument("--kernels", default="generated,tables")
    a = ap.parse_args()
    p = catalog.load(a.puzzle)
    kernels = a.kernels.split(",")
    for order in a.orders.split(","):
        for kernel in kernels:  # compile or load before any timing
            r = solving.get("edge-backtrack", options(order, kernel)).solve(
                p, mode="count", limits=solving.Limits(nodes=1000)
            )
            print(
                f"{order:>12} {kernel:>9}: build {r.stats['build_s']:.2f} s (kernel {r.stats.get('compile_s', 0):.2f} s)"
            )
        ratios: dict[str, list[float]] = {k: [] for k in kernels}
        for rnd in range(a.rounds):
            rates = {}
            for kernel in kernels:
                nodes, secs, pps = rate(p, order, kernel, a.seconds)
                rates[kernel] = pps
                print(
                    f"{a.puzzle:>14} {order:>12} {kernel:>9} round {rnd + 1}: {nodes:>13,} placements in {secs:.1f} s = {pps / 1e6:6.1f} M/s"
                )
            for kernel in kernels:
                ratios[kernel].append(rates[kernel] / rates[kernels[-1]])
        for kernel in kernels[:-1]:
            rs = ratios[kernel]
            print(
                f"{order}: {kernel} / {kernels[-1]} = {statistics.median(rs):.2f} (rounds {', '.join(f'{x:.2f}' for x in rs)})"
            )


if __name__ == "__main__":
    main()
