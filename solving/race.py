"""Run functions in parallel child processes and stop the rest once one answer settles it.

The portfolio (members racing for a first answer) and cube-and-conquer
(processes taking cubes from a shared counter) both need the same thing:
forked children that die with their parent, a way to tell the others to
stop, and the results (or the error, or the death) of every child.  A child
runs ``job(stop)``; ``stop()`` turns true when the parent ends the race
(a job may poll it; it is killed soon after anyway).  Children are forked, so a
job may be a closure over unpicklable state; what it returns must pickle.
Each child leads its own process group, so a job's own children go with it.
"""

from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import queue
import signal
import time
import traceback
from collections.abc import Callable
from typing import Any

_PR_SET_PDEATHSIG = 1
GRACE_S = 3.0  # after the stop: how long the others get to report before they are killed


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies, so no search outlives a killed run."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not Linux: the parent's kill path still applies
        pass


class Outcome:
    """What one child ended with: its result, or an error message (a raised exception or a death)."""

    def __init__(self, index: int, result: Any = None, error: str = "", seconds: float = 0.0, killed: bool = False):
        self.index, self.result, self.error, self.seconds = index, result, error, seconds
        self.killed = killed  # stopped by the race (settled, or past the deadline), not failed

    def __repr__(self) -> str:
        return f"Outcome({self.index}, {'error=' + self.error if self.error else self.result!r})"


def _child(job, index: int, out, stop_event) -> None:
    os.setsid()
    die_with_parent()
    t0 = time.monotonic()
    try:
        res = job(stop_event.is_set)
        out.put((index, res, "", time.monotonic() - t0))
    except BaseException as e:  # noqa: BLE001 - reported to the parent, which decides
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        out.put((index, None, last, time.monotonic() - t0))


def race(
    jobs: list[Callable[[Callable[[], bool]], Any]],
    *,
    settles: Callable[[Any], bool],
    deadline: float | None = None,
    grace: float = GRACE_S,
) -> list[Outcome]:
    """Run every job in its own forked process until a result ``settles`` the question (the others
    are then killed at once) or every job has reported.  Past the ``deadline`` (a
    ``time.monotonic()`` value) ``stop()`` turns true and the jobs get ``grace`` seconds to report what they
    have (their own limits should end them by then), then are killed.  Returns one ``Outcome`` per job, in order of
    arrival (a killed or dead child: an error outcome)."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    stop_event = ctx.Event()
    # not daemonic, so that a job may start children of its own (a counter's engine inside a portfolio); each
    # child leads its own session and dies with its parent (``_child``), and every one is killed below
    procs = [ctx.Process(target=_child, args=(job, i, out, stop_event), daemon=False) for i, job in enumerate(jobs)]
    t0 = time.monotonic()
    for p in procs:
        p.start()
    got: dict[int, Outcome] = {}
    order: list[Outcome] = []

    def add(o: Outcome) -> None:
        got[o.index] = o
        order.append(o)

    def drain() -> None:
        while True:
            try:
                add(Outcome(*out.get_nowait()))
            except queue.Empty:
                return

    kill_at = None if deadline is None else deadline + grace
    try:
        while len(got) < len(procs):
            now = time.monotonic()
            if kill_at is not None and now >= kill_at:
                break
            if deadline is not None and now >= deadline:
                stop_event.set()  # past the deadline: a job that polls stop() reports what it has
            try:
                o = Outcome(*out.get(timeout=0.05))
            except queue.Empty:
                for i, p in enumerate(procs):  # a child that died without a word (OOM killer, signal)
                    if i not in got and not p.is_alive() and p.exitcode not in (0, None):
                        drain()
                        if i not in got:
                            add(Outcome(i, error=f"process died (exit {p.exitcode})", seconds=now - t0))
                if not any(p.is_alive() for p in procs):
                    drain()
                    break  # all gone; the ones that never reported become errors below
                continue
            add(o)
            if not o.error and settles(o.result):
                break  # settled: the others are killed below, their work is not needed
    finally:
        stop_event.set()
        for i, p in enumerate(procs):
            if p.is_alive():
                try:
                    os.killpg(p.pid, signal.SIGKILL)  # type: ignore[arg-type]  # alive: it has a pid
                except (ProcessLookupError, PermissionError):
                    p.kill()
            p.join(timeout=5)
            if i not in got:
                add(Outcome(i, error="stopped before it reported", seconds=time.monotonic() - t0, killed=True))
        out.close()
    return order
