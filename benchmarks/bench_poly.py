"""The exhaust engines side by side on Eternity's regions: dancing links against `poly`, one run.

    .venv/bin/python benchmarks/bench_poly.py [--seconds 30] [--skip-first]

Three measures, each engine in the same process on the same XCC:

* the complete exhaust of ``eternity1-tortoise`` (45 pieces, mode count):
  nodes, seconds, nodes per second;
* nodes per second on ``eternity1-pram`` (64 pieces) over ``--seconds``;
* the first solution of ``eternity1-boomerang`` (66 pieces) from scratch,
  each engine given ``--seconds`` x 4;
* ``poly`` alone: the exhaust of one fixed pram state (``PRAM_STATE``: 20
  pieces placed, 44 left; about 190,000 nodes, no solution), the same tree
  whatever order the engine tries options in -- the fair measure of a change
  to the engine (its nodes per second over a time limit depend on where in
  the tree the search happens to be).

``poly`` is run with every boundary site counted (the default) and with only
the first 12 (faster nodes, a tree that can grow 1000-fold).  Ratios are
nodes per second against ``dlx`` measured here.  Builds are excluded.
"""

import argparse
import time

import numpy as np

from baseline.poly import engine as poly
from baseline.runtime.kernel import DEEPEST, DONE, SOLUTION
from baseline.xcc.searches import make_search
from puzzles import catalog

# the first 20 options (XCC numbering) of the poly engine's first path on the pram, as it was at commit 85cde0f
PRAM_STATE = [
    2100,
    62475,
    1511,
    16039,
    105200,
    9428,
    7994,
    10733,
    4611,
    97154,
    13427,
    65628,
    12009,
    38856,
    20391,
    22237,
    19732,
    46892,
    5640,
    67933,
]
ENGINES = [("dlx", {}), ("poly", {}), ("poly[sites=12]", {"sites": 12})]


def search_for(p, x, label, opts):
    engine = label.split("[")[0]
    return make_search(x, engine=engine, grid=p.grid_name if engine == "poly" else None, **opts)


def run(search, seconds: float, stop_on_solution: bool) -> tuple[str, float]:
    t0 = time.perf_counter()
    while True:
        code = search.step(20_000, stop_on_solution)
        el = time.perf_counter() - t0
        if code == DONE:
            return "done", el
        if code == SOLUTION:
            return "solved", el
        if el >= seconds:
            return "limit", el


def state_exhaust(cap: float) -> list[tuple]:
    """``poly`` exhausting the pram from ``PRAM_STATE`` (its board set from the options, then
    ``restart``); dlx is not run here (its nodes per second are the pram row's)."""
    p = catalog.load("eternity1-pram")
    x = p.to_xcc()
    out = []
    for label, opts in ENGINES[1:2]:
        s = search_for(p, x, label, opts)
        a = s.a
        board = np.zeros(a.n_words, np.uint64)
        for o in PRAM_STATE:
            poly._place(o, board, a.ow_ptr, a.ow_idx, a.ow_mask, a.tag, True)
        s.restart(board)
        s.step(1, False)  # compile / warm the kernel
        s.restart(board)
        t0 = time.perf_counter()
        outcome = "limit"
        while time.perf_counter() - t0 < cap:
            if s.step(50_000, False) == DONE:
                outcome = "done"
                break
        el = time.perf_counter() - t0
        out.append(
            (
                "eternity1-pram (state)",
                "exhaust of 44 pieces",
                label,
                outcome,
                s.nodes,
                el,
                s.nodes / el,
                int(s.st[DEEPEST]),
            )
        )
        print(
            f"{out[-1][0]:20} {label:15} {outcome:7} nodes {s.nodes:>12,} {el:8.2f} s {out[-1][6]:>10,.0f} nodes/s",
            flush=True,
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--skip-first", action="store_true", help="leave out the boomerang's first solution")
    a = ap.parse_args()
    rows = []
    tasks = [
        ("eternity1-tortoise", "count (exhaust)", False, a.seconds * 4),
        ("eternity1-pram", f"{a.seconds:g} s of search", True, a.seconds),
    ]
    if not a.skip_first:
        tasks.append(("eternity1-boomerang", "first solution", True, a.seconds * 4))
    for name, what, stop, cap in tasks:
        p = catalog.load(name)
        x = p.to_xcc()
        for label, opts in ENGINES:
            s = search_for(p, x, label, opts)
            _ = run(search_for(p, x, label, opts), 0.5, stop)  # compile / warm the kernel
            outcome, el = run(s, cap, stop)
            rows.append((name, what, label, outcome, s.nodes, el, s.nodes / el if el else 0.0, int(s.st[DEEPEST])))
            print(
                f"{name:20} {label:15} {outcome:7} nodes {s.nodes:>12,} {el:8.2f} s "
                f"{rows[-1][6]:>10,.0f} nodes/s deepest {rows[-1][7]}",
                flush=True,
            )
    rows.extend(state_exhaust(a.seconds * 4))
    print("\n| region | task | engine | outcome | nodes | seconds | nodes/s | vs dlx | deepest |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        ref = next((q for q in rows if q[0] == r[0].split(" ")[0] and q[2] == "dlx"), None)  # the state: the pram's
        ratio = r[6] / ref[6] if ref and ref[6] else float("nan")
        print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]:,} | {r[5]:.1f} | {r[6]:,.0f} | {ratio:.0f}x | {r[7]} |")


if __name__ == "__main__":
    main()
