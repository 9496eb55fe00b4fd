"""N-queens (and N-rooks) as XCC: rows and columns primary, the diagonals secondary.

The classic oracle for exact-cover solvers ([Book-ch6]'s table of counts).
Rooks attack along rows and columns only, so an N-rooks solution is a
permutation: N! in all; [Book-ch6] says nobody had counted them up to the
board's symmetries, which ``--distinct`` does (1, 1, 2, 7, 23, 115, 694,
5282 for N = 1..8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from puzzles.puzzle import EXACT_COVER
from puzzles.xcc import XCC, XCCBuilder


class QueenPlacement(NamedTuple):
    """A piece on the board: row and column."""

    row: int
    col: int


@dataclass
class QueensPuzzle:
    """N pieces on an N x N board, no two attacking: queens (rows, columns, diagonals) or rooks."""

    n: int
    name: str = ""
    piece: str = "queen"

    kind: ClassVar[str] = "queens"
    features: ClassVar[frozenset[str]] = frozenset({EXACT_COVER})
    native_solver: ClassVar[str] = "backtrack"
    grid_name: ClassVar[str | None] = None

    @property
    def diagonals(self) -> bool:
        """Whether the pieces attack along diagonals (queens do, rooks do not)."""
        return self.piece == "queen"

    def to_xcc(self) -> XCC:
        """The puzzle as exact cover with colours: rows and columns primary, diagonals secondary."""
        n = self.n
        b = XCCBuilder()
        for r in range(n):
            b.add_primary(f"r{r}")
        for c in range(n):
            b.add_primary(f"c{c}")
        if self.diagonals:
            for d in range(2 * n - 1):
                b.add_secondary(f"a{d}")
            for d in range(2 * n - 1):
                b.add_secondary(f"b{d}")
        for r in range(n):
            for c in range(n):
                items = [f"r{r}", f"c{c}"] + ([f"a{r + c}", f"b{r - c + n - 1}"] if self.diagonals else [])
                b.add_option(items, QueenPlacement(r, c))
        return b.build()

    def canonical(self) -> dict:
        """The fields that define the puzzle, for its hash."""
        return {"format": "eternity/queens", "n": self.n, **({"piece": self.piece} if self.piece != "queen" else {})}

    def summary(self) -> dict:
        """What `eternity info` shows of the puzzle."""
        return {"kind": "queens", "name": self.name, "n": self.n, "piece": self.piece}
