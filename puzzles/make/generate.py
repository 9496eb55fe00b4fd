"""Instance generators with a planted solution, reproducible from a seed.

Edge matching follows Eternity II's construction: a grey rim, frame colours
only on the joins between two frame cells, inner colours on every other
join; the pieces are then cut out, shuffled and randomly turned.
Polyominoes: a random partition of a rectangle into connected k-cell pieces.
"""

from __future__ import annotations

import random

import numpy as np

from puzzles.errors import UsageError
from puzzles.kinds.edge import E, EdgePlacement, EdgePuzzle, Fixed, S
from puzzles.kinds.grids import Cell, SquareGrid
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece, PolyPlacement


def edge_puzzle(
    rows: int, cols: int, frame_colors: int, inner_colors: int, seed: int = 0, name: str | None = None
) -> tuple[EdgePuzzle, list[EdgePlacement]]:
    """A random bordered edge-matching puzzle and its planted solution."""
    if rows < 2 or cols < 2:
        raise UsageError("rows and cols must be at least 2")
    if frame_colors < 1:
        raise UsageError("frame colours must be at least 1")
    if max(rows, cols) > 2 and inner_colors < 1:
        raise UsageError("inner colours must be at least 1")
    rng = random.Random(seed)
    shown = np.zeros((rows * cols, 4), dtype=np.int64)

    for cell in range(rows * cols):
        r, c = divmod(cell, cols)
        for side, nb in ((E, cell + 1 if c + 1 < cols else -1), (S, cell + cols if r + 1 < rows else -1)):
            if nb < 0:
                continue
            # a frame join runs along the rim: between two cells of the top or
            # bottom row, or of the left or right column
            frame = (side == E and r in (0, rows - 1)) or (side == S and c in (0, cols - 1))
            colour = rng.randint(1, frame_colors) if frame else frame_colors + rng.randint(1, inner_colors)
            shown[cell, side] = colour
            shown[nb, (side + 2) % 4] = colour
    order = list(range(rows * cols))
    rng.shuffle(order)  # order[k] = the cell whose tile becomes piece k
    pieces: list[list[int]] = []
    planted: list[EdgePlacement | None] = [None] * (rows * cols)
    for k, cell in enumerate(order):
        s = rng.randrange(4)
        pieces.append([int(shown[cell][(j - s) % 4]) for j in range(4)])  # stored = shown turned s
        planted[cell] = EdgePlacement(cell, k, (4 - s) % 4)
    nm = name or f"edge-{rows}x{cols}-f{frame_colors}-i{inner_colors}-s{seed}"
    return EdgePuzzle(rows=rows, cols=cols, pieces=np.array(pieces, np.int64), name=nm), planted  # type: ignore[return-value]


def solved_order(puzzle: EdgePuzzle, planted: list[EdgePlacement]) -> tuple[EdgePuzzle, list[EdgePlacement]]:
    """The board with piece k the tile of cell k as it lies in the planted solution (turn 0): the order
    in which published generators write their boards, and a bias for any solver that tries pieces in order."""
    by_cell = sorted(planted, key=lambda pl: pl.cell)
    pieces = np.array([puzzle.placed(pl.piece, pl.rotation) for pl in by_cell], np.int64)
    out = EdgePuzzle(rows=puzzle.rows, cols=puzzle.cols, pieces=pieces, name=puzzle.name)
    return out, [EdgePlacement(pl.cell, pl.cell, 0) for pl in by_cell]


def with_clues(puzzle: EdgePuzzle, planted: list[EdgePlacement], share: float, seed: int = 0) -> EdgePuzzle:
    """The puzzle with ``share`` of its cells (rounded) given as fixed pieces of its planted solution, at
    cells drawn from ``seed``: the clue-rich boards on which propagation is said to win."""
    if not 0 <= share <= 1:
        raise UsageError(f"clue share {share} is not between 0 and 1")
    n = puzzle.n_cells
    cells = sorted(random.Random(seed * 7919 + 17).sample(range(n), round(share * n)))
    fixed = [Fixed(c, planted[c].piece, planted[c].rotation) for c in cells]
    name = f"{puzzle.name}-c{round(100 * share)}"
    return EdgePuzzle(rows=puzzle.rows, cols=puzzle.cols, pieces=puzzle.pieces.copy(), fixed=fixed, name=name)


