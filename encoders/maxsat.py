"""`maxsat`: the Eternity II score as weighted MaxSAT, solved by python-sat's RC2 (core-guided, optimum proven).

The hard clauses are the direct encoding's placement rules: one (piece,
rotation) a cell among those the border rule and the fixed pieces allow, each
piece once.  A join is *matched* by a soft unit clause ``m_j`` (weight 1)
with ``m_j -> OR_c z_jc`` and ``z_jc -> (a placement showing c on one side)``,
``z_jc -> (one showing c on the other)``: a model's satisfied soft clauses
are at most its matching joins, and the optimum equals the most matching
joins.  RC2 [IMM2019] raises its lower bound on the cost core by core, so it
returns the optimum and its proof together, and nothing before: under a time
limit it runs in a forked child killed at the deadline, and a cut-short run
answers ``limit`` with no board.  ``export --to wcnf`` writes the same formula
(python-sat's writer) for outside MaxSAT solvers.
"""

from __future__ import annotations

import time
from collections import defaultdict

from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from puzzles.puzzle import SCORED
from solving import Limits, Option, Opts, SolverBase, SolveResult, Status

from .amo import ENCODINGS
from .cnf import placement_rules


def score_wcnf(p: EdgePuzzle, amo: str = "seqcounter"):
    """(WCNF, {variable: placement}) of the max-score problem."""
    from pysat.formula import WCNF, IDPool

    pool = IDPool()
    hard: list[list[int]] = []
    x = placement_rules(p, p.candidates(), amo, pool, hard)  # a piece with nowhere to go: an empty clause
    shows = defaultdict(list)  # (cell, side, colour) -> placements showing it there
    for pl, v in x.items():
        for side, c in enumerate(p.placed(pl.piece, pl.rotation)):
            shows[(pl.cell, side, int(c))].append(v)
    w = WCNF()
    soft = []
    for cell, side, nb in p.joins():
        opp = (side + 2) % 4
        m = pool.id(("m", cell, side))
        zs = []
        for c in sorted({c for (q, s, c) in shows if q == cell and s == side}):
            a, b = shows[(cell, side, c)], shows.get((nb, opp, c), [])
            if not b:
                continue
            z = pool.id(("z", cell, side, c))
            hard += [[-z] + a, [-z] + b]
            zs.append(z)
        hard.append([-m] + zs)
        soft.append(m)
    for cl in hard:
        w.append(cl)
    for m in soft:
        w.append([m], weight=1)
    return w, {v: pl for pl, v in x.items()}


class MaxSatOptions(Opts):
    """The options of solver maxsat (`eternity solvers NAME` lists them with their help)."""

    solver = Option(str, "g4", "the SAT oracle RC2 runs (python-sat's names: g3, g4, cd15, cd19, mgh, ...)")
    amo = Option(str, "seqcounter", "at-most-one encoding of the placement rules", tuple(ENCODINGS))
    exhaust = Option(bool, True, "RC2's core exhaustion")
    minz = Option(bool, True, "RC2's core minimisation")


class MaxSat(SolverBase):
    """`maxsat`: the Eternity II score as weighted MaxSAT, RC2 (python-sat): the optimum with its proof."""

    name = "maxsat"
    MODES = ("best",)
    TAKES = frozenset({SCORED})

    @override
    def engine(self) -> str:
        return "rc2/" + self.opts.solver

    Options = MaxSatOptions
    opts: MaxSatOptions

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        from pysat.solvers import SolverNames

        kinds = [k for k in vars(SolverNames) if not k.startswith("_")]
        if not any(self.opts.solver in getattr(SolverNames, k) for k in kinds):
            raise UsageError(
                f"solver maxsat: no SAT oracle named {self.opts.solver!r} in python-sat "
                f"(its solvers: {', '.join(sorted(kinds))}, or their short names such as g4, cd19)"
            )

    @override
    def solve(self, puzzle, *, mode="best", limits: Limits | None = None, progress=None) -> SolveResult:
        from pysat.examples.rc2 import RC2

        from solving.race import race

        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        wcnf, placements = score_wcnf(puzzle, self.opts.amo)
        build_s = time.perf_counter() - t0
        stats = {"build_s": build_s, "vars": wcnf.nv, "hard": len(wcnf.hard), "soft": len(wcnf.soft)}
        o = self.opts

        def job(stop):
            with RC2(wcnf, solver=o.solver, adapt=True, exhaust=o.exhaust, minz=o.minz) as rc2:
                model = rc2.compute()
                return None if model is None else [v for v in model if v > 0 and v in placements]

        deadline = None if limits.time_s is None else time.monotonic() + max(0.05, limits.time_s - build_s)
        outcome = race([job], settles=lambda r: True, deadline=deadline)[0]
        stats["time_s"] = time.perf_counter() - t0 - build_s
        if outcome.error:
            if outcome.killed or (deadline is not None and time.monotonic() >= deadline):
                return SolveResult(Status.LIMIT, [], None, None, stats, "RC2 did not finish within the limit")
            return SolveResult(Status.ERROR, [], None, None, stats, outcome.error)
        if outcome.result is None:
            return SolveResult(Status.UNSAT, [], None, None, stats)
        board = sorted((placements[v] for v in outcome.result), key=lambda pl: pl.cell)
        board = [EdgePlacement(*pl) for pl in board]
        score = sum(
            1
            for cell, side, nb in puzzle.joins()
            if puzzle.placed(board[cell].piece, board[cell].rotation)[side]
            == puzzle.placed(board[nb].piece, board[nb].rotation)[(side + 2) % 4]
        )
        return SolveResult(Status.SOLVED, [board], None, score, stats, optimal=True)


def export_wcnf(puzzle, path: str, options: dict | None = None) -> None:
    """The max-score problem in WCNF (python-sat's writer), for outside MaxSAT solvers."""
    import os
    import tempfile

    from puzzles.errors import UsageError
    from puzzles.files import formats

    if SCORED not in puzzle.features:
        raise UsageError("export --to wcnf: the weighted CNF is the max-score problem of an edge-matching puzzle")
    opts = dict(options or {})
    amo = str(opts.pop("amo", "seqcounter"))
    if opts or amo not in ENCODINGS:
        raise UsageError(f"export --to wcnf: options are amo=({', '.join(ENCODINGS)})")
    wcnf, _ = score_wcnf(puzzle, amo)
    with tempfile.TemporaryDirectory(prefix="eternity-export-") as d:
        tmp = os.path.join(d, "score.wcnf")
        wcnf.to_file(
            tmp,
            comments=[
                f"c the max-score problem of {puzzle.name or 'a puzzle'}: {puzzle.n_joins} joins, one soft clause each"
            ],
        )
        with open(tmp, encoding="utf-8") as f:
            formats.atomic_write(path, f.read())
