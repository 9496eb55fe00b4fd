"""Selby's claim, measured: above the critical size a pruned beam beats exhaustion.

    .venv/bin/python benchmarks/bench_beam.py [--size 10] [--frame 3] [--inner 6] [--seeds 7] [--seconds 60] [--width 10000]

Generated super-critical puzzles (few inner colours: many solutions); time to
a first verified solution of `beam` (default options) and of `edge-backtrack`
in row scan, both in this process, the same time limit, numba caches warm.
Prints per-puzzle times and the ratio of medians (unsolved = 2x limit).
"""

import argparse
import statistics
import time

import solving
from puzzles.estimates import estimate
from puzzles.make import generate
from puzzles.verify import verify


def timed(name, opts, p, seconds):
    t0 = time.perf_counter()
    r = solving.get(name, opts).solve(p, mode="first", limits=solving.Limits(time_s=seconds))
    dt = time.perf_counter() - t0
    ok = bool(r.solutions) and verify(p, r.solutions[0]).valid
    return (dt if ok else 2 * seconds), ok


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=10)
    ap.add_argument("--frame", type=int, default=3)
    ap.add_argument("--inner", type=int, default=6)
    ap.add_argument("--seeds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--width", type=int, default=10_000, help="beam width (default: Selby's 10,000)")
    a = ap.parse_args()
    warm, _ = generate.edge_puzzle(5, 5, 2, 3, 0)
    timed("beam", {"width": 10}, warm, 10)
    timed("edge-backtrack", {}, warm, 10)
    beam, rows = [], []
    for seed in range(a.seeds):
        p, _ = generate.edge_puzzle(a.size, a.size, a.frame, a.inner, seed)
        tb, okb = timed("beam", {"width": a.width}, p, a.seconds)
        te, oke = timed("edge-backtrack", {"order": "rowscan"}, p, a.seconds)
        beam.append(tb)
        rows.append(te)
        print(
            f"seed {seed}: log10 expected solutions {estimate.log_expected_solutions(p):6.1f}  "
            f"beam {tb:7.2f} s {'ok' if okb else 'unsolved'}   rowscan {te:7.2f} s {'ok' if oke else 'unsolved'}",
            flush=True,
        )
    mb, me = statistics.median(beam), statistics.median(rows)
    print(
        f"median beam {mb:.2f} s, median rowscan {me:.2f} s (unsolved = {2 * a.seconds:.0f} s): "
        f"rowscan / beam = {me / mb:.1f}x"
    )


if __name__ == "__main__":
    main()
