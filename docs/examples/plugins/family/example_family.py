"""`cut-rectangles`: a family of instances as a plug-in -- a rectangle cut at random into small polyominoes.

Each instance is a ``rows`` x ``cols`` rectangle and the pieces of one random cut of it into connected pieces
of 2 to ``largest`` cells (grown from random seeds, each step taking a free neighbouring cell).  The pieces
may be turned and flipped, so a puzzle has at least the planted tiling (``solvable``): the runner calls an
"unsatisfiable" on one wrong.  More pieces of distinct shapes make fewer tilings, so ``largest`` moves an
instance across the phase transition as the colour count does on edge-matching boards.
"""

import random

from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece


def _cut(rows: int, cols: int, largest: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    """A random partition of the rectangle into connected pieces of 1 to ``largest`` cells."""
    free = {(r, c) for r in range(rows) for c in range(cols)}
    pieces = []
    while free:
        start = min(free)  # row by row: no free cell is left enclosed alone more often than need be
        piece = [start]
        free.discard(start)
        want = rng.randint(2, largest)
        while len(piece) < want:
            edge = [(r + dr, c + dc) for r, c in piece for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            edge = [x for x in edge if x in free]
            if not edge:
                break
            nxt = rng.choice(edge)
            piece.append(nxt)
            free.discard(nxt)
        pieces.append(piece)
    return pieces


def _normal(cells: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    r0, c0 = min(r for r, _ in cells), min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


class CutRectangles:
    """The family, as the entry-point group ``eternity.families`` takes it: ``generate(seed, **params)``."""

    def generate(self, seed: int, rows: int = 4, cols: int = 5, largest: int = 4) -> PolyformPuzzle:
        rng = random.Random(seed)
        cut = _cut(rows, cols, largest, rng)
        pieces = [PolyPiece(f"p{i}", _normal(cells)) for i, cells in enumerate(cut)]
        region = [(r, c) for r in range(rows) for c in range(cols)]
        return PolyformPuzzle(
            "square", region, pieces, mirror=True, name=f"cut-{rows}x{cols}-{largest}-{seed % 10_000}"
        )

    def solvable(self, rows: int = 4, cols: int = 5, largest: int = 4) -> bool:
        return True  # the cut itself tiles the rectangle
