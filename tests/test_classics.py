"""[Book-ch6]'s classics: N rooks, Adams's and Dudeney's hexagons, magic squares, Euler's officers.

Every count by at least two solver families that agree, and the distinct counts by the same symmetry
machinery as N-queens (``puzzles.estimates.symmetry``).  The long ones are marked slow and kept real.
"""

import json

import pytest
from helpers.agreement import assert_agreement

import solving
from eternity.cli import main
from puzzles import catalog
from puzzles.estimates.symmetry import distinct_count
from puzzles.verify import verify

LIMIT = solving.Limits(time_s=300.0)


def _all(solver: str, name: str):
    p = catalog.load(name)
    res, verified = solving.solve_verified(solving.get(solver), p, "all", LIMIT)
    assert res.status == "solved" and verified is True, (solver, name, res.status, res.message)
    return res.count, distinct_count(p, res.solutions)


@pytest.mark.parametrize("n, distinct", [(1, 1), (2, 1), (3, 2), (4, 7), (5, 23), (6, 115), (7, 694)])
def test_rooks_count_and_distinct_patterns(n, distinct):
    import math

    for solver in ("backtrack", "sat"):
        assert _all(solver, f"rooks-{n}") == (math.factorial(n), distinct)


def test_eight_rooks_have_5282_distinct_patterns(capsys):
    assert main(["solve", "rooks-8", "--mode", "count", "--distinct", "--quiet"]) == 0
    assert "count 40320  distinct 5282" in capsys.readouterr().out


def test_small_officers_agree_across_every_xcc_solver():
    assert set(assert_agreement(catalog.load("officers-4")).values()) == {2}
    assert set(assert_agreement(catalog.load("officers-5")).values()) == {18}


def test_dudeney_hexagon_has_two_arrangements_up_to_the_hexagons_symmetries():
    assert _all("cpsat", "dudeney-hexagon") == _all("sat", "dudeney-hexagon") == (24, 2)


def test_adams_hexagon_is_unique_up_to_symmetry_by_cpsat():
    assert _all("cpsat", "magic-hexagon") == (12, 1)


@pytest.mark.slow
def test_adams_hexagon_by_sat():
    assert _all("sat", "magic-hexagon") == (12, 1)


def test_order_3_magic_square_and_court_cards():
    assert _all("cpsat", "magic-square-3") == _all("sat", "magic-square-3") == (8, 1)
    for solver in ("backtrack", "sat", "cpsat"):
        assert _all(solver, "court-cards") == (1152, 144)


def test_court_cards_72_up_to_the_magic_transformations():
    """The book's "72": the 1,152 court-card squares up to the board's symmetries and the
    row-and-column permutation (0 1)(2 3), which keeps order-4 magic squares magic."""
    from puzzles.estimates.symmetry import court_card_classes, magic4_group

    p = catalog.load("court-cards")
    res, verified = solving.solve_verified(solving.get("backtrack"), p, "all", LIMIT)
    assert verified is True and res.count == 1152
    assert len(magic4_group()) == 16
    assert court_card_classes(p, res.solutions) == 72


@pytest.mark.slow
def test_order_4_magic_squares_7040_and_880_distinct():
    assert _all("cpsat", "magic-square-4") == _all("sat", "magic-square-4") == (7040, 880)


def test_officers_6_have_no_solution_by_cpsat():
    res, _ = solving.solve_verified(solving.get("cpsat"), catalog.load("officers-6"), "first", LIMIT)
    assert res.status == solving.Status.UNSAT  # a proof, not a limit


@pytest.mark.slow
def test_officers_6_have_no_solution_by_sat():
    res, _ = solving.solve_verified(solving.get("sat"), catalog.load("officers-6"), "first", LIMIT)
    assert res.status == solving.Status.UNSAT


def test_verifier_rejects_broken_classics():
    from puzzles.kinds.latin import LatinPlacement
    from puzzles.kinds.magic import MagicPlacement

    p = catalog.load("officers-3")
    good = solving.solve_verified(solving.get("backtrack"), p, "first")[0].solutions[0]
    assert verify(p, good).valid
    bad = [LatinPlacement(pl.row, pl.col, pl.a, (pl.b + 1) % 3) if pl.row == 1 else pl for pl in good]
    assert not verify(p, bad).valid
    h = catalog.load("magic-hexagon")
    sol = solving.solve_verified(solving.get("cpsat"), h, "first")[0].solutions[0]
    assert verify(h, sol).valid
    swapped = [MagicPlacement(c, {1: 2, 2: 1}.get(v, v)) for c, v in sol]
    rep = verify(h, swapped)
    assert not rep.valid and any("sums to" in m for m in rep.problems)


