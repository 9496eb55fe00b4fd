"""McCarthy's problem: the ways to cut an N x N board into two congruent halves along grid lines.

Seed 003 tells how B. Fowler's program did it: start at the centre, walk to the edge, and let the cut be
that walk and its image turned half a turn about the centre.  Such a cut, a simple path of grid lines from
edge to edge through the centre and symmetric under the half turn, always leaves two halves that the half
turn maps onto each other; the chapter counts those cuts (6 for N = 4, 92,263 for N = 8), not counting
rotations and reflections of the board as different.

Here an *arm* is a walk of grid points from the centre point to the edge that touches the edge only at its
end and never meets its own half-turned image.  Each cut is two arms, so cuts = arms / 2.  Up to the
board's eight symmetries (Burnside's lemma): every cut is fixed by the half turn; none by a quarter turn
(its two arms leave the centre in opposite directions, and a quarter turn moves both); a reflection in a
diagonal fixes none (no grid line lies on a diagonal); a reflection in the horizontal or the vertical
middle line fixes only the two straight cuts.  So the distinct cuts are (2 cuts + 2 + 2) / 8 = (cuts + 2) / 4.

Odd boards have no centre point; the chapter's odd boards have the centre square missing.  An arm then
starts at a corner of the hole (its image at the opposite corner), never touches the hole again, and no
symmetry but the half turn fixes a cut (each other one moves the corner an arm starts from to a corner
that is neither its own nor its image's), so the distinct cuts are 2 cuts / 8 = cuts / 4.  The chapter
says odd boards and N > 8 were open.
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHAPTER = {4: 6, 8: 92_263}  # seed 003: N -> distinct ways


@njit  # recursive: not cached (numba's cache of a self-recursive function crashes when loaded)
def _arms(x, y, n, used):
    """Arms from (x, y), already on the path with its image marked: the walks on to the edge."""
    total = 0
    for d in range(4):
        nx = x + (1 if d == 0 else -1 if d == 1 else 0)
        ny = y + (1 if d == 2 else -1 if d == 3 else 0)
        if used[nx, ny]:
            continue
        if nx == 0 or ny == 0 or nx == n or ny == n:
            total += 1  # the edge: the arm ends here (its image ends on the opposite edge)
            continue
        mx, my = n - nx, n - ny
        if nx == mx and ny == my:
            continue
        used[nx, ny] = True
        used[mx, my] = True
        total += _arms(nx, ny, n, used)
        used[nx, ny] = False
        used[mx, my] = False
    return total


def arms(n: int) -> int:
    """Walks from the centre (or, N odd, from the corners of the missing centre square) to the edge that
    avoid their own half-turned image (module docstring)."""
    if n < 2:
        raise ValueError("the board's side is at least 2")
    used = np.zeros((n + 1, n + 1), np.bool_)
    if n % 2 == 0:
        c = n // 2
        used[c, c] = True
        return int(_arms(c, c, n, used))
    c = n // 2  # the hole is the square with corners (c, c) and (c + 1, c + 1)
    if n == 1:
        return 0
    for x in (c, c + 1):
        for y in (c, c + 1):
            used[x, y] = True  # an arm leaves the hole once, from its start
    total = 0
    for x in (c, c + 1):
        for y in (c, c + 1):
            total += int(_arms(x, y, n, used))
    return total


def distinct(n: int) -> dict:
    """The cuts of the N x N board (N odd: its centre square missing) into two congruent halves, all of
    them and up to the board's symmetries."""
    a = arms(n)
    cuts = a // 2
    d, rem = divmod(cuts + 2, 4) if n % 2 == 0 else divmod(cuts, 4)
    if rem or a % 2:
        raise ArithmeticError(f"N = {n}: the arms do not pair into cuts and orbits (a count is wrong)")
    return {"n": n, "cuts": cuts, "distinct": d}


def distinct_by_keys(n: int) -> int:
    """The same count by listing every cut as its set of grid edges and keeping the least of its eight images:
    an independent check of ``distinct`` for small boards (it does not use the argument about which
    symmetries fix which cuts)."""
    even = n % 2 == 0
    c = n // 2
    starts = [(c, c)] if even else [(x, y) for x in (c, c + 1) for y in (c, c + 1)]
    hole = set(starts)
    cuts = set()

    def rot(p):
        return (n - p[0], n - p[1])

    def walk(path, used):
        x, y = path[-1]
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            q = (x + dx, y + dy)
            if q in used:
                continue
            if q[0] in (0, n) or q[1] in (0, n):
                full = path + [q]
                edges = {frozenset((a, b)) for a, b in zip(full, full[1:])}
                edges |= {frozenset((rot(a), rot(b))) for a, b in zip(full, full[1:])}
                cuts.add(frozenset(edges))
                continue
            if q == rot(q):
                continue
            walk(path + [q], used | {q, rot(q)})

    for s in starts:
        walk([s], set(hole) | {s, rot(s)})
    maps = [
        lambda x, y: (x, y), lambda x, y: (n - y, x), lambda x, y: (n - x, n - y), lambda x, y: (y, n - x),
        lambda x, y: (n - x, y), lambda x, y: (x, n - y), lambda x, y: (y, x), lambda x, y: (n - y, n - x),
    ]  # fmt: skip
    keys = set()
    for cut in cuts:
        images = []
        for f in maps:
            images.append(tuple(sorted(tuple(sorted(f(*p) for p in e)) for e in cut)))
        keys.add(min(images))
    return len(keys)
