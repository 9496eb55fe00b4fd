"""Owen's estimate against measured search trees on 20 generated puzzles.

    .venv/bin/python benchmarks/estimate_vs_measured.py [--plot results/owen_vs_measured.png] [--seconds 60]

Generates 5x5, 6x6 and 7x7 puzzles on both sides of their critical size,
counts each with `edge-backtrack` (row scan), and prints the estimated and
measured total nodes, their ratio per puzzle and the median ratio; the plot
shows nodes per depth, estimated (dashed) against measured (solid).
"""

import argparse
import json
import statistics

from eternity.measure import measure, plot
from puzzles.make import generate

# (rows, cols, frame colours, inner colours): 4 seeds each, 20 puzzles.
FAMILIES = [(5, 5, 2, 3), (5, 5, 2, 5), (6, 6, 3, 5), (6, 6, 3, 7), (7, 7, 3, 9)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plot", default="results/owen_vs_measured.png")
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit per count")
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--json", help="write every result here")
    a = ap.parse_args()
    results = []
    for r, c, f, i in FAMILIES:
        for seed in range(a.seeds):
            p, _ = generate.edge_puzzle(r, c, f, i, seed, name=f"{r}x{c}-f{f}-i{i}-s{seed}")
            res = measure(p, "rowscan", a.seconds)
            results.append(res)
            print(
                f"{p.name:>18}  solutions {res['solutions']:>8}  estimated {res['estimated_total']:10.3g}  "
                f"measured {res['measured_total']:>12,}{'' if res['complete'] else '+'}  "
                f"ratio {res['ratio']:6.3f}  {res['time_s']:6.2f} s",
                flush=True,
            )
    ratios = [x["ratio"] for x in results if x["complete"]]
    print(
        f"median estimate/measured over {len(ratios)} complete counts: {statistics.median(ratios):.3f} "
        f"(min {min(ratios):.3f}, max {max(ratios):.3f})"
    )
    from pathlib import Path

    Path(a.plot).parent.mkdir(parents=True, exist_ok=True)
    plot(results, a.plot, f"Owen's estimate (dashed) vs measured nodes (solid), {len(results)} puzzles, row scan")
    print(f"plot: {a.plot}")
    if a.json:
        Path(a.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
