"""`eternity checkerboard`: the checkerboard counts of seed 003's chapter (its section 6.1), beside its figures."""

from __future__ import annotations

import time

from eternity.commands.common import _out
from puzzles.ranges import arg

LIMITS = {"queens": (16, 18), "rooks3d": (6, 24), "halves": (9, 11), "queens3d": (11, 13)}  # default, largest --max


def cmd_checkerboard(a) -> int:
    """Run `eternity checkerboard` with the parsed arguments ``a``; returns the exit status."""
    default, top = LIMITS[a.name]
    n_max = default if a.max is None else a.max
    if n_max > top:
        from puzzles.errors import UsageError

        raise UsageError(f"checkerboard {a.name}: --max is at most {top}, not {n_max}")
    if a.name == "halves":
        return _halves(a, n_max)
    if a.name == "queens3d":
        return _queens3d(a, n_max)
    if a.draw:
        from puzzles.errors import UsageError

        raise UsageError(f"checkerboard {a.name}: --draw is for queens3d")
    return _queens(a, n_max) if a.name == "queens" else _rooks3d(a, n_max)


def _timed(count, ns, chapter: dict) -> list[dict]:
    """``count(n)`` for each n with its seconds and the chapter's figure; the search is compiled (on the
    smallest n) before any is timed."""
    count(ns[0])
    rows = []
    for n in ns:
        t0 = time.perf_counter()
        r = count(n)
        rows.append({**r, "seconds": round(time.perf_counter() - t0, 3), "chapter": chapter.get(n)})
    return rows


def _halves(a, n_max: int) -> int:
    from baseline.checkerboard import halves

    rows = _timed(halves.distinct, range(2, n_max + 1), halves.CHAPTER)
    if a.json:
        _out({"halves": rows})
        return 0
    print("   N  board                        cuts       distinct   seed 003   seconds")
    for r in rows:
        board = "whole" if r["n"] % 2 == 0 else "centre square missing"
        c = "" if r["chapter"] is None else f"{r['chapter']:,}"
        print(f"{r['n']:>4}  {board:<22} {r['cuts']:>13,} {r['distinct']:>14,}   {c:<10} {r['seconds']:>7.2f}")
    print("a cut: a walk from the centre to the edge and its half-turned image; distinct up to the board's symmetries")
    return 0


def _queens(a, n_max: int) -> int:
    from baseline.checkerboard import queens

    rows = _timed(queens.distinct, range(1, n_max + 1), queens.CHAPTER)
    if a.json:
        _out({"queens": rows})
        return 0
    print("   n     solutions  quarter-turn  half-turn    distinct   seed 003   seconds")
    for r in rows:
        c = (
            ""
            if r["chapter"] is None
            else f"{r['chapter']:,}" + ("" if r["chapter"] == r["distinct"] else " (differs)")
        )
        print(
            f"{r['n']:>4} {r['solutions']:>13,} {r['quarter_turn']:>13,} {r['half_turn']:>10,} "
            f"{r['distinct']:>11,}   {c:<10} {r['seconds']:>7.2f}"
        )
    print("distinct = (solutions + 2 quarter-turn + half-turn) / 8 (Burnside; no solution is its own mirror image)")
    return 0


def _rooks3d(a, n_max: int) -> int:
    from baseline.checkerboard import rooks3d

    rows = rooks3d.table(n_max)
    if a.json:
        _out({"rooks3d": rows})
        return 0
    print("   R       count    formula   seed 003   printed formula   with its + 1 outside")
    for r in rows:
        c = r["chapter"]
        shown = "" if c is None else f"{c:,}" + ("" if c == r["count"] else " (wrong)")
        print(
            f"{r['R']:>4} {r['count']:>11,} {r['formula']:>10,}   {shown:<14} {r['printed_formula']:>13,.4f}"
            f"   {r['fitted_formula']:>16,.1f}"
        )
    print(
        "formula: [36R^8 + 432R^7 + 2436R^6 + 8316R^5 + 18774R^4 + 28728R^3 + 29224R^2 + 18174R + 6125 "
        "+ (-1)^R (1890R + 2835)] / 8960"
    )
    print("seed 003's formula, printed {x[x[x(31x+1004)+6820]+4272]+1}/4032 with x = R(R+1), fits its own table")
    return 0


