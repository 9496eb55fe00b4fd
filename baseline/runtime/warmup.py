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


ANNOUNCE_AFTER_S = 2.0  # a warm-up still running then is compiling, not loading: said on a terminal


def once(key, fn: Callable[[], object]) -> None:
    """Run ``fn`` the first time ``key`` is seen in this process.  The first run on a machine compiles the
    kernels (tens of seconds after an install); past ``ANNOUNCE_AFTER_S`` that is said on a terminal's stderr,
    so a first solve is not silent."""
    if key in _done:
        return
    import sys
    import threading

    said = threading.Event()

    def announce() -> None:
        if not said.is_set():
            print("eternity: compiling the search kernels (the first use on this machine; kept for later)...",
                  file=sys.stderr, flush=True)  # fmt: skip

    timer = threading.Timer(ANNOUNCE_AFTER_S, announce) if sys.stderr.isatty() else None
    if timer is not None:
        timer.daemon = True
        timer.start()
    try:
        fn()
    finally:
        said.set()
        if timer is not None:
            timer.cancel()
    _done.add(key)


@cache
def tiny_edge():
    """A 3x3 edge-matching puzzle with solutions (a planted one at least)."""
    from puzzles.make.generate import edge_puzzle

    return edge_puzzle(3, 3, 1, 2, 7)[0]


@cache
def tiny_xcc_puzzle():
    """A small exact cover (4-queens: two solutions)."""
    from puzzles.kinds.queens import QueensPuzzle

    return QueensPuzzle(4, name="queens-4")
