"""Selby's boundary tables on the beam's own states: the share of children they reject, and their cost.

    .venv/bin/python benchmarks/bench_boundary_tables.py [--puzzle eternity1] [--depths 60 120 160]
        [--width 1000] [--window 16] [--core 4] [--repeats 3]

The beam (the results page's options: fitted 8-piece weights, diversity) runs once without tables, and
its frontier is kept at each of ``--depths`` (pieces placed).  Each frontier is then expanded by the
beam's kernels with and without the tables (``XCCBeamRun.expand``), in turn, ``--repeats`` rounds.
Reported a depth: the states, their children without the tables, the share the tables reject (every one
a child the other checks let live: the touch check, the next two sites, the pockets), the expansion's
time a state with and without, their ratio, and the tables' build time and memory.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from baseline.beam.solver import Beam  # noqa: E402
from baseline.beam.xcc import XCCBeamRun  # noqa: E402
from puzzles import catalog  # noqa: E402
from solving import Limits  # noqa: E402

WEIGHTS = ROOT / "data" / "eternity1" / "tilability_weights_k8_first_320.json"


class _Enough(Exception):
    pass


def frontiers(run: XCCBeamRun, depths: list[int]) -> dict[int, tuple]:
    """The beam's frontier (boards, first free sites, scores, hashes) as it expands each depth."""
    got: dict[int, tuple] = {}
    level = {"k": 0}

    def keep(board, first, score, hsh):
        k = level["k"]
        if k in depths:
            got[k] = (board.copy(), first.copy(), score.copy(), hsh.copy())
            if len(got) == len(depths):
                raise _Enough
        level["k"] += 1
        return run.expand(board, first, score, hsh)

    run.expander = keep
    try:
        run.solve(Limits(), None)
    except _Enough:
        pass
    run.expander = None
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", default="eternity1")
    ap.add_argument("--depths", type=int, nargs="+", default=[60, 120, 160])
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--window", type=int, default=16)
    ap.add_argument("--core", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    p = catalog.load(a.puzzle)
    o = {k: v.default for k, v in Beam.OPTIONS.items()}
    o.update(width=a.width, per_parent=1, weights=str(WEIGHTS), exhaust_at=0)
    plain = XCCBeamRun(p, o)
    with_tables = XCCBeamRun(p, {**o, "tables": a.window, "tables_core": a.core})
    bt = with_tables.bt
    print(
        f"{a.puzzle}: tables over {a.window}-cell windows ({a.core} core cells): {bt.tab.shape[0]} kinds of cell, "
        f"built in {bt.build_s:.2f} s, {bt.masks:,} placement masks, {bt.share_fillable():.1%} of patterns "
        f"fillable, {bt.nbytes / 1e6:.1f} MB with the windows"
    )
    fr = frontiers(plain, sorted(a.depths))
    print("| depth | states | children | rejected by the tables | ms a state without | with | ratio |")
    print("|---|---|---|---|---|---|---|")
    for d in sorted(fr):
        board, first, score, hsh = fr[d]
        times: dict[str, list[float]] = {"plain": [], "tables": []}
        kids = rejected = 0
        for _ in range(a.repeats):
            for name, run in (("plain", plain), ("tables", with_tables)):
                t0 = time.perf_counter()
                par, _, _, _, tally, _ = run.expand(board, first, score, hsh)
                times[name].append(time.perf_counter() - t0)
                if name == "plain":
                    kids = len(par)
                else:
                    rejected = int(tally[0])
        n = len(score)
        tp, tt = statistics.median(times["plain"]), statistics.median(times["tables"])
        share = rejected / kids if kids else float("nan")
        print(
            f"| {d} | {n:,} | {kids:,} | {rejected:,} ({share:.3%}) | {1e3 * tp / n:.2f} | {1e3 * tt / n:.2f} | "
            f"{tt / tp:.2f}x |"
        )


if __name__ == "__main__":
    main()
