"""The exact block of the Eternity II repair: which formulation (CP-SAT tables, CP-SAT one-hot, RC2 MaxSAT, Exact, Pumpkin) and which shape of freed cells proves a block optimal, and how fast.

    .venv/bin/python benchmarks/bench_lns_block.py [--blocks 8] [--seconds 10] [--beam-seconds 20]
    .venv/bin/python benchmarks/bench_lns_block.py --whole [--seconds 60]
    .venv/bin/python benchmarks/bench_lns_block.py --shapes [--board data/eternity2/beam_465.json] [--k 4 5] [--blocks 8] [--seconds 10]

A board from the beam (``eternity2-corners-0``, best mode, no repair), then ``--blocks`` blocks of k x k
cells around random mismatches for k = 3, 4, 5, each solved by every formulation of
``baseline/beam/repair_block.py`` in turn (the same blocks, interleaved), one worker, ``--seconds`` a block:
the blocks proven optimal, the median seconds, and the joins gained.

``--whole``: the table formulation on a whole board, every movable cell one block: three generated 5x5
boards that have perfect solutions (3 frame and 5 inner colours, seeds 1-3), started from their planted
solution's pieces scrambled within their classes, and the broken 6x6 and 7x7 boards of
``bench_optimum.py`` (seed 1, no perfect solution), started from the beam's board of 2 s.

``--shapes``: the freed cells' shapes (``SHAPES``, without ``mix``; and the square with 4 cells swapped in
from elsewhere) in RC2, at k = 4 and 5 (``--k``), ``--blocks`` blocks each around random mismatches of the
``--board`` (an ``eternity2`` board file; without it the beam's board as above), one worker.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import solving
from baseline.beam.repair import Repair, _mismatched
from baseline.beam.repair_block import FORMULATIONS, SHAPES, ExactBlock
from puzzles import catalog
from puzzles.make import generate
from puzzles.verify import verify

MODELS = FORMULATIONS


def whole(seconds: float) -> None:
    """The table formulation on whole boards (module docstring)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from bench_optimum import broken_board
    from test_e2_score import scrambled

    print("| board | start | CP-SAT (tables, whole board) | of | proven optimal | seconds |")
    print("|---|---|---|---|---|---|")
    boards = []
    for seed in (1, 2, 3):
        p, sol = generate.edge_puzzle(5, 5, 3, 5, seed)
        boards.append((f"5x5 seed {seed}", p, lambda rep, p=p, sol=sol, seed=seed: scrambled(p, sol, seed)))
    for size in (6, 7):
        b = broken_board(size, 1)
        if b is not None:
            boards.append((f"{size}x{size} broken seed 1", b, lambda rep, b=b: _beam_board(b)))
    for name, p, start_of in boards:
        rep = Repair(p, 0)
        pc, rt = rep.board(start_of(rep))
        before = rep.score(pc, rt)
        cells = np.array([c for c in range(p.n_cells) if rep.movable[c]], np.int64)
        blk = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, seconds, 8, 8, 8)
        t = time.perf_counter()
        blk.step(pc, rt, None, cells)
        el = time.perf_counter() - t
        ok = verify(p, rep.placements(pc, rt), allow_mismatch=True)
        assert not ok.problems and ok.score == rep.score(pc, rt)
        print(
            f"| {name} | {before} | {rep.score(pc, rt)} | {len(p.joins())} | {bool(blk.stats['block_optimal'])} | {el:.1f} |"
        )


def shapes(board: str | None, blocks: int, seconds: float, beam_seconds: float, ks=(4, 5)) -> None:
    """Each shape of freed cells in RC2 on one board's mismatches (module docstring)."""
    from puzzles.files import formats

    if board:
        p = catalog.load("eternity2")
        placements = formats.read_solution(p, board)
    else:
        p = catalog.load("eternity2-corners-0")
        placements = solving.solve_verified(
            solving.get("beam", {"repair": 0.0}), p, "best", solving.Limits(time_s=beam_seconds)
        )[0].solutions[0]
    rep = Repair(p, 0)
    pc0, rt0 = rep.board(placements)
    print(f"the board: {rep.score(pc0, rt0)}/{len(p.joins())}", flush=True)
    bad = _mismatched(pc0, rt0, rep.col, rep.nb)
    variants = [(sh, 0) for sh in SHAPES if sh != "mix"] + [("square", 4)]
    rows = []
    for k in ks:
        for shape, swap in variants:
            rng = np.random.default_rng([k, swap])
            xs = []
            for _ in range(blocks):
                b = ExactBlock(
                    p.rows,
                    p.cols,
                    rep.col,
                    rep.nb,
                    rep.allowed,
                    rep.movable,
                    rng,
                    seconds,
                    k,
                    k,
                    k,
                    "maxsat",
                    shape,
                    swap,
                )
                pc, rt = pc0.copy(), rt0.copy()
                t = time.perf_counter()
                gain = b.step(pc, rt, bad)
                xs.append((b.stats["block_optimal"], time.perf_counter() - t, gain, b.stats["block_cells"]))
                assert rep.score(pc, rt) == rep.score(pc0, rt0) + gain
            name = shape + (f" + {swap} swapped in" if swap else "")
            rows.append(
                (
                    k,
                    name,
                    statistics.mean(c for *_, c in xs),
                    sum(o for o, *_ in xs),
                    len(xs),
                    statistics.median(t for _, t, *_ in xs),
                    sum(g for _, _, g, _ in xs),
                )
            )
            print(rows[-1], flush=True)
    print("\n| k | shape | cells (mean) | proven optimal | median seconds | joins gained |")
    print("|---|---|---|---|---|---|")
    for k, name, c, o, n, t, g in rows:
        print(f"| {k} | {name} | {c:.1f} | {o}/{n} | {t:.2f} | {g} |")


def _beam_board(p):
    r, _ = solving.solve_verified(solving.get("beam", {"repair": 0.0}), p, "best", solving.Limits(time_s=2))
    return r.solutions[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blocks", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--beam-seconds", type=float, default=20.0)
    ap.add_argument("--whole", action="store_true", help="the formulation on whole boards (module docstring)")
    ap.add_argument("--shapes", action="store_true", help="the shapes of freed cells (module docstring)")
    ap.add_argument("--board", help="--shapes: an eternity2 board file (default: the beam's board)")
    ap.add_argument("--k", type=int, nargs="+", default=[4, 5], help="--shapes: the block sizes (about k x k cells)")
    a = ap.parse_args()
    if a.shapes:
        shapes(a.board, a.blocks, a.seconds, a.beam_seconds, a.k)
        return
    if a.whole:
        whole(a.seconds)
        return
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
            block = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rng, a.seconds, k, k, k)
            cells = block._block(pc0, rt0, bad)
            for m in MODELS:
                b = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rng, a.seconds, k, k, k, m)
                pc, rt = pc0.copy(), rt0.copy()
                t = time.perf_counter()
                gain = b.step(pc, rt, bad, cells)
                got[m].append((b.stats["block_optimal"], time.perf_counter() - t, gain))
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
