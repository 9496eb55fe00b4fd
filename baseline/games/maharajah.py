"""The Maharajah and the sepoys (seed 003, section 6.1) in a reduced form, solved by retrograde analysis.

The chapter's game: black has the sixteen chess men, white has one piece, the Maharajah, which moves as a
queen or a knight; black wins by capturing or stifling the Maharajah, white by capturing the black king.
The chapter says black can always win (a 20-move cycle advances the men safely) and that the Maharajah
always mates a lone king.  The whole game (17 pieces and pawns that cannot queen) is far beyond an
exhaustive search; this module solves every reduced game small enough to tabulate.

The reduction, stated:

- the board is N x N (N = 3..8), with no pawns: black has the king and up to two men from queen, rook,
  bishop and knight, which move as in chess;
- capture rules instead of check: a king may move into attack and is then taken.  White wins by capturing
  the king, black by capturing the Maharajah.  A side with no move at all loses (the Maharajah stifled, or
  black shut in); no castling, no promotion, no fifty-move rule;
- a position neither side can force to its end is a draw (play would go on for ever).

Every position of the Maharajah, the king and the men, with either side to move, is valued by retrograde
analysis over flat arrays in numba: a position is won when one move reaches a position lost for the side
then to move, lost when every move reaches a position won for it, and the rest are draws.  Positions are
valued level by level (the k-th sweep decides exactly the positions that end in k moves, so the number
of moves to the end, ``dtm``, is exact).  A capture of a man leads into the table of the smaller force,
solved first.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

MEN = "QRBN"  # the men black may have beside the king
# seed 003's claims, as this reduction can test them
CHAPTER = {
    "lone_king": "the Maharajah can always give checkmate to a lone king",
    "black_wins": "black (the full set of men) can always win",
}
UNKNOWN, WIN, LOSS, INVALID = 0, 1, 2, 3  # for the side to move

_KING = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
_KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
_ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
_BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _tables(n: int):
    """Move tables: for each square and each of 8 ray directions, the squares along the ray (-1 ends it);
    for each square, its king and knight targets (-1 pads)."""
    s = n * n
    dirs = _ROOK + _BISHOP
    ray = np.full((s, 8, n), -1, np.int64)
    step = np.full((s, 8), -1, np.int64)
    jump = np.full((s, 8), -1, np.int64)
    for sq in range(s):
        r, c = divmod(sq, n)
        for d, (dr, dc) in enumerate(dirs):
            k = 0
            rr, cc = r + dr, c + dc
            while 0 <= rr < n and 0 <= cc < n:
                ray[sq, d, k] = rr * n + cc
                k += 1
                rr, cc = rr + dr, cc + dc
        for d, (dr, dc) in enumerate(_KING):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                step[sq, d] = (r + dr) * n + c + dc
        for d, (dr, dc) in enumerate(_KNIGHT):
            if 0 <= r + dr < n and 0 <= c + dc < n:
                jump[sq, d] = (r + dr) * n + c + dc
    return ray, step, jump


# a man's moves: ray directions 0-3 are a rook's, 4-7 a bishop's
_RAYS = {"Q": (0, 8), "R": (0, 4), "B": (4, 8), "N": (0, 0)}


@njit(cache=True)
def _decode(i, s, j, pos):
    """pos[0] the Maharajah, pos[1] the king, pos[2..] the men."""
    for t in range(j + 2):
        pos[t] = i % s
        i //= s


@njit(cache=True)
def _encode(pos, s, j):
    i = 0
    for t in range(j + 1, -1, -1):
        i = i * s + pos[t]
    return i


@njit(cache=True)
def _sub_index(pos, s, j, gone):
    """The index in the smaller force's table of the position with man ``gone`` taken (the Maharajah on
    its square already)."""
    i = 0
    for t in range(j + 1, -1, -1):
        if t == 2 + gone:
            continue
        i = i * s + pos[t]
    return i


@njit(cache=True, inline="always")
def _tally(cv, cd, best_win, worst, unknown):
    """One child's value (for its side to move) added to the running (least dtm of a lost child, most dtm of
    a won child, whether any child is undecided)."""
    if cv == LOSS:
        if best_win < 0 or cd < best_win:
            best_win = cd
    elif cv == WIN:
        worst = max(worst, cd)
    else:
        unknown = True
    return best_win, worst, unknown


@njit(cache=True)
def _sweep(n, j, lo, hi, knight, ray, step, jump, val, dtm, new_val, new_dtm, sub_val, sub_dtm, level):
    """One level: every undecided position whose value follows from the values of the last level."""
    s = n * n
    total = val.shape[0]
    pos = np.empty(j + 2, np.int64)
    occ = np.full(s, -1, np.int64)  # the piece on a square: 0 the Maharajah, 1 the king, 2.. the men
    changed = 0
    for i in range(total):
        for side in range(2):
            if val[i, side] != UNKNOWN:
                continue
            _decode(i, s, j, pos)
            for t in range(j + 2):
                occ[pos[t]] = t
            moves = 0
            best_win = -1  # least dtm of a child lost for its side to move
            worst = -1  # most dtm of a child won for its side to move
            unknown = False
            if side == 0:  # the Maharajah: queen rays, then knight jumps
                m0 = pos[0]
                occ[m0] = -1
                for kind in range(2):
                    for d in range(8):
                        for k in range(n if kind == 0 else 1):
                            t = ray[m0, d, k] if kind == 0 else jump[m0, d]
                            if t < 0:
                                break
                            o = occ[t]
                            moves += 1
                            if o == 1:  # the king taken
                                best_win = 0
                                break
                            pos[0] = t
                            if o >= 2:
                                c = _sub_index(pos, s, j, o - 2)
                                cv, cd = sub_val[o - 2, c, 1], sub_dtm[o - 2, c, 1]
                            else:
                                c = _encode(pos, s, j)
                                cv, cd = val[c, 1], dtm[c, 1]
                            pos[0] = m0
                            best_win, worst, unknown = _tally(cv, cd, best_win, worst, unknown)
                            if o >= 2:
                                break
                        if best_win == 0:
                            break
                    if best_win == 0:
                        break
                occ[m0] = 0
            else:  # black: the king steps, each man moves as its kind
                for p in range(1, j + 2):
                    here = pos[p]
                    if p == 1:
                        a, b, jumps = 0, 0, 0
                    else:
                        a, b, jumps = lo[p - 2], hi[p - 2], knight[p - 2]
                    occ[here] = -1
                    for kind in range(2):  # slides along its rays, then the king's steps or the knight's jumps
                        nd = b - a if kind == 0 else (8 if (p == 1 or jumps) else 0)
                        for dd in range(nd):
                            for k in range(n if kind == 0 else 1):
                                if kind == 0:
                                    t = ray[here, a + dd, k]
                                elif p == 1:
                                    t = step[here, dd]
                                else:
                                    t = jump[here, dd]
                                if t < 0:
                                    break
                                o = occ[t]
                                if o >= 1:  # its own piece: blocked
                                    break
                                moves += 1
                                if o == 0:  # the Maharajah taken
                                    best_win = 0
                                    break
                                pos[p] = t
                                c = _encode(pos, s, j)
                                pos[p] = here
                                best_win, worst, unknown = _tally(val[c, 0], dtm[c, 0], best_win, worst, unknown)
                            if best_win == 0:
                                break
                        if best_win == 0:
                            break
                    occ[here] = p
                    if best_win == 0:
                        break
            for t in range(j + 2):
                occ[pos[t]] = -1
            if best_win >= 0 and best_win + 1 == level:
                new_val[i, side] = WIN
                new_dtm[i, side] = best_win + 1
                changed += 1
            elif moves == 0 and level == 1:  # no move: stifled
                new_val[i, side] = LOSS
                new_dtm[i, side] = 0
                changed += 1
            elif best_win < 0 and not unknown and moves > 0 and worst + 1 == level:
                new_val[i, side] = LOSS
                new_dtm[i, side] = worst + 1
                changed += 1
    return changed


@njit(cache=True)
def _mark_invalid(n, j, val):
    s = n * n
    pos = np.empty(j + 2, np.int64)
    for i in range(val.shape[0]):
        _decode(i, s, j, pos)
        for a in range(j + 2):
            for b in range(a + 1, j + 2):
                if pos[a] == pos[b]:
                    val[i, 0] = INVALID
                    val[i, 1] = INVALID


def _canon(men: str) -> str:
    men = men.upper()
    bad = set(men) - set(MEN)
    if bad:
        raise ValueError(f"men are from {MEN} (queen, rook, bishop, knight), not {''.join(sorted(bad))}")
    return "".join(sorted(men, key=MEN.index))


def solve_tables(n: int, men: str, progress=None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The value and dtm tables of the force ``men`` and of every smaller force it leads to, by name."""
    men = _canon(men)
    if not 3 <= n <= 8:
        raise ValueError(f"the board is 3..8 squares a side, not {n}")
    if len(men) > 2:
        raise ValueError("at most two men beside the king (the tables grow as the board's squares to the 4th)")
    ray, step, jump = _tables(n)
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for size in range(len(men) + 1):
        for force in sorted({"".join(c) for c in itertools.combinations(men, size)}):
            j = len(force)
            total = (n * n) ** (j + 2)
            val = np.zeros((total, 2), np.int8)
            dtm = np.zeros((total, 2), np.int16)
            _mark_invalid(n, j, val)
            if j:  # the tables a capture of man g leads to
                subs = [out[force[:g] + force[g + 1 :]] for g in range(j)]
                sub_val = np.stack([v for v, _ in subs])
                sub_dtm = np.stack([d for _, d in subs])
            else:
                sub_val, sub_dtm = np.zeros((1, 1, 2), np.int8), np.zeros((1, 1, 2), np.int16)
            deepest_sub = int(sub_dtm.max())
            lo = np.array([_RAYS[c][0] for c in force], np.int64)
            hi = np.array([_RAYS[c][1] for c in force], np.int64)
            knight = np.array([c in "N" for c in force], np.int64)
            level = 1
            while True:
                new_val, new_dtm = val.copy(), dtm.copy()
                changed = _sweep(
                    n, j, lo, hi, knight, ray, step, jump, val, dtm, new_val, new_dtm, sub_val, sub_dtm, level
                )
                val, dtm = new_val, new_dtm
                if progress:
                    progress({"force": "K" + force, "level": level, "decided": changed})
                # nothing ends in `level` moves, and no capture leads to a longer end: nothing ends later
                if changed == 0 and level > deepest_sub + 1:
                    break
                level += 1
            out[force] = (val, dtm)
    return out


