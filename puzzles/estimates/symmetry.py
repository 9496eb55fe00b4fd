"""Board symmetries and distinct-solution counting.

``distinct`` counts solutions up to the symmetries of the board that map
the puzzle onto itself and up to identical pieces: each solution is reduced
to what it shows (colours per cell for edge matching, the shape names per
cell for polyforms, the queens' squares), every symmetry of the board is
applied, and the smallest image is its key.  The number of different keys
is the distinct count.  Edge-matching pieces cannot be turned over, so only
rotations of the board apply there; a board symmetry must also keep the
fixed pieces where they are.
"""

from __future__ import annotations

from puzzles.kinds.edge import EdgePuzzle, rotate
from puzzles.kinds.grids import square_symmetries
from puzzles.kinds.latin import LatinPuzzle
from puzzles.kinds.magic import MagicPuzzle
from puzzles.kinds.polyform import PolyformPuzzle
from puzzles.kinds.queens import QueensPuzzle


def _edge_maps(p: EdgePuzzle):
    """(cell map, side shift) for the board rotations that keep the puzzle."""
    R, C = p.rows, p.cols
    maps = [(lambda r, c: (r, c), 0, R, C), (lambda r, c: (R - 1 - r, C - 1 - c), 2, R, C)]
    if R == C:
        maps += [(lambda r, c: (c, R - 1 - r), 1, C, R), (lambda r, c: (C - 1 - c, r), 3, C, R)]
    out = []
    for f, shift, _, _ in maps:
        cell_map = [f(*divmod(x, C)) for x in range(R * C)]
        cell_map = [r * C + c for r, c in cell_map]
        fixed_img = {(cell_map[fx.cell], rotate(p.placed(fx.piece, fx.rotation), shift)) for fx in p.fixed}
        fixed_orig = {(fx.cell, p.placed(fx.piece, fx.rotation)) for fx in p.fixed}
        if fixed_img == fixed_orig:
            out.append((cell_map, shift))
    return out


def edge_key(p: EdgePuzzle, placements, maps=None) -> tuple:
    """A key of an edge-matching board equal for boards the board's symmetries map onto each other."""
    shown = {int(pl[0]): p.placed(int(pl[1]), int(pl[2])) for pl in placements}
    best = None
    for cell_map, shift in maps or _edge_maps(p):
        img: list[tuple[int, ...] | None] = [None] * p.n_cells
        for cell, cols in shown.items():
            img[cell_map[cell]] = rotate(cols, shift)
        t = tuple(img)
        if best is None or t < best:
            best = t
    return best  # type: ignore[return-value]


def _poly_maps(p: PolyformPuzzle):
    grid = p.grid
    region = sorted(map(tuple, p.region))
    ts = grid.transforms if p.mirror else grid.transforms[: grid.n_rotations]
    out = []
    for t in ts:
        img = [t(c) for c in region]
        off = tuple(a - b for a, b in zip(min(region), min(img)))
        moved = sorted(tuple(x + o for x, o in zip(c, off)) for c in img)
        if moved == region:
            out.append((t, off))
    return out


def poly_key(p: PolyformPuzzle, placements, maps=None) -> tuple:
    """A key of a polyform tiling equal for tilings the region's symmetries map onto each other."""
    best = None
    for t, off in maps or _poly_maps(p):
        cells = {}
        for pl in placements:
            for c in pl[2]:
                cells[tuple(x + o for x, o in zip(t(tuple(c)), off))] = p.pieces[pl[0]].name
        key = tuple(sorted(cells.items()))
        if best is None or key < best:
            best = key
    return best  # type: ignore[return-value]


def queens_key(p: QueensPuzzle, placements) -> tuple:
    """A key of a queens placement equal for placements the square's symmetries map onto each other."""
    qs = [(int(a), int(b)) for a, b in placements]
    return min(tuple(sorted(t(r, c) for r, c in qs)) for t in square_symmetries(p.n))


