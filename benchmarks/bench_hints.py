"""What hint pieces do to the count and to the search for a first solution (Selby's remark, seed 000).

    .venv/bin/python benchmarks/bench_hints.py [--side 3] [--size 6] [--puzzles 5] [--draws 4] [--hints 0,1,2,3,4,6]
    .venv/bin/python benchmarks/bench_hints.py --estimate eternity1 [--hints 6] [--solutions 95]

Puzzles cut at random from a drafter hexagon (``generate polyform --grid drafter --region hexagon:SIDE
--size SIZE --seed S``, S = 1..PUZZLES), each with K pieces of its planted solution given as hints
(``puzzles.make.hints.hinted``, DRAWS random choices of the K pieces); ``backtrack`` (the poly engine) counts
the solutions and finds a first one.  Printed per K: the solutions (median), the nodes to the first
solution (median and mean over all puzzles and draws) and the geometric mean of the first-solution
nodes against the same puzzle without hints.  One core, one process; node counts do not depend on the
machine.

``--estimate PUZZLE``: the count side of the argument on a board nobody can count: each piece's legal
placements on the board; a hint keeps about one solution in that many (a solution puts the piece in one of
them), so K hints keep 10^-(sum of log10 placements) of the solutions; with Selby's estimate of Eternity's
solutions (10^SOLUTIONS) the number left.
"""

from __future__ import annotations

import argparse
import math
import statistics

import solving
from puzzles.kinds.partition import hexagon_region, region_puzzle
from puzzles.make.hints import hinted


def estimate(name: str, k: int, log10_solutions: float) -> None:
    """Print the placements a piece and what ``k`` typical hints leave of 10^``log10_solutions`` solutions."""
    import numpy as np

    from puzzles import catalog

    p = catalog.load(name)
    per_piece = np.bincount(np.asarray(p.placements().piece), minlength=len(p.pieces))
    typical = float(np.exp(np.mean(np.log(per_piece))))
    kept = k * math.log10(typical)
    print(f"{name}: {len(p.pieces)} pieces, legal placements a piece: min {per_piece.min():,}, median "
          f"{int(np.median(per_piece)):,}, max {per_piece.max():,}, geometric mean {typical:,.0f}")  # fmt: skip
    print(f"{k} hints keep about 10^-{kept:.1f} of the solutions: of 10^{log10_solutions:g}, about "
          f"10^{log10_solutions - kept:.0f} agree with them")  # fmt: skip


def main() -> None:
    """Parse the arguments, run the counts and searches, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--side", type=int, default=3, help="the hexagon's side (default 3: 108 drafters)")
    ap.add_argument("--size", type=int, default=6, help="drafters a piece (default 6)")
    ap.add_argument("--puzzles", type=int, default=5, help="puzzles (seeds 1..N)")
    ap.add_argument("--draws", type=int, default=4, help="random hint choices per puzzle and K")
    ap.add_argument("--hints", default="0,1,2,3,4,6", help="the hint counts K")
    ap.add_argument("--no-count", action="store_true", help="first solutions only")
    ap.add_argument("--estimate", metavar="PUZZLE", help="the placements and the fraction of solutions K hints keep")
    ap.add_argument("--solutions", type=float, default=95.0, help="--estimate: log10 of the solutions (Selby: 95)")
    a = ap.parse_args()
    ks = [int(x) for x in a.hints.split(",")]
    if a.estimate:
        estimate(a.estimate, max(ks), a.solutions)
        return
    solver = solving.get("backtrack")
    rows: dict[int, list[tuple[int | None, int]]] = {k: [] for k in ks}
    base: dict[int, int] = {}
    ratios: dict[int, list[float]] = {k: [] for k in ks}
    for s in range(1, a.puzzles + 1):
        p, planted = region_puzzle("drafter", hexagon_region(a.side), a.size, s)
        for k in ks:
            for d in range(a.draws if k else 1):
                q, _, _ = hinted(p, planted, k, d)
                first = solver.solve(q, mode="first")
                nodes = int(first.stats["nodes"])
                count = None if a.no_count else solver.solve(q, mode="count").count
                rows[k].append((count, nodes))
                if k == 0:
                    base[s] = nodes
                ratios[k].append(nodes / base[s])
        print(f"puzzle {s} ({len(p.pieces)} pieces) done", flush=True)
    print()
    print("| hints | solutions (median) | nodes to a first solution: median | mean | x no hints (geometric mean) |")
    print("|---|---|---|---|---|")
    for k in ks:
        counts = [c for c, _ in rows[k] if c is not None]
        firsts = [n for _, n in rows[k]]
        med = f"{statistics.median(counts):,.0f}" if counts else "-"
        gm = math.exp(statistics.fmean(math.log(r) for r in ratios[k]))
        print(f"| {k} | {med} | {statistics.median(firsts):,.0f} | {statistics.fmean(firsts):,.0f} | {gm:.2f} |")


if __name__ == "__main__":
    main()
