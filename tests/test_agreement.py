"""Every registered solver against every other: counts and first answers on small random puzzles.

The solvers come from the registry, not from a list here, so a solver plugged in
through the ``eternity.solvers`` entry points is held to the same oracle
(tests/test_architecture.py does that with the example solver of docs/howto/add-solver.md).
"""

from helpers.agreement import assert_agreement
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import catalog
from puzzles.make import generate

small_edge = st.tuples(
    st.integers(2, 3), st.integers(2, 3), st.integers(1, 2), st.integers(1, 3), st.integers(0, 10**6)
)


@settings(max_examples=8, deadline=None)
@given(small_edge)
def test_every_solver_counts_random_edge_puzzles_alike(args):
    got = assert_agreement(generate.edge_puzzle(*args)[0])
    assert {"backtrack", "edge-backtrack", "cpsat", "sat"} <= set(got)


@settings(max_examples=5, deadline=None)
@given(st.sampled_from([(2, 3, 3), (3, 4, 4), (2, 6, 4), (3, 3, 3)]), st.integers(0, 10**6))
def test_every_solver_counts_random_polyominoes_alike(shape, seed):
    assert_agreement(generate.polyomino_puzzle(*shape, seed)[0])


def test_every_solver_counts_queens_alike():
    assert set(assert_agreement(catalog.load("queens-6")).values()) == {4}
    assert set(assert_agreement(catalog.load("queens-3")).values()) == {0}
