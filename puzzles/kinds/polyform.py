"""Polyform tiling puzzles (pentominoes, the Eternity 1999 family).

Pieces are cell sets on a grid (``grids.py``); each piece may come in
several identical copies (``count``), which are counted as distinct pieces,
like identical edge-matching pieces.  A piece of count 0 comes in any number
(a free supply, as the dominoes of a domino tiling): it has no item, and its
copies are not told apart.  With more piece area than the region
(Selby's excess pieces) the piece items become secondary: a solution uses
some of the pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

import numpy as np

from puzzles.errors import UsageError
from puzzles.kinds.grids import Cell, get_grid
from puzzles.puzzle import EXACT_COVER, GRID
from puzzles.xcc import XCC


class PolyPiece(NamedTuple):
    """A piece of the set: its name, its cells (normalised), and how many copies there are (0: any number)."""

    name: str
    cells: tuple[Cell, ...]
    count: int = 1  # type: ignore[assignment]  # the files' name for it shadows tuple.count


class PolyPlacement(NamedTuple):
    """A piece copy on the region: its piece (index), which copy, and the cells it covers."""

    piece: int  # index into pieces
    copy: int  # 0 .. count-1
    cells: tuple[Cell, ...]


class PlacementTable(Sequence):
    """Placements as integer arrays (piece, copy, the indices of their cells into ``cells``),
    each decoded to a ``PolyPlacement`` when asked for: a sequence, like a list of them."""

    def __init__(self, cells: list, piece: np.ndarray, copy: np.ndarray, ptr: np.ndarray, flat: np.ndarray):
        self.cells, self.piece, self.copy, self.ptr, self.flat = cells, piece, copy, ptr, flat

    def __len__(self) -> int:
        return len(self.piece)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return self.take(np.arange(len(self))[k])
        k = int(k)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        cells = self.cells
        return PolyPlacement(
            int(self.piece[k]),
            int(self.copy[k]),
            tuple(cells[j] for j in self.flat[self.ptr[k] : self.ptr[k + 1]].tolist()),
        )

    def xcc_rows(self, first_item: np.ndarray, cell_item: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(opt_ptr, opt_items) of an XCC with one option per placement: ``first_item[k]`` (its
        piece's item; none where it is negative: a piece in free supply), then its cells as
        ``cell_item`` numbers them."""
        first_item = np.broadcast_to(np.asarray(first_item, np.int64), (len(self),))
        has = first_item >= 0
        lens = np.diff(self.ptr) + has
        ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
        flat = np.empty(int(ptr[-1]), np.int64)
        flat[ptr[:-1][has]] = first_item[has]
        body = np.ones(len(flat), bool)
        body[ptr[:-1][has]] = False
        flat[body] = cell_item[self.flat]
        return ptr, flat

    def take(self, rows) -> PlacementTable:
        """The placements ``rows`` (indices), in that order, as a table."""
        rows = np.asarray(rows, np.int64)
        lens = self.ptr[rows + 1] - self.ptr[rows]
        ptr = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
        src = np.repeat(self.ptr[rows] - ptr[:-1], lens) + np.arange(int(ptr[-1]))
        return PlacementTable(self.cells, self.piece[rows], self.copy[rows], ptr, self.flat[src])


