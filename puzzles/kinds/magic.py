"""Numbers in cells, every line summing to the same total: the magic figures (all numbers different) and
seed 003's rooks on the 3 x 3 x 3 board (a cell's number is its count of rooks).

* ``square`` of side n: 1..n^2, rows, columns and both diagonals (order 4:
  7040 squares, 880 up to the square's 8 symmetries, Frénicle);
* ``hexagon`` (the 19 cells of Adams's magic hexagon, axial coordinates
  |q|, |r|, |q + r| <= 2): rule ``magic``, the 15 lines of the three
  directions sum to 38 (one arrangement up to the 12 symmetries); rule
  ``dudeney``, the twelve lines of three cells (the six sides and the six
  spokes from the centre) sum to 23 ([Book-ch6]'s exercise);
* ``rooks3d`` with R = ``n``: the 27 cells (i, j, k) of the 3 x 3 x 3 board hold 0..R rooks each, and
  each of the 27 lines (rows, columns, tubes) holds R (seed 003: 12, 132, 847, 3921 for R = 1..4; its
  14506 and 45402 for 5 and 6 are wrong, ``baseline.checkerboard.rooks3d``).  Numbers repeat here, so
  the exact cover has only the cells.

The assignment (each cell one number, each number once) is an exact cover
(``to_xcc``: options are (cell, number)); the sums are linear constraints
beside it (``lines``, ``target``), so the solvers that take this kind are
the ones that can add them: CP-SAT (linear constraints) and SAT
(pseudo-Boolean constraints through python-sat's ``pb`` module).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, NamedTuple

from puzzles.kinds.grids import square_symmetries
from puzzles.puzzle import SUMS
from puzzles.xcc import XCC, XCCBuilder

HEX_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))  # axial, around the circle


class MagicPlacement(NamedTuple):
    """A value in a cell of a magic figure."""

    cell: int
    value: int


def hexagon_cells(radius: int = 2) -> list[tuple[int, int]]:
    """The cells of the hexagon of ``radius``, in axial coordinates."""
    return [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]


@dataclass
class MagicPuzzle:
    """A magic figure: a square, Adams's hexagon, or the 3-D rooks; values on cells, lines with one sum."""

    shape: str = "square"  # square, hexagon or rooks3d
    n: int = 4  # the square's side (the hexagon is Adams's 19 cells; rooks3d: the rooks on a line)
    rule: str = "magic"  # magic, or dudeney (hexagon: the twelve lines of three)
    name: str = ""
    cells: list = field(init=False)
    lines: list = field(init=False)
    target: int = field(init=False)

    kind: ClassVar[str] = "magic"
    features: ClassVar[frozenset[str]] = frozenset({SUMS})
    native_solver: ClassVar[str] = "cpsat"  # the cover alone is not the puzzle: Algorithm C has no sums
    grid_name: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        if self.shape == "square":
            if self.rule != "magic" or self.n < 1:
                raise ValueError("a magic square has rule magic and a side of at least 1")
            n = self.n
            self.cells = [(r, c) for r in range(n) for c in range(n)]
            idx = {rc: i for i, rc in enumerate(self.cells)}
            self.lines = (
                [[idx[(r, c)] for c in range(n)] for r in range(n)]
                + [[idx[(r, c)] for r in range(n)] for c in range(n)]
                + [[idx[(i, i)] for i in range(n)], [idx[(i, n - 1 - i)] for i in range(n)]]
            )
        elif self.shape == "hexagon":
            self.cells = hexagon_cells(2)
            idx = {qr: i for i, qr in enumerate(self.cells)}
            if self.rule == "magic":
                self.lines = [
                    [i for i, (q, r) in enumerate(self.cells) if (q, r, -q - r)[axis] == k]
                    for axis in range(3)
                    for k in range(-2, 3)
                ]
            elif self.rule == "dudeney":
                spokes = [[idx[(0, 0)], idx[d], idx[(2 * d[0], 2 * d[1])]] for d in HEX_DIRECTIONS]
                sides = []
                for a, b in zip(HEX_DIRECTIONS, HEX_DIRECTIONS[1:] + HEX_DIRECTIONS[:1]):
                    sides.append(
                        [idx[(2 * a[0], 2 * a[1])], idx[(a[0] + b[0], a[1] + b[1])], idx[(2 * b[0], 2 * b[1])]]
                    )
                self.lines = spokes + sides
            else:
                raise ValueError(f"unknown rule {self.rule!r} for a hexagon (magic or dudeney)")
        elif self.shape == "rooks3d":
            if self.rule != "magic" or self.n < 0:
                raise ValueError("the 3-D rooks have rule magic and R >= 0 rooks on a line")
            self.cells = [(i, j, k) for i in range(3) for j in range(3) for k in range(3)]
            idx = {c: x for x, c in enumerate(self.cells)}
            self.lines = [
                [idx[tuple(a if ax == d else (b if ax == (d + 1) % 3 else t) for ax in range(3))] for t in range(3)]
                for d in range(3)
                for a in range(3)
                for b in range(3)
            ]
        else:
            raise ValueError(f"unknown shape {self.shape!r} (square, hexagon or rooks3d)")
        m = len(self.cells)
        if self.shape == "rooks3d":
            self.target = self.n
        else:
            self.target = {"dudeney": 23}.get(
                self.rule, m * (m + 1) // 2 * len(self.lines[0]) // m if self.shape == "square" else 38
            )

    @property
    def distinct(self) -> bool:
        """Whether every number is used once (the magic figures) or numbers repeat (the 3-D rooks)."""
        return self.shape != "rooks3d"

    @property
    def values(self) -> range:
        """The values the cells take."""
        return range(0, self.n + 1) if self.shape == "rooks3d" else range(1, len(self.cells) + 1)

    def to_xcc(self) -> XCC:
        """The assignment alone (the sums are ``lines`` and ``target``): cell items, and number items when
        every number is used once."""
        b = XCCBuilder()
        for i in range(len(self.cells)):
            b.add_primary(f"cell{i}")
        if self.distinct:
            for v in self.values:
                b.add_primary(f"num{v}")
        for i in range(len(self.cells)):
            for v in self.values:
                b.add_option([f"cell{i}", f"num{v}"] if self.distinct else [f"cell{i}"], MagicPlacement(i, v))
        return b.build()

    def canonical(self) -> dict:
        """The fields that define the puzzle, for its hash."""
        return {
            "format": "eternity/magic",
            "shape": self.shape,
            "n": 3 if self.shape == "hexagon" else self.n,
            "rule": self.rule,
        }

    def summary(self) -> dict:
        """What `eternity info` shows of the puzzle."""
        return {
            "kind": "magic",
            "name": self.name,
            "shape": self.shape,
            "cells": len(self.cells),
            "lines": len(self.lines),
            "target": self.target,
            "rule": self.rule,
        }

    def symmetries(self) -> list[list[int]]:
        """The figure's symmetries as permutations of the cells (8 for a square, 12 for the hexagon, 48 for
        the cube)."""
        idx = {c: i for i, c in enumerate(self.cells)}
        maps = []
        if self.shape == "rooks3d":
            from itertools import permutations, product

            for axes in permutations(range(3)):
                for flips in product((False, True), repeat=3):
                    maps.append([idx[tuple(2 - c[a] if f else c[a] for a, f in zip(axes, flips))] for c in self.cells])
        elif self.shape == "square":
            maps = [[idx[t(r, c)] for r, c in self.cells] for t in square_symmetries(self.n)]
        else:
            for k in range(6):
                for mirror in (False, True):
                    perm = []
                    for q, r in self.cells:
                        x, y, z = (q, r, -q - r) if not mirror else (r, q, -q - r)
                        for _ in range(k):  # rotate 60 degrees: (x, y, z) -> (-z, -x, -y)
                            x, y, z = -z, -x, -y
                        perm.append(idx[(x, y)])
                    maps.append(perm)
        return maps
