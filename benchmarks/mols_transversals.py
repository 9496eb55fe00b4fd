"""Orthogonal Latin squares by transversals: how `data/classics/officers-10_solution.json` was found.

    .venv/bin/python benchmarks/mols_transversals.py [--order 10] [--seeds 20] [--diagonal]

For each seed: a random Latin square A (Algorithm C on randomly ordered options, the native
backtracker), all its transversals (an exact cover: one cell a row, a column, a symbol), then n
disjoint transversals (an exact cover of the cells): a mate B, whose symbol classes they are.  With
``--diagonal`` both squares must be diagonal (a doubly diagonal pair: a magic square 0..n^2-1).
Prints per seed the transversal count, the outcome and the times; the first pair found is verified
by ``puzzles.verify`` as an ``officers-N`` solution and written to ``mols-N.json``.  CP-SAT and SAT on
the whole pair (``eternity solve officers-10``) found none in 300-1200 s; this finds one in a second.
"""

import argparse
import json
import time

import numpy as np

import solving
from baseline.runtime.kernel import DONE, SOLUTION
from baseline.xcc.backtrack import solve_xcc
from baseline.xcc.searches import make_search
from puzzles.files.formats import solution_to_dict
from puzzles.kinds.latin import LatinPlacement, LatinPuzzle
from puzzles.verify import verify
from puzzles.xcc import XCCBuilder


def random_square(n: int, diagonal: bool, seed: int, time_s: float = 20.0) -> dict | None:
    x = LatinPuzzle(n, squares=1, diagonal=diagonal, reduced=False).to_xcc()
    rng = np.random.default_rng(seed)
    xs = x.reorder(rng.permutation(x.n_options))
    s = make_search(xs, int(rng.integers(1 << 30)))
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < time_s:
        code = s.step(1 << 22, True)
        if code == SOLUTION:
            return {(xs.decode[k].row, xs.decode[k].col): xs.decode[k].a for k in s.current_options()}
        if code == DONE:
            return None
    return None


def transversals(n: int, A: dict, diagonal: bool) -> list:
    b = XCCBuilder()
    for kind in "rcs":
        for i in range(n):
            b.add_primary(f"{kind}{i}")
    for (r, c), a in A.items():
        b.add_option([f"r{r}", f"c{c}", f"s{a}"], (r, c))
    res = solve_xcc(make_search(b.build()), "all", solving.Limits(time_s=60), None, 0.0)
    out = [sorted(sol) for sol in res.solutions]
    if diagonal:  # a diagonal mate's symbol classes meet each diagonal once
        out = [t for t in out if sum(r == c for r, c in t) == 1 and sum(r + c == n - 1 for r, c in t) == 1]
    return out


def mate(n: int, trans: list, time_s: float = 60.0) -> dict | None:
    b = XCCBuilder()
    for r in range(n):
        for c in range(n):
            b.add_primary(f"x{r}_{c}")
    for i, t in enumerate(trans):
        b.add_option([f"x{r}_{c}" for r, c in t], i)
    res = solve_xcc(make_search(b.build()), "first", solving.Limits(time_s=time_s), None, 0.0)
    if not res.solutions:
        return None
    return {rc: sym for sym, i in enumerate(res.solutions[0]) for rc in trans[i]}


def reduced(n: int, A: dict, B: dict) -> list[LatinPlacement]:
    """Relabel each square's symbols so its first row reads 0..n-1, then order the rows by A's first column."""
    ra = {A[(0, c)]: c for c in range(n)}
    rb = {B[(0, c)]: c for c in range(n)}
    rows = sorted(range(n), key=lambda r: ra[A[(r, 0)]])
    return [LatinPlacement(i, c, ra[A[(r, c)]], rb[B[(r, c)]]) for i, r in enumerate(rows) for c in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--order", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--diagonal", action="store_true")
    a = ap.parse_args()
    n = a.order
    for seed in range(a.seeds):
        t0 = time.perf_counter()
        A = random_square(n, a.diagonal, seed)
        if A is None:
            print(f"seed {seed}: no square")
            continue
        t1 = time.perf_counter()
        trans = transversals(n, A, a.diagonal)
        B = mate(n, trans)
        t2 = time.perf_counter()
        print(
            f"seed {seed}: square {t1 - t0:.2f} s, {len(trans)} transversals, mate "
            f"{'found' if B else 'none'} ({t2 - t1:.2f} s)"
        )
        if B:
            pl = (
                reduced(n, A, B)
                if not a.diagonal
                else [LatinPlacement(r, c, A[(r, c)], B[(r, c)]) for r in range(n) for c in range(n)]
            )
            p = LatinPuzzle(
                n,
                2,
                diagonal=a.diagonal,
                reduced=not a.diagonal,
                name=f"officers-{n}" + ("-diagonal" if a.diagonal else ""),
            )
            rep = verify(p, pl)
            print(f"verified as {p.name}: {rep.valid}", rep.problems[:2])
            with open(f"mols-{n}.json", "w") as f:
                json.dump(solution_to_dict(p, pl), f)
            return


if __name__ == "__main__":
    main()
