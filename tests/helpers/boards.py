"""Boards and counts shared by the tests of the edge solvers: a planted puzzle broken by one colour, a
verified count, and hypothesis strategies for small generated boards."""

import numpy as np
from hypothesis import strategies as st

import solving
from puzzles.kinds.edge import EdgePuzzle
from solving import Limits, Status, solve_verified


def broken(p: EdgePuzzle, seed: int) -> EdgePuzzle:
    """The planted puzzle with one inner colour of one piece changed: often no solution left."""
    rng = np.random.default_rng(seed)
    pieces = p.pieces.copy()
    q = int(rng.integers(p.n_pieces))
    sides = [s for s in range(4) if pieces[q, s] != 0]
    if sides:
        s = sides[int(rng.integers(len(sides)))]
        pieces[q, s] = 1 + (int(pieces[q, s]) % int(p.pieces.max()))
    return EdgePuzzle(p.rows, p.cols, pieces, name="broken")


def count(name: str, p, **opts) -> tuple[Status, int]:
    res, _ = solve_verified(solving.get(name, opts), p, "count", Limits(time_s=60))
    return res.status, res.count


# (rows, cols, frame colours, inner colours, seed, merge): boards an exhaustive count settles in a blink
small = st.tuples(
    st.integers(2, 4), st.integers(2, 4), st.integers(1, 2), st.integers(1, 4), st.integers(0, 10**6), st.booleans()
)
# what a CDCL enumeration (a blocking clause per solution) counts in seconds: at most some thousands
tiny = st.tuples(
    st.integers(2, 3), st.integers(2, 4), st.integers(1, 2), st.integers(2, 4), st.integers(0, 10**6), st.booleans()
)