@dataclass
class PolyformPuzzle:
    """A region of a grid (square, triangle, hexagon or drafter cells) to tile with a set of pieces, turned and
    (``mirror``) flipped; ``fixed``: placements given."""

    grid_name: str
    region: list[Cell]
    pieces: list[PolyPiece]
    mirror: bool = True
    name: str = ""
    fixed: list = field(default_factory=list)

    kind: ClassVar[str] = "polyform"
    features: ClassVar[frozenset[str]] = frozenset({EXACT_COVER, GRID})
    native_solver: ClassVar[str] = "backtrack"

    @property
    def grid(self):
        """The grid the region and the pieces lie on."""
        return get_grid(self.grid_name)

    @property
    def piece_area(self) -> int:
        """Cells the pieces cover, all copies counted."""
        return sum(len(p.cells) * p.count for p in self.pieces)

    @property
    def free_supply(self) -> bool:
        """True when some piece comes in any number (count 0)."""
        return any(p.count == 0 for p in self.pieces)

    @property
    def exact(self) -> bool:
        """True when the pieces exactly fill the region (piece items primary); never with a free supply."""
        return not self.free_supply and self.piece_area == len(self.region)

    def copy_names(self) -> list[tuple[int, int, str]]:
        """(piece, copy, name) of every piece copy; a piece of several copies names them NAME#k."""
        out = []
        for i, p in enumerate(self.pieces):
            for k in range(p.count):
                out.append((i, k, p.name if p.count == 1 else f"{p.name}#{k + 1}"))
        return out

    @staticmethod
    def cell_item(cell: Cell) -> str:
        """The XCC item of a cell of the region."""
        return "c" + ".".join(str(x) for x in cell)

    def placements(self) -> PlacementTable:
        """Every placement of every orientation of every piece copy in the region, in a fixed order
        (piece, copy, orientation, anchor).  A table of integers, decoded to ``PolyPlacement`` on
        access: Eternity's full board has 1.37 M placements, which as Python tuples of cells took
        about 6 GB and most of a two-minute build."""
        cells = sorted(map(tuple, self.region))
        if not cells:
            return PlacementTable(
                cells, np.zeros(0, np.int32), np.zeros(0, np.int32), np.zeros(1, np.int64), np.zeros(0, np.int32)
            )
        grid = self.grid
        region = set(map(tuple, self.region))
        reg = list(region)  # the set's own order: the anchors' order, as ``Grid.anchors`` gives it
        arr = np.array([(c[0], c[1], c[2] if len(c) > 2 else 0) for c in reg], np.int64)
        a0, b0 = int(arr[:, 0].min()), int(arr[:, 1].min())
        na, nb, nt = int(arr[:, 0].max()) - a0 + 1, int(arr[:, 1].max()) - b0 + 1, int(arr[:, 2].max()) + 1
        where = np.full((na, nb, nt), -1, np.int64)  # cell -> its index in ``cells`` (the XCC's item order)
        at = {c: i for i, c in enumerate(cells)}
        where[arr[:, 0] - a0, arr[:, 1] - b0, arr[:, 2]] = [at[c] for c in reg]
        pieces, copies, flat, lens = [], [], [], []
        for i, p in enumerate(self.pieces):
            spots = []
            for shape in grid.orientations(p.cells, self.mirror):
                sh = np.array([(c[0], c[1], c[2] if len(c) > 2 else 0) for c in shape], np.int64)
                if sh[:, 2].max() >= nt:
                    continue  # a cell kind the region has none of: fits nowhere
                anchor = arr[arr[:, 2] == sh[0, 2]]
                off = anchor[:, :2] - sh[0, :2]  # distinct cells of one kind: distinct offsets
                ca = off[:, 0:1] + sh[None, :, 0] - a0
                cb = off[:, 1:2] + sh[None, :, 1] - b0
                inside = ((ca >= 0) & (ca < na) & (cb >= 0) & (cb < nb)).all(axis=1)
                ca, cb = ca[inside], cb[inside]
                idx = where[ca, cb, np.broadcast_to(sh[None, :, 2], ca.shape)]
                spots.append(idx[(idx >= 0).all(axis=1)])
            block = np.concatenate(spots) if spots else np.zeros((0, len(p.cells)), np.int64)
            for k in range(max(p.count, 1)):  # a free supply: its placements once
                pieces.append(np.full(len(block), i, np.int32))
                copies.append(np.full(len(block), k, np.int32))
                flat.append(block.reshape(-1))
                lens.append(np.full(len(block), block.shape[1], np.int64))
        lens_all = np.concatenate(lens) if lens else np.zeros(0, np.int64)
        return PlacementTable(
            cells,
            np.concatenate(pieces).astype(np.int32),
            np.concatenate(copies).astype(np.int32),
            np.concatenate([[0], np.cumsum(lens_all)]).astype(np.int64),
            np.concatenate(flat).astype(np.int32),
        )

    def to_xcc(self) -> XCC:
        """The XCC straight from the placement table's integers (cells first, sorted, then the piece copies)."""
        table = self.placements()
        n_cells = len(table.cells)
        copy_of = {(i, k): j for j, (i, k, _) in enumerate(self.copy_names())}
        first_copy = np.array([copy_of.get((i, 0), -1 - n_cells) for i in range(len(self.pieces))], np.int64)
        names = [n for _, _, n in self.copy_names()]
        item = n_cells + first_copy[table.piece] + table.copy if len(table) else np.zeros(0, np.int64)
        ptr, flat = table.xcc_rows(item, np.arange(n_cells))
        item_names = [self.cell_item(c) for c in table.cells] + names
        if len(set(item_names)) != len(item_names):
            raise ValueError("duplicate item names")
        n_items = len(item_names)
        if n_items > np.iinfo(np.int32).max or len(flat) > np.iinfo(np.int32).max:
            raise UsageError("polyform puzzle too large for the XCC arrays")
        return XCC(
            item_names=item_names,
            n_primary=n_cells + (len(names) if self.exact else 0),
            opt_ptr=ptr.astype(np.int32),
            opt_items=flat.astype(np.int32),
            opt_colors=np.zeros(len(flat), np.int32),
            decode=table,
        )

    def canonical(self) -> dict:
        """The puzzle's file form, sorted: what its hash (its identity in stores and proofs) is made from."""
        return {
            "format": "eternity/polyform",
            "grid": self.grid_name,
            "region": sorted(list(map(list, self.region))),
            "pieces": [[p.name, sorted(map(list, p.cells)), p.count] for p in self.pieces],
            "mirror": self.mirror,
        }

    def orientation_counts(self) -> list[int]:
        """Distinct orientations of each piece kind (12 or 8 for an asymmetric piece)."""
        grid = self.grid
        return [len(grid.orientations(p.cells, self.mirror)) for p in self.pieces]

    def summary(self) -> dict:
        """The facts ``eternity info`` shows: grid, region, pieces and their areas."""
        grid = self.grid
        unit = grid.unit_size
        out = {
            "kind": "polyform",
            "name": self.name,
            "grid": self.grid_name,
            "region_cells": len(self.region),
            "pieces": sum(p.count for p in self.pieces),
            "piece_kinds": len(self.pieces),
            "piece_area": self.piece_area,
            "excess": self.piece_area > len(self.region),
            "mirror": self.mirror,
        }
        if unit > 1:  # drafter grid: sizes in drafters (three cells each)
            out["region_drafters"] = len(self.region) // unit
            out["piece_drafters"] = sorted({len(p.cells) // unit for p in self.pieces})
        full = len(grid.transforms) if self.mirror else grid.n_rotations
        counts = self.orientation_counts()
        out["orientations"] = full
        out["symmetric_pieces"] = {p.name: k for p, k in zip(self.pieces, counts) if k < full}
        return out
