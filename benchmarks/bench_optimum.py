"""Proven optima the beam cannot prove: boards with no perfect solution, their best score proven by MaxSAT or CP-SAT.

    .venv/bin/python benchmarks/bench_optimum.py [--sizes 6 7] [--seeds 1 2 3] [--seconds 300] [--beam-seconds 60]
        [--models placement table table+ maxsat]
    .venv/bin/python benchmarks/bench_optimum.py --perfect [--sizes 5] [--seeds 1 2 3] [--seconds 20]

Each board is a generated one (3 frame colours, inner colours at the size's critical point)
with one join of its planted solution broken: one side of one piece recoloured, the colour
counts changed by one.  ``edge-backtrack --mode count`` then proves it has no perfect solution
(boards that keep one are skipped).  The beam's best score in ``--beam-seconds`` comes first: it finds
good boards and proves nothing.  Then its best score is asked, ``--seconds`` each, of CP-SAT (mode best;
``optimal`` is a proof of optimality) in two formulations (``--models``):

* ``placement``: a Boolean a placement, a join's match a Boolean bounded above by both ends' colours;
* ``table``: a cell's placement one integer tied to its colours by a table, a join's match tied to the
  equality of its colours both ways;
* ``table+``: the table model with the first corner piece fixed to A1 and the beam's board as the hint;

of RC2 MaxSAT (``maxsat``: the direct encoding's soft joins), and of the hand-written branch and bound held
to one mismatch anywhere (``slips``: ``edge-backtrack --mode best --opt slips=1``; when it finishes with a
board of one mismatch, every better board, the perfect ones, has been refuted on the way, so the board is
optimal; when it finishes without one, the optimum breaks at least two joins).  Every board is verified.
Prints a markdown table.

``--perfect``: generated boards that keep their planted perfect solution (3 frame colours, inner colours
at the critical point), CP-SAT's best mode in each formulation, one worker, ``--seconds`` each: the
score reached, whether it is proven, and the seconds.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solving
from puzzles.files import formats
from puzzles.kinds.edge import EdgePuzzle
from puzzles.make import generate

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
    return res.status, res.best_score, t, res.optimal, (res.solutions[0] if res.solutions else None)


ENGINES = {
    "placement": ("cpsat", {"workers": 2, "model": "placement"}),
    "table": ("cpsat", {"workers": 2, "model": "table"}),
    "table+": ("cpsat", {"workers": 2, "model": "table", "symmetry": True}),
    "maxsat": ("maxsat", {}),
    "slips": ("edge-backtrack", {"slips": "1"}),
}
HEAD = {
    "placement": "CP-SAT placement",
    "table": "CP-SAT table",
    "table+": "CP-SAT table, corner fixed, beam's hint",
    "maxsat": "RC2 MaxSAT (`maxsat`)",
    "slips": "edge-backtrack, one mismatch allowed (`slips=1`)",
}


def perfect(sizes, seeds, seconds: float) -> None:
    """Boards with perfect solutions: CP-SAT's best mode in each formulation (module docstring)."""
    print("| board | joins | CP-SAT placement | CP-SAT table | CP-SAT table, corner fixed |")
    print("|---|---|---|---|---|")
    for size in sizes:
        for seed in seeds:
            p, _ = generate.edge_puzzle(size, size, 3, INNER[size], seed)
            cells = []
            for opts in ({"model": "placement"}, {"model": "table"}, {"model": "table", "symmetry": True}):
                status, score, t, optimal, _ = best("cpsat", opts, p, seconds)
                proof = "**perfect**" if score == p.n_joins else ("proven optimal" if optimal else "best so far")
                cells.append(f"{score} ({proof}, {t:.1f} s)" if score is not None else f"none ({status})")
            print(f"| {size}x{size} seed {seed} | {p.n_joins} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", help="default: 6 7 (5 with --perfect)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--seconds", type=float, help="default: 300 (20 with --perfect)")
    ap.add_argument("--beam-seconds", type=float, default=60.0)
    ap.add_argument("--models", nargs="+", default=list(ENGINES), choices=list(ENGINES))
    ap.add_argument("--perfect", action="store_true", help="boards with perfect solutions (module docstring)")
    a = ap.parse_args()
    if a.perfect:
        perfect(a.sizes or [5], a.seeds, a.seconds or 20.0)
        return
    a.sizes, a.seconds = a.sizes or [6, 7], a.seconds or 300.0
    print("| board | joins | perfect | beam | " + " | ".join(HEAD[k] for k in a.models) + " |")
    print("|---|---|---|---|" + "---|" * len(a.models))
    for size in a.sizes:
        for seed in a.seeds:
            b = broken_board(size, seed)
            if b is None:
                print(f"| {size}x{size} s{seed} | | a perfect solution remains: skipped | |" + " |" * len(a.models))
                continue
            joins = len(b.joins())
            cells = []
            status, score, t, optimal, board = best("beam", {}, b, a.beam_seconds)
            cells.append(f"{score} ({t:.1f} s)")
            with tempfile.TemporaryDirectory() as tmp:
                hint = f"{tmp}/beam.json"
                formats.write_solution(b, board, hint)
                for key in a.models:
                    name, opts = ENGINES[key]
                    if key == "table+":
                        opts = {**opts, "hint": hint}
                    status, score, t, optimal, _ = best(name, opts, b, a.seconds)
                    proof = "**proven optimal**" if optimal else "best so far"
                    cells.append(f"{score} ({proof}, {t:.1f} s)" if score is not None else f"none ({status})")
            print(
                f"| {b.name} | {joins} | none (edge-backtrack: unsatisfiable) | " + " | ".join(cells) + " |", flush=True
            )


if __name__ == "__main__":
    main()
