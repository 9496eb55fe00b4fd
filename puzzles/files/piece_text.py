"""Community piece lists: ``N E S W`` or ``id N E S W`` lines, optionally after a ``rows cols`` header, read as
an edge-matching puzzle (the format of Eternity II's published piece files and of most solvers' inputs)."""

from __future__ import annotations

import math

import numpy as np

from puzzles.errors import InputError
from puzzles.files.file_schema import MAX_COLOUR
from puzzles.kinds.edge import EdgePuzzle
from puzzles.ranges import MAX_SIDE


def parse_piece_text(text: str, source: str = "<pieces>", name: str = "") -> EdgePuzzle:
    """Community piece lists: ``N E S W`` or ``id N E S W`` a line, optional
    ``rows cols`` header; ``#`` and ``c`` lines are comments.  Without a header
    the board is the square the piece count makes."""
    rows = cols = None
    pieces: list[list[int]] = []
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#") or s.startswith("c ") or s == "c":
            continue
        try:
            nums = [int(x) for x in s.replace(",", " ").split()]
        except ValueError:
            raise InputError(source, f"line {ln}", f"expected integers, got {s[:40]!r}") from None
        if len(nums) == 2 and rows is None and not pieces:
            rows, cols = nums
            if rows < 1 or cols < 1 or rows > MAX_SIDE or cols > MAX_SIDE:
                raise InputError(source, f"line {ln}", f"board size {rows}x{cols} must be between 1 and {MAX_SIDE}")
            continue
        if len(nums) == 5:
            nums = nums[1:]
        if len(nums) != 4:
            raise InputError(source, f"line {ln}", f"a piece has 4 colours (N E S W), got {len(nums)} numbers")
        if min(nums) < 0:
            raise InputError(source, f"line {ln}", "colours must be non-negative")
        if any(v > MAX_COLOUR for v in nums):
            raise InputError(source, f"line {ln}", f"a colour above {MAX_COLOUR} (colours are 0..{MAX_COLOUR})")
        pieces.append(nums)
    if not pieces:
        raise InputError(source, None, "no pieces found")
    if rows is None:
        side = math.isqrt(len(pieces))
        if side * side != len(pieces):
            raise InputError(source, None, f"{len(pieces)} pieces and no 'rows cols' header: not a square board")
        rows = cols = side
    assert cols is not None  # set with rows by the header
    if len(pieces) < rows * cols:
        raise InputError(source, "pieces", f"{len(pieces)} pieces cannot fill {rows}x{cols} = {rows * cols} cells")
    return EdgePuzzle(rows=rows, cols=cols, pieces=np.asarray(pieces, np.int64), name=name)
