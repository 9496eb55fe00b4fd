"""`eternity checkerboard`: the checkerboard counts of seed 003's chapter (its section 6.1), beside its figures."""

from __future__ import annotations

import time

from eternity.commands.common import _out
from puzzles.ranges import arg

LIMITS = {"queens": (16, 18), "rooks3d": (6, 24), "halves": (9, 11)}  # default and largest --max


def cmd_checkerboard(a) -> int:
    """Run `eternity checkerboard` with the parsed arguments ``a``; returns the exit status."""
    default, top = LIMITS[a.name]
    n_max = default if a.max is None else a.max
    if n_max > top:
        from puzzles.errors import UsageError

        raise UsageError(f"checkerboard {a.name}: --max is at most {top}, not {n_max}")
    if a.name == "halves":
        return _halves(a, n_max)
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


def add(sub) -> None:
    """Declare `eternity checkerboard` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "checkerboard",
        help="seed 003's checkerboard counts: the queens' distinct patterns, the 3-D rooks, McCarthy's halves",
    )
    s.add_argument(
        "name",
        choices=["queens", "rooks3d", "halves"],
        help="queens: distinct patterns of n queens by Burnside's lemma; rooks3d: 3R rooks on the 3x3x3 board, "
        "R on every row, column and tube; halves: McCarthy's cuts of the N x N board into congruent halves",
    )
    s.add_argument(
        "--max",
        type=arg(int, 1, 1000),
        help="the largest n (queens, default 16, at most 18), R (rooks3d, default 6, at most 24) or N (halves, "
        "default 9, at most 11; 10 takes a minute)",
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_checkerboard)
