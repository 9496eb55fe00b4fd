"""The geese's strategy of seed 003 as a program that plays, checked against the exact values.

The chapter gives "part of the algorithm" for the geese and leaves the rest to the reader: its two
fundamentals are

1. the ordered advance: move the geese in the order A, B, C, D, D, C, B, A, A, ... following the
   arrows of its figure (here: from a line on an even row every goose steps forward to the left,
   A first; from the odd row forward to the right, D first, so the line shifts and never gaps);
2. when the fox blocks the advance, the outer goose (A or D) furthest from him moves towards him,
   possibly changing places with its partner (B or C), but A and B never cross into the right half
   of the board, nor C and D into the left.

Its six templates are not given (only their number), so this program is the two fundamentals and a
last resort: when neither gives a move that keeps the fox from breaking through at once, the first
goose (in the order) with such a move, else the first legal one.

The check: the program's moves are fixed, the fox's are all tried.  Every position the game can reach
with the geese playing the program is visited once (the game is finite: every goose move goes one row
forward), and the program wins when every line ends with the fox trapped.  Each geese move is also
held to the exact values (``baseline.games.foxgeese.Rules``): a move that turns a won position into a
lost one is the program's mistake, and the first such line is returned.
"""

from __future__ import annotations

from functools import cache

from .foxgeese import Rules


def _order(k: int) -> list[int]:
    return list(range(k)) + list(range(k - 1, -1, -1))


