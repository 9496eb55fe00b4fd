"""The distributed search's cut on paper: balance over 64 and 1,024 workers, and time to exhaust.

    .venv/bin/python benchmarks/bench_cut.py [--puzzles brendan-9x9,peak-8x8-3-9] [--workers 64,1024]
        [--probes 200] [--rate 5.5e7]

For each puzzle, the row scan is cut as ``eternity solve --executor dask`` cuts it (the shallowest
depth with 8 parts a worker), every part sized by Knuth's estimate, handed out largest first,
and re-cut where a part exceeds ``--share`` of a worker's mean load (``experiments/cluster/cut.py``).  Prints the
balance (the most loaded worker over the mean; 1 is perfect) before and after re-cutting, the
largest part's share of a worker's mean load, the estimated tree and the hours to exhaust it at
``--rate`` placements a second a core (the generated kernel's row scan on this machine:
``benchmarks/bench_edge.py``).  ``peak-8x8-3-9`` is the generated 8x8 board with 3 frame and 9 inner
colours of seed 1.  Knuth's estimate has a heavy tail: repeat with another ``--probes`` to see it move.
"""

import argparse
import math
import time

from experiments.cluster.cut import simulate
from puzzles import catalog
from puzzles.make import generate


def load(name: str):
    if name.startswith("peak-"):
        r, c, f, i = (int(x) for x in name[5:].replace("x", "-").split("-"))
        return generate.edge_puzzle(r, c, f, i, 1, name=name)[0]
    return catalog.load(name)


def _time(hours: float) -> str:
    return f"{hours:,.1f} h" if hours >= 1 else f"{hours * 60:.1f} min" if hours * 60 >= 1 else f"{hours * 3600:.1f} s"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzles", default="brendan-9x9,peak-8x8-3-9")
    ap.add_argument("--workers", default="64,1024")
    ap.add_argument("--probes", type=int, default=200)
    ap.add_argument("--rate", type=float, default=5.5e7)
    ap.add_argument("--share", type=float, default=0.25, help="re-cut parts above this share of a worker's mean load")
    a = ap.parse_args()
    workers = [int(w) for w in a.workers.split(",")]
    print(
        "| puzzle | workers | cut depth | parts | largest part / mean load | balance | parts re-cut | balance re-cut | estimated placements | hours to exhaust |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in a.puzzles.split(","):
        p = load(name)
        t0 = time.perf_counter()
        for r in simulate(p, workers, a.rate, a.probes, a.share):
            print(f"| {name} | {r.workers:,} | {r.depth} | {r.first_parts:,} | {r.largest_share:.1f} | {r.balance:.2f} | "
                  f"{r.parts:,} | {r.balance_recut:.2f} | 10^{math.log10(r.total):.1f} | {_time(r.hours)} |", flush=True)  # fmt: skip
        print(f"<!-- {name}: {time.perf_counter() - t0:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
