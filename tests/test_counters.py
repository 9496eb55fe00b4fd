"""The field's model counters and samplers: exact counts that agree with every enumeration, ApproxMC's interval
holding the exact count, projection on the placement variables, and a chi-square test of the samplers."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solving
from eternity.cli import main
from experiments.crosscheck import disagreements
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.make import generate
from solving import Limits, solve_verified

pytest.importorskip("pyganak", reason="the counters extra is not installed")
pytest.importorskip("pyapproxmc", reason="the counters extra is not installed")


def _count(name, p, **opts):
    res, _ = solve_verified(solving.get(name, opts), p, "count", Limits(time_s=120))
    assert res.status in ("solved", "unsatisfiable"), res.message
    return res


@pytest.mark.parametrize("name", ["queens-6", "queens-8", "dominoes-4x4", "officers-4"])
def test_ganak_counts_every_small_built_in_as_the_enumeration_does(name):
    p = catalog.load(name)
    exact = _count("backtrack", p).count
    got = _count("ganak", p)
    assert got.count == exact and got.evidence == "claimed by ganak"
    assert "placement variables" in got.message


def test_ganak_counts_dominoes_8x8_as_the_diagram_does(capsys):
    assert main(["solve", "dominoes-8x8", "--solver", "ganak", "--mode", "count"]) == 0
    assert "count 12988816" in capsys.readouterr().out


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(2, 4), st.integers(1, 2), st.integers(1, 4), st.integers(0, 10**6))
def test_every_exact_count_agrees_on_random_boards(rows, cols, frame, inner, seed):
    p = generate.edge_puzzle(rows, cols, frame, inner, seed)[0]
    exact = _count("edge-backtrack", p).count
    for encoding in ({}, {"model": "xcc"}, {"amo": "pairwise", "support": False}):
        assert _count("ganak", p, **encoding).count == exact, encoding


def test_an_encoding_whose_placements_do_not_fix_a_board_is_refused_for_counting_in_one_line(capsys):
    p = generate.edge_puzzle(4, 4, 2, 3, 5)[0]
    with pytest.raises(UsageError, match="placement variables do not fix a board"):
        solving.get("ganak", {"encoding": "heule-all-pairwise"}).solve(p, mode="count")


def test_approxmc_gives_an_interval_that_holds_the_exact_count_on_most_boards():
    """At delta 0.05 the interval must hold the exact count on at least 95% of boards: 100 random boards of 3x3
    to 4x4, 2 to 4 inner colours (about 40 of them with more than 72 solutions)."""
    import random

    rng = random.Random(7)
    held = 0
    for seed in range(100):
        r, c = rng.choice([(3, 3), (3, 4), (4, 4)])
        p = generate.edge_puzzle(r, c, 2, rng.choice([2, 3, 4]), seed)[0]
        exact = _count("edge-backtrack", p).count
        res = _count("approxmc", p, epsilon=0.8, delta=0.05, seed=seed + 1)
        lo, hi = res.stats["interval"]
        assert res.evidence.startswith("approximate (epsilon 0.8, delta 0.05)") and solving.is_claim(res.evidence)
        held += lo <= exact <= hi
    assert held >= 95


def test_a_formula_is_counted_on_its_projection_or_says_it_counts_every_variable(tmp_path):
    f = tmp_path / "f.cnf"
    f.write_text("p cnf 3 1\n1 2 3 0\n")
    assert _count("ganak", catalog.load(str(f))).count == 7
    g = tmp_path / "g.cnf"
    g.write_text("c p show 1 2 0\np cnf 3 1\n1 2 3 0\n")
    res = _count("ganak", catalog.load(str(g)))
    assert res.count == 4 and "projection" in res.message
    assert "all 3 variables" in _count("ganak", catalog.load(str(f))).message


def test_an_approximate_count_is_not_held_against_an_exact_one():
    rows = [
        {"key": "a", "config": "ganak/count", "instance": "i", "mode": "count", "status": "solved", "count": 92,
         "evidence": "claimed by ganak"},
        {"key": "b", "config": "approxmc/count", "instance": "i", "mode": "count", "status": "solved", "count": 84,
         "evidence": "approximate (epsilon 0.8, delta 0.2), claimed by approxmc"},
        {"key": "c", "config": "backtrack/count", "instance": "i", "mode": "count", "status": "solved", "count": 92,
         "evidence": "exhaustion"},
    ]  # fmt: skip
    assert disagreements(rows) == []


def test_the_samplers_draw_verified_boards_and_the_chi_square_test_tells_which_are_uniform():
    pytest.importorskip("pyunigen", reason="the counters extra is not installed")
    pytest.importorskip("pycmsgen", reason="the counters extra is not installed")
    from experiments.studies.uniformity import uniformity_table

    rows = {r["sampler"]: r for r in uniformity_table("dominoes-4x4", n=1800)}
    assert rows["backtrack"]["chi2_p_value"] > 0.01 and rows["unigen"]["chi2_p_value"] > 0.01
    assert rows["backtrack-first-random"]["chi2_p_value"] < 1e-6  # the control the test must reject
    assert all(r["draws"] == 1800 and r["solutions"] == 36 for r in rows.values())


def test_approxmc_counts_two_equivalent_projected_variables_right(tmp_path):
    """pyapproxmc 4.3 and 4.4 count 1 model of x1 = -x2 over {1, 2} (there are 2); the extra pins a release that
    counts right, and this holds it there."""
    f = tmp_path / "eq.cnf"
    f.write_text("p cnf 2 2\n1 2 0\n-1 -2 0\n")
    assert _count("approxmc", catalog.load(str(f))).count == 2