class GeeseProgram:
    """The two fundamentals on an n x n board with n/2 geese (n a multiple of 4: two pairs of halves)."""

    def __init__(self, n: int) -> None:
        if n % 4 or n < 4:
            raise ValueError("the halves rule needs n/2 geese in two equal halves: n is a multiple of 4")
        self.n = n
        self.k = n // 2
        self.rules = Rules(n)
        self.order = _order(self.k)

    def start(self) -> tuple[int, ...]:
        """The geese A, B, ... on row 0's dark squares, left to right."""
        return tuple(i for i, (r, _) in enumerate(self.rules.squares) if r == 0)

    def _safe(self, fx: int, geese: tuple[int, ...]) -> bool:
        # after the geese's move: no fox move reaches a row level with or behind the last goose
        ru = self.rules
        low = min(ru.row[g] for g in geese)
        occupied = sum(ru.bits[g] for g in geese) | ru.bits[fx]
        return all(ru.row[t] > low for t in ru.king[fx] if not occupied & ru.bits[t])

    def _relabel(self, geese: list[int]) -> tuple[int, ...]:
        # partners change places when one crosses the other: labels follow the columns within a half
        sq = self.rules.squares
        h = self.k // 2
        left = sorted(geese[:h], key=lambda g: (sq[g][1], sq[g][0]))
        right = sorted(geese[h:], key=lambda g: (sq[g][1], sq[g][0]))
        return tuple(left + right)

    def _step(self, geese: tuple[int, ...], i: int, to: int) -> tuple[int, ...]:
        g = list(geese)
        g[i] = to
        return self._relabel(g)

    def move(self, fx: int, geese: tuple[int, ...], p: int) -> tuple[tuple[int, ...], int, str] | None:
        """The program's move: the geese after it, the order's next index, and which rule chose it."""
        ru, sq = self.rules, self.rules.squares
        occupied = sum(ru.bits[g] for g in geese) | ru.bits[fx]
        half = self.n // 2

        def target(g: int, dc: int) -> int | None:
            r, c = sq[g]
            t = ru.index.get((r + 1, c + dc))
            return None if t is None or occupied & ru.bits[t] else t

        def in_half(i: int, t: int) -> bool:
            return (sq[t][1] < half) == (i < self.k // 2)

        # 1. the ordered advance
        i = self.order[p]
        g = geese[i]
        dc = -1 if sq[g][0] % 2 == 0 else 1
        t = target(g, dc)
        if t is not None and in_half(i, t):
            after = self._step(geese, i, t)
            if self._safe(fx, after):
                return after, (p + 1) % len(self.order), "advance"
        # 2. blocked: the outer goose furthest from the fox moves towards him
        fc = sq[fx][1]
        outer = sorted((0, self.k - 1), key=lambda j: -abs(sq[geese[j]][1] - fc))
        for j in outer:
            g = geese[j]
            dc = 1 if fc > sq[g][1] else -1
            t = target(g, dc)
            if t is not None and in_half(j, t):
                after = self._step(geese, j, t)
                if self._safe(fx, after):
                    return after, p, "towards the fox"
        # 3. last resort: a safe move, else any move
        moves = [(j, to) for j in range(self.k) for dc in (-1, 1) if (to := target(geese[j], dc)) is not None]
        for j, to in moves:
            after = self._step(geese, j, to)
            if self._safe(fx, after):
                return after, p, "last resort (safe)"
        if moves:
            j, to = moves[0]
            return self._step(geese, j, to), p, "last resort"
        return None


def check(n: int = 8, first: str = "fox", program: GeeseProgram | None = None) -> dict:
    """Play the program (default: the two fundamentals) against every fox defence from every start on the last
    row; the exact values beside."""
    prog = program or GeeseProgram(n)
    ru = prog.rules
    mistakes: list[dict] = []
    rules_used: dict[str, int] = {}

    def mask(geese) -> int:
        return sum(ru.bits[g] for g in geese)

    @cache
    def geese_turn(fx: int, geese: tuple[int, ...], p: int) -> bool:
        if ru.through(ru.bits[fx], mask(geese)):
            return False
        m = prog.move(fx, geese, p)
        if m is None:
            return False
        after, q, why = m
        rules_used[why] = rules_used.get(why, 0) + 1
        won_before = ru.geese_to_move_win(ru.bits[fx], mask(geese))
        won_after = not ru.fox_to_move_wins(ru.bits[fx], mask(after))
        if won_before and not won_after:
            mistakes.append(
                {
                    "fox": ru.squares[fx],
                    "geese": [ru.squares[g] for g in geese],
                    "rule": why,
                    "moved_to": [ru.squares[g] for g in after],
                }  # fmt: skip
            )
        return fox_turn(fx, after, q)

    @cache
    def fox_turn(fx: int, geese: tuple[int, ...], p: int) -> bool:
        occupied = mask(geese) | ru.bits[fx]
        moves = [t for t in ru.king[fx] if not occupied & ru.bits[t]]
        if not moves:
            return True  # trapped
        if ru.through(ru.bits[fx], mask(geese)):
            return False
        return all(geese_turn(t, geese, p) for t in moves)

    g0 = prog.start()
    starts = {}
    for f in (i for i, (r, _) in enumerate(ru.squares) if r == n - 1):
        won = fox_turn(f, g0, 0) if first == "fox" else geese_turn(f, g0, 0)
        exact = (
            (not ru.fox_to_move_wins(ru.bits[f], mask(g0)))
            if first == "fox"
            else ru.geese_to_move_win(ru.bits[f], mask(g0))
        )
        starts[f"{ru.squares[f][0]},{ru.squares[f][1]}"] = {"program": "geese" if won else "fox",
                                                            "exact": "geese" if exact else "fox"}  # fmt: skip
    line: list[str] = []
    lost = [f for f, v in starts.items() if v["program"] == "fox"]
    if lost:  # the fox's refutation from the first start the program loses, move by move
        r0, c0 = (int(x) for x in lost[0].split(","))
        f = ru.index[(r0, c0)]
        geese, p, fox_to_move = g0, 0, first == "fox"
        for _ in range(4 * n * n):
            if fox_to_move:
                occupied = mask(geese) | ru.bits[f]
                if ru.through(ru.bits[f], mask(geese)):
                    line.append("the fox is through")
                    break
                f = next(t for t in ru.king[f] if not occupied & ru.bits[t] and not geese_turn(t, geese, p))
                line.append(f"fox {ru.squares[f]}")
            else:
                m = prog.move(f, geese, p)
                if m is None or ru.through(ru.bits[f], mask(geese)):
                    line.append("the fox is through")
                    break
                moved = [ru.squares[g] for g in m[0] if g not in geese]
                geese, p = m[0], m[1]
                line.append(f"goose {moved[0] if moved else '?'} ({m[2]})")
            fox_to_move = not fox_to_move
    return {
        "board": n,
        "geese": prog.k,
        "first": first,
        "starts": starts,
        "program_wins_every_start": all(v["program"] == "geese" for v in starts.values()),
        "positions_visited": geese_turn.cache_info().currsize + fox_turn.cache_info().currsize,
        "refutation": line,
        "moves_by_rule": rules_used,
        "mistakes": len(mistakes),
        "first_mistake": mistakes[0] if mistakes else None,
    }
