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

from .edge import EdgePuzzle, rotate
from .grids import square_symmetries
from .latin import LatinPuzzle
from .magic import MagicPuzzle
from .polyform import PolyformPuzzle
from .queens import QueensPuzzle


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
    shown = {int(pl[0]): p.placed(int(pl[1]), int(pl[2])) for pl in placements}
    best = None
    for cell_map, shift in maps or _edge_maps(p):
        img = [None] * p.n_cells
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
    qs = [(int(a), int(b)) for a, b in placements]
    return min(tuple(sorted(t(r, c) for r, c in qs)) for t in square_symmetries(p.n))


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
        return len({queens_key(puzzle, s) for s in solutions})
    if isinstance(puzzle, LatinPuzzle):
        return len({latin_key(puzzle, s) for s in solutions})
    if isinstance(puzzle, MagicPuzzle):
        perms = puzzle.symmetries()
        return len({magic_key(perms, s) for s in solutions})
    raise TypeError(type(puzzle).__name__)


def board_symmetries(puzzle) -> int:
    """How many symmetries of the board map the puzzle onto itself."""
    if isinstance(puzzle, EdgePuzzle):
        return len(_edge_maps(puzzle))
    if isinstance(puzzle, PolyformPuzzle):
        return len(_poly_maps(puzzle))
    return 8
