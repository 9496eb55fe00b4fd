"""Eternity (1999): boundary words to drafter-grid cells, and the built-in puzzles.

The only machine-readable data (``data/eternity1``, provenance in
data/SOURCES.md) gives every piece and region as a boundary word: start at a
triangle-grid vertex, walk counter-clockwise; letter A..L = direction 0, 30,
..., 330 degrees; A, C, E, G, I, K steps are 1/2 long, B, D, ... L steps
sqrt(3)/3 (upper case) or sqrt(3)/6 (lower case), in units where the
triangle grid has side 1 and a drafter is half a unit triangle.  A word
becomes the set of kisrhombille cells (grids.DrafterGrid) whose centres lie
inside the walk; the cell count is checked against the polygon's area, so
a word off the lattice is an error, not a silently wrong piece.
"""

from __future__ import annotations

import math
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from puzzles.kinds.grids import S3, Cell, DrafterGrid, get_grid

if TYPE_CHECKING:
    from puzzles.kinds.polyform import PolyformPuzzle

CELL_AREA = S3 / 24  # one kisrhombille cell; a drafter is three
REGIONS = ("boat", "tortoise", "pram", "boomerang", "serenity")


def walk(word: str) -> list[tuple[float, float]]:
    """The corners visited by a boundary word, starting at the origin."""
    x = y = 0.0
    pts = [(x, y)]
    for ch in word:
        d = ord(ch.upper()) - ord("A")
        if not 0 <= d < 12:
            raise ValueError(f"bad letter {ch!r} in boundary word")
        step = 0.5 if d % 2 == 0 else (1 / S3 if ch.isupper() else 1 / (2 * S3))
        x += step * math.cos(math.radians(30 * d))
        y += step * math.sin(math.radians(30 * d))
        pts.append((x, y))
    if math.hypot(x, y) > 1e-9:
        raise ValueError("boundary word does not close")
    return pts[:-1]


def polygon_area(pts) -> float:
    """The area of a polygon given by its corners (the shoelace formula)."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1])) / 2


def cells_inside(pts) -> tuple[Cell, ...]:
    """The drafter-grid cells whose centres lie inside the polygon (even-odd rule)."""
    grid = get_grid("drafter")
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    j0, j1 = math.floor(min(ys) / (S3 / 2)) - 1, math.ceil(max(ys) / (S3 / 2)) + 1
    cand: list[tuple[int, int, int]] = []
    for j in range(j0, j1 + 1):
        for i in range(math.floor(min(xs) - j / 2) - 1, math.ceil(max(xs) - j / 2) + 2):
            cand.extend((i, j, k) for k in range(12))
    import numpy as np  # here, not at the top: `eternity list` names these puzzles without numpy

    cen = np.array([grid.centroid(c) for c in cand])
    ax = np.array(xs)
    ay = np.array(ys)
    bx, by = np.roll(ax, -1), np.roll(ay, -1)
    px, py = cen[:, 0:1], cen[:, 1:2]
    crosses = ((ay > py) != (by > py)) & (px < (bx - ax) * (py - ay) / np.where(by == ay, 1, by - ay) + ax)
    inside = crosses.sum(axis=1) % 2 == 1
    cells = tuple(sorted(c for c, ok in zip(cand, inside) if ok))
    area = polygon_area(list(pts))
    if area <= 0:
        raise ValueError("boundary word runs clockwise")
    if abs(len(cells) * CELL_AREA - area) > 1e-6:
        raise ValueError(f"boundary word is off the drafter lattice (area {area / CELL_AREA:.3f} cells)")
    return cells


def word_cells(word: str) -> tuple[Cell, ...]:
    """The drafter cells of a piece written as a word of moves."""
    return cells_inside(walk(word))


def _data() -> Path:
    from puzzles.data import data_dir

    return data_dir() / "eternity1"


def _pairs(name: str) -> list[list[str]]:
    from puzzles.files.formats import read_text

    return [ln.split() for ln in read_text(_data() / name).splitlines() if ln.strip()]


@cache
def tiles() -> dict[int, tuple[Cell, ...]]:
    """Tiles 1..221 (209 Eternity pieces, 210-213 Trinity, 214-221 Serenity) as cells."""
    out = {}
    for parts in _pairs("eternity1_pieces_boundary_words.txt") + _pairs("burkardt_extra_tiles_boundary_words.txt"):
        out[int(parts[0])] = DrafterGrid().normalize(word_cells(parts[1]))
    return out


def board_word() -> str:
    """The word of moves that outlines Eternity's dodecagon board."""
    return _pairs("eternity1_board_boundary_word.txt")[0][0]


# ``eternity1-hintsK`` / ``eternity1-hintsK-sS``: the board with K hint pieces placed at random (seed S)
HINTED = re.compile(r"eternity1-hints(\d+)(?:-s(\d+))?")


@cache
def puzzle(name: str) -> PolyformPuzzle | None:
    """``eternity1`` (209 pieces, the dodecagon) or ``eternity1-<region>`` / ``serenity``."""
    from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

    hints = HINTED.fullmatch(name)
    if hints:  # the board with K pieces placed at random (Monckton's hint pieces; seed S)
        from puzzles.make.hints import random_hints

        base = puzzle("eternity1")
        assert base is not None
        return random_hints(base, int(hints[1]), int(hints[2] or 0))[0]
    t = tiles()
    if name == "eternity1":
        region = word_cells(board_word())
        ids = list(range(1, 210))
    else:
        region_name = "serenity" if name == "serenity" else name.removeprefix("eternity1-")
        if region_name not in REGIONS or (region_name == "serenity") != (name == "serenity"):
            return None
        words = {p[0]: p[1] for p in _pairs("burkardt_small_regions_boundary_words.txt")}
        ids_of = {p[0]: [int(x) for x in p[1:]] for p in _pairs("burkardt_small_regions_tile_ids.txt")}
        region = word_cells(words[region_name])
        ids = ids_of[region_name]
    pieces = [PolyPiece(str(i), t[i]) for i in ids]
    return PolyformPuzzle("drafter", list(region), pieces, mirror=True, name=name)


def names() -> list[str]:
    """The names of Eternity's built-in puzzles: the board and its smaller regions."""
    return ["eternity1"] + [f"eternity1-{r}" for r in REGIONS if r != "serenity"] + ["serenity"]
