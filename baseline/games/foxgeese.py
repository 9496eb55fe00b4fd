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

import numpy as np
from numba import njit

CHAPTER = {
    (4, 2, 1, "fox"): "fox",  # 4 x 4, two geese, the fox moving first: the fox wins
    (8, 4, 1, None): "geese",  # 8 x 8, four geese: the geese win
}


def dark(n: int) -> list[tuple[int, int]]:
    """The dark squares (row + column odd), row by row."""
    return [(r, c) for r in range(n) for c in range(n) if (r + c) % 2 == 1]


class Rules:
    """The board's squares and moves, and the exact values of positions (memoised), for ``solve`` and for
    strategies checked against them (``baseline.games.geese_strategy``)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.squares = dark(n)
        self.index = {sq: i for i, sq in enumerate(self.squares)}
        sq, index = self.squares, self.index
        self.row = [r for r, _ in sq]
        self.fwd = [[index[(r + 1, c + d)] for d in (-1, 1) if (r + 1, c + d) in index] for r, c in sq]
        self.king = [
            [index[(r + a, c + d)] for a in (-1, 1) for d in (-1, 1) if (r + a, c + d) in index] for r, c in sq
        ]
        self.bits = [1 << i for i in range(len(sq))]
        sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
        row, fwd, king, bits = self.row, self.fwd, self.king, self.bits
        members = self.members

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

        self.fox_to_move_wins = fox_to_move_wins
        self.geese_to_move_win = geese_to_move_win

    @staticmethod
    def members(mask: int):
        """The square indices set in ``mask``."""
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def through(self, fx: int, gs: int) -> bool:
        """The fox stands level with or behind every goose: he is through."""
        return min(self.row[f] for f in self.members(fx)) <= min(self.row[g] for g in self.members(gs))


def solve(n: int, geese: int | None = None, foxes: int = 1, first: str = "fox", start: str = "far") -> dict:
    """Who wins from every start: the geese on row 0's dark squares (``geese`` of them, the leftmost; by
    default all of them), the fox or foxes on dark squares of the last row (``start="far"``) or on any
    free dark squares (``"any"``), ``first`` to move."""
    rules = Rules(n)
    squares, bits = rules.squares, rules.bits
    home = [i for i, (r, _) in enumerate(squares) if r == 0]
    g0 = home if geese is None else home[:geese]
    far = [i for i, (r, _) in enumerate(squares) if (r == n - 1 if start == "far" else i not in g0)]
    if len(g0) < (geese or 0) or foxes < 1 or foxes > len(far):
        raise ValueError("too many pieces for the board")
    fox_to_move_wins, geese_to_move_win = rules.fox_to_move_wins, rules.geese_to_move_win

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


# ---------------------------------------------------------------------------------------------- numba search
# The same game and the same values as ``solve``, for boards whose positions outgrow a Python memo: pieces
# as bit masks of the dark squares (at most 63 of them: boards to 10 x 10 and 11 x 11), every valued
# position kept in an open-addressing hash table of flat arrays, the search depth-first and recursive.

EMPTY = np.int64(-1)


@njit(cache=True, inline="always")
def _slot(kf, gs, mask):
    """The first slot of a position: the two keys mixed so that every bit reaches the low bits that pick the
    slot (a plain product leaves the low bits to the low squares, and positions that differ only in the far
    squares would pile up on one run of slots)."""
    x = kf * np.int64(-7046029254386353131) ^ gs * np.int64(-4658895280553007687)
    x ^= (x >> 29) & np.int64((1 << 35) - 1)  # a logical shift: the sign bit's copies masked off
    x *= np.int64(-4265267296055464877)
    x ^= (x >> 32) & np.int64(0xFFFFFFFF)
    return x & mask


@njit(cache=True, inline="always")
def _square(low):
    """The square of a one-bit mask."""
    sq = 0
    while (np.int64(1) << sq) != low:
        sq += 1
    return sq


@njit(cache=True)
def _front(mask, row):
    """The least row among the squares of ``mask`` (the side's piece nearest the geese's home row)."""
    least = 1 << 30
    while mask:
        low = mask & -mask
        least = min(least, row[_square(low)])
        mask ^= low
    return least


@njit  # recursive: not cached (numba's cache of a self-recursive function crashes when loaded)
def _wins(fx, gs, fox_turn, row, king, fwd, keys_f, keys_g, vals, counter):
    """Whether the side to move wins from (foxes ``fx``, geese ``gs``); every value kept in the table.
    counter[0]: positions stored; counter[1]: 1 once the table is full (the answer is then unknown).
    A side with no move loses: the foxes trapped, or the geese stuck (the fox then goes through)."""
    mask = keys_f.shape[0] - 1
    kf = fx | (np.int64(1) << 62) if fox_turn else fx
    first = _slot(kf, gs, mask)
    h = first
    while keys_f[h] != EMPTY:
        if keys_f[h] == kf and keys_g[h] == gs:
            return vals[h] == 1
        h = (h + 1) & mask
    if counter[1]:
        return False
    occupied = fx | gs
    through = _front(fx, row) <= _front(gs, row)
    win = False
    movers, steps, n_steps = (fx, king, 4) if fox_turn else (gs, fwd, 2)
    if fox_turn or not through:  # geese to move with a fox through: lost
        m = movers
        while m and not win:
            low = m & -m
            sq = _square(low)
            m ^= low
            for d in range(n_steps):
                t = steps[sq, d]
                if t < 0 or occupied & (np.int64(1) << t):
                    continue
                if fox_turn:
                    win = through or not _wins(
                        fx ^ low ^ (np.int64(1) << t), gs, False, row, king, fwd, keys_f, keys_g, vals, counter
                    )
                else:
                    win = not _wins(
                        fx, gs ^ low ^ (np.int64(1) << t), True, row, king, fwd, keys_f, keys_g, vals, counter
                    )
                if win:
                    break
    if counter[1]:
        return win
    if counter[0] * 10 >= keys_f.shape[0] * 7:  # seven tenths full: stop storing, the search is cut short
        counter[1] = 1
        return win
    h = first  # the recursion may have taken slots since the lookup: probe again
    while keys_f[h] != EMPTY:
        h = (h + 1) & mask
    keys_f[h], keys_g[h], vals[h] = kf, gs, 1 if win else 2
    counter[0] += 1
    return win


def solve_fast(
    n: int,
    geese: int | None = None,
    foxes: int = 1,
    first: str = "fox",
    start: str = "far",
    table_bits: int | None = None,
    max_gb: float | None = None,
    progress=None,
) -> dict:
    """``solve`` by the numba search: the same answer, on boards the Python memo cannot finish.

    The table holds 2^``table_bits`` positions (17 bytes each); a search that fills seven tenths of it
    stops.  Without ``table_bits`` the search starts with 2^20 and starts again four times larger until it
    finishes or the next table would pass ``max_gb`` (default: half the machine's memory); then it says
    so (``complete`` False, winner "not finished") rather than answer."""
    import os

    if table_bits is not None:
        return _solve_fast(n, geese, foxes, first, start, table_bits)
    if max_gb is None:
        max_gb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30 / 2
    bits = 20
    while True:
        r = _solve_fast(n, geese, foxes, first, start, bits)
        if progress:
            progress({"table_positions": r["table_positions"], "positions": r["positions"], "complete": r["complete"]})
        if r["complete"] or (1 << (bits + 2)) * 17 / 2**30 > max_gb:
            return r
        bits += 2


def _solve_fast(n: int, geese: int | None, foxes: int, first: str, start: str, table_bits: int) -> dict:
    import time

    squares = dark(n)
    if len(squares) > 62:
        raise ValueError(f"at most 62 dark squares (boards to 11 x 11), not {len(squares)}")
    index = {sq: i for i, sq in enumerate(squares)}
    row = np.array([r for r, _ in squares], np.int64)
    fwd = np.full((len(squares), 2), -1, np.int64)
    king = np.full((len(squares), 4), -1, np.int64)
    for i, (r, c) in enumerate(squares):
        for k, d in enumerate((-1, 1)):
            fwd[i, k] = index.get((r + 1, c + d), -1)
        for k, (a, d) in enumerate(((-1, -1), (-1, 1), (1, -1), (1, 1))):
            king[i, k] = index.get((r + a, c + d), -1)
    home = [i for i, (r, _) in enumerate(squares) if r == 0]
    g0 = home if geese is None else home[:geese]
    far = [i for i, (r, _) in enumerate(squares) if (r == n - 1 if start == "far" else i not in g0)]
    if len(g0) < (geese or 0) or foxes < 1 or foxes > len(far):
        raise ValueError("too many pieces for the board")
    size = 1 << table_bits
    keys_f = np.full(size, -1, np.int64)
    keys_g = np.zeros(size, np.int64)
    vals = np.zeros(size, np.int8)
    counter = np.zeros(2, np.int64)
    gmask = np.int64(sum(1 << g for g in g0))
    t0 = time.perf_counter()
    starts = {}
    for fs in combinations(far, foxes):
        fmask = np.int64(sum(1 << f for f in fs))
        fox_wins = (
            _wins(fmask, gmask, True, row, king, fwd, keys_f, keys_g, vals, counter)
            if first == "fox"
            else (not _wins(fmask, gmask, False, row, king, fwd, keys_f, keys_g, vals, counter))
        )
        if counter[1]:
            break
        starts[tuple(squares[f] for f in fs)] = "fox" if fox_wins else "geese"
    complete = not counter[1]
    values = set(starts.values())
    return {
        "board": n,
        "geese": len(g0),
        "foxes": foxes,
        "first": first,
        "start": start,
        "starts": {" ".join(f"{r},{c}" for r, c in k): v for k, v in starts.items()} if complete else {},
        "winner": (values.pop() if len(values) == 1 else "depends on the start") if complete else "not finished",
        "positions": int(counter[0]),
        "complete": complete,
        "table_positions": size,
        "seconds": round(time.perf_counter() - t0, 2),
    }
