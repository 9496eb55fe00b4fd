"""What every resumable numba search kernel shares: return codes, state slots, sentinels.

A kernel (``xcc.dlx.run``, ``xcc.bitset.run``, ``edge.kernels.run*``, and the
kernels ``edge.generated_source`` writes) advances a search by a node budget and returns one of the codes below; the Python side
(``driver.drive``) decides what happens next.  Its resumable state is a small
int64 array ``st`` whose slots are named here.  Module-level integers are
compile-time constants to numba, so the names cost nothing in the loops.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# codes a kernel returns
DONE = 0  # the search space is exhausted
SOLUTION = 1  # the current path is a solution (the kernel pauses on it when asked to)
BUDGET = 2  # the node budget is spent; call again to go on
LEAF = 3  # the path reached the split depth: it is a sub-problem (tree splitting)

# slots of the state array st
LEVEL = 0  # depth of the current path
PHASE = 1  # where in its loop the kernel resumes (Knuth's step number for Algorithm C)
NODES = 2  # nodes (placements) so far
COUNT = 3  # solutions so far
DEEPEST = 4  # the deepest level reached
BEST_MIS = 5  # edge-backtrack mode best: mismatched joins of the best board so far
N_SLOTS = 6

# values of PHASE shared by the edge kernels (Algorithm C numbers its phases by Knuth's steps)
ENTER = 0  # enter the depth LEVEL: look up its candidates
RESUME = 1  # at the depth LEVEL: try its next candidate
FINISHED = 9  # PHASE once the search is exhausted

# sentinels
MANY = 1 << 30  # more than any count of options or pieces: the start of a minimum search
NO_BOUND = 1 << 40  # more mismatches, nodes or budget than any search reaches: "unbounded"
NO_SCORE = -1e300  # below every score: a dead state


def new_state() -> np.ndarray:
    """A state array at the root, before the first node."""
    st = np.zeros(N_SLOTS, np.int64)
    st[BEST_MIS] = NO_BOUND
    return st


@njit(cache=True, inline="always")
def pause(st, level, phase, spent):
    """Save where the kernel stopped, so the next call resumes there."""
    st[LEVEL] = level
    st[PHASE] = phase
    st[NODES] += spent
