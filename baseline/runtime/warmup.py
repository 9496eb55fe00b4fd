"""Tiny puzzles that load the numba kernels a solve will use, once per process.

A kernel compiled with ``cache=True`` is loaded from disk on its first call;
the first kernel of a process also starts numba's compiler runtime (about a
quarter of a second here).  ``once(key, fn)`` runs ``fn`` the first time a
key is seen, so a solver's ``warm`` pays this before its clocks start and a
warm worker pays it once for all its cells.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

_done: set = set()


def once(key, fn: Callable[[], object]) -> None:
    if key not in _done:
        fn()
        _done.add(key)


@cache
def tiny_edge():
    """A 3x3 edge-matching puzzle with solutions (a planted one at least)."""
    from puzzles.generate import edge_puzzle

    return edge_puzzle(3, 3, 1, 2, 7)[0]


@cache
def tiny_xcc_puzzle():
    """A small exact cover (4-queens: two solutions)."""
    from puzzles.queens import QueensPuzzle

    return QueensPuzzle(4, name="queens-4")