def decide_queens3d(n: int) -> dict:
    """n^2 queens on the n x n x n board decided twice: by exact cover (the workbench's backtracker) and by
    SAT (CaDiCaL through python-sat), a placement checked by ``puzzles.kinds.queens3d.check``, a refutation by its
    DRAT proof (``encoders.drat``): each answer carries its evidence."""
    from itertools import product

    from pysat.solvers import Solver

    from baseline.runtime.kernel import DONE, SOLUTION
    from baseline.xcc.searches import make_search
    from encoders import drat
    from puzzles.kinds import queens3d as Q

    t0 = time.perf_counter()
    x = Q.xcc(n)
    s = make_search(x)
    code = -1
    while code not in (SOLUTION, DONE):
        code = s.step(1_000_000, True)
    xcc_q = [x.decode[o] for o in s.current_options()] if code == SOLUTION else None
    t1 = time.perf_counter()
    clauses, nv = Q.cnf(n)
    with Solver(name="cadical195", with_proof=True, bootstrap_with=clauses) as sv:
        sat = bool(sv.solve())
        model = sv.get_model() if sat else None
        proof = None if sat else ("\n".join(sv.get_proof()) + "\n").encode()
    t2 = time.perf_counter()
    sat_q = [c for c in product(range(n), repeat=3) if model[Q.var(n, c) - 1] > 0] if model else None
    checked = drat.check(clauses, proof) if proof is not None else None
    t3 = time.perf_counter()
    for q in (xcc_q, sat_q):
        bad = Q.check(n, q) if q is not None else None
        if bad:
            raise RuntimeError(f"queens3d n={n}: a placement does not check: {bad}")  # a bug, not bad input
    if (xcc_q is None) != (sat_q is None):
        raise RuntimeError(f"queens3d n={n}: exact cover and SAT disagree")
    return {
        "n": n,
        "queens": n * n,
        "placement": xcc_q is not None,
        "xcc_nodes": int(s.nodes),
        "xcc_seconds": round(t1 - t0, 3),
        "sat_variables": nv,
        "sat_clauses": len(clauses),
        "sat_seconds": round(t2 - t1, 3),
        "evidence": "placement verified" if xcc_q else ("DRAT proof checked" if checked and checked.ok else
                                                        f"DRAT proof not checked: {checked.reason if checked else ''}"),
        "drat_seconds": round(t3 - t2, 3) if proof is not None else None,
        "cells": [list(c) for c in xcc_q] if xcc_q else None,
    }  # fmt: skip


def _queens3d(a, n_max: int) -> int:
    rows = [decide_queens3d(n) for n in range(1, n_max + 1)]
    smallest = next((r for r in rows if r["placement"] and r["n"] > 1), None)
    if a.draw:
        from puzzles.kinds import queens3d as Q

        if smallest is None:
            from puzzles.errors import UsageError

            raise UsageError(f"checkerboard queens3d: no n from 2 to {n_max} has a placement to draw (try --max 11)")
        Q.draw(smallest["n"], [tuple(c) for c in smallest["cells"]], a.draw)
    if a.json:
        _out({"queens3d": [{k: v for k, v in r.items() if k != "cells"} for r in rows],
              "smallest_n": smallest["n"] if smallest else None,
              "placement": smallest["cells"] if smallest else None})  # fmt: skip
        return 0
    print("   n  queens  placement  exact cover (nodes, s)   SAT (vars, clauses, s)   evidence")
    for r in rows:
        print(
            f"{r['n']:>4} {r['queens']:>7}  {'yes' if r['placement'] else 'no':<9}  {r['xcc_nodes']:>11,} "
            f"{r['xcc_seconds']:>7.2f}    {r['sat_variables']:>7,} {r['sat_clauses']:>8,} {r['sat_seconds']:>6.2f}"
            f"   {r['evidence']}"
        )
    if smallest:
        print(f"smallest n > 1 with a placement: {smallest['n']}" + (f" (drawn in {a.draw})" if a.draw else ""))
    return 0


def add(sub) -> None:
    """Declare `eternity checkerboard` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "checkerboard",
        help="seed 003's checkerboard counts: the queens' distinct patterns, the 3-D rooks, McCarthy's halves",
    )
    s.add_argument(
        "name",
        choices=["queens", "rooks3d", "halves", "queens3d"],
        help="queens: distinct patterns of n queens by Burnside's lemma; rooks3d: 3R rooks on the 3x3x3 board, "
        "R on every row, column and tube; halves: McCarthy's cuts of the N x N board into congruent halves; queens3d: "
        "n^2 queens on the n x n x n board, decided by exact cover and by SAT with a checked DRAT proof",
    )
    s.add_argument(
        "--max",
        type=arg(int, 1, 1000),
        help="the largest n (queens, default 16, at most 18), R (rooks3d, default 6, at most 24) or N (halves, "
        "default 9, at most 11; 10 takes a minute) or n (queens3d, default 11, at most 13)",
    )
    s.add_argument("--draw", help="queens3d: draw the smallest n's placement (PNG or SVG)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_checkerboard, outputs={"draw": "image"})
