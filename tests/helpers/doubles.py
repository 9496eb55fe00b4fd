"""Test-only solvers: one that hangs, one that eats memory, one that crashes."""

import time

from solving import SolverBase


class Hang(SolverBase):
    name = "hang"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        while True:  # ignores its limits on purpose
            time.sleep(0.1)


class Hog(SolverBase):
    name = "hog"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        blocks = []
        while True:
            blocks.append(bytearray(64 * 1024 * 1024))


class Crash(SolverBase):
    name = "crash"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        raise RuntimeError("boom")


class Suicide(SolverBase):
    """Kills its own process mid-cell, as the OOM killer or a segfault would."""

    name = "suicide"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        import os
        import signal

        os.kill(os.getpid(), signal.SIGKILL)


class Nap(SolverBase):
    """Sleeps a moment, then answers as backtrack does: a slow solver with real answers."""

    name = "nap"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        import solving

        time.sleep(0.4)
        return solving.get("backtrack").solve(puzzle, mode=mode, limits=limits)


class Instant(SolverBase):
    """Returns at once with nothing found: the cost of a cell itself (benchmarks/bench_cells.py)."""

    name = "instant"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        from solving import SolveResult, Status

        return SolveResult(Status.LIMIT, stats={"time_s": 0.0, "build_s": 0.0})


class Overcount(SolverBase):
    """Counts one more than there are, on its own word: the runner must flag it against the evidence."""

    name = "overcount"
    MODES = ("count",)

    def solve(self, puzzle, *, mode="count", limits=None, progress=None):
        from solving import SolveResult, Status, get

        true = get("backtrack").solve(puzzle, mode="count").count
        return SolveResult(Status.SOLVED, [], true + 1, None, {})
