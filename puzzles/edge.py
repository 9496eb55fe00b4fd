"""Edge-matching puzzles (the Eternity II family).

Conventions (docs/ARCHITECTURE.md, "Puzzles"):

* a piece is 4 colours in order N, E, S, W; colour 0 is the grey border;
* pieces are numbered from 1 in file order (``pieces[k]`` is piece k+1);
* rotation r = r quarter turns clockwise: ``placed[k] = piece[(k - r) % 4]``;
* cells are named as on the Eternity II board: row letter from the top,
  column number from the left (A1 top left, I8 = row 9, column 8);
* border rule: a grey edge faces the outside and only the outside (a puzzle
  with no grey edge at all is "unbordered": its rim is free);
* more pieces than cells is allowed (the pieces then need not all be used).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import numpy as np

from .errors import UsageError
from .xcc import XCC, XCCBuilder

MAX_CANDIDATES = 2_000_000  # placements a model is built with: a few GB of Python objects and clauses

N, E, S, W = 0, 1, 2, 3
DR = (-1, 0, 1, 0)  # row step towards side N, E, S, W
DC = (0, 1, 0, -1)


def row_label(r: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (bijective base 26)."""
    s, r = "", r + 1
    while r:
        r, m = divmod(r - 1, 26)
        s = chr(65 + m) + s
    return s


_CELL = re.compile(r"^([A-Z]+)([1-9][0-9]*)$")


def parse_cell_name(name: str) -> tuple[int, int]:
    """'I8' -> (8, 7), 0-based (row, col); ValueError when malformed."""
    m = _CELL.match(name.strip().upper()) if isinstance(name, str) else None
    if not m:
        raise ValueError(f"bad cell name {name!r} (expected a row letter and a column number, like I8)")
    r = 0
    for ch in m.group(1):
        r = r * 26 + (ord(ch) - 64)
    return r - 1, int(m.group(2)) - 1


def rotate(colours, r: int) -> tuple[int, ...]:
    """The colours N,E,S,W shown by a piece turned r quarter turns clockwise."""
    return tuple(colours[(k - r) % 4] for k in range(4))


class EdgePlacement(NamedTuple):
    cell: int  # row * cols + col
    piece: int  # 0-based index into pieces
    rotation: int  # clockwise quarter turns


class Fixed(NamedTuple):
    cell: int
    piece: int
    rotation: int


