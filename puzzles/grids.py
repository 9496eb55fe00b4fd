"""Grids for polyforms: cells, neighbours, symmetries, translations, outlines.

A grid is a small, fully described object the rest of the code asks
questions of.  Cells are tuples of integers.  Each grid gives

* ``neighbours(cell)``: the cells sharing an edge;
* ``transforms``: its point-symmetry group as functions on cells
  (the first ``n_rotations`` are the proper rotations, the rest mirror images);
* ``normalize(cells)``: the canonical translate of a cell set (translations
  must keep the lattice, which matters on the triangle and drafter grids);
* ``polygon(cell)``: the cell's corners in the plane, for drawing.

Only the square grid lives here for now; the triangle, hexagon and drafter
grids plug in through the same interface (``GRIDS`` maps names to grids)::

    square grid, cell (r, c): row r downwards, column c to the right

        (0,0) (0,1) (0,2)
        (1,0) (1,1) (1,2)
"""

from __future__ import annotations

from typing import Callable, Iterable

Cell = tuple[int, ...]


class SquareGrid:
    name = "square"
    n_rotations = 4

    def __init__(self) -> None:
        rot = lambda c: (c[1], -c[0])  # quarter turn clockwise  # noqa: E731
        mir = lambda c: (c[0], -c[1])  # mirror left-right  # noqa: E731
        ts: list[Callable[[Cell], Cell]] = [lambda c: c]
        for _ in range(3):
            ts.append(lambda c, f=ts[-1]: rot(f(c)))
        ts += [lambda c, f=t: mir(f(c)) for t in ts[:4]]
        self.transforms = ts

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]

    def normalize(self, cells: Iterable[Cell]) -> tuple[Cell, ...]:
        cells = list(cells)
        r0 = min(c[0] for c in cells)
        c0 = min(c[1] for c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    def translate(self, cells: Iterable[Cell], offset: Cell) -> tuple[Cell, ...]:
        return tuple(sorted((r + offset[0], c + offset[1]) for r, c in cells))

    def anchors(self, shape: tuple[Cell, ...], region: set[Cell]) -> Iterable[Cell]:
        """Offsets that could put ``shape`` (normalized) onto ``region``."""
        first = shape[0]
        for cell in region:
            yield (cell[0] - first[0], cell[1] - first[1])

    def orientations(self, cells: Iterable[Cell], mirror: bool) -> list[tuple[Cell, ...]]:
        """The distinct orientations of a shape, normalized, in a fixed order."""
        cells = list(cells)
        ts = self.transforms if mirror else self.transforms[: self.n_rotations]
        seen: dict[tuple[Cell, ...], None] = {}
        for t in ts:
            seen.setdefault(self.normalize(t(c) for c in cells), None)
        return list(seen)

    def canonical(self, cells: Iterable[Cell], mirror: bool = True) -> tuple[Cell, ...]:
        return min(self.orientations(cells, mirror))

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]


GRIDS = {"square": SquareGrid()}


def get_grid(name: str):
    try:
        return GRIDS[name]
    except KeyError:
        raise ValueError(f"unknown grid {name!r} (known: {', '.join(sorted(GRIDS))})") from None