def queens_orbits(n: int, solutions) -> int:
    """The distinct patterns among a complete list of n-queens (or n-rooks) solutions, by Burnside's lemma:
    the mean over the square's eight symmetries of the solutions each leaves as they are.  Each test is a
    comparison of arrays, all solutions at once; no solution is reduced to a canonical key (``queens_key``
    did that, and on 14 queens its 365,596 keys took most of the count's time).  Valid because the list
    is closed under the symmetries, as the list of every solution is."""
    import numpy as np

    if not solutions:
        return 0
    perm = np.empty((len(solutions), n), np.int64)
    for i, sol in enumerate(solutions):
        for r, c in sol:
            perm[i, int(r)] = int(c)
    rows = np.broadcast_to(np.arange(n), perm.shape)
    m = n - 1
    images = [
        (rows, perm), (perm, m - rows), (m - rows, m - perm), (m - perm, rows),
        (rows, m - perm), (m - rows, perm), (perm, rows), (m - perm, m - rows),
    ]  # fmt: skip
    at = np.arange(len(solutions))[:, None]
    fixed = 0
    for r2, c2 in images:
        img = np.empty_like(perm)
        img[at, r2] = c2
        fixed += int((img == perm).all(axis=1).sum())
    orbits, rem = divmod(fixed, 8)
    if rem:
        raise ValueError("queens: the solutions given are not closed under the board's symmetries")
    return orbits


def magic_key(perms: list[list[int]], placements) -> tuple:
    """The least image of the numbers under the figure's symmetries (``MagicPuzzle.symmetries``)."""
    at = {int(c): int(v) for c, v in placements}
    return min(tuple(sorted((perm[c], v) for c, v in at.items())) for perm in perms)


def latin_key(p: LatinPuzzle, placements) -> tuple:
    """The least image of the filled board under the board's symmetries (symbols stay as they are)."""
    cells = [(int(pl[0]), int(pl[1]), int(pl[2]), int(pl[3])) for pl in placements]
    return min(tuple(sorted((*t(r, c), a, b) for r, c, a, b in cells)) for t in square_symmetries(p.n))


def distinct_count(puzzle, solutions) -> int:
    """The number of solutions that differ up to board symmetry and identical pieces."""
    if isinstance(puzzle, EdgePuzzle):
        maps = _edge_maps(puzzle)
        return len({edge_key(puzzle, s, maps) for s in solutions})
    if isinstance(puzzle, PolyformPuzzle):
        maps = _poly_maps(puzzle)
        return len({poly_key(puzzle, s, maps) for s in solutions})
    if isinstance(puzzle, QueensPuzzle):
        return queens_orbits(puzzle.n, solutions)
    if isinstance(puzzle, LatinPuzzle):
        return len({latin_key(puzzle, s) for s in solutions})
    if isinstance(puzzle, MagicPuzzle):
        perms = puzzle.symmetries()
        return len({magic_key(perms, s) for s in solutions})
    raise TypeError(type(puzzle).__name__)


def magic4_group() -> list:
    """The 16 maps of (row, col) generated by the 4x4 board's eight symmetries and the permutation
    (0 1)(2 3) applied to rows and columns at once, which keeps every row, column and both
    diagonals of an order-4 square as sets (so it maps magic squares to magic squares)."""
    sigma = (1, 0, 3, 2)
    maps = {}
    for t in square_symmetries(4):
        for s in (False, True):

            def m(r, c, t=t, s=s):
                return t(sigma[r], sigma[c]) if s else t(r, c)

            maps[tuple(m(r, c) for r in range(4) for c in range(4))] = m
    return list(maps.values())


def court_card_classes(p: LatinPuzzle, solutions) -> int:
    """Euler's court cards up to ``magic4_group``: the convention under which the book's "72 of
    the 880" holds (under the board's eight symmetries alone there are 144)."""
    group = magic4_group()
    keys = set()
    for s in solutions:
        cells = [(int(pl[0]), int(pl[1]), int(pl[2]), int(pl[3])) for pl in s]
        keys.add(min(tuple(sorted((*t(r, c), a, b) for r, c, a, b in cells)) for t in group))
    return len(keys)
