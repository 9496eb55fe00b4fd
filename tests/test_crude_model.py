"""Selby's crude model (seed 000) and seed 002's arithmetic: what N! t^N and the tree 1 + b0(1 + b1(...)) give."""

import math

from eternity.cli import main
from puzzles.estimates.crude import critical, log10_exhaust, log10_solutions, model, t_for_critical


def test_the_model_by_hand_on_a_tiny_set():
    # t = 0.5, N = 3: b = 1.5, 1, 0.5; solutions 3! 0.5^3 = 0.75; nodes 1 + 1.5 + 1.5 + 0.75 = 4.75
    assert math.isclose(10 ** log10_solutions(3, 0.5), 0.75)
    assert math.isclose(10 ** log10_exhaust(3, 0.5), 4.75)
    assert critical(0.5) == 4  # 4! / 16 = 1.5


def test_seed_002s_t_gives_c_88_and_10_77_not_75_and_10_95():
    m = model(0.03, 209)
    assert m["critical_size"] == 88 and 77 < m["log10_solutions_all_pieces"] < 78
    assert abs(t_for_critical(75) - 0.0348) < 1e-4


def test_the_talks_10_12_is_the_exhaust_at_c_for_a_t_that_puts_c_at_75():
    assert 12 < model(t_for_critical(75), 209)["log10_exhaust_at_critical"] < 13


def test_the_command_prints_the_model_and_refuses_a_t_out_of_range(capsys):
    assert main(["estimate", "--selby-t", "0.03"]) == 0
    out = capsys.readouterr().out
    assert "c = 88" in out and "10^77.4 solutions" in out and "10^14.7 nodes" in out
    assert main(["estimate", "--selby-t", "1.5"]) == 2
    assert main(["estimate", "eternity1", "--pieces", "5"]) == 2  # --pieces is for --selby-t
