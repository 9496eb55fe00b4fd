"""Magic hexagons of any order, searched by CP-SAT: seed 003's claim that Adams's is the only one (order 3).

A magic hexagon of order n holds 1 .. N (N = 3n(n - 1) + 1) on the cells of a hexagon of side n, every one of
its 3 (2n - 1) straight lines with the same sum S.  The model leaves S free (an integer variable), so the
search decides whether any sum works; the values are all different, and, being N values from 1 .. N, they sum
to N (N + 1) / 2, which the model states too.  Then the 2n - 1 lines of one direction cover every cell once,
so (2n - 1) S = N (N + 1) / 2: for n = 2, 4, 5 (28 / 3, 703 / 7, 1891 / 9) no integer S exists, and CP-SAT's
presolve says so at once; for n = 3 it finds Adams's hexagon (S = 38).  The answer for every order carries
what decided it.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from puzzles.kinds.magic import hexagon_cells


def hexagon_lines(n: int) -> tuple[list[tuple[int, int]], list[list[int]]]:
    """The cells of the order-n hexagon and its 3 (2n - 1) lines, as cell indices."""
    cells = hexagon_cells(n - 1)
    lines = [
        [i for i, (q, r) in enumerate(cells) if (q, r, -q - r)[axis] == k]
        for axis in range(3)
        for k in range(-(n - 1), n)
    ]
    return cells, lines


def search(n: int, time_s: float | None = 60.0) -> dict:
    """Decide whether a magic hexagon of order ``n`` exists; the values of one found, or why none exists."""
    cells, lines = hexagon_lines(n)
    big = len(cells)
    total = big * (big + 1) // 2
    m = cp_model.CpModel()
    x = [m.new_int_var(1, big, f"x{i}") for i in range(big)]
    s = m.new_int_var(1, total, "S")
    m.add_all_different(x)
    m.add(sum(x) == total)  # a permutation of 1 .. N
    for line in lines:
        m.add(sum(x[i] for i in line) == s)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if time_s is not None:
        solver.parameters.max_time_in_seconds = time_s
    t0 = time.perf_counter()
    status = solver.solve(m)
    out: dict = {
        "order": n,
        "cells": big,
        "lines": len(lines),
        "seconds": round(time.perf_counter() - t0, 3),
        "status": solver.status_name(status).lower(),
    }
    rows = 2 * n - 1
    if total % rows:
        out["why"] = f"1 + ... + {big} = {total} is not a multiple of the {rows} lines of one direction"
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = [solver.value(v) for v in x]
        sums = {sum(values[i] for i in line) for line in lines}
        assert sorted(values) == list(range(1, big + 1)) and len(sums) == 1  # checked apart from the model
        out.update(exists=True, magic_sum=sums.pop(), values=dict(zip(map(str, cells), values)))
    elif status == cp_model.INFEASIBLE:
        out["exists"] = False
    else:
        out["exists"] = None  # the time ran out
    return out
