"""Tilings with a free supply of pieces: the counts that no enumeration reaches.

``dominoes-RxC`` (an R x C board, as many dominoes as it takes),
``aztec-N`` (the Aztec diamond of order N, with dominoes),
``trominoes-RxC``, ``tetrominoes-RxC`` and ``pentominoes-RxC`` (every free
polyomino of that size, each in any number, on an R x C board).  Their counts
grow exponentially with the area (258,584,046,368 domino tilings of 10x10), so
they are counted by the memoised search (``backtrack --opt memo=true``), whose
diagram folds the many repeated sub-boards; the references the tests hold
them to (Kasteleyn, Temperley and Fisher's product for dominoes, 2^(n(n+1)/2)
for the Aztec diamond, a transfer matrix for strips) are in docs/REFERENCES.md.
"""

from __future__ import annotations

import re

from puzzles.kinds.grids import Cell
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

SIZES = {"dominoes": 2, "trominoes": 3, "tetrominoes": 4, "pentominoes": 5}
MAX_SIDE = 64  # a board's side
MAX_AZTEC = 40  # the Aztec diamond's order
# The 35 free hexominoes, one of each, on a 14x15 board (210 cells: no tiling exists, by a parity argument, but
# the board serves as the ground random regions are cut from when the set's critical size is measured).
HEXOMINO_SET = "hexominoes-14x15"
EXAMPLES = ["dominoes-8x8", "dominoes-10x10", "aztec-10", "trominoes-3x30", "tetrominoes-4x20", "pentominoes-3x60",
            HEXOMINO_SET]  # fmt: skip


def free_pieces(size: int) -> list[PolyPiece]:
    """Every free polyomino of ``size`` cells, each in free supply (count 0)."""
    from puzzles.forms.enumeration import free_polyforms
    from puzzles.kinds.grids import get_grid

    forms = free_polyforms(get_grid("square"), size)
    return [PolyPiece(f"{size}-{k + 1}", tuple(map(tuple, f)), 0) for k, f in enumerate(forms)]


def aztec_region(n: int) -> list[tuple[int, int]]:
    """The Aztec diamond of order n: rows 0..2n-1, row i holding the 2 * min(i + 1, 2n - i) middle cells."""
    out = []
    for i in range(2 * n):
        half = min(i + 1, 2 * n - i)
        out += [(i, c) for c in range(n - half, n + half)]
    return out


def load(name: str) -> PolyformPuzzle | None:
    """The built-in tiling puzzle ``name``, or None when the name is not one of them."""
    m = re.fullmatch(r"aztec-(\d+)", name)
    if m and 1 <= int(m.group(1)) <= MAX_AZTEC:
        return PolyformPuzzle("square", list(aztec_region(int(m.group(1)))), free_pieces(2), mirror=True, name=name)
    if name == HEXOMINO_SET:  # one of each hexomino: a piece set to cut random regions from (--critical)
        pieces = [PolyPiece(pc.name, pc.cells) for pc in free_pieces(6)]
        return PolyformPuzzle("square", [(i, j) for i in range(14) for j in range(15)], pieces, mirror=True, name=name)
    m = re.fullmatch(r"(dominoes|trominoes|tetrominoes|pentominoes)-(\d+)x(\d+)", name)
    if m:
        r, c = int(m.group(2)), int(m.group(3))
        if 1 <= r <= MAX_SIDE and 1 <= c <= MAX_SIDE:
            region: list[Cell] = [(i, j) for i in range(r) for j in range(c)]
            return PolyformPuzzle("square", region, free_pieces(SIZES[m.group(1)]), mirror=True, name=name)
    return None


def describe(name: str) -> str:
    """One line on a built-in tiling."""
    if name == HEXOMINO_SET:
        return "the 35 hexominoes, one of each, on a 14x15 board (no tiling; the set for --critical)"
    if name.startswith("aztec-"):
        n = int(name[6:])
        return f"the Aztec diamond of order {n} with dominoes (2^{n * (n + 1) // 2} tilings; any N works)"
    kind, size = name.split("-", 1)
    return f"tilings of a {size} board by {kind}, any number of each (any RxC works; count with memo=true)"
