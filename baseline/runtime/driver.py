"""Drive a resumable numba search in chunks: limits, progress, adaptive chunk size.

The kernels run a node budget and return; this loop decides the next
budget so that each chunk takes about ``chunk_s`` seconds, checks the time
and node limits between chunks and calls ``progress`` about twice a second.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable

from baseline.runtime.kernel import BUDGET


class Outcome(enum.StrEnum):
    """How ``drive`` ended."""

    DONE = "done"  # the kernel exhausted its search space
    STOPPED = "stopped"  # ``on_stop`` ended it (enough solutions, a split leaf)
    LIMIT = "limit"  # the time or node limit


FIRST_BUDGET = 16  # nodes of the first chunk; it grows fourfold a chunk up to chunk_s (about 8 chunks to a million)


def drive(
    step: Callable[[int], int],
    nodes: Callable[[], int],
    *,
    time_s: float | None,
    node_limit: int | None,
    progress: Callable[[dict], None] | None,
    info: Callable[[], dict],
    on_stop: Callable[[int], bool],
    chunk_s: float = 0.1,
) -> Outcome:
    """Call ``step(budget)`` until it returns something other than BUDGET and
    ``on_stop(code)`` says to stop.  Returns how it ended (``Outcome``)."""
    t0 = time.perf_counter()
    last = t0
    budget = FIRST_BUDGET  # small first chunk: a slow node rate (ms a node) must not overrun a short time limit
    while True:
        if node_limit is not None:
            left = node_limit - nodes()
            if left <= 0:
                return Outcome.LIMIT
            b = min(budget, left)
        else:
            b = budget
        c0 = time.perf_counter()
        code = step(b)
        now = time.perf_counter()
        dt = now - c0
        if code == BUDGET:
            # aim each chunk at chunk_s seconds
            budget = int(max(FIRST_BUDGET, min(budget * 4, budget * chunk_s / max(dt, 1e-6))))
        elif on_stop(code):
            return Outcome.STOPPED if code != 0 else Outcome.DONE
        if progress is not None and now - last >= 0.5:
            last = now
            d = {"elapsed_s": now - t0}
            d.update(info())
            progress(d)
        if time_s is not None and now - t0 >= time_s:
            return Outcome.LIMIT


def luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... (Luby, Sinclair,
    Zuckerman 1993: the universal restart schedule, within a log factor of the best fixed cutoff)."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while True:
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
