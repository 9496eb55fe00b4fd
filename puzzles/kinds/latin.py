"""Latin squares and orthogonal pairs (Euler's officers, Graeco-Latin squares) as exact covers.

A Latin square of order n fills an n x n board with n symbols, each once in
every row and column.  Two are *orthogonal* when the n^2 pairs of symbols
they put on the same cells are all different: Euler's 36 officers (six ranks,
six regiments) are a pair of order 6, which does not exist (Tarry 1900); a
pair exists for every other order from 3 on (Bose, Shrikhande and Parker
1959, Parker's square of order 10).  *Diagonal* squares also hold every
symbol once on both diagonals; a diagonal orthogonal pair of order 10 gives a
magic square of 0..99 whose rows, columns and diagonals sum to 495 (505 over
1..100), the open question of [Book-ch6].

The exact cover (all items primary, no colours): an option is a cell with
its symbols (r, c, a[, b]); it covers the cell, its row and column with each
symbol, the symbol pair (orthogonality), and, for diagonal squares, the
diagonals with each symbol.  ``reduced`` is the standard symmetry breaking:
relabelling the symbols of each square puts its first row in the order
0..n-1, and (without diagonals) permuting rows puts the first column of the
first square in order too, so a reduced puzzle has a solution exactly when
the plain one has.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from puzzles.puzzle import EXACT_COVER
from puzzles.xcc import XCC, XCCBuilder


class LatinPlacement(NamedTuple):
    """A symbol in a Latin square: square, row, column and symbol."""

    row: int
    col: int
    a: int  # the symbol of the first square
    b: int = -1  # the symbol of the second square (-1: a single square)


@dataclass
class LatinPuzzle:
    """One or two orthogonal Latin squares of order n, optionally diagonal and reduced (first row fixed)."""

    n: int
    squares: int = 2
    diagonal: bool = False
    reduced: bool = True
    name: str = ""

    kind: ClassVar[str] = "latin"
    features: ClassVar[frozenset[str]] = frozenset({EXACT_COVER})
    native_solver: ClassVar[str] = "backtrack"
    grid_name: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        if self.squares not in (1, 2):
            raise ValueError("squares must be 1 (a Latin square) or 2 (an orthogonal pair)")
        if self.n < 1:
            raise ValueError("the order must be at least 1")

    def fixed(self, r: int, c: int) -> tuple[int | None, int | None]:
        """The symbols ``reduced`` fixes on cell (r, c): first rows 0..n-1, first column of the first square."""
        if not self.reduced:
            return None, None
        if r == 0:
            return c, (c if self.squares == 2 else None)
        if c == 0 and not self.diagonal:
            return r, None
        return None, None

    def to_xcc(self) -> XCC:
        """The puzzle as exact cover with colours."""
        n, two = self.n, self.squares == 2
        b = XCCBuilder()
        names = ["cell", "rowA", "colA"] + (["rowB", "colB", "pair"] if two else [])
        for kind in names:
            for i in range(n):
                for j in range(n):
                    b.add_primary(f"{kind}{i}_{j}")
        if self.diagonal:
            for kind in ["diagA", "antiA"] + (["diagB", "antiB"] if two else []):
                for s in range(n):
                    b.add_primary(f"{kind}{s}")
        for r in range(n):
            for c in range(n):
                fa, fb = self.fixed(r, c)
                for a in range(n) if fa is None else (fa,):
                    for s in (range(n) if fb is None else (fb,)) if two else (-1,):
                        items = [f"cell{r}_{c}", f"rowA{r}_{a}", f"colA{c}_{a}"]
                        if two:
                            items += [f"rowB{r}_{s}", f"colB{c}_{s}", f"pair{a}_{s}"]
                        if self.diagonal:
                            items += [f"diagA{a}"] * (r == c) + [f"antiA{a}"] * (r + c == n - 1)
                            if two:
                                items += [f"diagB{s}"] * (r == c) + [f"antiB{s}"] * (r + c == n - 1)
                        b.add_option(items, LatinPlacement(r, c, a, s))
        return b.build()

    def canonical(self) -> dict:
        """The fields that define the puzzle, for its hash."""
        return {
            "format": "eternity/latin",
            "n": self.n,
            "squares": self.squares,
            "diagonal": self.diagonal,
            "reduced": self.reduced,
        }

    def summary(self) -> dict:
        """What `eternity info` shows of the puzzle."""
        return {
            "kind": "latin",
            "name": self.name,
            "n": self.n,
            "squares": self.squares,
            "diagonal": self.diagonal,
            "reduced": self.reduced,
        }


def as_magic_square(p: LatinPuzzle, placements) -> list[list[int]]:
    """An orthogonal pair as one square of 1..n^2 (``n * a + b + 1``): magic when both are diagonal."""
    out = [[0] * p.n for _ in range(p.n)]
    for pl in placements:
        out[pl.row][pl.col] = p.n * pl.a + pl.b + 1
    return out


# ------------------------------------------------------------ self-orthogonal squares
def fixed_point_free_involutions(n: int):
    """Every way to pair 0..n-1 (n even): (n-1)!! lists of pairs; 945 for n = 10."""

    def pairings(items):
        if not items:
            yield []
            return
        a = items[0]
        for k in range(1, len(items)):
            rest = items[1:k] + items[k + 1 :]
            for tail in pairings(rest):
                yield [(a, items[k])] + tail

    if n % 2:
        return
    yield from pairings(list(range(n)))


def symmetric_transversals(A):
    """The pairings pi of the rows whose cells (i, pi(i)) hold every symbol once, a transversal that
    its own transpose maps onto itself.  When A is orthogonal to its transpose such a transversal is
    one of A^T too, and it can become both squares' anti-diagonal (``pair_from_self_orthogonal``)."""
    n = len(A)
    for pairs in fixed_point_free_involutions(n):
        if len({A[a][b] for a, b in pairs} | {A[b][a] for a, b in pairs}) == n:
            yield pairs


