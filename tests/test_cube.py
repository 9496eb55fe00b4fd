"""`cube`: cube-and-conquer's counts, proofs and cubes against the backtracker."""

import pytest
from helpers.boards import broken, count, tiny
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver as PySat

import solving
from encoders.cnf import direct_cnf
from encoders.cube import make_cubes
from puzzles.make import generate
from solving import Limits, Status, solve_verified


@settings(max_examples=15, deadline=None)
@given(tiny, st.integers(0, 3), st.sampled_from([1, 2]))
def test_cube_counts_agree_with_the_backtracker(args, depth, jobs):
    *shape, seed, breakit = args
    p = generate.edge_puzzle(*shape, seed)[0]
    if breakit:
        p = broken(p, seed)
    want = count("edge-backtrack", p)
    got = count("cube", p, depth=depth, jobs=jobs)
    assert got == want
    if want[1] == 0:
        assert got[0] == Status.UNSAT  # all cubes refuted: a proof


def test_cube_proves_a_broken_puzzle_unsatisfiable():
    for seed in range(50):
        p = broken(generate.edge_puzzle(4, 4, 2, 3, seed)[0], seed)
        if count("edge-backtrack", p) == (Status.UNSAT, 0):
            break
    else:
        pytest.fail("no broken puzzle without solutions")
    res, _ = solve_verified(solving.get("cube", {"depth": 2}), p, "first", Limits(time_s=60))
    assert res.status == Status.UNSAT
    assert res.stats["refuted_cubes"] == res.stats["cubes"] > 1


def test_cubes_partition_the_solutions():
    p = generate.edge_puzzle(3, 4, 2, 2, 7)[0]
    enc = direct_cnf(p)
    cubes = make_cubes(p, enc, "rowscan", 3)
    assert len({tuple(c) for c in cubes}) == len(cubes)
    total = 0
    for cube in cubes:  # every solution extends exactly one cube
        with PySat(name="cadical195", bootstrap_with=enc.clauses) as s:
            for _m in s.enum_models(assumptions=cube):
                total += 1
    assert total == count("edge-backtrack", p)[1]
    assert len(make_cubes(p, enc, "rowscan", 0, target=5)) >= 5
