"""The solution-count estimate of polyform puzzles held against exact counts.

    .venv/bin/python benchmarks/bench_count_estimate.py [--puzzles 24] [--probes 300] [--budget 2000]

Generated puzzles (a rectangle cut into random pieces of five cells, so each has its planted tiling and
often many more) and the pentomino boxes are counted exactly by the poly engine's exhaust, then
estimated by probes that end in exhausts (``baseline.poly.counting``) with a small exhaust budget, so
that the estimate samples the top of each tree instead of counting it.  Prints, per puzzle, the exact
count, the estimate, its standard error and their distance in standard errors (z), and the share of
puzzles within two standard errors, which an unbiased estimate with an honest error puts near 95%.
Knuth's plain probes (``baseline.poly.estimate``) of the same puzzles, the same number of them, are
printed beside it.
"""

import argparse
import math
import time

from baseline.poly.counting import estimate_count
from baseline.poly.estimate import estimate_tree
from baseline.runtime.kernel import DONE
from baseline.xcc.searches import make_search
from puzzles import catalog
from puzzles.make import generate


def exact_count(p, cap_s: float = 20.0) -> tuple[int, int, float] | None:
    """The exhaust's count, nodes and seconds; None when it outlasts ``cap_s``."""
    s = make_search(p.to_xcc(), engine="poly", grid=p.grid_name)
    t0 = time.perf_counter()
    while s.step(1_000_000, False) != DONE:
        if time.perf_counter() - t0 > cap_s:
            return None
    return s.count, s.nodes, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzles", type=int, default=24)
    ap.add_argument("--probes", type=int, default=300)
    ap.add_argument("--budget", type=int, default=2000)
    a = ap.parse_args()
    puzzles = [catalog.load(n) for n in ("pentomino-6x10", "pentomino-5x12", "pentomino-4x15", "pentomino-3x20")]
    seed = 0
    while len(puzzles) < a.puzzles:
        rows, cols = ((5, 8), (4, 10), (3, 15), (5, 7), (3, 10))[seed % 5]
        p, _ = generate.polyomino_puzzle(rows, cols, 5, seed=seed)
        seed += 1
        puzzles.append(p)
    within, plain_within, n = 0, 0, 0
    print(
        f"{'puzzle':<28} {'exact':>11} {'nodes':>11} {'estimate':>12} {'stderr':>10} {'z':>6}   {'knuth':>12} {'z':>6}"
    )
    for p in puzzles:
        got = exact_count(p)
        if got is None:
            print(f"{p.name:<28} (its exhaust outlasts 20 s: left out)")
            continue
        exact, nodes, _ = got
        n += 1
        s = make_search(p.to_xcc(), engine="poly", grid=p.grid_name)
        r = estimate_count(s, probes=a.probes, seed=1, budget=a.budget, exact_budget=0)  # sampled, never counted whole
        z = (r["solutions"] - exact) / r["solutions_stderr"] if r["solutions_stderr"] else 0.0
        within += abs(z) <= 2
        k = estimate_tree(s, probes=a.probes, seed=1)
        kz = (k["solutions"] - exact) / k["solutions_stderr"] if k["solutions_stderr"] else math.inf
        plain_within += abs(kz) <= 2
        print(
            f"{p.name:<28} {exact:>11,} {nodes:>11,} {r['solutions']:>12.1f} {r['solutions_stderr'] or 0:>10.1f} "
            f"{z:>6.2f}   {k['solutions']:>12.1f} {kz:>6.2f}",
            flush=True,
        )
    print(f"within two standard errors: {within}/{n} ({100 * within / n:.0f}%); Knuth's probes: {plain_within}/{n}")


if __name__ == "__main__":
    main()
