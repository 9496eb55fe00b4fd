"""Proven optima the beam cannot prove: boards with no perfect solution, their best score proven by MaxSAT or CP-SAT.

    .venv/bin/python benchmarks/bench_optimum.py [--sizes 6 7] [--seeds 1 2 3] [--seconds 300] [--beam-seconds 60]

Each board is a generated one (3 frame colours, inner colours at the size's critical point)
with one join of its planted solution broken: one side of one piece recoloured, the colour
counts changed by one.  ``edge-backtrack --mode count`` then proves it has no perfect solution
(boards that keep one are skipped).  Its best score is asked of CP-SAT (mode best; ``optimal``
is a proof of optimality) and of RC2 MaxSAT (``maxsat``: the direct encoding's soft joins), and
the beam's best score in ``--beam-seconds`` goes beside them: the beam finds good boards and
proves nothing.  Every board is verified.  Prints a markdown table.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solving
from puzzles import generate
from puzzles.edge import EdgePuzzle

INNER = {5: 5, 6: 6, 7: 7, 8: 9}  # about the critical number of inner colours with 3 frame colours


def broken_board(size: int, seed: int) -> EdgePuzzle | None:
    """A planted board with one inner side of one piece recoloured; None if it still has a perfect solution."""
    p, sol = generate.edge_puzzle(size, size, 3, INNER[size], seed)
    pieces = p.pieces.copy()
    inner = [q for q in range(len(pieces)) if (pieces[q] != 0).all()]
    q = inner[seed % len(inner)]
    side = seed % 4
    lo = int(pieces[pieces > 0].min())
    hi = int(pieces.max())
    pieces[q, side] = lo + (int(pieces[q, side]) - lo + 1) % (hi - lo + 1)
    b = EdgePuzzle(p.rows, p.cols, pieces, name=f"broken-{size}x{size}-s{seed}")
    res = solving.get("edge-backtrack").solve(b, mode="first", limits=solving.Limits(time_s=600))
    return b if res.status == solving.Status.UNSAT else None


def best(name: str, options: dict, board, seconds: float):
    res, verified = solving.solve_verified(solving.get(name, options), board, "best", solving.Limits(time_s=seconds))
    assert verified in (True, None), (name, res.status)
    t = res.stats.get("time_s")
    return res.status, res.best_score, t, res.optimal


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[6, 7])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--seconds", type=float, default=300.0)
    ap.add_argument("--beam-seconds", type=float, default=60.0)
    a = ap.parse_args()
    print("| board | joins | perfect | CP-SAT (2 workers) | RC2 MaxSAT (`maxsat`) | beam |")
    print("|---|---|---|---|---|---|")
    for size in a.sizes:
        for seed in a.seeds:
            b = broken_board(size, seed)
            if b is None:
                print(f"| {size}x{size} s{seed} | | a perfect solution remains: skipped | | | |", flush=True)
                continue
            joins = len(b.joins())
            cells = []
            for name, opts, secs in (
                ("cpsat", {"workers": 2}, a.seconds),
                ("maxsat", {}, a.seconds),
                ("beam", {}, a.beam_seconds),
            ):
                status, score, t, optimal = best(name, opts, b, secs)
                proof = "**proven optimal**" if optimal else "best so far"
                cells.append(f"{score} ({proof}, {t:.1f} s)" if score is not None else f"none ({status})")
            print(
                f"| {b.name} | {joins} | none (edge-backtrack: unsatisfiable) | " + " | ".join(cells) + " |", flush=True
            )


if __name__ == "__main__":
    main()
