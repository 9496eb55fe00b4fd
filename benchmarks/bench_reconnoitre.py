"""Selby's reconnoitre against the most-constrained site, in the poly engine, on the same trees.

    .venv/bin/python benchmarks/bench_reconnoitre.py [--seconds 60] [--repeats 2] [--recon-sites 4]

Seed 000: instead of branching on the site with the fewest ways to cover it, look below each of the few
most constrained sites (depth 1: after each of its options, the engine's own choice of the next site;
depth 2: one level further) and branch where the tree that far down has the fewest leaves.  Selby found
depth 2 "often too expensive" on Eternity.  Measured here, depth 0 (the engine's default), 1 and 2, each
task run by the three in turn, ``--repeats`` rounds interleaved, ratios against depth 0 of the same round:

* exhausts (mode count, the whole tree): the tortoise (45 of Eternity's pieces), one fixed state of the
  pram (20 pieces placed, 44 left: ``bench_poly.PRAM_STATE``), the pentominoes in 5x12, and generated
  hexomino puzzles of 14 and 16 pieces (the pieces family of ``experiments/configs/atlas_poly.toml``, near and
  above the hexominoes' critical size);
* the first tiling of the boomerang (66 pieces) from scratch, each run given ``--seconds``.

``nodes`` are the placements of the search's own tree; the reconnoitre's look-ahead placements are its
cost, seen in the seconds.  A run that reaches ``--seconds`` is reported as ``limit`` with its nodes so far.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_poly import PRAM_STATE  # noqa: E402

from baseline.poly import engine as poly  # noqa: E402
from baseline.runtime.kernel import DONE, SOLUTION  # noqa: E402
from baseline.xcc.backtrack import random_prefix  # noqa: E402
from baseline.xcc.searches import make_search  # noqa: E402
from puzzles import catalog  # noqa: E402
from puzzles.estimates.tilability import sample_region_first  # noqa: E402
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece  # noqa: E402

DEPTHS = (0, 1, 2)


def hexomino_puzzle(n: int, seed: int) -> PolyformPuzzle:
    """N hexominoes on the region a randomised search cut with them (as the pieces family draws them)."""
    base = catalog.load("hexominoes-14x15")
    region, chosen = sample_region_first(base, n, random.Random(seed), random_prefix)
    pieces = [PolyPiece(base.pieces[i].name, base.pieces[i].cells) for i in chosen]
    return PolyformPuzzle(base.grid_name, region, pieces, base.mirror, name=f"hexominoes-{n}p-{seed}")


def tasks() -> list[tuple[str, PolyformPuzzle, list[int] | None, bool]]:
    """(label, puzzle, options placed first or None, stop at the first solution)."""
    out = [
        ("eternity1-tortoise exhaust", catalog.load("eternity1-tortoise"), None, False),
        ("eternity1-pram state exhaust", catalog.load("eternity1-pram"), PRAM_STATE, False),
        ("pentomino-5x12 exhaust", catalog.load("pentomino-5x12"), None, False),
    ]
    for n, seed in ((14, 1), (14, 2), (16, 1), (16, 2)):
        out.append((f"hexominoes {n} pieces #{seed} exhaust", hexomino_puzzle(n, seed), None, False))
    out.append(("eternity1-boomerang first tiling", catalog.load("eternity1-boomerang"), None, True))
    return out


def run_one(p, x, state, stop: bool, depth: int, recon_sites: int, seconds: float) -> tuple[str, int, float, int]:
    s = make_search(x, engine="poly", grid=p.grid_name, recon=depth, recon_sites=recon_sites)
    board = None
    if state is not None:
        a = s.a
        board = np.zeros(a.n_words, np.uint64)
        for o in state:
            poly._place(o, board, a.ow_ptr, a.ow_idx, a.ow_mask, a.tag, True)
        s.restart(board)
    t0 = time.perf_counter()
    outcome = "limit"
    while time.perf_counter() - t0 < seconds:
        code = s.step(2_000 if depth else 20_000, stop)
        if code == DONE:
            outcome = "done"
            break
        if code == SOLUTION:
            outcome = "solved"
            break
    return outcome, int(s.nodes), time.perf_counter() - t0, int(s.count)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="the most a run may take")
    ap.add_argument("--repeats", type=int, default=2, help="rounds, the depths interleaved in each")
    ap.add_argument("--recon-sites", type=int, default=poly.DEFAULT_RECON_SITES)
    a = ap.parse_args()
    rows = []
    for label, p, state, stop in tasks():
        x = p.to_xcc()
        for d in DEPTHS:  # compile and warm each variant of the kernel
            run_one(p, x, state, True, d, a.recon_sites, 0.2)
        got: dict[int, list] = {d: [] for d in DEPTHS}
        for _ in range(a.repeats):
            for d in DEPTHS:
                got[d].append(run_one(p, x, state, stop, d, a.recon_sites, a.seconds))
        for d in DEPTHS:
            outs = {o for o, *_ in got[d]}
            nodes = statistics.median(n for _, n, _, _ in got[d])
            secs = statistics.median(t for _, _, t, _ in got[d])
            ratio_t = statistics.median(t / ref[2] for (_, _, t, _), ref in zip(got[d], got[0]))
            ratio_n = nodes / statistics.median(n for _, n, _, _ in got[0])
            count = got[d][0][3]
            rows.append((label, d, "/".join(sorted(outs)), nodes, secs, ratio_n, ratio_t, count))
            print(
                f"{label:36} depth {d}  {'/'.join(sorted(outs)):7} nodes {nodes:>12,.0f} {secs:8.2f} s  "
                f"nodes x{ratio_n:.3f}  time x{ratio_t:.2f}  count {count}",
                flush=True,
            )
    print("\n| task | reconnoitre | outcome | nodes | seconds | nodes vs depth 0 | time vs depth 0 | count |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]:,.0f} | {r[4]:.2f} | {r[5]:.3f}x | {r[6]:.2f}x | {r[7]:,} |")


if __name__ == "__main__":
    main()
