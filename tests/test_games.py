"""Grundy's game by exhaustive search, against its known values and seed 003's table."""

import json

import numpy as np

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


def test_snakes_and_ladders_on_the_chapter_s_board():
    from baseline.games import snakes

    t = snakes.transitions()
    assert np.allclose(t.sum(axis=1), 1.0)
    p = snakes.throws_distribution(t)
    mean = snakes.mean_throws(t)
    assert abs(sum(n * x for n, x in enumerate(p)) - mean) < 1e-6  # the distribution and the fundamental matrix
    assert int(np.argmax(p)) == 20 and int(np.searchsorted(np.cumsum(p), 0.5)) == 80
    least, path = snakes.least_throws()
    assert least == 8 == len(path)
    jump, at = snakes.jumps(), 0
    for d in [3, 2, 6, 6, 6, 2, 5, 4]:  # the chapter's example of eight throws
        at = jump.get(at + d, at + d)
    assert at == 100
    sim = snakes.simulate(20_000, seed=1)
    assert abs(sim.mean() - mean) < 4 * sim.std(ddof=1) / np.sqrt(len(sim))
    assert sim.min() >= 8


def test_the_chapter_s_snakes_figures_that_do_not_hold():
    """Its 'average' of 80 throws is the median (the mean is 109.65), and its total drop is 457, not 507."""
    from baseline.games import snakes

    assert sum(a - b for a, b in snakes.SNAKES) == 457 != snakes.CHAPTER["total_drop"]
    assert abs(snakes.mean_throws(snakes.transitions()) - 109.65) < 0.01


def test_the_snakes_command(capsys):
    assert main(["game", "snakes", "--games", "2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["most_likely"] == 20 and out["least"] == 8 and out["median"] == 80
    assert main(["game", "snakes", "--max", "50"]) == 2
