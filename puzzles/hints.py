"""Hint pieces: some pieces of a known solution placed before the search starts (Monckton's hints).

Eternity's maker meant to publish the places of pieces of his solution year by year; six were out in the
first year, and Selby remarks (seed 000) that six made the puzzle harder, not easier: a puzzle past its
critical size has many solutions and a search needs only one, while a hinted puzzle keeps only the
solutions that agree with the hints, and six hints are too few to make up for that.  The hint positions
of Eternity itself are not public data (and no solution of it is), so the workbench models hints on
puzzles with a planted solution: a hinted puzzle is the region without the hinted pieces' cells, tiled by
the other pieces, which has exactly the solutions of the whole that agree with the hints.
"""

from __future__ import annotations

import random

from puzzles.errors import UsageError
from puzzles.polyform import PolyformPuzzle, PolyPlacement


def hinted(
    puzzle: PolyformPuzzle, planted: list[PolyPlacement], k: int, seed: int = 0
) -> tuple[PolyformPuzzle, list[PolyPlacement], list[PolyPlacement]]:
    """``puzzle`` with ``k`` pieces of the solution ``planted`` given, drawn at random (``seed``).

    Returns the hinted puzzle (its region less the hinted cells, its pieces less the hinted pieces, piece
    indices renumbered), the hints (on the original numbering) and the rest of the solution (on the new)."""
    if not 0 <= k <= len(planted):
        raise UsageError(f"hints: {k} hints asked for, the solution has {len(planted)} pieces")
    if any(p.count != 1 for p in puzzle.pieces):
        raise UsageError("hints: every piece must be one piece (no copies) to be placed by a hint")
    rng = random.Random(seed)
    given = sorted(rng.sample(range(len(planted)), k))
    hints = [planted[i] for i in given]
    gone_pieces = {h.piece for h in hints}
    gone_cells = {c for h in hints for c in h.cells}
    keep = [i for i in range(len(puzzle.pieces)) if i not in gone_pieces]
    renumber = {old: new for new, old in enumerate(keep)}
    reduced = PolyformPuzzle(
        puzzle.grid_name,
        [c for c in puzzle.region if c not in gone_cells],
        [puzzle.pieces[i] for i in keep],
        mirror=puzzle.mirror,
        name=f"{puzzle.name}+{k}hints-s{seed}",
    )
    rest = [PolyPlacement(renumber[p.piece], 0, p.cells) for p in planted if p.piece not in gone_pieces]
    return reduced, hints, rest