def test_files_info_and_render_for_each_type(tmp_path, capsys):
    for name in ("rooks-5", "officers-4", "magic-hexagon", "magic-square-3"):
        assert main(["export", name, "--to", "json", "-o", str(tmp_path / f"{name}.json")]) == 0
        capsys.readouterr()
        assert main(["info", str(tmp_path / f"{name}.json"), "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["kind"] == catalog.load(name).kind
        sol = tmp_path / f"{name}-sol.json"
        solver = "cpsat" if name.startswith("magic") else "backtrack"
        assert main(["solve", str(tmp_path / f"{name}.json"), "--solver", solver, "-o", str(sol), "--quiet"]) == 0
        assert main(["verify", str(tmp_path / f"{name}.json"), str(sol)]) == 0
        assert main(["render", name, str(sol), "-o", str(tmp_path / f"{name}.svg")]) == 0
        assert (tmp_path / f"{name}.svg").read_text().rstrip().endswith("</svg>")
    assert main(["solve", "magic-hexagon", "--solver", "backtrack"]) == 2  # sums: not an exact cover


def test_the_shipped_order_10_pair_is_orthogonal_and_reduced():
    from puzzles.kinds.latin import as_magic_square

    p = catalog.load("officers-10")
    sol = catalog.known_solution("officers-10")
    assert verify(p, sol).valid  # Latin, orthogonal, and in the reduced form the puzzle fixes
    m = as_magic_square(p, sol)
    assert {sum(row) for row in m} == {505} and {sum(col) for col in zip(*m)} == {505}


def test_cpsat_finds_a_doubly_diagonal_pair_of_order_10_through_a_self_orthogonal_square():
    """The book's open question: CP-SAT enumerates idempotent squares orthogonal to their transpose
    with the automorphism (0 1 2)(3 4 5)(6 7 8); the first has a symmetric transversal (about 5 s)."""
    from puzzles.kinds.latin import as_magic_square

    p = catalog.load("officers-10-diagonal")
    res, verified = solving.solve_verified(
        solving.get("cpsat", {"model": "self-orthogonal"}), p, "first", solving.Limits(time_s=120)
    )
    assert res.status == "solved" and verified is True, (res.status, res.message)
    m = as_magic_square(p, res.solutions[0])
    lines = [*m, *zip(*m), [m[i][i] for i in range(10)], [m[i][9 - i] for i in range(10)]]
    assert {sum(line) for line in lines} == {505}
    assert sorted(v for row in m for v in row) == list(range(1, 101))


def test_the_shipped_doubly_diagonal_pair_is_a_magic_square():
    from puzzles.kinds.latin import as_magic_square

    p = catalog.load("officers-10-diagonal")
    sol = catalog.known_solution("officers-10-diagonal")
    assert verify(p, sol).valid
    m = as_magic_square(p, sol)
    assert {sum(r) for r in m} == {sum(c) for c in zip(*m)} == {505}
    assert sum(m[i][i] for i in range(10)) == sum(m[i][9 - i] for i in range(10)) == 505


@pytest.mark.parametrize("name", ["officers-4-diagonal", "officers-5", "officers-10"])
def test_self_orthogonal_route_answers_other_orders(name):
    res, verified = solving.solve_verified(
        solving.get("cpsat", {"model": "self-orthogonal"}), catalog.load(name), "first", solving.Limits(time_s=120)
    )
    assert res.status == "solved" and verified is True


def test_self_orthogonal_route_never_claims_a_proof():
    """No self-orthogonal square of order 6 exists; that says nothing about the puzzle, so 'limit'."""
    res = solving.get("cpsat", {"model": "self-orthogonal"}).solve(
        catalog.load("officers-6"), mode="first", limits=solving.Limits(time_s=60)
    )
    assert res.status == "limit" and res.stats["class_exhausted"] is True and "no proof" in res.message


def test_symmetric_transversals_and_the_pair_they_give():
    from cpmodel.self_orthogonal import automorphism
    from puzzles.kinds.latin import (
        LatinPuzzle,
        fixed_point_free_involutions,
        is_self_orthogonal,
        pair_from_self_orthogonal,
        symmetric_transversals,
    )

    assert sum(1 for _ in fixed_point_free_involutions(10)) == 945
    assert automorphism(10, "3,3,3,1") == [1, 2, 0, 4, 5, 3, 7, 8, 6, 9]
    with pytest.raises(ValueError, match="cycle lengths"):
        automorphism(10, "6,6")
    # order 4: the idempotent square below is orthogonal to its transpose
    A = [[0, 2, 3, 1], [3, 1, 0, 2], [1, 3, 2, 0], [2, 0, 1, 3]]
    assert is_self_orthogonal(A)
    found = list(symmetric_transversals(A))
    assert len(found) == 3
    for pairs in found:
        assert len({A[a][b] for a, b in pairs} | {A[b][a] for a, b in pairs}) == 4
    p = LatinPuzzle(4, 2, diagonal=True, reduced=True, name="officers-4-diagonal")
    for pairs in found:
        assert verify(p, pair_from_self_orthogonal(p, A, pairs)).valid
    with pytest.raises(ValueError, match="transpose"):
        pair_from_self_orthogonal(p, [[0, 1], [1, 0]], None)
