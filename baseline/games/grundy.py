"""Grundy's game: split one heap into two unequal heaps; heaps of one or two can no longer be split.

In the ordinary game the last player to split wins; in the misere game the first player unable to split
wins (seed 003, section 6.2).  The ordinary game is a sum of independent heaps, so each heap has a Grundy
value (the least value none of its splits reaches, a split's value being the exclusive or of its two
heaps'), and a position is lost for the player to move exactly when the exclusive or of its heaps' values
is 0.  The misere game is not: its single heaps are valued here by an exhaustive search over every
position they lead to (the heaps of three or more, sorted, as the state), memoised.

Whether the ordinary values are eventually periodic is open: they have been computed far beyond anything
here without a period turning up.  ``period`` says whether one shows within the values computed.
"""

from __future__ import annotations

from functools import cache

# seed 003's two tables, heaps 1 to 12 and 13 to 30: (ordinary value, ordinary move, misere value, misere move), as
# printed; "?" is the chapter's mark for a heap it calls a win in either version (a move is given beside it).
# Heaps 20, 23 and 26 it prints as L in both versions ("the second player should always win in either version").
CHAPTER = {
    1: ("L", None, "W", None),
    2: ("L", None, "W", None),
    3: ("W", (2, 1), "L", None),
    4: ("L", None, "W", (3, 1)),
    5: ("?", (4, 1), "?", (3, 2)),
    6: ("W", (4, 2), "L", None),
    7: ("L", None, "W", (6, 1)),
    8: ("?", (7, 1), "?", (6, 2)),
    9: ("W", (7, 2), "L", None),
    10: ("L", None, "W", (9, 1)),
    11: ("?", (10, 1), "?", (9, 2)),
    12: ("W", (10, 2), "L", None),
    13: ("?", (8, 5), "?", (8, 5)),
    14: ("?", (10, 4), "?", (12, 2)),
    15: ("W", (12, 3), "L", None),
    16: ("?", (11, 5), "?", (11, 5)),
    17: ("?", (10, 7), "?", (15, 2)),
    18: ("W", (15, 3), "L", None),
    19: ("?", (11, 8), "?", (11, 8)),
    20: ("L", None, "L", None),
    21: ("?", (20, 1), "L", None),
    22: ("?", (20, 2), "?", (20, 2)),
    23: ("L", None, "L", None),
    24: ("?", (23, 1), "?", (23, 1)),
    25: ("?", (23, 2), "?", (23, 2)),
    26: ("L", None, "L", None),
    27: ("?", (26, 1), "?", (26, 1)),
    28: ("?", (26, 2), "?", (26, 2)),
    29: ("?", (16, 13), "?", (16, 13)),
    30: ("?", (26, 4), "?", (26, 4)),
}
# the chapter's claim after its tables: "a pile of 50 matches could be split 28,22 by the opening player for
# either version"
CHAPTER_SPLIT_50 = (28, 22)


