"""Seed 003's geese strategy as a program that plays, held to the exact values of fox and geese."""

import json

from baseline.games.geese_strategy import GeeseProgram, check
from eternity.cli import main


def test_the_two_fundamentals_alone_lose_where_the_exact_game_is_won():
    r = check(8, "fox")
    assert all(v["exact"] == "geese" for v in r["starts"].values())  # the chapter: the geese win
    assert not r["program_wins_every_start"]
    assert r["mistakes"] >= 1 and r["first_mistake"]["rule"] == "advance"
    assert r["refutation"][-1] == "the fox is through"
    assert r["refutation"][0].startswith("fox ")


class _TableGeese(GeeseProgram):
    """A program that plays a move the exact values call winning: the checker must call it a win."""

    def move(self, fx, geese, p):
        ru = self.rules
        occupied = sum(ru.bits[g] for g in geese) | ru.bits[fx]
        for i, g in enumerate(geese):
            for t in ru.fwd[g]:
                if not occupied & ru.bits[t]:
                    after = self._step(geese, i, t)
                    if not ru.fox_to_move_wins(ru.bits[fx], sum(ru.bits[x] for x in after)):
                        return after, p, "exact"
        return super().move(fx, geese, p)


def test_the_checker_calls_a_perfect_program_a_win():
    r = check(8, "fox", _TableGeese(8))
    assert r["program_wins_every_start"] and r["mistakes"] == 0 and r["refutation"] == []


def test_the_command(capsys):
    assert main(["game", "foxgeese", "--strategy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["board"] == 8 and not out["program_wins_every_start"]
    assert main(["game", "foxgeese", "--strategy", "--board", "6"]) == 2
    assert main(["game", "grundy", "--strategy"]) == 2
