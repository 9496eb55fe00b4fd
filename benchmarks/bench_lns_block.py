"""The CP-SAT block of the Eternity II repair: which formulation proves a block optimal, and how fast.

    .venv/bin/python benchmarks/bench_lns_block.py [--blocks 8] [--seconds 10] [--beam-seconds 20]

A board from the beam (``eternity2-corners-0``, best mode, no repair), then ``--blocks`` blocks of k x k
cells around random mismatches for k = 3, 4, 5, each solved by both formulations of
``baseline/beam/repair_cpsat.py`` in turn (the same blocks, interleaved), one worker, ``--seconds`` a block:
the blocks proven optimal, the median seconds, and the joins gained.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import solving
from baseline.beam.repair import Repair, _mismatched
from baseline.beam.repair_cpsat import CpsatBlock
from puzzles import catalog

MODELS = ("tables", "one-hot")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--beam-seconds", type=float, default=20.0)
    a = ap.parse_args()
    p = catalog.load("eternity2-corners-0")
    r, _ = solving.solve_verified(
        solving.get("beam", {"repair": 0.0}), p, "best", solving.Limits(time_s=a.beam_seconds)
    )
    print(f"the beam's board: {r.best_score}/480")
    rep = Repair(p, 0)
    pc0, rt0 = rep.board(r.solutions[0])
    bad = _mismatched(pc0, rt0, rep.col, rep.nb)
    rows = []
    for k in (3, 4, 5):
        rng = np.random.default_rng(k)
        got = {m: [] for m in MODELS}
        for _ in range(a.blocks):
            block = CpsatBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rng, a.seconds, k, k, k)
            cells = block._block(pc0, rt0, bad)
            for m in MODELS:
                b = CpsatBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rng, a.seconds, k, k, k, m)
                pc, rt = pc0.copy(), rt0.copy()
                t = time.perf_counter()
                gain = b.step(pc, rt, bad, cells)
                got[m].append((b.stats["cpsat_optimal"], time.perf_counter() - t, gain))
        for m in MODELS:
            xs = got[m]
            rows.append(
                (
                    k,
                    m,
                    sum(o for o, _, _ in xs),
                    len(xs),
                    statistics.median(t for _, t, _ in xs),
                    sum(g for *_, g in xs),
                )
            )
            print(
                f"k={k} {m:8} proven {rows[-1][2]}/{rows[-1][3]}  median {rows[-1][4]:.2f} s  joins gained {rows[-1][5]}",
                flush=True,
            )
    print("\n| block | formulation | proven optimal | median seconds | joins gained |")
    print("|---|---|---|---|---|")
    for k, m, o, n, t, g in rows:
        print(f"| {k}x{k} | {m} | {o}/{n} | {t:.2f} | {g} |")


if __name__ == "__main__":
    main()
