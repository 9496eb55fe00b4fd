"""Grundy's game by exhaustive search, against its known values and seed 003's table."""

import json

from baseline.games import grundy
from eternity.cli import main

# the Grundy values of heaps 0..24 (OEIS A002188)
KNOWN = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4]


def test_the_ordinary_values_are_the_known_ones_and_each_move_wins():
    g = grundy.values(100)
    assert g[:25] == KNOWN
    for n in range(1, 101):
        move = grundy.ordinary_move(n, g)
        assert (move is None) == (g[n] == 0)
        if move:
            a, b = move
            assert a + b == n and a > b >= 1 and g[a] ^ g[b] == 0


def test_the_misere_game_follows_its_rules():
    assert grundy.misere_wins(1) and grundy.misere_wins(2)  # no split: the player to move is first unable to
    assert not grundy.misere_wins(3)  # the only split, 2+1, leaves the opponent unable to play
    for n in range(3, 31):
        move = grundy.misere_move(n)
        assert (move is not None) == grundy.misere_wins(n)


def test_seed_003_s_table_agrees_with_the_search():
    rows = grundy.table(12, 12)
    assert grundy.chapter_errors(rows) == []
    assert [r["ordinary"] for r in rows] == ["L", "L", "W", "L", "W", "W", "L", "W", "W", "L", "W", "W"]


def test_a_period_needs_three_repetitions_from_the_first_half():
    assert grundy.period([0, 0, 0, 1, 2, 1, 2, 1, 2, 1, 2]) == (3, 2)
    assert grundy.period(grundy.values(100)) is None  # none within 100 heaps (the question is open)


def test_the_game_command(capsys):
    assert main(["game", "grundy", "--max", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["heaps"]) == 30 and out["period"] is None and out["chapter_errors"] == []
    assert main(["game", "grundy", "--max", "10", "--misere-max", "20"]) == 2
