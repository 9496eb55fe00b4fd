"""`cpsat`: OR-Tools CP-SAT on the models of ``models.py``.

Counting and enumeration go through a solution callback with
``enumerate_all_solutions`` on one worker and presolve told to keep every
feasible solution (``keep_all_feasible_solutions_in_presolve``, no symmetry
reductions), which keeps the count exact; the tests hold it to the known
counts.  ``best`` maximises matching joins and reports score and bound as
they improve.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model
from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.files import formats
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from puzzles.kinds.latin import pair_from_self_orthogonal
from puzzles.kinds.orders import search_order
from puzzles.puzzle import EDGES, EXACT_COVER, SCORED, SUMS
from solving import BuildLate, Limits, Option, Opts, SolverBase, SolveResult, Status, enumerated
from solving.tally import BogusModel, Tally

from . import models, self_orthogonal
from .named_models import CP_MODELS

MODELS = ("auto", "xcc", "placement", "table", "self-orthogonal")


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, decode, keep: int | None, want: int | None, progress, best: bool = False, tally=None):
        super().__init__()
        self.decode, self.keep, self.want, self.progress, self.best = decode, keep, want, progress, best
        self.tally, self.bogus = tally, ""  # mode count: every model decoded and verified, none twice
        self.count = 0
        self.solutions: list = []
        self.scores: list[tuple[float, float, float]] = []
        self.t0 = time.perf_counter()

    def on_solution_callback(self) -> None:
        self.count += 1
        if self.best:
            self.solutions = [self.decode(self)]
            self.scores.append((time.perf_counter() - self.t0, self.objective_value, self.best_objective_bound))
            if self.progress:
                self.progress({"score": int(self.objective_value), "bound": int(self.best_objective_bound)})
            return
        if self.tally is not None:
            try:
                self.tally.add(self.decode(self))
            except BogusModel as e:
                self.bogus = str(e)
                self.stop_search()
                return
        elif self.keep is None or len(self.solutions) < self.keep:
            self.solutions.append(self.decode(self))
        if self.progress and self.count % 1000 == 0:
            self.progress({"solutions": self.count})
        if self.want is not None and self.count >= self.want:
            self.stop_search()


class CpSatOptions(Opts):
    """The options of solver cpsat (`eternity solvers NAME` lists them with their help)."""

    model = Option(
        str,
        "auto",
        "xcc (any puzzle), placement or table (edge matching), self-orthogonal "
        "(orthogonal Latin pairs, mode first: a square and its transpose, cpmodel.self_orthogonal); "
        "auto: placement for edge matching, xcc otherwise; mode best: table (a match tied both ways to its "
        "two colours; auto picks it) or placement (a match bounded above, weaker)",
        MODELS,
    )
    automorphism = Option(
        str,
        "auto",
        "model=self-orthogonal: cycle lengths of the permutation that moves rows, "
        "columns and symbols alike (3,3,3,1: (0 1 2)(3 4 5)(6 7 8)); auto: 3,3,3,1 for order "
        "10, none otherwise",
    )
    join = Option(
        str,
        "onehot",
        "placement model: one integer colour per join, per-colour sums of "
        "placements, or one Boolean per (join, colour) tied by clauses (the fastest on "
        "generated 8x8 puzzles: docs/results/speed.md)",
        ("sum", "int", "onehot"),
    )
    redundant = Option(bool, False, "placement model: colour counts per join")
    symmetry = Option(
        bool,
        False,
        "fix a corner piece at A1 on square boards; the count is multiplied back by 4 (mode best, model=table: "
        "the score is the same on every turn, and a hint is turned to fit)",
    )
    search = Option(
        str,
        "auto",
        "default: CP-SAT's own portfolio; fixed: cell by cell in `order`, a "
        "placement at a time (a backtracker that learns clauses); portfolio: both side by side "
        "(needs workers >= 2); auto: portfolio for edge-matching models with 2 or more workers, "
        "else default",
        ("auto", "default", "fixed", "portfolio"),
    )
    order = Option(str, "rowscan", "cell order of the fixed search", ("rowscan", "colscan", "spiral", "frame-first"))
    workers = Option(
        int, 1, "search workers (enumeration always uses 1); 2 or more turn on the portfolio", lo=1, hi=256
    )
    seed = Option(int, 0, "random seed", lo=0, hi=2**31 - 1)
    linearization_level = Option(int, 1, "0, 1 or 2", lo=0, hi=2)
    presolve = Option(bool, True, "CP-SAT presolve")
    hint = Option(str, "", "a solution file used as a hint (warm start)")
    encoding = Option(
        str,
        "",
        "a named CP-SAT model, in place of model and join (encoders.catalogue.CP_MODELS: cpsat-placement, "
        "cpsat-placement-int, cpsat-placement-sum, cpsat-table, cpsat-xcc); empty: model and join as given",
        ("", *CP_MODELS),
    )
    identical = Option(
        str,
        "merge",
        "placement model: identical pieces share their variables, each group "
        "on as many cells as it has copies (merge: no symmetric copies of a search; without "
        "fixed, spare pieces or symmetry=true), or each piece its own (distinct)",
        ("merge", "distinct"),
    )


class CpSat(SolverBase):
    """`cpsat`: OR-Tools CP-SAT on placement, table, XCC and self-orthogonal models; first, count, all and best."""

    name = "cpsat"
    TAKES = frozenset({EXACT_COVER, SUMS})
    MODES = ("first", "count", "all", "best")

    @override
    def engine(self) -> str:
        return "ortools"

    Options = CpSatOptions
    opts: CpSatOptions

    def _build(self, puzzle, mode, deadline=None):
        self.groups = None  # merged identical pieces (placement model)
        kind, join = self.opts.model, self.opts.join
        if self.opts.encoding:
            if self.given & {"model", "join"}:
                raise UsageError("solver cpsat: encoding names a model and a join; give it or them, not both")
            kind, join = CP_MODELS[self.opts.encoding][:2]
        if SUMS in puzzle.features:  # sums beside the exact cover: the only model that has them
            if kind not in ("auto", "xcc"):
                raise UsageError(f"model {kind} is for edge-matching puzzles")
            return "magic", *models.magic_model(puzzle), False
        if kind == "auto":
            kind = "placement" if EDGES in puzzle.features else "xcc"
        if mode == "best" and SCORED not in puzzle.features:
            raise UsageError("mode best is for edge-matching puzzles")
        if kind != "xcc" and EDGES not in puzzle.features:
            raise UsageError(f"model {kind} is for edge-matching puzzles; use model=xcc")
        sym = self.opts.symmetry
        if sym and not (EDGES in puzzle.features and models.symmetry_breakable(puzzle)):
            raise UsageError("symmetry=true needs a square bordered board without fixed or spare pieces")
        if mode == "best":
            # the table formulation by default: it proves what the placement model cannot (docs/results/engines.md)
            if self.opts.model in ("auto", "table"):  # the score the same on every turn: nothing to multiply
                return "score-table", *models.score_table_model(puzzle, sym), False
            if sym:
                raise UsageError("mode best: symmetry=true is for model=table (or auto)")
            return "score", *models.score_model(puzzle), False
        if kind == "xcc":
            return kind, *models.xcc_model(puzzle.to_xcc()), False
        if kind == "placement":
            if self.opts.identical == "merge":
                self.groups = puzzle.mergeable_groups(sym)
            return (kind, *models.placement_model(puzzle, join, self.opts.redundant, sym, self.groups, deadline), sym)
        return kind, *models.table_model(puzzle, sym), sym

    def model_size(self, puzzle, deadline: float | None = None) -> dict:
        """The variables and constraints of the model these options build for ``puzzle`` (mode first)."""
        proto = self._build(puzzle, "first", deadline)[1].proto
        return {"vars": len(proto.variables), "constraints": len(proto.constraints)}

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        if self.opts.model == "self-orthogonal":
            return self._self_orthogonal(puzzle, mode, limits, progress)
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else t0 + limits.time_s  # the model's building counts too
        try:
            kind, model, decode, main_vars, sym = self._build(puzzle, mode, deadline)
        except BuildLate:
            kind = None
        build_s = time.perf_counter() - t0
        if kind is None or (deadline is not None and time.perf_counter() >= deadline):
            return SolveResult(
                Status.LIMIT,
                stats={"build_s": build_s, "time_s": 0.0},
                message="the time limit passed while the CP-SAT model was being built",
            )
        if self.opts.hint:
            self._hint(puzzle, model, kind, main_vars)
        solver = cp_model.CpSolver()
        prm = solver.parameters
        prm.random_seed = self.opts.seed
        prm.linearization_level = self.opts.linearization_level
        prm.cp_model_presolve = self.opts.presolve
        if deadline is not None:
            prm.max_time_in_seconds = max(0.01, deadline - time.perf_counter())
        enumerate_ = mode in ("count", "all")
        if enumerate_:
            prm.enumerate_all_solutions = True
            prm.keep_all_feasible_solutions_in_presolve = True
            prm.symmetry_level = 0
            prm.num_workers = 1
        else:
            prm.num_workers = self.opts.workers
            self._search(puzzle, kind, model, main_vars, prm)
        want = limits.wanted(mode)
        keep = 0 if mode == "count" else want
        tally = Tally(puzzle) if mode == "count" else None
        cb = _Collector(decode, keep, want, progress, best=mode == "best", tally=tally)
        status = solver.solve(model, cb)
        solve_s = time.perf_counter() - t0 - build_s
        proto = model.proto
        stats = {
            "time_s": solve_s,
            "build_s": build_s,
            "model": kind,
            "vars": len(proto.variables),
            "constraints": len(proto.constraints),
            "branches": solver.num_branches,
            "decisions": solver.num_branches,  # CP-SAT's branches are its decisions (the tables' common column)
            "conflicts": solver.num_conflicts,
            "wall_s": solver.wall_time,
            "response": solver.response_stats().strip().splitlines()[:40],
        }
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) or (enumerate_ and status == cp_model.OPTIMAL)
        orderings = EdgePuzzle.orderings(self.groups)
        mult = (4 if sym else 1) * orderings
        if self.groups:
            stats["identical_orderings"] = orderings
        if mode == "best":
            res = SolveResult(
                Status.SOLVED if cb.solutions else (Status.UNSAT if status == cp_model.INFEASIBLE else Status.LIMIT),
                cb.solutions,
                None,
                int(solver.objective_value) if cb.solutions else None,
                stats,
                optimal=status == cp_model.OPTIMAL,
            )
            stats["bound"] = solver.best_objective_bound
            stats["improvements"] = cb.scores
            return res
        if mode == "first":
            found = [decode(solver)] if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else []
            return enumerated(mode, complete=status == cp_model.INFEASIBLE, solutions=found, count=None, stats=stats)
        if cb.bogus:
            return SolveResult(Status.ERROR, [], None, None, stats, f"solver cpsat: {cb.bogus}")
        res = enumerated(
            mode,
            complete=complete,
            solutions=cb.solutions,
            count=cb.count * mult,
            stats=stats,
            wanted=None if want is None else want * mult,
        )
        return tally.stamp(res, self.engine()) if tally is not None else res

    def _self_orthogonal(self, puzzle, mode, limits: Limits, progress) -> SolveResult:
        """A square orthogonal to its transpose, then the pair (A, A^T): see ``self_orthogonal``.
        Running out of such squares proves nothing about the puzzle, so it ends 'limit'."""
        if getattr(puzzle, "squares", None) != 2:  # a pair of orthogonal Latin squares
            raise UsageError("model self-orthogonal is for orthogonal pairs of Latin squares (officers-N)")
        if mode != "first":
            raise UsageError("model self-orthogonal finds one pair: mode first")
        n = puzzle.n
        cycles = self.opts.automorphism
        if cycles == "auto":
            cycles = "3,3,3,1" if n == 10 else "1"
        sigma = self_orthogonal.automorphism(n, cycles)
        t0 = time.perf_counter()
        A, pairs, squares, exhausted, solver = self_orthogonal.search(
            n, sigma, puzzle.diagonal, limits.time_s, self.opts.seed, progress
        )
        stats = {
            "time_s": time.perf_counter() - t0,
            "model": "self-orthogonal",
            "automorphism": cycles,
            "squares": squares,
            "class_exhausted": exhausted,
            "branches": solver.num_branches,
            "conflicts": solver.num_conflicts,
        }
        if A is None:
            msg = (
                f"every self-orthogonal square with automorphism {cycles} tried ({squares}): none fits; "
                "that is no proof for the puzzle"
                if exhausted
                else ""
            )
            return SolveResult(Status.LIMIT, [], None, None, stats, msg)
        stats["pairing"] = pairs
        return SolveResult(Status.SOLVED, [pair_from_self_orthogonal(puzzle, A, pairs)], None, None, stats)

    def _search(self, puzzle, kind, model, main_vars, prm) -> None:
        """The search strategy: a fixed cell-by-cell search, alone or beside CP-SAT's default worker.

        On generated 8x8 puzzles (2 frame + 6 inner colours) the fixed search
        and the default worker each fail on different instances within 30 s;
        side by side on two workers they solved 10 of 10 (median 3.3 s with
        the one-hot join, docs/results/speed.md)."""
        search = self.opts.search
        edge = kind in ("placement", "table", "score", "score-table")
        if search == "auto":
            search = "portfolio" if kind in ("placement", "table") and prm.num_workers >= 2 else "default"
        if search == "default":
            return
        if not edge:
            raise UsageError(f"search={search} is for the edge-matching models (placement, table)")
        if search == "portfolio" and prm.num_workers < 2:
            raise UsageError("search=portfolio needs workers >= 2")
        rank = {c: i for i, c in enumerate(search_order(puzzle, self.opts.order))}
        if kind in ("table", "score-table"):
            cells = main_vars if kind == "table" else main_vars.piece
            model.add_decision_strategy(
                [cells[c] for c in sorted(rank, key=lambda c: rank[c])],
                cp_model.CHOOSE_FIRST,
                cp_model.SELECT_MIN_VALUE,
            )
        else:
            ordered = sorted(main_vars, key=lambda pl: (rank[pl.cell], pl.piece, pl.rotation))
            model.add_decision_strategy(
                [main_vars[pl] for pl in ordered], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
            )
        if search == "fixed":
            prm.search_branching = cp_model.FIXED_SEARCH
        else:
            prm.subsolvers.extend(["default_lp", "fixed"])
            prm.num_full_subsolvers = 2

    def _hint(self, puzzle, model, kind, main_vars) -> None:
        sol = formats.read_solution(puzzle, self.opts.hint)
        if kind == "placement" and self.groups:  # name a merged group's first piece, turned alike
            first = {q: g[0] for g in self.groups.values() for q in g}
            sol = [
                EdgePlacement(
                    pl.cell,
                    first[pl.piece],
                    next(
                        r for r in range(4) if puzzle.placed(first[pl.piece], r) == puzzle.placed(pl.piece, pl.rotation)
                    ),
                )
                for pl in sol
            ]
        chosen = set(sol)
        if kind in ("placement", "score"):
            for pl, v in main_vars.items():
                model.add_hint(v, pl in chosen)
        elif kind == "table":
            for pl in sol:
                model.add_hint(main_vars[pl.cell], pl.piece)
        elif kind == "score-table":
            if self.opts.symmetry:  # the turn of the hint that has the fixed corner piece at A1
                corner = min(q for q in range(puzzle.n_pieces) if puzzle.piece_class(q) == "corner")
                turns = [
                    t
                    for t in range(4)
                    if any(pl.cell == 0 and pl.piece == corner for pl in models.turned_board(puzzle, sol, t))
                ]
                if not turns:
                    raise UsageError(
                        f"hint {self.opts.hint}: the first corner piece is not in a corner, so "
                        "no turn of it fits symmetry=true"
                    )
                sol = models.turned_board(puzzle, sol, turns[0])
            main_vars.hint(model, puzzle, sol)


def export_model(puzzle, path: str, options: dict | None = None) -> None:
    """The model as CP-SAT proto text, for people who run it elsewhere."""
    s = CpSat({"identical": "distinct", **(options or {})})  # an outside solver's count means what it says
    _, model, *_ = s._build(puzzle, "first")
    formats.atomic_write(path, str(model.proto))
