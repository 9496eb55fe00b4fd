r"""Grids for polyforms: cells, neighbours, symmetries, translations, outlines.

A grid is a small, fully described object the rest of the code asks
questions of.  Cells are tuples of integers whose first two coordinates are
a lattice position (translations add to them) and whose further coordinate,
if any, is the cell's type at that position.  Each grid gives

* ``neighbours(cell)``: the cells sharing an edge, in the order of the
  polygon's edges (edge i runs from corner i to corner i+1);
* ``transforms``: its point-symmetry group as functions on cells (the first
  ``n_rotations`` are the proper rotations, the rest mirror images);
* ``normalize(cells)``: the canonical translate of a cell set (only
  translations of the lattice: on the triangle and drafter grids not every
  shift that moves one cell onto another keeps the grid);
* ``polygon(cell)``: the cell's corners in the plane (y up), for drawing;
* ``units(cell)``: the polyform building blocks containing a cell (one cell,
  except on the drafter grid, see below).

Square grid, cell (r, c); drawn with row r downwards::

    (0,0) (0,1) (0,2)
    (1,0) (1,1) (1,2)

Triangle grid, cell (a, b, t): lattice point P(a, b) = a*e0 + b*e60 with unit
sides; t = 0 the up triangle P(a,b) P(a+1,b) P(a,b+1), t = 1 the down
triangle P(a+1,b) P(a+1,b+1) P(a,b+1)::

        P(0,1)___P(1,1)
          /\ 1  /
         / 0\  /
        /____\/
     P(0,0)  P(1,0)

Hexagon grid, cell (q, r): centre q*e0 + r*e60 (axial coordinates), the six
neighbours in the directions 0, 60, ..., 300 degrees.

Drafter grid: the kisrhombille tiling of a unit triangle grid.  Cell
(i, j, k) is the small 30-60-90 triangle whose 30 degree corner is the
triangle-grid vertex V = i*e0 + j*e60 and which fills the sector from 30k to
30(k+1) degrees around V (twelve per vertex).  Even rays (0, 60, ...) run
along triangle sides, odd rays along medians.  Eternity's drafter (half a
unit equilateral triangle, cut along an altitude) is three such cells, the
``units`` of this grid: the six halves of each unit triangle, each the union
of three consecutive small cells around the triangle's centre.  Pieces move
by the lattice translations and the twelve symmetries about a vertex only;
"against-the-grain" placements (Selby) are left out.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from typing_extensions import override

from puzzles.errors import UsageError

Cell = tuple[int, ...]
S3 = math.sqrt(3.0)

# lattice steps of the six directions 0, 60, ..., 300 degrees in the basis (e0, e60)
HEX_STEPS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def _rot60(x: int, y: int) -> tuple[int, int]:
    """Rotate a lattice vector (basis e0, e60) by 60 degrees counter-clockwise."""
    return -y, x + y


def _mirror0(x: int, y: int) -> tuple[int, int]:
    """Reflect a lattice vector (basis e0, e60) in the x axis."""
    return x + y, -y


def _point(x: float, y: float) -> tuple[float, float]:
    """Lattice coordinates (basis e0, e60) to the plane."""
    return x + 0.5 * y, y * S3 / 2


class Grid:
    """What every grid shares; subclasses give the geometry."""

    name = ""
    n_rotations = 1
    unit_size = 1
    dims = 2  # coordinates of a cell
    types = 1  # values of the third coordinate, when there is one

    def check_cell(self, cell) -> str | None:
        """Why ``cell`` is not a cell of this grid, or None."""
        if len(cell) != self.dims:
            return f"a {self.name} cell has {self.dims} coordinates"
        if self.dims == 3 and not 0 <= cell[2] < self.types:
            return f"the third coordinate of a {self.name} cell is 0 to {self.types - 1}"
        return None

    def __init__(self) -> None:
        def after(g: Callable[[Cell], Cell], f: Callable[[Cell], Cell]) -> Callable[[Cell], Cell]:
            return lambda c: g(f(c))

        ts: list[Callable[[Cell], Cell]] = [lambda c: c]
        for _ in range(self.n_rotations - 1):
            ts.append(after(self.rotate, ts[-1]))
        ts += [after(self.mirror, t) for t in ts[: self.n_rotations]]
        self.transforms = ts

    # geometry, per grid
    def rotate(self, cell: Cell) -> Cell:
        """The cell the grid's smallest turn takes ``cell`` to (a quarter turn on squares, a sixth on hexagons)."""
        raise NotImplementedError

    def mirror(self, cell: Cell) -> Cell:
        """The mirror image of ``cell``."""
        raise NotImplementedError

    def neighbours(self, cell: Cell) -> list[Cell]:
        """The cells that share a side with ``cell``."""
        raise NotImplementedError

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """The corners of ``cell`` in the plane, for pictures."""
        raise NotImplementedError

    def units(self, cell: Cell) -> list[tuple[Cell, ...]]:
        """The groups of cells counted as one unit of ``cell``'s area (a drafter's half-triangles; a cell alone elsewhere)."""
        return [(cell,)]

    # shared
    def normalize(self, cells: Iterable[Cell]) -> tuple[Cell, ...]:
        """``cells`` moved to the grid's origin by a whole translation, sorted."""
        cells = list(cells)
        a0 = min(c[0] for c in cells)
        b0 = min(c[1] for c in cells)
        return tuple(sorted((c[0] - a0, c[1] - b0) + tuple(c[2:]) for c in cells))

    def translate(self, cells: Iterable[Cell], offset: Cell) -> tuple[Cell, ...]:
        """``cells`` moved by ``offset``."""
        return tuple(sorted((c[0] + offset[0], c[1] + offset[1]) + tuple(c[2:]) for c in cells))

    def anchors(self, shape: tuple[Cell, ...], region: set[Cell]) -> Iterable[Cell]:
        """Offsets that could put ``shape`` (normalized) onto ``region``."""
        first = shape[0]
        for cell in region:
            if cell[2:] == first[2:]:
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
        """The least of the normalised images of ``cells`` under the grid's turns (and mirror): one name a free form."""
        return min(self.orientations(cells, mirror))

    def centroid(self, cell: Cell) -> tuple[float, float]:
        """The centre of ``cell`` in the plane."""
        poly = self.polygon(cell)
        return sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)

    def component_sizes(self, cells: Iterable[Cell]) -> list[int]:
        """The sizes of the connected parts of ``cells`` (a cell joins its ``neighbours``).  The cutters ask it
        for every piece they try, so it is a plain flood fill: networkx's ``connected_components`` over a
        subgraph takes 5x as long on a 12x12 board (one map of 100 cells: 100 us here, 535 us there)."""
        left, sizes = set(cells), []
        neighbours = self.neighbours
        while left:
            stack, n = [left.pop()], 1
            while stack:
                for nb in neighbours(stack.pop()):
                    if nb in left:
                        left.remove(nb)
                        stack.append(nb)
                        n += 1
            sizes.append(n)
        return sizes

    def area(self, cell: Cell) -> float:
        """The area of ``cell`` in the plane."""
        poly = self.polygon(cell)
        return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]))) / 2


