"""Eternity-like polyform puzzles: a region of any grid cut into random connected pieces.

A piece grows unit by unit (a drafter on the drafter grid, a cell elsewhere)
from the first free cell in reading order, so the free area stays in one
piece as long as possible; a piece that cannot grow, or that leaves a free
component whose area is not a multiple of the piece area, is drawn again,
and after a few failures the whole partition restarts.  ``excess`` adds
pieces cut from a second, independent partition of the same region: the
puzzle then has more pieces than it needs (Selby's excess-piece states).
``dudes`` keeps only pieces without 30 degree corners, as every Eternity
piece is (drafter grid only).
"""

from __future__ import annotations

import random

from puzzles.errors import UsageError
from puzzles.kinds.grids import S3, Cell, Grid, get_grid
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece, PolyPlacement


def hexagon_region(side: int) -> list[Cell]:
    """The drafter-grid cells of a regular hexagon of ``side`` unit triangles round the origin."""
    if side < 1:
        raise UsageError("hexagon side must be at least 1")
    grid = get_grid("drafter")
    out: list[Cell] = []
    for i in range(-2 * side, 2 * side + 1):
        for j in range(-2 * side, 2 * side + 1):
            for k in range(12):
                x, y = grid.centroid((i, j, k))
                # inside the hexagon with vertices at distance ``side`` in the directions 0, 60, ...
                if all(x * _c + y * _s < side * S3 / 2 for _c, _s in _NORMALS):
                    out.append((i, j, k))
    return out


_NORMALS = [
    (0.8660254037844387, 0.5),
    (0.0, 1.0),
    (-0.8660254037844387, 0.5),
    (-0.8660254037844387, -0.5),
    (0.0, -1.0),
    (0.8660254037844387, -0.5),
]


def has_30_degree_corner(grid: Grid, cells) -> bool:
    """A drafter-grid shape with a lone sector at a vertex has a 30 degree corner there."""
    cells = set(cells)
    for i, j, k in cells:
        if (i, j, (k - 1) % 12) not in cells and (i, j, (k + 1) % 12) not in cells:
            return True
    return False


def _reading_key(grid: Grid):
    return lambda c: (-round(grid.centroid(c)[1], 6), round(grid.centroid(c)[0], 6))


def _grow(grid: Grid, free: set, start: Cell, units: int, rng: random.Random, dudes: bool):
    first = [u for u in grid.units(start) if free.issuperset(u)]
    if not first:
        return None
    piece = set(rng.choice(first))
    for _ in range(units - 1):
        options: set[tuple[Cell, ...]] = set()
        for c in piece:
            for nb in grid.neighbours(c):
                if nb in free and nb not in piece:
                    options.update(u for u in grid.units(nb) if free.issuperset(u) and piece.isdisjoint(u))
        if not options:
            return None
        piece.update(rng.choice(sorted(options)))
    if dudes and has_30_degree_corner(grid, piece):
        return None
    return piece


def partition(
    grid: Grid,
    region,
    units: int,
    rng: random.Random,
    dudes: bool = False,
    max_restarts: int = 200,
    piece_tries: int = 60,
) -> list[list[Cell]]:
    """Cut ``region`` into connected pieces of ``units`` units each."""
    area = units * grid.unit_size
    if len(region) % area:
        raise UsageError(f"the region's {len(region)} cells are not a multiple of the piece area {area}")
    key = _reading_key(grid)
    ordered = sorted(region, key=key)
    for _ in range(max_restarts):
        free, parts = set(region), []
        while free:
            start = next(c for c in ordered if c in free)
            for _ in range(piece_tries):
                piece = _grow(grid, free, start, units, rng, dudes)
                if piece is not None and all(n % area == 0 for n in grid.component_sizes(free - piece)):
                    break
            else:
                break
            free -= piece
            parts.append(sorted(piece))
        if not free:
            return parts
    raise UsageError(
        f"could not cut the region ({len(region)} cells) into pieces of {units} units in {max_restarts} attempts"
        + (" without 30 degree corners" if dudes else "")
        + "; try another seed or smaller pieces"
    )


def region_puzzle(
    grid_name: str,
    region,
    units: int,
    seed: int = 0,
    excess: int = 0,
    dudes: bool = False,
    mirror: bool = True,
    name: str | None = None,
) -> tuple[PolyformPuzzle, list[PolyPlacement]]:
    """A random partition of ``region`` as a puzzle, with ``excess`` extra pieces, and its planted solution."""
    grid = get_grid(grid_name)
    if dudes and grid_name != "drafter":
        raise UsageError("dudes (no 30 degree corners) applies to the drafter grid only")
    if excess < 0:
        raise UsageError("excess must be at least 0")
    rng = random.Random(seed)
    parts = partition(grid, region, units, rng, dudes)
    extra: list[list[Cell]] = []
    while len(extra) < excess:
        more = partition(grid, region, units, rng, dudes)
        rng.shuffle(more)
        extra += more[: excess - len(extra)]
    shapes = parts + extra
    order = list(range(len(shapes)))
    rng.shuffle(order)  # piece k is shape order[k]
    pieces: list[PolyPiece] = []
    planted: list[PolyPlacement | None] = [None] * len(parts)
    for k, s in enumerate(order):
        pieces.append(PolyPiece(f"P{k + 1}", grid.normalize(shapes[s])))
        if s < len(parts):
            planted[s] = PolyPlacement(k, 0, tuple(shapes[s]))
    nm = name or f"{grid_name}-{len(parts)}p{units}" + (f"+{excess}" if excess else "") + f"-s{seed}"
    return PolyformPuzzle(grid_name, list(region), pieces, mirror=mirror, name=nm), planted  # type: ignore[return-value]
