"""`beam`: Selby and Riordan's beam search ([Selby2001]; docs/references.md), the solver.

One name, two searches: edge matching (``run.BeamRun``) and every other XCC puzzle
(``xcc.XCCBeamRun``: polyforms, queens).  Options that apply to one of them, or to mode best
only, say so in their declaration and are refused elsewhere (``SolverBase.check``).
"""

from __future__ import annotations

import time

from baseline.beam.best import _window_shape
from baseline.beam.run import BeamRun
from baseline.runtime import warmup
from puzzles.edge import EdgePlacement, EdgePuzzle
from puzzles.errors import UsageError
from puzzles.orders import ORDERS
from solving import Limits, Option, SolverBase, SolveResult

# ------------------------------------------------------------------ solver
XCC_KINDS = ("polyform", "queens")  # the puzzles the XCC beam (``xcc.py``) takes


class Beam(SolverBase):
    """`beam`: Selby's beam search with an exhaustive end-game (edge matching)."""

    name = "beam"
    KINDS = ("edge", "polyform", "queens")
    MODES = ("first", "best")
    OPTIONS = {
        "width": Option(int, 10_000, "states kept per level", lo=1, hi=10_000_000),
        "lookahead": Option(int, 2, "cells ahead checked for a dead site (first mode)", lo=0, hi=64),
        "exhaust_at": Option(int, -1, "cells left when the end-game exhausts each survivor "
                                      "(-1: a quarter of the board, at most 30, as Selby)", lo=-1),
        "schedule": Option(str, "auto", "best mode: widths from the time budget (budget), or 16, 256, 4096, width "
                                        "(widen); auto: budget when there is a time limit", ("auto", "budget", "widen"), modes=("best",)),
        "max_width": Option(int, 0, "best mode, budget schedule: the widest pass (0: no cap)", lo=0, modes=("best",)),
        "repair": Option(float, 0.3, "best mode with a time limit: the share of the time given to the repair "
                                     "phase after the beam (large-neighbourhood search, baseline/repair.py)", lo=0.0, hi=1.0, modes=("best",), fingerprint=False),
        "tail": Option(int, 6, "best mode, repair: tail passes re-run the beam over the last 2..N rows of the "
                               "best board (0: none)", lo=0, hi=64, modes=("best",), fingerprint=False),
        "window": Option(str, "3x3", "best mode, repair: the window re-solved exactly around a mismatch (HxW)", modes=("best",), fingerprint=False),
        "jobs": Option(int, 1, "best mode: independent runs (seeds seed, seed+1, ...) in parallel processes; "
                               "the best board wins", lo=1, hi=64, modes=("best",), fingerprint=False),
        "threads": Option(int, 1, "states expanded by this many threads of one run (numba, no GIL); the run's "
                                  "boards are the same for any number", lo=1, hi=256, kinds=("edge",), fingerprint=False),
        "per_parent": Option(int, 0, "diversity: each state's best N children are kept before any state's next "
                                       "one, the rest fill the width (0: plain ranking)", lo=0),
        "grow": Option(float, 0.0, "best mode, budget schedule: a pass ahead of its time model widens, up to "
                                   "GROW times its planned width (1: never; 0: 4 when repair=0, where no phase "
                                   "after the beam would use the time, else 1)", lo=0.0, hi=16.0, modes=("best",)),
        "cut": Option(float, 0.0, "best mode: make a state's mismatch children only when they could reach the "
                                  "beam: its score plus the level's best exact gain plus CUT, less a penalty, against "
                                  "the width-th exact child (-1: make them all)", lo=-1.0, modes=("best",)),
        "cut_states": Option(float, 0.0, "best mode, with the cut: on a level with fewer exact children than the "
                                         "cut's rank, only the states with the best bounds make mismatch children, "
                                         "this many times the places left (0: all states)", lo=0.0, modes=("best",)),
        "score": Option(str, "pairings", "child score: colour pairings (Owen-style) or none", ("pairings", "none"), kinds=("edge",)),
        "order": Option(str, "auto", "the static order of the sites (auto: scan along the shorter side)",
                        ("auto",) + tuple(o for o in ORDERS if o != "mrv"), kinds=("edge",)),
        "seed": Option(int, 0, "tie-break noise seed: the same seed gives the same run", lo=0),
        "slips": Option(str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k (default: anywhere)", modes=("best",)),
        "late_penalty": Option(float, -1.0, "best mode: the mismatch penalty in the last LATE_AT cells (-1: "
                                            "the penalty throughout)", lo=-1.0, modes=("best",)),
        "late_at": Option(int, 80, "best mode: cells left when late_penalty takes over", lo=0, modes=("best",)),
        "forecast": Option(float, 0.0, "best mode: a child is charged FORECAST x penalty for each later site with "
                                       "two or more known sides that no unused piece fits (0: off)", lo=0.0, modes=("best",)),
        "penalty": Option(float, -1.0, "best mode: score cost of a mismatched join (-1: log of the colour count)", lo=-1.0, modes=("best",)),
        "endgame_nodes": Option(int, 50_000_000, "node budget of one end-game exhaust", lo=1, fingerprint=False),
        "checkpoint": Option(str, "", "directory: write the frontier there at every level", fingerprint=False),
        "resume": Option(str, "", "directory: continue from the frontier written there", fingerprint=False),
        "weights": Option(str, "", "polyforms: JSON file of per-piece log-weights (eternity tilability)", kinds=XCC_KINDS),
        "sites": Option(int, 4, "polyforms: the first N free sites in reading order; the most constrained is filled", lo=1, hi=64, kinds=XCC_KINDS),
        "boundary": Option(float, 0.1, "polyforms: score cost of a free-cell edge facing a filled cell or the outside", lo=0.0, kinds=XCC_KINDS),
        "covers": Option(float, 1.0, "polyforms: score weight of log(fewest options of the next sites)", lo=0.0, kinds=XCC_KINDS),
        "touch": Option(bool, True, "polyforms: a child is dead when a free site next to its new piece has no "
                                "fitting option left (false: only the lookahead sites are checked)", kinds=XCC_KINDS),
        "every_site": Option(bool, False, "polyforms: a kept state must have a fitting option at every free site "
                                          "of the board (not only near its new piece)", kinds=XCC_KINDS),
        "sweep": Option(float, 90.0, "polyforms: the direction (degrees) the sites are filled from: 90 = top rows first", lo=-360.0, hi=360.0, kinds=XCC_KINDS),
        "probe_at": Option(int, 0, "polyforms: from this many pieces left, each kept state is first searched for "
                                   "probe_nodes nodes and dropped when that proves it has no tiling (0: off)", lo=0, kinds=XCC_KINDS),
        "probe_nodes": Option(int, 200, "polyforms: node budget of one probe (probe_at)", lo=1, kinds=XCC_KINDS),
    }

    def check(self, puzzle, mode: str) -> None:
        """One name, two searches: the edge beam, and the XCC beam (``xcc``) for
        everything else, which has mode first only."""
        super().check(puzzle, mode)
        _window_shape(self.options["window"])
        if puzzle.kind != "edge":
            if mode != "first":
                raise UsageError(f"solver beam: mode {mode!r} is for edge matching; {puzzle.kind} puzzles have "
                                 "mode first")

    def warm(self, puzzle, mode: str) -> None:
        """The edge beam's kernels (scores, expansion, end-game) or the XCC beam's and Algorithm C."""
        if puzzle.kind == "edge":
            warmup.once(("beam", mode), lambda: Beam({"width": 4}).solve(warmup.tiny_edge(), mode=mode))
            if mode == "best":
                warmup.once(("beam", "repair"), _warm_repair)
        else:
            warmup.once(("beam", "xcc"), lambda: Beam({"width": 4}).solve(warmup.tiny_xcc_puzzle(), mode="first"))

    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        if puzzle.kind != "edge":
            from baseline.beam.xcc import XCCBeamRun

            return XCCBeamRun(puzzle, self.options).solve(limits, progress)
        if mode == "best" and self.options["jobs"] > 1:
            res = _parallel_best(puzzle, self.options, limits, progress)
        else:
            res = BeamRun(puzzle, self.options, best=(mode == "best")).solve(limits, progress)
        if mode == "best" and res.best_score is not None:  # the beam proves nothing, unless the board is perfect
            res.optimal = res.best_score == puzzle.n_joins
        return res


def _warm_repair() -> None:
    """Load the repair kernels: a few steps on a scrambled 5x5 board."""
    from baseline.beam.repair import Repair
    from puzzles.generate import edge_puzzle

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
        return SolveResult("error", [], None, None, {"time_s": time.perf_counter() - t0}, errors)
    win = max(done, key=lambda x: x.result[1])
    pl, score, stats = win.result
    scores = {x.index: (x.result[1] if x.result else x.error) for x in outs}
    stats = {**stats, "jobs": o["jobs"], "job_scores": [scores.get(i) for i in range(o["jobs"])],
             "winner": win.index, "time_s": time.perf_counter() - t0}
    if progress:
        progress({"score": score})
    return SolveResult("solved", [[EdgePlacement(*x) for x in pl]], None, score, stats,
                       f"best of {o['jobs']} jobs: job {win.index}")
