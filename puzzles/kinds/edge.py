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
from typing import ClassVar, NamedTuple

import numpy as np

from puzzles.errors import UsageError
from puzzles.puzzle import EDGES, EXACT_COVER, SCORED
from puzzles.xcc import XCC, XCCBuilder


def _class_name(greys: int) -> str:
    return {0: "inner", 1: "edge", 2: "corner"}.get(greys, f"{greys}-border")


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
    """A piece on a cell: ``cell`` (row * cols + col), ``piece`` (0-based), ``rotation`` (clockwise quarter turns)."""

    cell: int  # row * cols + col
    piece: int  # 0-based index into pieces
    rotation: int  # clockwise quarter turns


class Fixed(NamedTuple):
    """A clue: the piece and rotation a cell must hold (Eternity II's given pieces)."""

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

    kind: ClassVar[str] = "edge"
    features: ClassVar[frozenset[str]] = frozenset({EXACT_COVER, EDGES, SCORED})
    native_solver: ClassVar[str] = "edge-backtrack"  # the search a solve without a named solver runs
    grid_name: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        self.pieces = np.asarray(self.pieces, dtype=np.int64).reshape(-1, 4)
        self._bordered = bool(np.any(self.pieces == 0))  # asked once a placement: worked out once
        self._turn_tables: tuple[np.ndarray, np.ndarray, list] | None = None

    def _tables(self) -> tuple[np.ndarray, np.ndarray, list]:
        """(turns, distinct, shown): turns[q, r] the colours piece q shows turned r (n x 4 x 4),
        distinct[q, r] whether turn r looks unlike turns 0..r-1, and each piece's turns as tuples.
        Worked out once with numpy: asked piece by piece, a board of 90,000 pieces spent seconds here."""
        if self._turn_tables is None:
            idx = (np.arange(4)[None, :] - np.arange(4)[:, None]) % 4  # idx[r, k] = (k - r) mod 4
            turns = self.pieces[:, idx]
            same = (turns[:, :, None, :] == turns[:, None, :, :]).all(axis=3)  # same[q, r, r2]
            distinct = ~np.tril(same, k=-1).any(axis=2)
            shown = [tuple(map(tuple, t)) for t in turns.tolist()]
            self._turn_tables = (turns, distinct, shown)
        return self._turn_tables

    # -- geometry -------------------------------------------------------
    @property
    def n_cells(self) -> int:
        """Cells of the board (rows x cols)."""
        return self.rows * self.cols

    @property
    def n_pieces(self) -> int:
        """Pieces in the box (more than the cells when some are spare)."""
        return len(self.pieces)

    @property
    def bordered(self) -> bool:
        """Whether some side is grey (0): the board has a frame the grey sides must face."""
        return self._bordered

    def cell_name(self, cell: int) -> str:
        """The cell's name as on the Eternity II board: row letter, column number (A1 top left)."""
        r, c = divmod(cell, self.cols)
        return f"{row_label(r)}{c + 1}"

    def parse_cell(self, name: str) -> int:
        """The cell a name means (``cell_name``'s inverse); a ``ValueError`` off the board."""
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
        """For each side N, E, S, W of ``cell``, whether it faces the outside of the board."""
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
        """Interior joins: the most a board can score."""
        return self.rows * (self.cols - 1) + self.cols * (self.rows - 1)

    # -- pieces ---------------------------------------------------------
    def placed(self, piece: int, rotation: int) -> tuple[int, ...]:
        """The colours N, E, S, W that ``piece`` shows turned ``rotation`` quarter turns clockwise."""
        return self._tables()[2][piece][rotation % 4]

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
        d = self._tables()[1][piece]
        return [r for r in range(4) if d[r]]

    def _looks(self) -> list:
        """A key per piece that is the same for two pieces exactly when they look the same (the same
        colours up to rotation): the least of its turns, read as base-B digits (or as a tuple when the
        colours are too large for 64 bits)."""
        turns = self._tables()[0]
        base = int(self.pieces.max(initial=0)) + 1
        if base**4 < 2**62:
            keys = ((turns[:, :, 0] * base + turns[:, :, 1]) * base + turns[:, :, 2]) * base + turns[:, :, 3]
            return keys.min(axis=1).tolist()
        return [min(self.placed(q, r) for r in range(4)) for q in range(self.n_pieces)]

    def identical_groups(self) -> dict[int, list[int]]:
        """The free pieces grouped by what they look like (the same colours up to rotation): the
        lowest piece of each group -> the group's pieces in order.  Fixed pieces stay out.  A
        solver may search with one piece per group and name it for each of its copies
        (``relabel``): the copies of a full board permute, so its count is multiplied back."""
        fixed = {f.piece for f in self.fixed}
        groups: dict = {}
        for q, key in enumerate(self._looks()):
            if q not in fixed:
                groups.setdefault(key, []).append(q)
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

    def relabel(self, placements, groups: dict[int, list[int]] | None = None, rng=None) -> list[EdgePlacement]:
        """A board that names a group's lowest piece for each of its copies, with every copy
        named once: the group's pieces in board order, each turned to show the same colours.  With ``rng`` (a
        ``random.Random``) the copies go to the group's cells in an order drawn uniformly: a draw uniform over
        the merged boards is then uniform over the boards that tell the copies apart."""
        groups = self.identical_groups() if groups is None else groups
        order = {r: list(g) for r, g in groups.items() if len(g) > 1}
        if rng is not None:
            for g in order.values():
                rng.shuffle(g)
        left = {r: iter(g) for r, g in order.items()}
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
        """Whether a piece showing ``colours`` on ``cell`` has its grey sides exactly on the rim."""
        if not self.bordered:
            return True
        out = self.outside_sides(cell)
        return all((colours[s] == 0) == out[s] for s in range(4))

    def piece_class(self, piece: int) -> str:
        """Corner, edge or inner, by its grey sides."""
        return _class_name(int(np.sum(self.pieces[piece] == 0)))

    def class_counts(self) -> Counter:
        """How many pieces of each class (corner, edge, inner; ``k-border`` for odd ones)."""
        greys = np.bincount((self.pieces == 0).sum(axis=1), minlength=5)
        return Counter({_class_name(g): int(n) for g, n in enumerate(greys) if n})

    def colour_classes(self) -> tuple[list[int], list[int]]:
        """(frame colours, inner colours): frame colours are those next to a grey edge."""
        allc = set(int(x) for x in np.unique(self.pieces)) - {0}
        frame = set(int(x) for x in np.unique(self.pieces[self.frame_sides()]))
        return sorted(frame), sorted(allc - frame)

    def frame_sides(self) -> np.ndarray:
        """frame[q, k]: side k of piece q is coloured and next to a grey side (a frame join's colour);
        the coloured sides that are not are inner joins'."""
        grey = self.pieces == 0
        return (np.roll(grey, 1, axis=1) | np.roll(grey, -1, axis=1)) & ~grey

    # -- the XCC compilation -------------------------------------------
    def _greys(self) -> np.ndarray:
        """grey[q, r]: the sides (bit s: side s) piece q shows grey turned r, or -1 where the turn
        is not distinct or the piece is fixed; 0 everywhere on a board without a frame."""
        turns, distinct, _ = self._tables()
        grey = ((turns == 0) * (1 << np.arange(4))).sum(axis=2) if self.bordered else np.zeros(distinct.shape, np.int64)
        grey = np.where(distinct, grey, -1)
        for f in self.fixed:
            grey[f.piece] = -1
        return grey

    @staticmethod
    def _turns_by_grey(grey: np.ndarray) -> dict[int, list[tuple[int, int]]]:
        """The free pieces' distinct turns grouped by the sides they show grey (``_greys``), in piece order."""
        by_grey: dict[int, list[tuple[int, int]]] = {}
        for q, r in zip(*np.nonzero(grey >= 0)):
            by_grey.setdefault(int(grey[q, r]), []).append((int(q), int(r)))
        return by_grey

    def neighbours(self) -> np.ndarray:
        """nb[cell, side]: the cell across each side, -1 outside the board (``neighbour`` for every cell at once)."""
        r, c = np.divmod(np.arange(self.n_cells), self.cols)
        out = np.full((self.n_cells, 4), -1, np.int64)
        for side in range(4):
            r2, c2 = r + DR[side], c + DC[side]
            inside = (r2 >= 0) & (r2 < self.rows) & (c2 >= 0) & (c2 < self.cols)
            out[inside, side] = (r2 * self.cols + c2)[inside]
        return out

    def rims(self) -> np.ndarray:
        """rim[cell]: the sides (bit s: side s) of each cell that face outside the board (0 without a frame)."""
        if not self.bordered:
            return np.zeros(self.n_cells, np.int64)
        r, c = np.divmod(np.arange(self.n_cells), self.cols)
        return (r == 0) * 1 + (c == self.cols - 1) * 2 + (r == self.rows - 1) * 4 + (c == 0) * 8

    def n_candidates(self, grey: np.ndarray | None = None) -> int:
        """How many placements ``candidates`` lists, counted without listing them."""
        grey = self._greys() if grey is None else grey
        turns_by = np.bincount(grey[grey >= 0], minlength=16)
        fixed_cell = {f.cell for f in self.fixed}
        rims = np.delete(self.rims(), sorted(fixed_cell)) if fixed_cell else self.rims()
        return len(fixed_cell) + int(turns_by[rims].sum())

    def check_model_size(self, grey: np.ndarray | None = None) -> None:
        """Refuse, before anything is built, a board whose placement model would not fit in memory: the
        models of every CP, SAT, MaxSAT and MIP engine and the XCC have one variable or option a
        placement, and a 300x300 board has 3x10^10 of them (the native search needs none)."""
        n = self.n_candidates(grey)
        if n > MAX_CANDIDATES:
            raise UsageError(
                f"a model of this board would have {n:,} placements (cell, piece, turn); at most "
                f"{MAX_CANDIDATES:,} are built (Eternity II has 155,253); edge-backtrack needs no model"
            )

    def candidates(self) -> list[EdgePlacement]:
        """Every (cell, piece, rotation) allowed by the border rule and fixed pieces: cell by cell, each
        cell's in piece order, a piece's in ``distinct_rotations`` order.  The pieces' turns are worked
        out once and grouped by where they show grey (Eternity II: 0.2 s, where asking every cell of
        every turn took 6 s before a CNF could be written)."""
        fixed_cell = {f.cell: f for f in self.fixed}
        grey = self._greys()
        self.check_model_size(grey)
        by_grey = self._turns_by_grey(grey)
        rims = self.rims()
        out = []
        for cell in range(self.n_cells):
            if cell in fixed_cell:
                f = fixed_cell[cell]
                if self.fits_border(cell, self.placed(f.piece, f.rotation)):
                    out.append(EdgePlacement(cell, f.piece, f.rotation))
                continue
            rim = int(rims[cell])
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
        """The facts ``eternity info`` shows: size, piece classes, colours, clues."""
        classes = {"corner": 0, "edge": 0, "inner": 0, **self.class_counts()}
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


def bucas_url(p: EdgePuzzle, placements) -> str:
    """The e2.bucas.name viewer URL (board_edges: 4 letters a cell, N E S W, 'a' = grey)."""
    board = {int(pl[0]): (int(pl[1]), int(pl[2])) for pl in placements}
    letters = []
    for cell in range(p.n_cells):
        if cell in board:
            cols = rotate(p.pieces[board[cell][0]], board[cell][1])
            letters.append("".join(_bucas_letter(c) for c in cols))
        else:
            letters.append("aaaa")
    return f"https://e2.bucas.name/#puzzle=eternity&board_w={p.cols}&board_h={p.rows}&board_edges={''.join(letters)}"


def _bucas_letter(c: int) -> str:
    c = int(c)
    if c < 26:
        return chr(ord("a") + c)
    return chr(ord("A") + (c - 26) % 26)
