"""Shuffled and turned pieces, and the warning a board in solved order deserves.

Published boards often list their pieces in solved order and orientation (Heule's generator writes the
tiles row by row as they lie).  A solver that tries pieces and rotations in file order then meets the
answer first: CaDiCaL solves Heule's unshuffled ``em_7_4_8`` with no conflict at all, and nothing
compared on such a file measures search.  ``scramble`` shuffles and turns the pieces (seeded, fixed pieces
carried along); ``solved_order_share`` says how much of the board the listed order already solves.
"""

from __future__ import annotations

import random

import numpy as np

from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed, rotate

SOLVED_ORDER_SHARE = 0.75  # a listed order matching this share of the joins is called solved order


def _shuffle(n: int, seed: int) -> tuple[list[int], list[int]]:
    """(order, turns): order[k] the old piece that becomes piece k, turned turns[k] quarters clockwise."""
    rng = random.Random(seed)
    order = list(range(n))
    rng.shuffle(order)
    return order, [rng.randrange(4) for _ in order]


def scramble(p: EdgePuzzle, seed: int = 0, name: str | None = None) -> EdgePuzzle:
    """The same puzzle, its pieces shuffled and each turned a random quarter; fixed pieces follow."""
    order, turns = _shuffle(p.n_pieces, seed)
    pieces = np.array([rotate(tuple(int(c) for c in p.pieces[old]), t) for old, t in zip(order, turns)], np.int64)
    new_of = {old: k for k, old in enumerate(order)}
    # piece k is the old piece turned t; the old piece at rotation r shows what the new one shows at r - t
    fixed = [Fixed(f.cell, new_of[f.piece], (f.rotation - turns[new_of[f.piece]]) % 4) for f in p.fixed]
    return EdgePuzzle(rows=p.rows, cols=p.cols, pieces=pieces, fixed=fixed, name=p.name if name is None else name)


def scrambled_placements(p: EdgePuzzle, seed: int, placements) -> list[EdgePlacement]:
    """A solution of ``p`` as the same solution of ``scramble(p, seed)``."""
    order, turns = _shuffle(p.n_pieces, seed)
    new_of = {old: k for k, old in enumerate(order)}
    return [EdgePlacement(pl.cell, new_of[pl.piece], (pl.rotation - turns[new_of[pl.piece]]) % 4) for pl in placements]


def solved_order_share(p: EdgePuzzle) -> float:
    """The share of the board's joins that the pieces satisfy laid row by row as listed,
    unturned: about one in the number of colours for a shuffled board, 1.0 for a board in solved order."""
    if p.n_pieces < p.n_cells or p.n_cells < 2:
        return 0.0
    good = total = 0
    for cell, side, nb in p.joins():
        total += 1
        good += int(p.pieces[cell][side]) == int(p.pieces[nb][(side + 2) % 4])
    return good / total if total else 0.0


def solved_order_warning(p: EdgePuzzle, source: str) -> str | None:
    """One line for a puzzle listed in solved order, None otherwise."""
    share = solved_order_share(p)
    if share < SOLVED_ORDER_SHARE:
        return None
    return (
        f"{source}: the pieces are listed in solved order ({share:.0%} of the joins match as listed); a solver "
        f"that tries them in file order meets the answer first. `eternity scramble {source}` shuffles them"
    )
