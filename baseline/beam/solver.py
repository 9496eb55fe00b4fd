"""`beam`: Selby and Riordan's beam search ([Selby2001]; docs/references.md), the solver.

One name, two searches: edge matching (``run.BeamRun``) and every other XCC puzzle
(``xcc.XCCBeamRun``: polyforms, queens).  Options that apply to one of them, or to mode best
only, say so in their declaration and are refused elsewhere (``SolverBase.check``).
"""

from __future__ import annotations

import time

from typing_extensions import override

from baseline.beam.best import _window_shape
from baseline.beam.options import BeamOptions
from baseline.beam.run import BeamRun
from baseline.runtime import warmup
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from puzzles.puzzle import EDGES, EXACT_COVER
from solving import Limits, SolverBase, SolveResult, Status

# ------------------------------------------------------------------ solver


class Beam(SolverBase):
    """`beam`: Selby's beam search with an exhaustive end-game (edge matching)."""

    name = "beam"
    NATIVE = True
    TAKES = frozenset({EDGES, EXACT_COVER})  # edge matching; any other exact cover by the XCC beam
    MODES = ("first", "best")
    Options = BeamOptions
    opts: BeamOptions

    # the XCC beam's level expansion, when something else does it (a Dask cluster: experiments/cluster/beam_cluster.py);
    # called as XCCBeamRun.expand is, and answering the same arrays
    level_expander = None

    def check(self, puzzle, mode: str) -> None:
        """One name, two searches: the edge beam, and the XCC beam (``xcc``) for
        everything else, which has mode first only."""
        super().check(puzzle, mode)
        _window_shape(self.opts.window)

    @classmethod
    def declines(cls, puzzle, mode: str) -> str | None:
        """The XCC beam (every puzzle but edge matching) has mode first only."""
        why = super().declines(puzzle, mode)
        if why is None and EDGES not in puzzle.features and mode != "first":
            return f"solver beam: mode {mode!r} is for edge matching; {puzzle.kind} puzzles have mode first"
        return why

    def warm(self, puzzle, mode: str) -> None:
        """The edge beam's kernels (scores, expansion, end-game) or the XCC beam's and Algorithm C."""
        if EDGES in puzzle.features:
            warmup.once(("beam", mode), lambda: Beam({"width": 4}).solve(warmup.tiny_edge(), mode=mode))
            if mode == "best":
                warmup.once(("beam", "repair"), _warm_repair)
        else:
            warmup.once(("beam", "xcc"), lambda: Beam({"width": 4}).solve(warmup.tiny_xcc_puzzle(), mode="first"))

    @override
    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        started = time.perf_counter()  # the tables' building counts against the time limit
        self.check(puzzle, mode)
        limits = limits or Limits()
        if EDGES not in puzzle.features:
            from baseline.beam.xcc import XCCBeamRun

            return XCCBeamRun(puzzle, self.opts.as_dict(), self.level_expander).solve(limits, progress)
        puzzle = puzzle.dense_colours()  # tables sized by the colours there are, not by the largest label
        if mode == "best" and self.opts.jobs > 1:
            res = _parallel_best(puzzle, self.opts.as_dict(), limits, progress)
        else:
            res = BeamRun(puzzle, self.opts.as_dict(), best=(mode == "best")).solve(limits, progress, started)
        if mode == "best" and res.best_score is not None:  # the beam proves nothing, unless the board is perfect
            res.optimal = res.best_score == puzzle.n_joins
        return res


def _warm_repair() -> None:
    """Load the repair kernels: a few steps on a scrambled 5x5 board."""
    from baseline.beam.repair import Repair
    from puzzles.make.generate import edge_puzzle

    p, sol = edge_puzzle(5, 5, 2, 4, 3)
    rep = Repair(p, 0, (3, 3))
    pc, rt = rep.board(sol)
    rt[6], rt[12] = (rt[6] + 1) % 4, (rt[12] + 1) % 4  # two inner pieces turned: mismatches to repair
    rep.run(rep.placements(pc, rt), time.perf_counter() + 0.05)


def _parallel_best(p: EdgePuzzle, options: dict, limits: Limits, progress) -> SolveResult:
    """``jobs`` independent best-mode runs (seeds seed .. seed+jobs-1) in forked processes, each to
    the time limit; the best board wins.  Each job checkpoints its own best board (``best<i>.npz``);
    a resume starts every job from the best of them."""
    from solving.race import race

    t0 = time.perf_counter()
    o = dict(options)

    def job_of(i):
        def job(stop):
            run = BeamRun(p, {**o, "seed": o["seed"] + i, "jobs": 1}, best=True, job=i, share=o["jobs"])
            # each job's progress lines, marked with its number (written from its own process)
            tell = None if progress is None else (lambda info: progress({"job": i, **info}))
            r = run.solve(limits, tell)
            if r.status == "error":
                raise RuntimeError(r.message)
            return ([tuple(x) for x in r.solutions[0]] if r.solutions else None, r.best_score, r.stats)

        return job

    deadline = None if limits.time_s is None else time.monotonic() + limits.time_s + 2.0
    outs = race([job_of(i) for i in range(o["jobs"])], settles=lambda r: False, deadline=deadline)
    done = [x for x in outs if x.result is not None and x.result[0] is not None]
    if not done:
        errors = "; ".join(x.error for x in outs if x.error) or "no job returned a board"
        return SolveResult(Status.ERROR, [], None, None, {"time_s": time.perf_counter() - t0}, errors)
    win = max(done, key=lambda x: x.result[1])
    pl, score, stats = win.result
    scores = {x.index: (x.result[1] if x.result else x.error) for x in outs}
    stats = {
        **stats,
        "jobs": o["jobs"],
        "job_scores": [scores.get(i) for i in range(o["jobs"])],
        "winner": win.index,
        "time_s": time.perf_counter() - t0,
    }
    if progress:
        progress({"score": score})
    return SolveResult(
        Status.SOLVED,
        [[EdgePlacement(*x) for x in pl]],
        None,
        score,
        stats,
        f"best of {o['jobs']} jobs: job {win.index}",
    )
