"""Seed 003's checkerboard counts: the queens' distinct patterns and the 3-D rooks, each by two methods."""

import json
import math

import pytest

import solving
from baseline.checkerboard import queens, rooks3d
from eternity.cli import main
from puzzles import catalog
from puzzles.estimates.symmetry import distinct_count
from puzzles.verify import verify


def test_burnside_gives_the_chapters_distinct_queens_to_13():
    for n in range(4, 14):
        assert queens.distinct(n)["distinct"] == queens.CHAPTER[n], n


@pytest.mark.parametrize("n", [5, 6, 8, 9])
def test_the_queens_counts_agree_with_the_xcc_search_and_its_canonical_keys(n):
    r, _ = solving.solve_verified(solving.get("backtrack"), catalog.load(f"queens-{n}"), "all", solving.Limits())
    d = queens.distinct(n)
    assert d["solutions"] == len(r.solutions)
    assert d["distinct"] == distinct_count(catalog.load(f"queens-{n}"), r.solutions)
    fixed_half = sum(1 for s in r.solutions if {(n - 1 - a, n - 1 - b) for a, b in s} == {tuple(x) for x in s})
    assert fixed_half == d["half_turn"]


@pytest.mark.slow
def test_the_queens_distinct_patterns_for_15_and_16():
    assert queens.distinct(15)["distinct"] == 285_053
    assert queens.distinct(16) == {
        "n": 16, "solutions": 14_772_512, "quarter_turn": 64, "half_turn": 3_000, "distinct": 1_846_955
    }  # fmt: skip


def test_the_3d_rooks_match_the_chapter_to_r4_and_correct_it_at_5_and_6():
    got = [rooks3d.count(r) for r in range(1, 7)]
    assert got == [12, 132, 847, 3921, 14286, 43687]
    assert got[:4] == [rooks3d.CHAPTER[r] for r in range(1, 5)]
    assert [rooks3d.count_brute(r) for r in range(1, 5)] == got[:4]


def test_the_built_in_3d_rooks_are_counted_the_same_by_cp_sat_and_sat():
    """rooks3d-R is a puzzle of the catalogue (cells holding 0..R, every line summing to R): CP-SAT's and
    SAT's enumerations, every solution verified, agree with the pairing of layers."""
    import solving
    from puzzles import catalog

    for name, rs in (("cpsat", range(1, 5)), ("sat", range(1, 4))):
        for r in rs:
            p = catalog.load(f"rooks3d-{r}")
            res, ok = solving.solve_verified(solving.get(name), p, "count", solving.Limits(time_s=120))
            assert ok is not False and res.count == rooks3d.count(r), (name, r)  # each model verified as counted
    p = catalog.load("rooks3d-2")
    sols = solving.get("cpsat").solve(p, mode="all").solutions
    assert len(sols) == 132 and all(verify(p, s).valid for s in sols)
    bad = [(c, 1) for c in range(27)]  # one rook a cell: every line holds 3, not 2
    assert not verify(p, bad).valid and "sums to 3, not 2" in verify(p, bad).problems[0]


def test_the_quasi_polynomial_holds_where_the_chapters_formula_does_not():
    for r in range(0, 15):
        assert rooks3d.formula(r) == rooks3d.count(r), r
    assert math.isclose(float(rooks3d.printed_formula(1)), 11.000248, rel_tol=1e-6)  # the chapter's, as printed
    # its "+ 1" moved outside the fraction, it gives the chapter's six figures: the two wrong ones too
    assert [rooks3d.fitted_formula(r) for r in range(1, 7)] == [rooks3d.CHAPTER[r] for r in range(1, 7)]


def test_the_command_prints_and_writes_json(capsys):
    assert main(["checkerboard", "rooks3d", "--max", "6", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rooks3d"]
    assert [(r["R"], r["count"], r["chapter"]) for r in rows][4] == (5, 14286, 14506)
    assert main(["checkerboard", "queens", "--max", "10"]) == 0
    out = capsys.readouterr().out
    assert "724" in out and "Burnside" in out
    assert main(["checkerboard", "queens", "--max", "19"]) == 2


def test_mccarthys_halves_match_the_chapter_and_the_listing_of_every_cut():
    from baseline.checkerboard import halves

    got = {n: halves.distinct(n)["distinct"] for n in range(2, 10)}
    assert got[4] == 6 and got[8] == 92_263  # seed 003
    assert [got[n] for n in (2, 6)] == [1, 255]
    assert [got[n] for n in (3, 5, 7, 9)] == [1, 15, 1_897, 1_972_653]  # the centre square missing
    for n in range(2, 7):  # every cut listed, each reduced to its least image: no argument about symmetries
        assert halves.distinct_by_keys(n) == got[n], n


@pytest.mark.slow
def test_mccarthys_halves_for_ten():
    from baseline.checkerboard import halves

    assert halves.distinct(10) == {"n": 10, "cuts": 1_124_140_214, "distinct": 281_035_054}


@pytest.mark.parametrize("solver", ["backtrack", "cpsat"])
def test_diagonal_latin_squares_of_order_6_exist(solver):
    """Seed 003 says no array of order 6 keeps every symbol once in each row, column and diagonal: there are
    92,160 (128 with the first row fixed), by two solver families; orders 4 and 5 give 48 and 960."""
    got = []
    for n in (4, 5, 6):
        r, _ = solving.solve_verified(
            solving.get(solver), catalog.load(f"latin-{n}-diagonal"), "count", solving.Limits(time_s=120)
        )
        got.append(r.count * math.factorial(n))
    assert got == [48, 960, 92_160]


def test_queens_in_three_dimensions_by_exact_cover_and_sat():
    """n^2 queens on the n x n x n board: none for 2 <= n <= 10 (8: the chapter's 64 queens), each refusal
    carried by a checked DRAT proof and agreed by exact cover; 11 has a placement, verified (Klarner: a
    placement exists exactly when n is prime to 210)."""
    from eternity.commands.checkerboard import decide_queens3d
    from puzzles.kinds import queens3d as Q

    assert len(Q.DIRECTIONS) == 13 and len(Q.AXES) == 3
    for n in (2, 3, 4, 8):
        r = decide_queens3d(n)
        assert not r["placement"] and r["evidence"] == "DRAT proof checked", r
    r = decide_queens3d(11)
    assert r["placement"] and r["evidence"] == "placement verified"
    cells = [tuple(c) for c in r["cells"]]
    assert Q.check(11, cells) is None
    moved = cells[:-1] + [(0, 0, 0) if cells[-1] != (0, 0, 0) else (1, 1, 1)]
    assert Q.check(11, moved) is not None  # two queens on a line, or a line left empty: refused
    assert Q.check(2, [(0, 0, 0), (1, 1, 1), (0, 1, 0), (1, 0, 1)]) is not None  # a space diagonal


def test_queens3d_command_draws_the_smallest_placement(tmp_path, capsys):
    from eternity.cli import main

    out = tmp_path / "q.png"
    assert main(["checkerboard", "queens3d", "--max", "11", "--draw", str(out), "--json"]) == 0
    doc = __import__("json").loads(capsys.readouterr().out)
    assert doc["smallest_n"] == 11 and len(doc["placement"]) == 121 and out.stat().st_size > 0
    assert main(["checkerboard", "queens3d", "--max", "5", "--draw", str(out)]) == 2
    assert "no n from 2 to 5 has a placement" in capsys.readouterr().err
