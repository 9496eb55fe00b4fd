"""Rooks on the 3 x 3 x 3 board: 3R rooks, R on every row, column and tube, several to a cell allowed.

A placement is a 3 x 3 x 3 array of whole numbers whose 27 lines (9 in each direction) each sum to R.
Its three layers, looked at from above, are 3 x 3 arrays whose rows and columns sum to R (semi-magic
squares with zero allowed), and the tubes say the layers add up to R in every cell.  So a placement is
a pair of such squares A and B with A + B <= R cell by cell, the third layer being R - A - B (whose rows
and columns then sum to R by themselves).  The count is the number of such pairs: ``count`` enumerates
the squares (there are C(R+2, 2) + 3 C(R+3, 4) of them) and tests every pair in numba.

Seed 003 gives the counts for R = 1..6 ("including reflections and rotations", so every array counts):
12, 132, 847, 3921, 14506, 45402, and a formula, {x[x[x(31x + 1004) + 6820] + 4272] + 1} / 4032 with
x = R(R + 1).  The search here agrees for R = 1..4 and not after: 14,286 for R = 5 and 43,687 for R = 6
(the built-in puzzle ``rooks3d-R``, enumerated by CP-SAT and by SAT, finds the same).  The formula is 11.0002 at R = 1; moving its
"+ 1" outside the fraction makes it give all six of the chapter's figures, the two wrong ones included, so
it was fitted to the table, not derived.  No polynomial can be right: the polytope of these arrays has
fractional vertices, and the count is a quasi-polynomial of degree 8 (27 cells less 19 independent line
sums) with period 2, found here from R = 0..17 and checked on R = 18..22 (``formula``):

    [36R^8 + 432R^7 + 2436R^6 + 8316R^5 + 18774R^4 + 28728R^3 + 29224R^2 + 18174R + 6125
     + (-1)^R (1890R + 2835)] / 8960
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from numba import njit

# seed 003's table: R -> ways
CHAPTER = {1: 12, 2: 132, 3: 847, 4: 3921, 5: 14506, 6: 45402}


def squares(r: int) -> np.ndarray:
    """Every 3 x 3 array of whole numbers >= 0 whose rows and columns sum to ``r``, one a row of 9."""
    out = []
    for a in range(r + 1):
        for b in range(r + 1 - a):
            c = r - a - b
            for d in range(r + 1):
                for e in range(r + 1 - d):
                    f = r - d - e
                    g, h, i = r - a - d, r - b - e, r - c - f
                    if min(g, h, i) >= 0:
                        out.append((a, b, c, d, e, f, g, h, i))
    return np.array(out, dtype=np.int64).reshape(-1, 9)


@njit(cache=True)
def _pairs(sq, r):
    n = sq.shape[0]
    total = 0
    for i in range(n):
        for j in range(n):
            ok = True
            for k in range(9):
                if sq[i, k] + sq[j, k] > r:
                    ok = False
                    break
            if ok:
                total += 1
    return total


def count(r: int) -> int:
    """The placements of 3R rooks, R on every line of the 3 x 3 x 3 board (module docstring)."""
    if r < 0:
        raise ValueError("R is at least 0")
    return int(_pairs(squares(r), r))


def count_brute(r: int) -> int:
    """The same count by a plainer search, for small R: every array of the first two layers whose cells are
    0..R, kept when all lines that can be checked hold.  An independent check of ``count``."""
    sq = [tuple(map(int, s)) for s in squares(r)]
    n = 0
    for a in sq:
        for b in sq:
            c = [r - x - y for x, y in zip(a, b)]
            if min(c) < 0:
                continue
            layers = (a, b, c)
            if all(sum(L[3 * i : 3 * i + 3]) == r for L in layers for i in range(3)) and all(
                sum(L[i::3]) == r for L in layers for i in range(3)
            ):
                n += 1
    return n


def _chapter_poly(r: int) -> Fraction:
    x = r * (r + 1)
    return Fraction(x * (x * (x * (31 * x + 1004) + 6820) + 4272))


def printed_formula(r: int) -> Fraction:
    """The formula as seed 003 prints it."""
    return (_chapter_poly(r) + 1) / 4032


def fitted_formula(r: int) -> Fraction:
    """The printed polynomial with its "+ 1" outside the fraction: the chapter's six figures, not the counts."""
    return _chapter_poly(r) / 4032 + 1


QUASI = (6125, 18174, 29224, 28728, 18774, 8316, 2436, 432, 36)  # coefficients of R^0..R^8, over 8960
ALTERNATING = (2835, 1890)  # of (-1)^R R^0, R^1, over 8960


def formula(r: int) -> int:
    """The count as a quasi-polynomial of period 2 (module docstring); exact for every R computed."""
    v = sum(c * r**k for k, c in enumerate(QUASI)) + (-1) ** r * sum(c * r**k for k, c in enumerate(ALTERNATING))
    q, m = divmod(v, 8960)
    if m:
        raise ArithmeticError(f"the quasi-polynomial is not whole at R = {r}")
    return q


def table(r_max: int) -> list[dict]:
    """R = 1..r_max: the count, the quasi-polynomial, the chapter's figure and its printed and fitted formulas."""
    out = []
    for r in range(1, r_max + 1):
        out.append(
            {
                "R": r,
                "count": count(r),
                "formula": formula(r),
                "chapter": CHAPTER.get(r),
                "printed_formula": float(printed_formula(r)),
                "fitted_formula": float(fitted_formula(r)),
            }
        )
    return out