def splits(n: int) -> list[tuple[int, int]]:
    """The moves on a heap of ``n``: (a, b) with a + b = n and a > b >= 1."""
    return [(n - b, b) for b in range(1, (n - 1) // 2 + 1)]


def values(n_max: int) -> list[int]:
    """The Grundy value of every heap 0..``n_max`` (ordinary play), each from the smaller heaps'."""
    g = [0] * (n_max + 1)
    for n in range(3, n_max + 1):
        seen = {g[a] ^ g[b] for a, b in splits(n)}
        v = 0
        while v in seen:
            v += 1
        g[n] = v
    return g


def ordinary_move(n: int, g: list[int]) -> tuple[int, int] | None:
    """A winning split of a lone heap of ``n`` in the ordinary game (to a position of value 0), or None when
    the heap is lost for the player to move."""
    return next(((a, b) for a, b in splits(n) if g[a] ^ g[b] == 0), None)


@cache
def _misere_wins(heaps: tuple[int, ...]) -> bool:
    """Whether the player to move wins the misere game from ``heaps`` (sorted, every heap of three or more)."""
    if not heaps:
        return True  # no split left: the player to move is the first unable to play, and wins
    for i, n in enumerate(heaps):
        if i and heaps[i - 1] == n:
            continue  # the same heap again: the same moves
        rest = heaps[:i] + heaps[i + 1 :]
        for a, b in splits(n):
            nxt = tuple(sorted(rest + tuple(h for h in (a, b) if h >= 3)))
            if not _misere_wins(nxt):
                return True
    return False


def misere_move(n: int) -> tuple[int, int] | None:
    """A winning split of a lone heap of ``n`` in the misere game, or None when the heap is lost (a heap of
    one or two: the player to move cannot split, and wins without a move)."""
    for a, b in splits(n):
        if not _misere_wins(tuple(sorted(h for h in (a, b) if h >= 3))):
            return a, b
    return None


def misere_wins(n: int) -> bool:
    """Whether the player to move wins the misere game on a lone heap of ``n``."""
    return _misere_wins((n,) if n >= 3 else ())


def period(g: list[int], start: int = 3) -> tuple[int, int] | None:
    """(preperiod, period) of an eventual period within ``g``: from a heap in the first half on, the values
    repeat with that period to the end, at least three times over.  None when none shows in the values
    computed (a tail that merely repeats twice is no evidence)."""
    n = len(g)
    for p in range(1, (n - start) // 3 + 1):
        for pre in range(start, min(n // 2, n - 3 * p) + 1):
            if all(g[i] == g[i + p] for i in range(pre, n - p)):
                return pre, p
    return None


def table(n_max: int, misere_max: int) -> list[dict]:
    """Every heap 1..``n_max``: its Grundy value, who wins the ordinary game and a winning split, and up to
    ``misere_max`` the same for the misere game; beside, for heaps 1 to 12, seed 003's entries."""
    g = values(n_max)
    out = []
    for n in range(1, n_max + 1):
        mv = ordinary_move(n, g)
        row: dict = {"heap": n, "grundy": g[n], "ordinary": "W" if g[n] else "L", "ordinary_move": mv}
        if n <= misere_max:
            row["misere"] = "W" if misere_wins(n) else "L"
            row["misere_move"] = misere_move(n)
        if n in CHAPTER:
            o, om, m, mm = CHAPTER[n]
            row["chapter"] = {"ordinary": o, "ordinary_move": om, "misere": m, "misere_move": mm}
        out.append(row)
    return out


def _instead(move: tuple[int, int] | None) -> str:
    """What to play instead of a losing move: the winning split, or that every split loses (a lost heap)."""
    if move is None:
        return "; so does every split: the heap is lost for the player to move"
    return f"; {move[0]},{move[1]} wins"


def chapter_errors(rows: list[dict]) -> list[str]:
    """Where seed 003's tables (heaps 1 to 30) and its claim for a heap of 50 differ from the search: a value, or
    a move that loses.  The chapter's "?" marks a heap won in either version, so it is read as W.  Heaps past
    the rows' misere range are checked in ordinary play only; the heap of 50 in misere play only when the rows
    reach it."""
    errs = []
    g = values(max(50, max(r["heap"] for r in rows)))
    a, b = CHAPTER_SPLIT_50
    if g[a] ^ g[b]:
        errs.append(
            f"heap 50: the split {a},{b} printed as winning in either version loses in ordinary play (Grundy values "
            f"{g[a]} and {g[b]}; heap 50 has value {g[50]}" + (", a losing heap)" if g[50] == 0 else ")")
        )
    if any(r["heap"] >= 50 and "misere" in r for r in rows) and _misere_wins(tuple(sorted((a, b)))):
        errs.append(f"heap 50: the split {a},{b} printed as winning in either version loses in misere play")
    for r in rows:
        c = r.get("chapter")
        if not c:
            continue
        n = r["heap"]
        if c["ordinary"].replace("?", "W") != r["ordinary"]:
            errs.append(f"heap {n}: ordinary value {c['ordinary']} printed, {r['ordinary']} (Grundy value {g[n]})")
        if c["ordinary_move"] and g[c["ordinary_move"][0]] ^ g[c["ordinary_move"][1]] != 0:
            errs.append(
                f"heap {n}: ordinary move {c['ordinary_move']} printed, which loses{_instead(r['ordinary_move'])}"
            )
        if "misere" in r and c["misere"].replace("?", "W") != r["misere"]:
            errs.append(f"heap {n}: misere value {c['misere']} printed, {r['misere']}")
        mm = c["misere_move"]
        if mm and "misere" in r and _misere_wins(tuple(sorted(h for h in mm if h >= 3))):
            errs.append(f"heap {n}: misere move {mm} printed, which loses{_instead(r['misere_move'])}")
    return errs
