"""Cutting an edge-matching search into independent parts: every way to fill the first cells of the row
scan, each part the puzzle with those cells fixed.

The parts partition the solutions (a solution fills the first cells one way), so counts add up and a
solution of any part is one of the whole.  Pieces are told apart by index, so a board with identical
pieces yields one part per labelled prefix, as the count itself tells labellings apart.  The prefixes are
enumerated here, in plain Python: a cut is a few thousand parts at most, made once a part."""

from __future__ import annotations

from dataclasses import replace

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed

MAX_PARTS = 1_000_000


def prefix_cells(p: EdgePuzzle, depth: int) -> list[int]:
    """The first ``depth`` free cells of the row scan (cells with a fixed piece are not cut on)."""
    fixed = {f.cell for f in p.fixed}
    return [c for c in range(p.n_cells) if c not in fixed][:depth]


def prefixes(p: EdgePuzzle, depth: int) -> list[tuple[EdgePlacement, ...]]:
    """Every legal filling of the first ``depth`` free cells, in a fixed order (the parts' numbering)."""
    if depth < 1:
        raise UsageError("split: the depth must be at least 1")
    key = (p.rows, p.cols, p.pieces.tobytes(), tuple(p.fixed), depth)
    if key in _cache:  # every part of a cut asks for the same list: made once a process
        return _cache[key]
    cells = prefix_cells(p, depth)
    fixed_pieces = {f.piece for f in p.fixed}
    by_cell: dict[int, list[EdgePlacement]] = {c: [] for c in cells}
    for c in cells:  # the border rule on the prefix's cells only (the whole board's candidates cost 0.16 s on 6x6)
        for q in range(p.n_pieces):
            if q not in fixed_pieces:
                by_cell[c] += [
                    EdgePlacement(c, q, r) for r in p.distinct_rotations(q) if p.fits_border(c, p.placed(q, r))
                ]
    known = {f.cell: p.placed(f.piece, f.rotation) for f in p.fixed}
    used = {f.piece for f in p.fixed}
    out: list[tuple[EdgePlacement, ...]] = []
    path: list[EdgePlacement] = []

    def fits(pl: EdgePlacement) -> bool:
        cols = p.placed(pl.piece, pl.rotation)
        for side in range(4):
            nb = p.neighbour(pl.cell, side)
            if nb >= 0 and nb in known and known[nb][(side + 2) % 4] != cols[side]:
                return False
        return True

    def walk(i: int) -> None:
        if i == len(cells):
            out.append(tuple(path))
            if len(out) > MAX_PARTS:
                raise UsageError(f"split: more than {MAX_PARTS:,} parts at depth {depth}; cut shallower")
            return
        for pl in by_cell[cells[i]]:
            if pl.piece in used or not fits(pl):
                continue
            used.add(pl.piece)
            known[pl.cell] = p.placed(pl.piece, pl.rotation)
            path.append(pl)
            walk(i + 1)
            path.pop()
            del known[pl.cell]
            used.discard(pl.piece)

    walk(0)
    _cache.clear()  # one cut at a time is what a worker runs
    _cache[key] = out
    return out


_cache: dict[tuple, list[tuple[EdgePlacement, ...]]] = {}


def part_puzzle(p: EdgePuzzle, depth: int, part: int) -> EdgePuzzle:
    """The puzzle of part ``part`` of the cut at ``depth``: its prefix as fixed pieces."""
    parts = prefixes(p, depth)
    if not 0 <= part < len(parts):
        raise UsageError(f"split: part {part} of a cut into {len(parts)} parts")
    extra = [Fixed(pl.cell, pl.piece, pl.rotation) for pl in parts[part]]
    return replace(p, fixed=list(p.fixed) + extra)
