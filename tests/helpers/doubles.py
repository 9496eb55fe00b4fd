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
