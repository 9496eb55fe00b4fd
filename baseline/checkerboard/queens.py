"""The n queens counted up to the board's symmetries without telling solutions apart one by one.

Counting the distinct patterns by listing every solution and reducing each to a canonical image costs a
key per solution: 14.7 million of them for n = 16.  Burnside's lemma needs only counts: the number of
patterns is the mean, over the eight symmetries of the square, of the solutions each one leaves as they
are.  No solution for n > 1 is its own mirror image (a queen and its image across a row, a column or a
diagonal would attack each other), so

    distinct = (all + 2 * quarter + half) / 8

with ``quarter`` the solutions unchanged by a quarter turn and ``half`` those unchanged by a half turn
(the quarter-turn ones among them).  ``count_all`` is the usual bitmask search, the first queen kept to the
left half (the mirror image of each solution counted by doubling); ``count_symmetric`` places queens in
whole orbits of the turn, so its trees are small.  Seed 003's table of distinct patterns runs to n = 16.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# seed 003's distinct patterns, n = 4..16
CHAPTER = {
    4: 1, 5: 2, 6: 1, 7: 6, 8: 12, 9: 46, 10: 92, 11: 341, 12: 1787, 13: 9233, 14: 45752, 15: 285053,
    16: 1846955,
}  # fmt: skip


@njit  # recursive: not cached (numba's cache of a self-recursive function crashes when loaded)
def _all(n, row, cols, ld, rd, full):
    if row == n:
        return 1
    total = 0
    free = full & ~(cols | ld | rd)
    while free:
        bit = free & -free
        free ^= bit
        total += _all(n, row + 1, cols | bit, ((ld | bit) << 1) & full, (rd | bit) >> 1, full)
    return total


@njit
def _count_all(n):
    full = (1 << n) - 1
    total = 0
    for c in range(n // 2):  # the first queen in the left half; its mirror images count the right half
        bit = 1 << c
        total += 2 * _all(n, 1, bit, (bit << 1) & full, bit >> 1, full)
    if n % 2:
        bit = 1 << (n // 2)
        total += _all(n, 1, bit, (bit << 1) & full, bit >> 1, full)
    return total


def count_all(n: int) -> int:
    """Every solution of the n queens (all rotations and reflections counted)."""
    if n < 1:
        raise ValueError("n is at least 1")
    return 1 if n == 1 else int(_count_all(n))


@njit(cache=True)
def _orbit(n, r, c, quarter, out):
    """The cells of (r, c)'s orbit under the quarter turn (or the half turn), without repeats."""
    k = 0
    rr, cc = r, c
    for _ in range(4 if quarter else 2):
        seen = False
        for j in range(k):
            if out[j, 0] == rr and out[j, 1] == cc:
                seen = True
        if not seen:
            out[k, 0] = rr
            out[k, 1] = cc
            k += 1
        if quarter:
            rr, cc = cc, n - 1 - rr
        else:
            rr, cc = n - 1 - rr, n - 1 - cc
    return k


@njit  # recursive: not cached, as _all
def _sym(n, row, quarter, rows, cols, d1, d2, buf):
    while row < n and rows[row]:
        row += 1
    if row == n:
        return 1
    total = 0
    cells = buf[row]
    for c in range(n):
        k = _orbit(n, row, c, quarter, cells)
        placed = 0
        ok = True
        for j in range(k):
            r, cc = cells[j, 0], cells[j, 1]
            if rows[r] or cols[cc] or d1[r + cc] or d2[r - cc + n - 1]:
                ok = False
                break
            rows[r] = cols[cc] = d1[r + cc] = d2[r - cc + n - 1] = True
            placed += 1
        if ok:
            total += _sym(n, row + 1, quarter, rows, cols, d1, d2, buf)
        for j in range(placed):
            r, cc = cells[j, 0], cells[j, 1]
            rows[r] = cols[cc] = d1[r + cc] = d2[r - cc + n - 1] = False
    return total


def count_symmetric(n: int, quarter: bool) -> int:
    """The solutions a quarter turn (``quarter``) or a half turn leaves as they are."""
    if n == 1:
        return 1
    z = np.zeros
    return int(
        _sym(n, 0, quarter, z(n, np.bool_), z(n, np.bool_), z(2 * n, np.bool_), z(2 * n, np.bool_),
             z((n + 1, 4, 2), np.int64))
    )  # fmt: skip


def distinct(n: int) -> dict:
    """The n queens: all solutions, the symmetric ones and the distinct patterns (Burnside's lemma)."""
    total = count_all(n)
    quarter = count_symmetric(n, True)
    half = count_symmetric(n, False)
    d, rem = divmod(total + 2 * quarter + half, 8) if n > 1 else (1, 0)
    if rem:
        raise ArithmeticError(f"n = {n}: Burnside's sum is not a multiple of 8 (a count is wrong)")
    return {"n": n, "solutions": total, "quarter_turn": quarter, "half_turn": half, "distinct": d}
