"""The independent checker: every answer any solver gives passes through here.

It is written against the puzzle definitions only (never through the XCC
compilation), so a bug in a compiler or a solver cannot hide itself.
Partial boards are allowed: they are scored and reported as incomplete.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from .edge import E, EdgePuzzle, S, rotate
from .polyform import PolyformPuzzle
from .queens import QueensPuzzle


@dataclass
class Report:
    valid: bool = True          # complete and no problem
    complete: bool = True
    legal: bool = True          # no problem but missing pieces: a legal partial board
    score: int | None = None    # edge matching: matching joins
    max_score: int | None = None
    problems: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    def add(self, msg: str) -> None:
        self.problems.append(msg)
        self.valid = self.legal = False

    def incomplete(self, msg: str) -> None:
        """The board is short of pieces: not a solution, but still a legal partial board."""
        self.problems.append(msg)
        self.valid = self.complete = False

    def as_dict(self) -> dict:
        return {
            "valid": self.valid,
            "complete": self.complete,
            "legal": self.legal,
            "score": self.score,
            "max_score": self.max_score,
            "problems": self.problems,
            "mismatches": self.mismatches,
        }


def verify(puzzle, placements, *, allow_mismatch: bool = False) -> Report:
    """Check placements against the puzzle; see the per-kind functions."""
    if isinstance(puzzle, EdgePuzzle):
        return verify_edge(puzzle, placements, allow_mismatch=allow_mismatch)
    if isinstance(puzzle, PolyformPuzzle):
        return verify_polyform(puzzle, placements)
    if isinstance(puzzle, QueensPuzzle):
        return verify_queens(puzzle, placements)
    raise TypeError(f"cannot verify a {type(puzzle).__name__}")


def verify_edge(p: EdgePuzzle, placements, *, allow_mismatch: bool = False) -> Report:
    """Score, mismatched joins, missing / repeated pieces, border and fixed pieces.

    With ``allow_mismatch`` mismatched joins only lower the score (the
    Eternity II max-score game); otherwise each makes the board invalid.
    """
    rep = Report()
    board: dict[int, tuple[int, int]] = {}
    for pl in placements:
        cell, piece, rot = int(pl[0]), int(pl[1]), int(pl[2])
        if not 0 <= cell < p.n_cells:
            rep.add(f"cell index {cell} is off the board")
            continue
        if not 0 <= piece < p.n_pieces:
            rep.add(f"{p.cell_name(cell)}: no piece {piece + 1}")
            continue
        if rot not in (0, 1, 2, 3):
            rep.add(f"{p.cell_name(cell)}: bad rotation {rot}")
            continue
        if cell in board:
            rep.add(f"{p.cell_name(cell)}: two pieces on one cell")
        board[cell] = (piece, rot)
    uses = Counter(pc for pc, _ in board.values())
    for piece, k in sorted(uses.items()):
        if k > 1:
            rep.add(f"piece {piece + 1} used {k} times")
    shown = {cell: rotate(p.pieces[pc], r) for cell, (pc, r) in board.items()}
    if p.bordered:
        for cell, cols in shown.items():
            out = p.outside_sides(cell)
            for side in range(4):
                if (cols[side] == 0) != out[side]:
                    what = "grey edge faces inward" if cols[side] == 0 else "coloured edge faces the rim"
                    rep.add(f"{p.cell_name(cell)}: {what} on side {'NESW'[side]} (border rule)")
    for f in p.fixed:
        if board.get(f.cell) != (f.piece, f.rotation):
            rep.add(
                f"{p.cell_name(f.cell)}: fixed piece {f.piece + 1} rotation {f.rotation} is not there"
            )
    score = 0
    for cell in range(p.n_cells):
        r, c = divmod(cell, p.cols)
        for side, nb in ((E, cell + 1 if c + 1 < p.cols else -1), (S, cell + p.cols if r + 1 < p.rows else -1)):
            if nb < 0 or cell not in shown or nb not in shown:
                continue
            a, b = shown[cell][side], shown[nb][(side + 2) % 4]
            if a == b:
                score += 1
            else:
                rep.mismatches.append(f"{p.cell_name(cell)}-{p.cell_name(nb)} ({a}!={b})")
    rep.score, rep.max_score = score, p.n_joins
    if rep.mismatches and not allow_mismatch:
        rep.add(f"{len(rep.mismatches)} mismatched joins: " + ", ".join(rep.mismatches[:10]))
    empty = p.n_cells - len(board)
    if empty:
        rep.incomplete(f"{empty} empty cells")
    return rep


@lru_cache(maxsize=4096)
def _orientations(grid_name: str, cells: tuple, mirror: bool) -> frozenset:
    """A piece's orientations, once per piece: an exhaust with thousands of tilings checks
    every one of them (without the cache, 2 ms a tiling went into recomputing these)."""
    from .grids import get_grid

    return frozenset(get_grid(grid_name).orientations(cells, mirror))


def verify_polyform(p: PolyformPuzzle, placements) -> Report:
    """Overlaps, uncovered cells, cells outside the region, shapes, piece counts."""
    rep = Report()
    grid = p.grid
    region = set(map(tuple, p.region))
    covered: Counter = Counter()
    used: Counter = Counter()
    for pl in placements:
        piece, cells = int(pl[0]), tuple(map(tuple, pl[2]))
        if not 0 <= piece < len(p.pieces):
            rep.add(f"no piece number {piece}")
            continue
        pc = p.pieces[piece]
        used[piece] += 1
        if grid.normalize(cells) not in _orientations(p.grid_name, tuple(map(tuple, pc.cells)), p.mirror):
            rep.add(f"piece {pc.name}: cells {list(cells)} are not one of its orientations")
        for cell in cells:
            covered[cell] += 1
            if cell not in region:
                rep.add(f"piece {pc.name}: cell {list(cell)} is outside the region")
    for cell, k in covered.items():
        if k > 1:
            rep.add(f"cell {list(cell)} covered {k} times (overlap)")
    for piece, k in used.items():
        if k > p.pieces[piece].count:
            rep.add(f"piece {p.pieces[piece].name} used {k} times, {p.pieces[piece].count} available")
    if p.exact:
        for i, pc in enumerate(p.pieces):
            if used[i] < pc.count:
                rep.add(f"piece {pc.name} used {used[i]} times, must be used {pc.count}")
    uncovered = region - set(covered)
    if uncovered:
        rep.incomplete(f"{len(uncovered)} uncovered cells")
    return rep


def verify_queens(p: QueensPuzzle, placements) -> Report:
    rep = Report()
    qs = [(int(pl[0]), int(pl[1])) for pl in placements]
    for name, key in (("row", lambda q: q[0]), ("column", lambda q: q[1]),
                      ("diagonal", lambda q: q[0] + q[1]), ("anti-diagonal", lambda q: q[0] - q[1])):
        for k, n in Counter(map(key, qs)).items():
            if n > 1:
                rep.add(f"{n} queens share {name} {k}")
    for r, c in qs:
        if not (0 <= r < p.n and 0 <= c < p.n):
            rep.add(f"queen at ({r}, {c}) is off the board")
    if len(qs) < p.n:
        rep.incomplete(f"{p.n - len(qs)} queens missing")
    return rep