def is_self_orthogonal(A) -> bool:
    """A Latin square orthogonal to its transpose (its main diagonal then holds every symbol)."""
    n = len(A)
    return len({(A[r][c], A[c][r]) for r in range(n) for c in range(n)}) == n * n


def pair_from_self_orthogonal(p: LatinPuzzle, A, pairs) -> list[LatinPlacement]:
    """Euler's officers from a square orthogonal to its transpose: the pair (A, A^T).

    Rows and columns are renumbered alike so that the pairing ``pairs`` (a symmetric transversal,
    or None when the puzzle wants no diagonals) lands on the anti-diagonal; the main diagonal stays
    the main diagonal, and transposition keeps both, so both squares are diagonal.  The symbols of
    each square are then relabelled (and, without diagonals, the rows reordered) into ``p``'s
    reduced form.  Self-orthogonal diagonal squares of order 10 exist (the book's open question
    answered), but no generic search reaches them: see ``cpmodel.self_orthogonal``."""
    n = p.n
    if not is_self_orthogonal(A):
        raise ValueError("the square is not orthogonal to its transpose")
    perm = list(range(n))
    if pairs is not None:
        for k, (a, b) in enumerate(pairs):
            perm[a], perm[b] = k, n - 1 - k
    sa = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            sa[perm[r]][perm[c]] = A[r][c]
    sb = [list(col) for col in zip(*sa)]
    if p.reduced:
        ra = {sa[0][c]: c for c in range(n)}
        rb = {sb[0][c]: c for c in range(n)}
        sa = [[ra[v] for v in row] for row in sa]
        sb = [[rb[v] for v in row] for row in sb]
        if not p.diagonal:  # the first column of the first square in order too: reorder the rows
            rows = sorted(range(n), key=lambda r: sa[r][0])
            sa, sb = [sa[r] for r in rows], [sb[r] for r in rows]
    return [LatinPlacement(r, c, sa[r][c], sb[r][c]) for r in range(n) for c in range(n)]
