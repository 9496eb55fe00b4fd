"""N-queens as XCC: rows and columns primary, the diagonals secondary.

The classic oracle for exact-cover solvers ([Book-ch6]'s table of counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .xcc import XCC, XCCBuilder


class QueenPlacement(NamedTuple):
    row: int
    col: int


@dataclass
class QueensPuzzle:
    n: int
    name: str = ""

    kind = "queens"

    def to_xcc(self) -> XCC:
        n = self.n
        b = XCCBuilder()
        for r in range(n):
            b.add_primary(f"r{r}")
        for c in range(n):
            b.add_primary(f"c{c}")
        for d in range(2 * n - 1):
            b.add_secondary(f"a{d}")
        for d in range(2 * n - 1):
            b.add_secondary(f"b{d}")
        for r in range(n):
            for c in range(n):
                b.add_option([f"r{r}", f"c{c}", f"a{r + c}", f"b{r - c + n - 1}"], QueenPlacement(r, c))
        return b.build()

    def canonical(self) -> dict:
        return {"format": "eternity/queens", "n": self.n}

    def summary(self) -> dict:
        return {"kind": "queens", "name": self.name, "n": self.n}
