"""Models and encodings side by side: CP-SAT models and SAT encodings x backends.

    .venv/bin/python benchmarks/bench_models.py cpsat [--seconds 60] [--seeds 5]
    .venv/bin/python benchmarks/bench_models.py sat   [--seconds 60] [--seeds 5]

``cpsat``: the models `xcc`, `placement` (join=int, sum and onehot) and
`table` on the four clue puzzles (build and solve times), then the models,
alone and as a portfolio with the fixed cell-by-cell search
(``search=portfolio``), on generated 8x8 puzzles: 2 frame + 6 inner colours
(8 in all, the public benchmark's colour count) and the colour counts where
8x8 is hardest (3 frame colours, 8 and 9 inner colours: around Owen's
critical size, 9.2): median time to a first solution.

``sat``: encodings x backends on the clue puzzles and on generated 7x7
puzzles around their hardest colour count: variables, clauses and median
time to a first solution.

Every solution is verified; times are in-process (build + solve), first
solution, one configuration at a time.
"""

from __future__ import annotations

import argparse
import statistics
import time

import solving
from puzzles import catalog
from puzzles.make import generate
from puzzles.verify import verify

CLUES = [f"eternity2-clue{i}" for i in range(1, 5)]


def run(solver: str, opts: dict, p, seconds: float) -> dict:
    t0 = time.perf_counter()
    r = solving.get(solver, opts).solve(p, mode="first", limits=solving.Limits(time_s=seconds))
    wall = time.perf_counter() - t0
    ok = bool(r.solutions) and verify(p, r.solutions[0]).valid
    if r.solutions and not ok:
        raise SystemExit(f"{solver} {opts} returned an invalid solution on {p.name}")
    return {"status": r.status if ok or r.status != "solved" else "bad", "wall": wall, "stats": r.stats, "solved": ok}


def fmt_t(res: dict) -> str:
    return f"{res['wall']:7.2f}" if res["solved"] else f"{'>' + format(res['wall'], '.0f'):>7}"


def cpsat(a) -> None:
    models = [
        ("xcc", {"model": "xcc"}),
        ("placement/int", {"model": "placement", "join": "int"}),
        ("placement/sum", {"model": "placement", "join": "sum"}),
        ("placement/onehot", {"model": "placement", "join": "onehot"}),
        ("table", {"model": "table"}),
    ]
    workers = {"workers": a.workers, "search": "default"}
    if not a.skip_clues:
        print(f"CP-SAT, first solution, {a.workers} workers, limit {a.seconds:.0f} s; build / solve seconds")
        print(f"{'model':>14} " + " ".join(f"{c:>22}" for c in CLUES))
        for name, opts in models:
            cells = []
            for c in CLUES:
                res = run("cpsat", {**opts, **workers}, catalog.load(c), a.seconds)
                cells.append(f"{res['stats'].get('build_s', 0):6.2f} / {fmt_t(res)}")
            print(f"{name:>14} " + " ".join(f"{x:>22}" for x in cells), flush=True)
    configs = [(n, {**o, **workers}) for n, o in models if n not in ("xcc", "placement/sum")]
    if a.workers >= 2:  # the fixed cell-by-cell search beside the default worker
        configs += [
            (f"{n}+portfolio", {**o, **workers, "search": "portfolio"})
            for n, o in models
            if n in ("placement/int", "placement/onehot")
        ]
    configs = [(n, o) for n, o in configs if a.only in n]
    for fam in a.families.split(","):
        frame, inner = fam.split(":")
        hard(a, "cpsat", configs, 8, int(frame), [int(i) for i in inner.split("+")])


def hard(a, solver: str, configs, size: int, frame: int, inner: list[int]) -> None:
    print(f"\n{size}x{size}, {frame} frame colours, inner {inner}, seeds 0..{a.seeds - 1}: time to first solution")
    for name, opts in configs:
        times, solved = [], 0
        for i in inner:
            for seed in range(a.seeds):
                p, _ = generate.edge_puzzle(size, size, frame, i, seed)
                res = run(solver, opts, p, a.seconds)
                times.append(res["wall"] if res["solved"] else 2 * a.seconds)
                solved += res["solved"]
        print(
            f"{name:>28}: solved {solved}/{len(times)}, median {statistics.median(times):7.2f} s "
            f"(unsolved counted as {2 * a.seconds:.0f} s), max {max(times):7.2f} s",
            flush=True,
        )


def sat(a) -> None:
    amos = a.amos.split(",")
    backends = a.backends.split(",")
    print(f"SAT, first solution, limit {a.seconds:.0f} s; model direct (edge matching)")
    print(f"{'amo':>11} {'backend':>11} {'vars':>8} {'clauses':>9} " + " ".join(f"{c[9:]:>7}" for c in CLUES))
    for amo in amos:
        for be in backends:
            cells, size = [], None
            for c in CLUES:
                res = run("sat", {"amo": amo, "backend": be}, catalog.load(c), a.seconds)
                size = size or (res["stats"]["vars"], res["stats"]["clauses"])
                cells.append(fmt_t(res))
            print(f"{amo:>11} {be:>11} {size[0]:>8} {size[1]:>9} " + " ".join(cells), flush=True)
    configs = [
        (f"{amo}+{be}", {"amo": amo, "backend": be})
        for amo in ("seqcounter", "ladder", "product", "pairwise")
        for be in ("cadical195", "glucose4")
    ]
    configs.append(("xcc seqcounter+cadical195", {"model": "xcc"}))
    hard(a, "sat", configs, 7, 3, [6, 7])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["cpsat", "sat"])
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--workers", type=int, default=2, help="cpsat search workers")
    ap.add_argument(
        "--families", default="2:6,3:8+9", help="cpsat: generated 8x8 families, FRAME:INNER[+INNER...] comma-separated"
    )
    ap.add_argument("--skip-clues", action="store_true", help="cpsat: only the generated families")
    ap.add_argument("--only", default="", help="cpsat: only the configurations whose name contains this")
    ap.add_argument("--amos", default="pairwise,seqcounter,ladder,totalizer,bitwise,commander,product")
    ap.add_argument("--backends", default="cadical195,glucose4,minisat22,maplechrono")
    a = ap.parse_args()
    {"cpsat": cpsat, "sat": sat}[a.what](a)


if __name__ == "__main__":
    main()
