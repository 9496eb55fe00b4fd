"""The independent checker: every answer any solver gives passes through here.

It is written against the puzzle definitions only (never through the XCC
compilation), so a bug in a compiler or a solver cannot hide itself.
Partial boards are allowed: they are scored and reported as incomplete.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from puzzles.kinds.cnf_formula import CnfFormula
from puzzles.kinds.edge import E, EdgePuzzle, S, rotate
from puzzles.kinds.latin import LatinPuzzle
from puzzles.kinds.magic import MagicPuzzle
from puzzles.kinds.polyform import PolyformPuzzle
from puzzles.kinds.queens import QueensPuzzle


@dataclass
class Report:
    """What the verifier found: ``valid`` (a complete board that breaks no rule), ``legal`` (no rule broken,
    maybe short of pieces), ``complete``, the ``problems`` it names, and for edge matching the ``score``."""

    valid: bool = True  # complete and no problem
    complete: bool = True
    legal: bool = True  # no problem but missing pieces: a legal partial board
    score: int | None = None  # edge matching: matching joins
    max_score: int | None = None
    problems: list[str] = field(default_factory=list)
    mismatches: list[str] = field(default_factory=list)

    def add(self, msg: str) -> None:
        """A broken rule: the board is neither valid nor legal."""
        self.problems.append(msg)
        self.valid = self.legal = False

    def incomplete(self, msg: str) -> None:
        """The board is short of pieces: not a solution, but still a legal partial board."""
        self.problems.append(msg)
        self.valid = self.complete = False

    def as_dict(self) -> dict:
        """The report as JSON fields (``verify --json``)."""
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
    """Check placements against the puzzle; see the per-kind functions.  Placements that are not placements of
    the puzzle's kind at all (a string, None, a tuple too short: what a broken plug-in decodes) are rejected
    as malformed, never a crash: whatever a solver hands over gets a verdict."""
    try:
        return _verify(puzzle, placements, allow_mismatch)
    except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError) as e:
        if not isinstance(puzzle, (EdgePuzzle, PolyformPuzzle, QueensPuzzle, LatinPuzzle, MagicPuzzle, CnfFormula)):
            raise
        rep = Report(score=None)
        rep.add(f"malformed placements ({type(e).__name__}: {str(e)[:120]}): {repr(placements)[:80]}")
        rep.complete = False
        return rep


def _verify(puzzle, placements, allow_mismatch: bool) -> Report:
    if isinstance(puzzle, EdgePuzzle):
        return verify_edge(puzzle, placements, allow_mismatch=allow_mismatch)
    if isinstance(puzzle, PolyformPuzzle):
        return verify_polyform(puzzle, placements)
    if isinstance(puzzle, QueensPuzzle):
        return verify_queens(puzzle, placements)
    if isinstance(puzzle, LatinPuzzle):
        return verify_latin(puzzle, placements)
    if isinstance(puzzle, MagicPuzzle):
        return verify_magic(puzzle, placements)
    if isinstance(puzzle, CnfFormula):
        return verify_cnf(puzzle, placements)
    raise TypeError(f"cannot verify a {type(puzzle).__name__}")


def verify_cnf(p: CnfFormula, true_vars) -> Report:
    """A model of a CNF formula (its true variables, the others false): every clause satisfied."""
    rep = Report()
    if any(not 0 < int(v) <= p.n_vars for v in true_vars):
        rep.problems.append(f"a variable outside 1..{p.n_vars}")
    bad = p.satisfied(true_vars)
    if bad:
        rep.problems.append(f"{len(bad)} clauses unsatisfied (the first: clause {bad[0]})")
    rep.valid = rep.legal = not rep.problems
    return rep


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
        got = board.get(f.cell)
        # a turn of a symmetric piece that shows the same colours is the same board (the counting convention:
        # ``distinct_rotations``), so a solver may name it by its first such turn
        if got is None or got[0] != f.piece or p.placed(f.piece, got[1]) != p.placed(f.piece, f.rotation):
            rep.add(f"{p.cell_name(f.cell)}: fixed piece {f.piece + 1} rotation {f.rotation} is not there")
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
    from puzzles.kinds.grids import get_grid

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
        if 0 < p.pieces[piece].count < k:  # count 0: any number
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
    """N pieces, one a row and a column, and for queens none two on a diagonal."""
    rep = Report()
    qs = [(int(pl[0]), int(pl[1])) for pl in placements]
    lines = [("row", lambda q: q[0]), ("column", lambda q: q[1])]
    if p.diagonals:  # a queen also attacks along both diagonals
        lines += [("diagonal", lambda q: q[0] + q[1]), ("anti-diagonal", lambda q: q[0] - q[1])]
    for name, key in lines:
        for k, n in Counter(map(key, qs)).items():
            if n > 1:
                rep.add(f"{n} {p.piece}s share {name} {k}")
    for r, c in qs:
        if not (0 <= r < p.n and 0 <= c < p.n):
            rep.add(f"{p.piece} at ({r}, {c}) is off the board")
    if len(qs) < p.n:
        rep.incomplete(f"{p.n - len(qs)} {p.piece}s missing")
    return rep


def verify_latin(p: LatinPuzzle, placements) -> Report:
    """Each cell once, each symbol once in every row and column of each square (and on both diagonals
    when asked), every pair of symbols once (orthogonality), and the symbols ``reduced`` fixes."""
    rep = Report()
    n, two = p.n, p.squares == 2
    grid: dict[tuple[int, int], tuple[int, int]] = {}
    for pl in placements:
        r, c, a, b = (int(x) for x in pl)
        if not (0 <= r < n and 0 <= c < n):
            rep.add(f"cell ({r}, {c}) is off the board")
            continue
        if not 0 <= a < n or (two and not 0 <= b < n) or (not two and b != -1):
            rep.add(f"cell ({r}, {c}): symbols ({a}, {b}) are not symbols of order {n}")
            continue
        if (r, c) in grid:
            rep.add(f"cell ({r}, {c}) is filled twice")
        grid[(r, c)] = (a, b)
        fa, fb = p.fixed(r, c)
        if (fa is not None and a != fa) or (fb is not None and b != fb):
            rep.add(f"cell ({r}, {c}) must hold ({fa}, {fb}) in the reduced form")
    for square, idx in (("first", 0), ("second", 1))[: p.squares]:
        groups = {f"row {i}": [(i, j) for j in range(n)] for i in range(n)}
        groups.update({f"column {j}": [(i, j) for i in range(n)] for j in range(n)})
        if p.diagonal:
            groups["diagonal"] = [(i, i) for i in range(n)]
            groups["anti-diagonal"] = [(i, n - 1 - i) for i in range(n)]
        for where, cells in groups.items():
            seen = Counter(grid[x][idx] for x in cells if x in grid)
            for sym, k in seen.items():
                if k > 1:
                    rep.add(f"{square} square: symbol {sym} {k} times in {where}")
    if two:
        for pair, k in Counter(grid.values()).items():
            if k > 1:
                rep.add(f"the pair {pair} stands on {k} cells (the squares are not orthogonal)")
    if len(grid) < n * n:
        rep.incomplete(f"{n * n - len(grid)} empty cells")
    return rep


def verify_magic(p: MagicPuzzle, placements) -> Report:
    """Each cell one number of the figure's values, each number once when the figure says so, every line
    summing to the target."""
    rep = Report()
    m = len(p.cells)
    lo, hi = p.values[0], p.values[-1]
    at: dict[int, int] = {}
    for pl in placements:
        cell, value = int(pl[0]), int(pl[1])
        if not 0 <= cell < m or not lo <= value <= hi:
            rep.add(f"({cell}, {value}) is not a cell 0..{m - 1} with a number {lo}..{hi}")
            continue
        if cell in at:
            rep.add(f"cell {cell} holds two numbers")
        at[cell] = value
    for v, k in Counter(at.values()).items():
        if k > 1 and p.distinct:
            rep.add(f"number {v} is used {k} times")
    if len(at) < m:
        rep.incomplete(f"{m - len(at)} empty cells")
        return rep
    for i, line in enumerate(p.lines):
        total = sum(at[c] for c in line)
        if total != p.target:
            rep.add(f"line {i} (cells {line}) sums to {total}, not {p.target}")
    return rep
