"""Grundy's game by exhaustive search, against its known values and seed 003's table."""

import json

import numpy as np
import pytest

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


def test_seed_003_s_first_table_agrees_with_the_search_and_its_second_does_not():
    rows = grundy.table(12, 12)
    errors = grundy.chapter_errors(rows)
    assert [e for e in errors if not e.startswith("heap 50")] == []  # heaps 1 to 12: as printed
    assert [r["ordinary"] for r in rows] == ["L", "L", "W", "L", "W", "W", "L", "W", "W", "L", "W", "W"]
    # heaps 13 to 30: in misere play the losing heaps are the multiples of 3; 20, 23, 26 are printed lost
    rows = grundy.table(30, 30)
    assert [r["heap"] for r in rows if r["misere"] == "L"] == list(range(3, 31, 3))
    errors = grundy.chapter_errors(rows)
    for n in (20, 23, 26):
        assert f"heap {n}: misere value L printed, W" in errors
    for n in (24, 27, 30):
        assert any(e.startswith(f"heap {n}: misere move") for e in errors)
    assert not any("ordinary value" in e for e in errors)  # the ordinary column holds
    # "a pile of 50 could be split 28,22 for either version": 50 is a losing heap in ordinary play
    assert any(e.startswith("heap 50: the split 28,22") and "ordinary" in e for e in errors)


def test_a_period_needs_three_repetitions_from_the_first_half():
    assert grundy.period([0, 0, 0, 1, 2, 1, 2, 1, 2, 1, 2]) == (3, 2)
    assert grundy.period(grundy.values(100)) is None  # none within 100 heaps (the question is open)