class SquareGrid(Grid):
    """The square grid: cells (row, column)."""

    name = "square"
    n_rotations = 4

    @override
    def rotate(self, c: Cell) -> Cell:
        return (c[1], -c[0])  # quarter turn clockwise as drawn

    @override
    def mirror(self, c: Cell) -> Cell:
        return (c[0], -c[1])

    @override
    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1)]

    @override
    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        return [(c, -r), (c + 1, -r), (c + 1, -r - 1), (c, -r - 1)]


class TriangleGrid(Grid):
    """Polyiamonds; symmetries act on centroids (3 x lattice coordinates)."""

    name = "triangle"
    n_rotations = 6
    dims, types = 3, 2

    @staticmethod
    def _to3(c: Cell) -> tuple[int, int]:
        a, b, t = c
        return 3 * a + 1 + t, 3 * b + 1 + t

    @staticmethod
    def _from3(x: int, y: int) -> Cell:
        t = (x - 1) % 3
        return ((x - 1 - t) // 3, (y - 1 - t) // 3, t)

    @override
    def rotate(self, c: Cell) -> Cell:
        return self._from3(*_rot60(*self._to3(c)))

    @override
    def mirror(self, c: Cell) -> Cell:
        return self._from3(*_mirror0(*self._to3(c)))

    @override
    def neighbours(self, cell: Cell) -> list[Cell]:
        a, b, t = cell
        if t == 0:
            return [(a, b - 1, 1), (a, b, 1), (a - 1, b, 1)]
        return [(a + 1, b, 0), (a, b + 1, 0), (a, b, 0)]

    @override
    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        a, b, t = cell
        pts = [(a, b), (a + 1, b), (a, b + 1)] if t == 0 else [(a + 1, b), (a + 1, b + 1), (a, b + 1)]
        return [_point(x, y) for x, y in pts]


class HexagonGrid(Grid):
    """The hexagonal grid: cells in axial coordinates."""

    name = "hexagon"
    n_rotations = 6

    @override
    def rotate(self, c: Cell) -> Cell:
        return _rot60(*c)

    @override
    def mirror(self, c: Cell) -> Cell:
        return _mirror0(*c)

    @override
    def neighbours(self, cell: Cell) -> list[Cell]:
        q, r = cell
        return [(q + dq, r + dr) for dq, dr in HEX_STEPS]

    @override
    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = _point(*cell)
        rad = 1 / S3
        return [
            (x + rad * math.cos(math.radians(60 * i - 30)), y + rad * math.sin(math.radians(60 * i - 30)))
            for i in range(6)
        ]


class DrafterGrid(Grid):
    """The kisrhombille tiling; its units are Eternity's drafters (3 cells)."""

    name = "drafter"
    n_rotations = 6
    unit_size = 3
    dims, types = 3, 12

    @override
    def rotate(self, c: Cell) -> Cell:
        i, j, k = c
        return (-j, i + j, (k + 2) % 12)

    @override
    def mirror(self, c: Cell) -> Cell:
        i, j, k = c
        return (i + j, -j, 11 - k)

    @staticmethod
    def far(c: Cell) -> Cell:
        """The cell across the short leg (midpoint to centre): at the side's other end."""
        i, j, k = c
        side = k if k % 2 == 0 else k + 1  # the even ray, 30*side degrees
        di, dj = HEX_STEPS[(side // 2) % 6]
        return (i + di, j + dj, (k + 5) % 12 if k % 2 == 0 else (k + 7) % 12)

    @staticmethod
    def across_median(c: Cell) -> Cell:
        """The cell's mirror across the drafter's median."""
        i, j, k = c
        return (i, j, (k + 1) % 12 if k % 2 == 0 else (k - 1) % 12)

    @override
    def neighbours(self, cell: Cell) -> list[Cell]:
        i, j, k = cell
        return [(i, j, (k - 1) % 12), self.far(cell), (i, j, (k + 1) % 12)]

    @override
    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        i, j, k = cell
        vx, vy = _point(i, j)
        out = [(vx, vy)]
        for ray in (k, k + 1):
            r = 0.5 if ray % 2 == 0 else 1 / S3
            a = math.radians(30 * ray)
            out.append((vx + r * math.cos(a), vy + r * math.sin(a)))
        return out

    def ring(self, cell: Cell) -> list[Cell]:
        """The six cells of the unit triangle holding ``cell``, in order round its centre."""
        out = [cell]
        for step in range(5):
            out.append(self.across_median(out[-1]) if step % 2 == 0 else self.far(out[-1]))
        return out

    @override
    def units(self, cell: Cell) -> list[tuple[Cell, ...]]:
        ring = self.ring(cell)
        # the three half-triangles (three consecutive cells round the centre) holding ring[0]
        return [tuple(sorted(ring[(s + d) % 6] for d in range(3))) for s in (4, 5, 0)]


def square_symmetries(n: int) -> list:
    """The eight symmetries of an n x n board, as maps of (row, col)."""
    m = n - 1
    out = []
    for f in (lambda r, c: (r, c), lambda r, c: (c, m - r), lambda r, c: (m - r, m - c), lambda r, c: (m - c, r)):
        for g in (lambda r, c: (r, c), lambda r, c: (r, m - c)):
            out.append(lambda r, c, f=f, g=g: g(*f(r, c)))
    return out


GRIDS: dict[str, Grid] = {g.name: g for g in (SquareGrid(), TriangleGrid(), HexagonGrid(), DrafterGrid())}


def get_grid(name: str) -> Grid:
    """The grid named ``name`` (square, triangle, hexagon or drafter); ``KeyError`` otherwise."""
    try:
        return GRIDS[name]
    except KeyError:
        raise UsageError(f"unknown grid {name!r} (known: {', '.join(sorted(GRIDS))})") from None