@dataclass
class EdgePuzzle:
    """Square pieces with coloured edges on a rows x cols board."""

    rows: int
    cols: int
    pieces: np.ndarray  # int (n, 4), N E S W
    fixed: list[Fixed] = field(default_factory=list)
    name: str = ""

    kind = "edge"

    def __post_init__(self) -> None:
        self.pieces = np.asarray(self.pieces, dtype=np.int64).reshape(-1, 4)
        self._bordered = bool(np.any(self.pieces == 0))  # asked once a placement: worked out once

    # -- geometry -------------------------------------------------------
    @property
    def n_cells(self) -> int:
        return self.rows * self.cols

    @property
    def n_pieces(self) -> int:
        return len(self.pieces)

    @property
    def bordered(self) -> bool:
        return self._bordered

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.cols)
        return f"{row_label(r)}{c + 1}"

    def parse_cell(self, name: str) -> int:
        r, c = parse_cell_name(name)
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise ValueError(f"cell {name!r} is off the {self.rows}x{self.cols} board")
        return r * self.cols + c

    def neighbour(self, cell: int, side: int) -> int:
        """The cell across `side`, or -1 outside the board."""
        r, c = divmod(cell, self.cols)
        r2, c2 = r + DR[side], c + DC[side]
        if 0 <= r2 < self.rows and 0 <= c2 < self.cols:
            return r2 * self.cols + c2
        return -1

    def outside_sides(self, cell: int) -> tuple[bool, bool, bool, bool]:
        return tuple(self.neighbour(cell, s) < 0 for s in range(4))  # type: ignore[return-value]

    def joins(self) -> list[tuple[int, int, int]]:
        """Interior joins as (cell, side, neighbour) with side E or S."""
        out = []
        for cell in range(self.n_cells):
            for side in (E, S):
                nb = self.neighbour(cell, side)
                if nb >= 0:
                    out.append((cell, side, nb))
        return out

    @property
    def n_joins(self) -> int:
        return self.rows * (self.cols - 1) + self.cols * (self.rows - 1)

    # -- pieces ---------------------------------------------------------
    def placed(self, piece: int, rotation: int) -> tuple[int, ...]:
        return rotate(self.pieces[piece], rotation)

    def dense_colours(self) -> EdgePuzzle:
        """The same puzzle with its colours renumbered 1..k in their order (0, the border, kept), or
        the puzzle itself when they are so already.  Native tables are sized by the largest colour:
        colours 1, 2, 3 and 2000 on a 5x5 board took 24 GB; renumbered, a handful of entries.  The
        placements of a solution are the same for both."""
        cols = np.unique(self.pieces)
        nonzero = cols[cols > 0]
        if len(nonzero) == 0 or int(nonzero[-1]) == len(nonzero):
            return self
        lut = np.zeros(int(cols[-1]) + 1, np.int64)
        lut[nonzero] = np.arange(1, len(nonzero) + 1)
        return replace(self, pieces=lut[self.pieces])

    def distinct_rotations(self, piece: int) -> list[int]:
        """Rotations giving different colour arrangements (counting convention)."""
        seen, out = set(), []
        for r in range(4):
            t = self.placed(piece, r)
            if t not in seen:
                seen.add(t)
                out.append(r)
        return out

    def identical_groups(self) -> dict[int, list[int]]:
        """The free pieces grouped by what they look like (the same colours up to rotation): the
        lowest piece of each group -> the group's pieces in order.  Fixed pieces stay out.  A
        solver may search with one piece per group and name it for each of its copies
        (``relabel``): the copies of a full board permute, so its count is multiplied back."""
        fixed = {f.piece for f in self.fixed}
        groups: dict[tuple, list[int]] = {}
        for q in range(self.n_pieces):
            if q not in fixed:
                groups.setdefault(min(self.placed(q, r) for r in range(4)), []).append(q)
        return {g[0]: g for g in groups.values()}

    def mergeable_groups(self, symmetry: bool = False) -> dict[int, list[int]] | None:
        """The groups a model may merge (``identical_groups``), or None: fixed or spare pieces or
        a broken board symmetry make the count's factor no constant, and a board without copies
        gains nothing.  (The CNF and CP-SAT models; the native tables merge around fixed pieces.)"""
        if self.fixed or self.n_pieces != self.n_cells or symmetry:
            return None
        groups = self.identical_groups()
        return groups if any(len(g) > 1 for g in groups.values()) else None

    @staticmethod
    def orderings(groups: dict[int, list[int]] | None) -> int:
        """How many labelled boards one board with merged copies stands for: the copies permute."""
        return math.prod(math.factorial(len(g)) for g in groups.values()) if groups else 1

    def relabel(self, placements, groups: dict[int, list[int]] | None = None) -> list[EdgePlacement]:
        """A board that names a group's lowest piece for each of its copies, with every copy
        named once: the group's pieces in board order, each turned to show the same colours."""
        groups = self.identical_groups() if groups is None else groups
        left = {r: iter(g) for r, g in groups.items() if len(g) > 1}
        out = []
        for pl in placements:
            cell, q, r = pl
            if q in left:
                shown = self.placed(q, r)
                q = next(left[q], q)
                r = next(x for x in range(4) if self.placed(q, x) == shown)
            out.append(EdgePlacement(cell, q, r))
        return out

    def fits_border(self, cell: int, colours) -> bool:
        if not self.bordered:
            return True
        out = self.outside_sides(cell)
        return all((colours[s] == 0) == out[s] for s in range(4))

    def piece_class(self, piece: int) -> str:
        g = int(np.sum(self.pieces[piece] == 0))
        return {0: "inner", 1: "edge", 2: "corner"}.get(g, f"{g}-border")

    def colour_classes(self) -> tuple[list[int], list[int]]:
        """(frame colours, inner colours): frame colours are those next to a grey edge."""
        frame: set[int] = set()
        allc = set(int(x) for x in np.unique(self.pieces)) - {0}
        for p in self.pieces:
            for k in range(4):
                if p[k] == 0:
                    for j in ((k + 1) % 4, (k - 1) % 4):
                        if p[j] != 0:
                            frame.add(int(p[j]))
        return sorted(frame), sorted(allc - frame)

    # -- the XCC compilation -------------------------------------------
    def _turns_by_grey(self) -> dict[int, list[tuple[int, int]]]:
        """The free pieces' distinct turns grouped by the sides they show grey (bit s: side s)."""
        fixed_piece = {f.piece for f in self.fixed}
        by_grey: dict[int, list[tuple[int, int]]] = {}
        for p in range(self.n_pieces):
            if p in fixed_piece:
                continue
            for r in self.distinct_rotations(p):
                shown = self.placed(p, r)
                grey = sum(1 << s for s in range(4) if shown[s] == 0) if self.bordered else 0
                by_grey.setdefault(grey, []).append((p, r))
        return by_grey

    def _rim(self, cell: int) -> int:
        return sum(1 << s for s, o in enumerate(self.outside_sides(cell)) if o) if self.bordered else 0

    def n_candidates(self, by_grey: dict | None = None) -> int:
        """How many placements ``candidates`` lists, counted without listing them."""
        by_grey = self._turns_by_grey() if by_grey is None else by_grey
        fixed_cell = {f.cell for f in self.fixed}
        rims = Counter(self._rim(c) for c in range(self.n_cells) if c not in fixed_cell)
        return len(fixed_cell) + sum(n * len(by_grey.get(rim, ())) for rim, n in rims.items())

    def check_model_size(self, by_grey: dict | None = None) -> None:
        """Refuse, before anything is built, a board whose placement model would not fit in memory: the
        models of every CP, SAT, MaxSAT and MIP engine and the XCC have one variable or option a
        placement, and a 300x300 board has 3x10^10 of them (the native search needs none)."""
        n = self.n_candidates(by_grey)
        if n > MAX_CANDIDATES:
            raise UsageError(
                f"a model of this board would have {n:,} placements (cell, piece, turn); at most "
                f"{MAX_CANDIDATES:,} are built (Eternity II has 155,253): solve it with edge-backtrack, "
                "which builds none"
            )

    def candidates(self) -> list[EdgePlacement]:
        """Every (cell, piece, rotation) allowed by the border rule and fixed pieces: cell by cell, each
        cell's in piece order, a piece's in ``distinct_rotations`` order.  The pieces' turns are worked
        out once and grouped by where they show grey (Eternity II: 0.2 s, where asking every cell of
        every turn took 6 s before a CNF could be written)."""
        fixed_cell = {f.cell: f for f in self.fixed}
        by_grey = self._turns_by_grey()
        self.check_model_size(by_grey)
        out = []
        for cell in range(self.n_cells):
            if cell in fixed_cell:
                f = fixed_cell[cell]
                if self.fits_border(cell, self.placed(f.piece, f.rotation)):
                    out.append(EdgePlacement(cell, f.piece, f.rotation))
                continue
            rim = self._rim(cell)
            out.extend(EdgePlacement(cell, p, r) for p, r in by_grey.get(rim, ()))
        return out

    def to_xcc(self) -> XCC:
        """Primary: cells and pieces (pieces secondary when there are spares);
        secondary, coloured: every interior join, coloured by the option."""
        b = XCCBuilder()
        cells = [self.cell_name(c) for c in range(self.n_cells)]
        for c in cells:
            b.add_primary(c)
        spare = self.n_pieces > self.n_cells
        for p in range(self.n_pieces):
            (b.add_secondary if spare else b.add_primary)(f"p{p + 1}")
        jname = {}
        for cell, side, nb in self.joins():
            name = f"{cells[cell]}{'-' if side == E else '_'}{cells[nb]}"
            jname[(cell, side)] = jname[(nb, (side + 2) % 4)] = name
            b.add_secondary(name)
        for pl in self.candidates():
            cols = self.placed(pl.piece, pl.rotation)
            row: list = [cells[pl.cell], f"p{pl.piece + 1}"]
            for side in range(4):
                if (pl.cell, side) in jname:
                    row.append((jname[(pl.cell, side)], str(cols[side])))
            b.add_option(row, pl)
        return b.build()

    def canonical(self) -> dict:
        """The content that identifies the puzzle (its hash ignores the name)."""
        return {
            "format": "eternity/edge",
            "rows": self.rows,
            "cols": self.cols,
            "pieces": self.pieces.tolist(),
            "fixed": sorted([list(map(int, f)) for f in self.fixed]),
        }

    def summary(self) -> dict:
        classes = {"corner": 0, "edge": 0, "inner": 0}
        for p in range(self.n_pieces):
            k = self.piece_class(p)
            classes[k] = classes.get(k, 0) + 1
        frame, inner = self.colour_classes()
        return {
            "kind": "edge",
            "name": self.name,
            "rows": self.rows,
            "cols": self.cols,
            "cells": self.n_cells,
            "pieces": self.n_pieces,
            "corners": classes["corner"],
            "edges": classes["edge"],
            "inner": classes["inner"],
            "frame_colors": len(frame),
            "inner_colors": len(inner),
            "joins": self.n_joins,
            "fixed": [
                {"cell": self.cell_name(f.cell), "piece": f.piece + 1, "rotation": f.rotation} for f in self.fixed
            ],
        }