def test_the_game_command(capsys):
    assert main(["game", "grundy", "--max", "30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["heaps"]) == 30 and out["period"] is None and len(out["chapter_errors"]) == 14
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


def test_every_two_card_machine_is_decided_and_the_champions_are_known():
    from baseline.games import beaver

    r = beaver.survey(2)
    assert r["decided"] and r["machines"] == 20_736 and sum(r["outcomes"].values()) == 20_736
    assert (r["max_ones"]["value"], r["max_steps"]["value"]) == (4, 6)
    assert beaver.run_machine(r["max_steps"]["example"])["steps"] == 6


def test_the_chapters_machines_do_what_it_says():
    from baseline.games import beaver

    got = beaver.chapter_examples()
    assert got["stops after writing two 1's"] == {"outcome": "halts", "steps": 3, "ones": 2}
    assert got["never stops, writes 1's forever"]["outcome"] == "translated cycler"
    assert got["writes six 1's in 11 operations"] == {"outcome": "halts", "steps": 11, "ones": 6}
    assert got["performs the most operations"]["steps"] == 21


def test_the_deciders_never_call_a_halting_machine_otherwise():
    """Every machine a decider calls non-halting is run far longer: none stops."""
    import numpy as np

    from baseline.games import beaver

    n, steps = 2, 200
    out = np.zeros((beaver.machines(n), 3), np.int64)
    beaver._survey(n, 0, beaver.machines(n), steps, out)
    long = np.zeros_like(out)
    beaver._survey(n, 0, beaver.machines(n), 5000, long)
    never = np.isin(out[:, 0], [beaver.CYCLER, beaver.TRANSLATED, beaver.NO_STOP])
    assert never.sum() > 10_000 and not (long[never, 0] == beaver.HALTS).any()
    tr = np.zeros((2, 2, 3), np.int64)
    refuted = 0
    for m in range(0, beaver.machines(n), 7):
        beaver._decode(m, n, tr)
        if beaver.backward_refutes(tr, 10):
            refuted += 1
            assert long[m, 0] != beaver.HALTS or long[m, 1] <= 10, m  # a refuted machine stops, if at all, early
    assert refuted > 0


def test_the_closed_n_grams_never_pass_a_machine_that_stops():
    """The n-gram and repeated-words deciders say 'never stops' for no machine that stops: every two-card machine and every
    1,999th three-card one (a prime stride: the numbering's digits are the cards' entries), each k; and it
    decides a bouncer that the other deciders leave."""
    import numpy as np

    from baseline.games import beaver

    for n, stride in ((2, 1), (3, 1999)):
        total = beaver.machines(n)
        out = np.zeros((total, 3), np.int64)
        beaver._survey(n, 0, total, 200, out)
        tr = np.zeros((n, 2, 3), np.int64)
        halting = [m for m in range(0, total, stride) if out[m, 0] == beaver.HALTS]
        assert len(halting) > 1000
        for m in halting:
            beaver._decode(m, n, tr)
            assert not any(beaver.ngrams_close(tr, k) for k in beaver.NGRAM_SIZES), (n, m)
            assert not any(beaver.repeated_words_close(tr, b, many) for b, many in beaver.WORD_SHAPES), (n, m)
    # a three-card bouncer the other deciders leave undecided: its 3-grams close, and it runs on
    bouncer = [[(1, "L", 3), (0, "R", 2)], [(1, "R", 1), (0, "L", 0)], [(0, "R", 1), (0, "L", 1)]]
    assert beaver.run_machine(bouncer, 1000)["outcome"] == "undecided"
    assert beaver.run_machine(bouncer, 40_000)["outcome"] == "undecided"
    table = beaver._table(bouncer)
    assert not beaver.backward_refutes(table) and beaver.ngrams_close(table, 3) and not beaver.ngrams_close(table, 2)
    # a bouncer with a moving boundary between its 0s and its 1s: no n-gram closes, repeated single cells do
    moving = beaver._table([[(1, "R", 2), (0, "L", 0)], [(1, "L", 3), (0, "R", 2)], [(1, "L", 2), (1, "L", 1)]])
    assert beaver.run_machine(beaver._cards(moving), 40_000)["outcome"] == "undecided"
    assert not any(beaver.ngrams_close(moving, k) for k in beaver.NGRAM_SIZES)
    assert beaver.repeated_words_close(moving, 1, 2)


@pytest.mark.slow
def test_three_cards_give_the_chapters_champions():
    from baseline.games import beaver

    r = beaver.survey(3)
    assert (r["max_ones"]["value"], r["max_steps"]["value"]) == (6, 21)
    assert r["machines"] == 16**6 == beaver.CHAPTER["machines"]


def test_the_beaver_command_writes_json(capsys):
    import json

    from eternity.cli import main

    assert main(["game", "beaver", "--cards", "2", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["max_ones"]["value"] == 4 and r["chapter"]["max_steps"] == 21
    assert main(["game", "grundy", "--cards", "2"]) == 2


def test_fox_and_geese_as_the_chapter_says():
    """Four geese beat the fox on 8 x 8 whoever moves first and wherever the fox starts; on 4 x 4 the fox moving
    first beats two geese from the middle squares (2,1) and (2,3), and loses from the last row."""
    from baseline.games import foxgeese

    for first in ("fox", "geese"):
        assert foxgeese.solve(8, 4, 1, first, "any")["winner"] == "geese"
    small = foxgeese.solve(4, 2, 1, "fox", "any")["starts"]
    assert {sq for sq, w in small.items() if w == "fox"} == {"2,1", "2,3"}
    assert foxgeese.solve(4, 2, 1, "fox", "far")["winner"] == "geese"
    assert foxgeese.solve(4, 1, 1, "fox", "far")["winner"] == "fox"  # one goose cannot hold a line


@pytest.mark.parametrize("n", [4, pytest.param(6, marks=pytest.mark.slow)])
def test_a_fox_and_geese_value_agrees_with_a_plain_game_tree_search(n):
    """An independent minimax over the whole game tree (squares as (row, column) pairs, no memo, no masks)
    agrees with the memoised search on every start of the 4 x 4 (and, slow, 6 x 6: four minutes) board, both
    sides moving first."""
    from baseline.games import foxgeese

    def value(n, fox, geese, fox_moves):  # True: the fox wins
        free = {sq for sq in foxgeese.dark(n)} - {fox} - set(geese)
        step = [(fox[0] + a, fox[1] + d) for a in (-1, 1) for d in (-1, 1)]
        through = fox[0] <= min(r for r, _ in geese)
        if fox_moves:
            moves = [sq for sq in step if sq in free]
            if not moves:
                return False
            return through or any(value(n, sq, geese, False) for sq in moves)
        if through:
            return True
        moves = [(g, (g[0] + 1, g[1] + d)) for g in geese for d in (-1, 1) if (g[0] + 1, g[1] + d) in free]
        if not moves:
            return True
        return all(value(n, fox, tuple(t if x == g else x for x in geese), True) for g, t in moves)

    geese = tuple((0, c) for c in range(n) if c % 2 == 1)
    for first in ("fox", "geese"):
        got = foxgeese.solve(n, len(geese), 1, first, "any")["starts"]
        for sq, w in got.items():
            fox = tuple(map(int, sq.split(",")))
            assert ("fox" if value(n, fox, geese, first == "fox") else "geese") == w, (n, first, sq)


def test_the_foxgeese_command(capsys):
    from eternity.cli import main

    assert main(["game", "foxgeese", "--board", "4", "--start", "any", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["starts"]["2,1"] == "fox"
    assert main(["game", "foxgeese", "--board", "5"]) == 2
    assert main(["game", "grundy", "--board", "4"]) == 2


@pytest.mark.parametrize(
    "n,geese,foxes,first,start",
    [(4, 2, 1, "fox", "any"), (6, 3, 1, "geese", "any"), (6, 3, 2, "geese", "any"), (8, 4, 1, "fox", "far")],
)
def test_the_numba_search_values_fox_and_geese_as_the_memo_does(n, geese, foxes, first, start):
    """The numba search (masks, a hash table of flat arrays) and the Python memo: the same winner from
    every start and the same number of positions valued; a table too small says so instead of answering."""
    from baseline.games import foxgeese

    a = foxgeese.solve(n, geese, foxes, first, start)
    b = foxgeese.solve_fast(n, geese, foxes, first, start)
    assert b["complete"] and (a["starts"], a["winner"], a["positions"]) == (b["starts"], b["winner"], b["positions"])
    small = foxgeese.solve_fast(n, geese, foxes, first, start, table_bits=4)
    assert not small["complete"] and small["winner"] == "not finished"


def test_the_throw_or_move_two_variant_plays_the_chapter_s_example():
    """Seed 003: with a ladder 3-100 and a snake 2-1, "the best play is not to throw the die at all": move two
    (onto the snake's head, down to 1), move two again (onto the ladder's foot): two moves, certain."""
    from baseline.games import snakes

    x = snakes.two_step(ladders=((3, 100),), snakes=((2, 1),))
    assert x["expected_moves"] == pytest.approx(2.0) and {0, 1} <= set(x["move_two_on"])
    board = snakes.two_step()
    assert board["expected_moves"] < board["die_only_expected_moves"] and board["move_two_on"]


def test_a_magic_hexagon_exists_of_orders_1_and_3_only_up_to_5():
    """Seed 003: Adams's hexagon is the only magic hexagon; CP-SAT, its sum left free, finds order 3 and refutes
    orders 2, 4 and 5."""
    from cpmodel.magic_hexagon import search

    found = {n: search(n, 60)["exists"] for n in range(1, 6)}
    assert found == {1: True, 2: False, 3: True, 4: False, 5: False}
    assert search(3, 60)["magic_sum"] == 38
