"""The Maharajah's reduced game: the retrograde tables held to a plain minimax written apart from them."""

from functools import cache

import numpy as np
import pytest

from baseline.games import maharajah as M

QUEEN = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0)]
KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
SLIDES = {"Q": QUEEN, "R": [(1, 0), (-1, 0), (0, 1), (0, -1)], "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)], "N": []}


def minimax(n: int, men: str):
    """``value(state, white, depth)``: +1 when the side to move wins within ``depth`` plies, -1 when it loses
    within them, 0 otherwise; a state is ((mr, mc), (kr, kc), ((man, r, c), ...))."""

    def on(r, c):
        return 0 <= r < n and 0 <= c < n

    def targets(sq, slides, jumps, occupied):
        r, c = sq
        for dr, dc in slides:
            rr, cc = r + dr, c + dc
            while on(rr, cc):
                yield (rr, cc)
                if (rr, cc) in occupied:
                    break
                rr, cc = rr + dr, cc + dc
        for dr, dc in jumps:
            if on(r + dr, c + dc):
                yield (r + dr, c + dc)

    @cache
    def value(state, white: bool, depth: int) -> int:
        m, k, men_at = state
        occupied = {k, m} | {(r, c) for _, r, c in men_at}
        kids = []
        if white:
            for t in targets(m, QUEEN, KNIGHT, occupied):
                if t == k:
                    return 1 if depth >= 1 else 0
                kids.append((t, k, tuple(x for x in men_at if (x[1], x[2]) != t)))
        else:
            black = [("K", *k)] + list(men_at)
            for i, (kind, r, c) in enumerate(black):
                slides = [] if kind in "KN" else SLIDES[kind]
                jumps = QUEEN if kind == "K" else (KNIGHT if kind == "N" else [])
                own = {(x[1], x[2]) for x in black}
                for t in targets((r, c), slides, jumps, occupied):
                    if t in own:
                        continue
                    if t == m:
                        return 1 if depth >= 1 else 0
                    if kind == "K":
                        kids.append((m, t, men_at))
                    else:
                        moved = list(men_at)
                        moved[i - 1] = (kind, *t)
                        kids.append((m, k, tuple(moved)))
        if not kids:
            return -1  # stifled
        if depth == 0:
            return 0
        vals = [value(kid, not white, depth - 1) for kid in kids]
        if min(vals) == -1:
            return 1
        if max(vals) == 1 and min(vals) == 1:
            return -1
        return 0

    return value


@pytest.mark.parametrize("n,men", [(4, ""), (4, "R"), (4, "N"), (3, "QB")])
def test_the_tables_hold_to_a_plain_minimax(n, men):
    """Every valued position (a sample of them for the larger forces): won or lost exactly when a minimax to
    its dtm says so, and not one ply sooner; a draw is neither at the deepest dtm of the table."""
    tabs = M.solve_tables(n, men)
    val, dtm = tabs[M._canon(men)]
    value = minimax(n, M._canon(men))
    s = n * n
    j = len(men)
    rng = np.random.default_rng(0)
    idx = np.arange(val.shape[0]) if val.shape[0] <= 5000 else rng.choice(val.shape[0], 1500, replace=False)
    deepest = int(dtm.max())
    seen = {M.WIN: 0, M.LOSS: 0, M.UNKNOWN: 0}
    for i in idx:
        pos = [(int(i) // s**t) % s for t in range(j + 2)]
        if len(set(pos)) < len(pos):
            assert val[i, 0] == val[i, 1] == M.INVALID
            continue
        state = (divmod(pos[0], n), divmod(pos[1], n), tuple((men[g], *divmod(pos[2 + g], n)) for g in range(j)))
        for side, white in ((0, True), (1, False)):
            v, d = int(val[i, side]), int(dtm[i, side])
            seen[v] += 1
            if v == M.WIN:
                assert value(state, white, d) == 1 and (d == 0 or value(state, white, d - 1) != 1), (state, white)
            elif v == M.LOSS:
                assert value(state, white, d) == -1 and (d == 0 or value(state, white, d - 1) != -1), (state, white)
            else:
                assert value(state, white, deepest + 1) == 0, (state, white)
    assert seen[M.WIN] and seen[M.LOSS]


def test_the_chapters_lone_king_is_mated_from_every_position():
    """Seed 003: the Maharajah always mates a lone king; under capture rules, with the Maharajah to move he
    takes the king from every position of an 8 x 8 board."""
    r = M.survey(8, "")
    assert r["maharajah_first"]["white"] == r["positions"] and r["maharajah_first"]["black"] == 0
    assert r["deepest"] == 10


def test_bad_forces_are_refused():
    with pytest.raises(ValueError, match="QRBN"):
        M.solve_tables(5, "P")
    with pytest.raises(ValueError, match="two men"):
        M.solve_tables(5, "QRB")
    with pytest.raises(ValueError, match="3..8"):
        M.solve_tables(9, "")


def test_the_maharajah_command(capsys):
    import json

    from eternity.cli import main

    assert main(["game", "maharajah", "--board", "5", "--men", "r", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["force"] == "KR" and r["positions"] == 25 * 24 * 23
    first = r["maharajah_first"]
    assert first["white"] + first["black"] + first["draw"] == r["positions"]
    assert main(["game", "maharajah"]) == 0
    assert "lone king: reproduced" in capsys.readouterr().out
    assert main(["game", "maharajah", "--men", "QRB"]) == 2
    assert main(["game", "maharajah", "--board", "9"]) == 2
    assert main(["game", "maharajah", "--geese", "2"]) == 2
    assert main(["game", "foxgeese", "--men", "Q"]) == 2
