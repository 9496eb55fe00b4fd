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
from puzzles.kinds.polyform import PolyformPuzzle, PolyPlacement


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
    reduced, keep = _without(puzzle, hints, f"{puzzle.name}+{k}hints-s{seed}")
    renumber = {old: new for new, old in enumerate(keep)}
    rest = [PolyPlacement(renumber[p.piece], 0, p.cells) for p in planted if p.piece in renumber]
    return reduced, hints, rest


def _without(puzzle: PolyformPuzzle, hints: list[PolyPlacement], name: str) -> tuple[PolyformPuzzle, list[int]]:
    """The puzzle that is left once ``hints`` are placed: the region less their cells, the pieces less theirs;
    and the indices of the pieces kept, in order (a kept piece's new index is its place in that list)."""
    gone_pieces = {h.piece for h in hints}
    gone_cells = {c for h in hints for c in h.cells}
    keep = [i for i in range(len(puzzle.pieces)) if i not in gone_pieces]
    reduced = PolyformPuzzle(
        puzzle.grid_name,
        [c for c in puzzle.region if c not in gone_cells],
        [puzzle.pieces[i] for i in keep],
        mirror=puzzle.mirror,
        name=name,
    )
    return reduced, keep


def _viable(puzzle: PolyformPuzzle) -> bool:
    """No part of the region cut off with an area the pieces cannot fill, and every cell covered by some
    placement: the checks that throw out hint places that leave the board plainly untileable."""
    import numpy as np

    grid = puzzle.grid
    sizes = {len(p.cells) for p in puzzle.pieces}
    if len(sizes) == 1:
        area = sizes.pop()
        if any(n % area for n in grid.component_sizes(set(puzzle.region))):
            return False
    table = puzzle.placements()
    covered = np.zeros(len(table.cells), bool)
    covered[np.asarray(table.flat)] = True
    return bool(covered.all())


def random_hints(
    puzzle: PolyformPuzzle, k: int, seed: int = 0, attempts: int = 50
) -> tuple[PolyformPuzzle, list[PolyPlacement]]:
    """``puzzle`` with ``k`` pieces placed at random legal, disjoint places: hints of a solution nobody has.

    Eternity's own hint positions are not public, and no solution is; by Selby's count (about 10^95
    solutions) and the board's 6,566 placements a piece (geometric mean), six placements drawn at random
    still agree with about 10^72 solutions, so random hints stand in for Monckton's in the count, though not
    in where they lie.  A draw that leaves a part of the region the pieces cannot fill by area, or a cell no
    placement covers, is drawn again (up to ``attempts`` times); what such checks cannot see (a pocket that
    no set of pieces tiles) remains possible."""
    table = puzzle.placements()
    rng = random.Random(seed)
    if not 0 <= k <= len(puzzle.pieces):
        raise UsageError(f"hints: {k} hints asked for, the puzzle has {len(puzzle.pieces)} pieces")
    for _ in range(attempts):
        reduced, hints = _draw(puzzle, table, k, rng, seed)
        if _viable(reduced):
            return reduced, hints
    raise UsageError(f"hints: no {k} hint places that leave the board tileable in {attempts} draws")


def _draw(puzzle: PolyformPuzzle, table, k: int, rng: random.Random, seed: int):
    taken_pieces: set[int] = set()
    taken_cells: set = set()
    hints: list[PolyPlacement] = []
    tries = 0
    while len(hints) < k:
        tries += 1
        if tries > 100_000:
            raise UsageError(f"hints: no room for {k} disjoint hint pieces")
        pl = table[rng.randrange(len(table))]
        if pl.piece in taken_pieces or taken_cells.intersection(pl.cells):
            continue
        hints.append(pl)
        taken_pieces.add(pl.piece)
        taken_cells.update(pl.cells)
    reduced, _ = _without(puzzle, hints, f"{puzzle.name}-hints{k}" + (f"-s{seed}" if seed else ""))
    return reduced, hints
