"""Fox and geese (seed 003, section 6.1) solved by exhaustive search of the game tree, memoised.

The dark squares of an N x N board.  The geese start on the dark squares of row 0 and move one step
diagonally forward (to a higher row); the fox (or foxes) moves one step diagonally either way; nobody
captures or jumps.  The side to move must move.  The geese win when the fox to move (every fox, with
two) has no move; the fox wins when he stands level with or behind every goose (the geese never move
back, so nothing can stop him again) or when the geese to move have no move.

The game cannot go on for ever: the geese must move at every turn and every goose move goes one row
forward, so a game lasts at most 2 x (the rows the geese can advance in all) turns.  So every position
is won by one side, and a search over positions, each valued once, settles the game: a position is won
for the side to move when one of its moves reaches a position lost for the other side.  The positions
are keyed by the fox squares and the goose squares, as bit masks.

Seed 003: four geese beat the fox on 8 x 8; on 4 x 4 the fox beats two geese if he moves first; five
geese against two foxes on 10 x 10 is open.
"""

from __future__ import annotations

import sys
from functools import cache
from itertools import combinations

CHAPTER = {
    (4, 2, 1, "fox"): "fox",  # 4 x 4, two geese, the fox moving first: the fox wins
    (8, 4, 1, None): "geese",  # 8 x 8, four geese: the geese win
}


def dark(n: int) -> list[tuple[int, int]]:
    """The dark squares (row + column odd), row by row."""
    return [(r, c) for r in range(n) for c in range(n) if (r + c) % 2 == 1]


def solve(n: int, geese: int | None = None, foxes: int = 1, first: str = "fox", start: str = "far") -> dict:
    """Who wins from every start: the geese on row 0's dark squares (``geese`` of them, the leftmost; by
    default all of them), the fox or foxes on dark squares of the last row (``start="far"``) or on any
    free dark squares (``"any"``), ``first`` to move."""
    squares = dark(n)
    index = {sq: i for i, sq in enumerate(squares)}
    row = [r for r, _ in squares]
    fwd = [[index[(r + 1, c + d)] for d in (-1, 1) if (r + 1, c + d) in index] for r, c in squares]
    king = [[index[(r + a, c + d)] for a in (-1, 1) for d in (-1, 1) if (r + a, c + d) in index] for r, c in squares]
    home = [i for i, (r, _) in enumerate(squares) if r == 0]
    g0 = home if geese is None else home[:geese]
    far = [i for i, (r, _) in enumerate(squares) if (r == n - 1 if start == "far" else i not in g0)]
    if len(g0) < (geese or 0) or foxes < 1 or foxes > len(far):
        raise ValueError("too many pieces for the board")
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    bits = [1 << i for i in range(len(squares))]

    def members(mask: int):
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    @cache
    def fox_to_move_wins(fx: int, gs: int) -> bool:
        occupied = fx | gs
        moves = [(f, t) for f in members(fx) for t in king[f] if not occupied & bits[t]]
        if not moves:
            return False  # trapped
        if min(row[f] for f in members(fx)) <= min(row[g] for g in members(gs)):
            return True  # through the line
        return any(not geese_to_move_win(fx ^ bits[f] ^ bits[t], gs) for f, t in moves)

    @cache
    def geese_to_move_win(fx: int, gs: int) -> bool:
        occupied = fx | gs
        if min(row[f] for f in members(fx)) <= min(row[g] for g in members(gs)):
            return False
        moves = [(g, t) for g in members(gs) for t in fwd[g] if not occupied & bits[t]]
        if not moves:
            return False  # the geese stuck: the fox goes through in time
        return any(not fox_to_move_wins(fx, gs ^ bits[g] ^ bits[t]) for g, t in moves)

    gmask = sum(bits[g] for g in g0)
    starts = {}
    for fs in combinations(far, foxes):
        fmask = sum(bits[f] for f in fs)
        if first == "fox":
            winner = "fox" if fox_to_move_wins(fmask, gmask) else "geese"
        else:
            winner = "geese" if geese_to_move_win(fmask, gmask) else "fox"
        starts[tuple(squares[f] for f in fs)] = winner
    values = set(starts.values())
    return {
        "board": n,
        "geese": len(g0),
        "foxes": foxes,
        "first": first,
        "start": start,
        "starts": {" ".join(f"{r},{c}" for r, c in k): v for k, v in starts.items()},
        "winner": values.pop() if len(values) == 1 else "depends on the start",
        "positions": fox_to_move_wins.cache_info().currsize + geese_to_move_win.cache_info().currsize,
    }
