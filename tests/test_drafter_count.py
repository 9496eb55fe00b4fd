"""Polydrafters and polydudes counted by Redelmeier's method, held to the canonical growth and to seed 002."""

import json

import pytest

from eternity.cli import main
from puzzles.forms.drafter_count import count_drafters, is_polydude, polydude_faults
from puzzles.forms.enumeration import free_polyforms, has_hole
from puzzles.kinds.grids import get_grid

SEED_POLYDRAFTERS = [6, 14, 64, 237, 1014, 4124, 17705]  # n = 2..8
# The workbench's polydudes; the seed has 59 at 6 and 517 at 8 (see puzzles/forms/drafter_count.py).
POLYDUDES = [0, 3, 1, 9, 15, 60, 152, 518]


@pytest.fixture(scope="module")
def to8():
    return count_drafters(8)


def test_polydrafters_without_holes_are_the_seeds(to8):
    assert [to8.free[n] - to8.with_holes[n] for n in range(1, 8)] == SEED_POLYDRAFTERS
    assert to8.fixed[0] == 12  # one drafter: six halves of each of the two triangle types


def test_polydudes_to_8_and_the_seeds_agreements(to8):
    assert list(to8.dudes) == POLYDUDES
    seed = [3, 1, 9, 15, 59, 152, 517]
    agree = [n for n in range(2, 9) if to8.dudes[n - 1] == seed[n - 2]]
    assert agree == [2, 3, 4, 5, 7]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_two_methods_agree_form_by_form(to8, n):
    g = get_grid("drafter")
    forms = free_polyforms(g, n)
    assert len(forms) == to8.free[n - 1]
    assert sum(has_hole(g, f) for f in forms) == to8.with_holes[n - 1]
    assert sum(is_polydude(f) for f in forms) == to8.dudes[n - 1]


def test_every_eternity_piece_is_a_polydude():
    from puzzles.kinds.eternity1 import puzzle

    p = puzzle("eternity1")
    assert len(p.pieces) == 209
    assert [q for q in p.pieces if polydude_faults(q.cells)] == []


def test_the_faults_are_named():
    g = get_grid("drafter")
    one = g.units((0, 0, 0))[0]  # a lone drafter: 30 degree corner, hanging by nothing
    assert "a 30 degree corner" in polydude_faults(one)
    assert "a weakly hanging drafter" in polydude_faults(one)


def test_the_command_prints_every_size(capsys):
    assert main(["enumerate", "drafter", "--size", "6", "--json", "--dudes"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["without_holes"] == 1014 and out["polydudes"] == 60
    assert [r["polydudes"] for r in out["sequence"]] == POLYDUDES[:6]
    assert out["sequence"][4]["seed_polydudes"] == 15
    assert main(["enumerate", "drafter", "--size", "9", "--forms"]) == 2


@pytest.mark.slow
def test_to_twelve():
    c = count_drafters(12)
    assert c.dudes[8:] == (1554, 5084, 16182, 52857)
    assert [c.free[n] - c.with_holes[n] for n in range(8, 12)] == [75599, 326701, 1414932, 6170851]