def _square(sq: int, n: int) -> str:
    r, c = divmod(sq, n)
    return f"{'abcdefgh'[c]}{r + 1}"


def start_position(n: int, men: str) -> list[int]:
    """The chess-like start: the king on the first rank's middle square (e1 on 8 x 8), its men on that rank
    nearest it, left first (d1, f1, ...); the Maharajah on the last rank, on the queen's file (d8)."""
    k = n // 2
    cols = [c for d in range(1, n) for c in (k - d, k + d) if 0 <= c < n]
    return [(n - 1) * n + k - 1, k] + cols[: len(men)]


def survey(n: int, men: str = "", progress=None) -> dict:
    """Every position of the force ``men`` on an N x N board valued (module docstring): how many each side
    wins with either side to move, the deepest forced end, and the value of the start position."""
    import time

    men = _canon(men)
    t0 = time.perf_counter()
    tabs = solve_tables(n, men, progress)
    val, dtm = tabs[men]
    s, j = n * n, len(men)
    out: dict = {"board": n, "force": "K" + men, "positions": int((val[:, 0] != INVALID).sum())}
    for side, who in ((0, "maharajah_first"), (1, "black_first")):
        v = val[:, side]
        mover, other = ("white", "black") if side == 0 else ("black", "white")
        out[who] = {mover: int((v == WIN).sum()), other: int((v == LOSS).sum()), "draw": int((v == UNKNOWN).sum())}
    decided = np.where((val == WIN) | (val == LOSS), dtm, -1)
    deepest = int(decided.max())
    i, side = (int(x) for x in np.argwhere(decided == deepest)[0])
    pos = [(i // s**t) % s for t in range(j + 2)]
    winner = ("white" if side == 0 else "black") if val[i, side] == WIN else ("black" if side == 0 else "white")
    out["deepest"] = deepest
    out["deepest_example"] = {
        "maharajah": _square(pos[0], n),
        "king": _square(pos[1], n),
        "men": {f"{men[g]}{g + 1}": _square(pos[2 + g], n) for g in range(j)},
        "to_move": "maharajah" if side == 0 else "black",
        "winner": winner,
        "plies": deepest,
    }
    st = start_position(n, men)
    si = sum(p * s**t for t, p in enumerate(st))
    sv = int(val[si, 0])
    out["start"] = {
        "maharajah": _square(st[0], n),
        "king": _square(st[1], n),
        "men": {f"{men[g]}{g + 1}": _square(st[2 + g], n) for g in range(j)},
        "to_move": "maharajah",
        "value": {WIN: "white wins", LOSS: "black wins", UNKNOWN: "draw"}[sv],
        "plies": int(dtm[si, 0]) if sv in (WIN, LOSS) else None,
    }
    out["seconds"] = round(time.perf_counter() - t0, 2)
    return out