def swap_sides(puzzle: EdgePuzzle, seed: int = 0) -> EdgePuzzle | None:
    """The puzzle with one side of one interior piece and one side of another swapped, where their colours
    differ: every colour keeps its number of sides (Owen's model sees the same board), but the planted
    solution is broken, and most such boards have no solution (whether this one has, a search must say).
    None when the board has fewer than two interior pieces or their sides are all one colour."""
    inner = [q for q in range(puzzle.n_pieces) if np.all(puzzle.pieces[q] != 0)]
    rng = random.Random(seed * 104729 + 3)
    rng.shuffle(inner)
    for a in inner:
        for b in inner:
            if b == a:
                continue
            pairs = [(i, j) for i in range(4) for j in range(4) if puzzle.pieces[a, i] != puzzle.pieces[b, j]]
            if pairs:
                i, j = rng.choice(pairs)
                pieces = puzzle.pieces.copy()
                pieces[a, i], pieces[b, j] = puzzle.pieces[b, j], puzzle.pieces[a, i]
                return EdgePuzzle(rows=puzzle.rows, cols=puzzle.cols, pieces=pieces, name=f"{puzzle.name}-swap")
    return None


def polyomino_puzzle(
    rows: int, cols: int, size: int, seed: int = 0, mirror: bool = True, name: str | None = None, max_tries: int = 10000
) -> tuple[PolyformPuzzle, list[PolyPlacement]]:
    """A rows x cols rectangle cut into connected pieces of ``size`` cells."""
    if rows < 1 or cols < 1 or size < 1:
        raise UsageError("rows, cols and size must be positive")
    if (rows * cols) % size:
        raise UsageError(f"{rows}x{cols} = {rows * cols} cells is not a multiple of the piece size {size}")
    if rows * cols > MAX_POLYOMINO_CELLS:
        raise UsageError(
            f"{rows}x{cols} = {rows * cols} cells: the random cutter handles at most {MAX_POLYOMINO_CELLS} cells"
        )
    rng = random.Random(seed)
    work = [0]  # cells the cutter has looked at, over all tries: a bound that is the same on every machine
    for _ in range(max_tries):
        parts = _partition(rows, cols, size, rng, work)
        if parts is not None:
            break
        if work[0] > MAX_CUT_WORK:
            raise UsageError(
                f"could not cut {rows}x{cols} into connected pieces of {size} cells within the cutter's budget "
                "(large pieces on a large board rarely tile by random growth); try another seed or a smaller size"
            )
    else:
        raise UsageError("could not cut the rectangle into connected pieces of that size; try another seed")

    g = SquareGrid()
    pieces, planted = [], []
    for i, cells in enumerate(parts):
        pieces.append(PolyPiece(f"P{i + 1}", g.normalize(cells)))
        planted.append(PolyPlacement(i, 0, tuple(sorted(cells))))
    region: list[Cell] = [(r, c) for r in range(rows) for c in range(cols)]
    nm = name or f"poly-{rows}x{cols}-k{size}-s{seed}"
    return PolyformPuzzle("square", region, pieces, mirror=mirror, name=nm), planted


SQUARE = SquareGrid()  # the rectangle cut into polyominoes: its cells (row, col) joined across sides
MAX_POLYOMINO_CELLS = 2500  # the cutter checks the free area after each piece: quadratic in the area
PIECE_TRIES = 40  # random growths tried for one piece before the whole cut starts again
MAX_CUT_WORK = 20_000_000  # free cells checked over all tries: about 13 s here, then a clear refusal


def _partition(rows: int, cols: int, size: int, rng: random.Random, work: list[int] | None = None):
    """Cut the rectangle piece by piece from its first free cell; a piece that would leave a free
    component whose area is not a multiple of ``size`` is grown again (up to PIECE_TRIES times).
    ``work[0]`` counts the free cells checked, which is where the time goes."""
    free = {(r, c) for r in range(rows) for c in range(cols)}
    parts = []
    while free:
        start = min(free)
        for _ in range(PIECE_TRIES):
            piece = _grow(start, free, size, rng)
            if work is not None:
                work[0] += len(free)
            if piece is not None and not any(n % size for n in SQUARE.component_sizes(free - piece)):
                break
        else:
            return None
        free -= piece
        parts.append(sorted(piece))
    return parts


def _grow(start, free: set, size: int, rng: random.Random) -> set | None:
    piece = {start}
    frontier = {n for n in _nb(start) if n in free}
    while len(piece) < size and frontier:
        cell = rng.choice(sorted(frontier))
        piece.add(cell)
        frontier.discard(cell)
        frontier |= {n for n in _nb(cell) if n in free and n not in piece}
    return piece if len(piece) == size else None


def _nb(c):
    r, k = c
    return ((r - 1, k), (r + 1, k), (r, k - 1), (r, k + 1))
