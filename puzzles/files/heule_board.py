"""Heule's edge-matching board files: the format of the SAT Competition 2009's edge-matching instances.

The file is a count of hint pieces on its first line, that many hint lines ``row col piece rotation``
(1-based row, column and piece; the rotation in clockwise quarter turns), then one ``N E S W`` line a
piece, grey ``0``.  No board size is written: it is the rectangle whose frame takes the file's border
pieces (a border piece has one grey side), the shorter side first.  Published boards list their pieces
in solved order and orientation; ``puzzles.make.scramble`` says so and shuffles them.

Recognised by content (``looks_heule``): a first line of a single whole number, then more lines.
"""

from __future__ import annotations

import numpy as np

from puzzles.errors import InputError, UsageError
from puzzles.files.file_schema import MAX_COLOUR
from puzzles.kinds.edge import EdgePuzzle, Fixed

MAX_HINTS = 10_000


def _lines(text: str) -> list[tuple[int, list[str]]]:
    """The file's non-blank lines as (line number, words); ``c`` and ``#`` lines are comments."""
    out = []
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#") or s == "c" or s.startswith("c "):
            continue
        out.append((ln, s.split()))
    return out


def looks_heule(text: str) -> bool:
    """Whether ``text`` reads as a Heule board: a lone whole number first (which no piece list begins with),
    then more lines."""
    lines = _lines(text)[:2]
    return len(lines) == 2 and len(lines[0][1]) == 1 and lines[0][1][0].isdigit()


def board_size(pieces: np.ndarray) -> tuple[int, int] | None:
    """The rows x cols (rows <= cols) whose frame the pieces fill: four corners (two grey sides),
    2 (rows + cols) - 8 border pieces (one grey side), the rest inner; None when no rectangle fits."""
    greys = (pieces == 0).sum(axis=1)
    corners, borders = int((greys == 2).sum()), int((greys == 1).sum())
    n = len(pieces)
    if corners != 4 or borders % 2:
        return None
    half = borders // 2 + 4  # rows + cols
    for rows in range(2, half // 2 + 1):
        if rows * (half - rows) == n:
            return rows, half - rows
    return None


def parse_heule(text: str, source: str = "<heule>", name: str = "") -> EdgePuzzle:
    """A Heule board file as an edge-matching puzzle; its hints become fixed pieces."""
    lines = _lines(text)
    if not lines:
        raise InputError(source, None, "empty file")
    ln, words = lines[0]
    if len(words) != 1 or not words[0].isdigit():
        raise InputError(source, f"line {ln}", "a Heule board begins with its number of hint pieces")
    n_hints = int(words[0])
    if n_hints > MAX_HINTS or n_hints > len(lines) - 1:
        raise InputError(source, f"line {ln}", f"{n_hints} hints announced, the file has {len(lines) - 1} lines")
    rows4: list[list[int]] = []
    for ln, words in lines[1:]:
        if len(words) != 4:
            raise InputError(source, f"line {ln}", f"expected 4 numbers, got {len(words)}")
        try:
            rows4.append([int(x) for x in words])
        except ValueError:
            raise InputError(source, f"line {ln}", f"expected integers, got {' '.join(words)[:40]!r}") from None
    hints, pieces = rows4[:n_hints], np.asarray(rows4[n_hints:], np.int64).reshape(-1, 4)
    if not len(pieces):
        raise InputError(source, None, "no pieces after the hints")
    if pieces.min() < 0 or pieces.max() > MAX_COLOUR:
        raise InputError(source, "pieces", f"colours must be 0..{MAX_COLOUR}")
    size = board_size(pieces)
    if size is None:
        raise InputError(
            source,
            "pieces",
            f"{len(pieces)} pieces with {int(((pieces == 0).sum(axis=1) == 2).sum())} corners do not frame a rectangle",
        )
    rows, cols = size
    fixed = []
    cells_hinted: set[int] = set()
    pieces_hinted: set[int] = set()
    for k, (r, c, q, rot) in enumerate(hints):
        where = f"hint {k + 1}"
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise InputError(source, where, f"cell ({r}, {c}) is off the {rows}x{cols} board")
        if not 1 <= q <= len(pieces):
            raise InputError(source, where, f"piece {q} is not among the {len(pieces)} pieces")
        if not 0 <= rot <= 3:
            raise InputError(source, where, f"rotation {rot} is not 0..3")
        cell = (r - 1) * cols + (c - 1)
        if cell in cells_hinted:  # as the JSON reader refuses a cell or a piece fixed twice
            raise InputError(source, where, f"cell ({r}, {c}) is hinted twice")
        if q in pieces_hinted:
            raise InputError(source, where, f"piece {q} is hinted twice")
        cells_hinted.add(cell)
        pieces_hinted.add(q)
        fixed.append(Fixed(cell, q - 1, rot))
    return EdgePuzzle(rows=rows, cols=cols, pieces=pieces, fixed=fixed, name=name)


def to_heule(p: EdgePuzzle) -> str:
    """The puzzle as a Heule board file (the reader's inverse); a board it cannot describe is refused."""
    if p.n_pieces != p.n_cells or board_size(p.pieces) != (min(p.rows, p.cols), max(p.rows, p.cols)):
        raise UsageError(f"{p.name or 'the puzzle'}: a Heule board file holds framed boards with no spare piece")
    if p.rows > p.cols:
        raise UsageError(f"{p.name or 'the puzzle'}: a Heule board has its shorter side as rows; turn it first")
    out = [str(len(p.fixed))]
    for f in p.fixed:
        r, c = divmod(f.cell, p.cols)
        out.append(f"{r + 1} {c + 1} {f.piece + 1} {f.rotation}")
    out += [" ".join(str(int(x)) for x in q) for q in p.pieces]
    return "\n".join(out) + "\n"
