"""`cpmpy`: one model, every engine CPMpy reaches: CP, lazy clause generation, pseudo-Boolean, MIP, SMT, SAT, MaxSAT.

The model is stated once in CPMpy (``tables``: edge matching as a table model with
identical pieces merged, any other puzzle as its XCC in 0/1 variables) and handed
to the backend named by ``backend``: OR-Tools, Exact (pseudo-Boolean), Choco
(CP), Pumpkin (lazy clause generation), HiGHS and SCIP (MIP), Z3 (SMT), the
pysat SAT solvers through CPMpy's encodings, and RC2 (MaxSAT, mode best).  A
backend is used only where it imports; ``eternity solvers cpmpy`` lists which
are present, and an absent one is refused before any work with the package to
install.

Modes: first; count and all by the backend's enumeration (native where the
backend has one, else CPMpy's loop with blocking clauses); best maximises the
matching joins (the border rule hard); a board is ``optimal`` when the backend
proved its score the best possible, as for ``cpsat``.
"""

from __future__ import annotations

import time
import warnings
from functools import cache

from typing_extensions import override

from puzzles.errors import Unavailable, UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.puzzle import EDGES, SCORED
from solving import Limits, Option, SolverBase, SolveResult, Status, enumerated, extras
from solving.tally import BogusModel, Tally

from .tables import ModelOptions, edge_table, xcc_rows

# name -> the pip package that brings it (every backend CPMpy 1.1 knows that this project supports)
BACKENDS = {
    "ortools": "ortools",
    "exact": "exact",
    "choco": "pychoco",
    "pumpkin": "pumpkin-solver",
    "highs": "highspy",
    "scip": "pyscipopt",
    "z3": "z3-solver",
    "pindakaas": "pindakaas",
    "pysat": "python-sat",
    "rc2": "python-sat",
}
OPTIMISE_ONLY = ("rc2",)  # MaxSAT: mode best only


@cache
def _supported(name: str) -> bool:
    """Whether one backend imports here (only that one is loaded: Choco starts a GraalVM isolate)."""
    try:
        import cpmpy as cp

        return bool(dict(cp.SolverLookup.base_solvers())[name].supported())
    except Exception:  # noqa: BLE001 - a backend whose probe fails is not present
        return False


@cache
def present() -> tuple[str, ...]:
    """The backends that import on this machine (with pysat's sub-solvers as ``pysat:NAME``)."""
    try:
        import cpmpy as cp
    except ImportError:
        return ()
    out = []
    for name, cls in cp.SolverLookup.base_solvers():
        try:
            if cls.supported():
                out.append(name)
        except Exception:  # noqa: BLE001 - a backend whose probe fails is not present
            continue
    return tuple(out)


def check_backend(backend: str) -> None:
    """An unknown or absent backend: one line naming it, what is present, and what to install."""
    base = backend.split(":", 1)[0]
    if base not in BACKENDS:
        raise UsageError(
            f"solver cpmpy: unknown backend {backend!r} (known: {', '.join(BACKENDS)}; "
            "sub-solvers as pysat:NAME or rc2:NAME)"
        )
    if not _supported(base):
        raise Unavailable(
            f"solver cpmpy: backend {backend!r} is not installed (pip install {BACKENDS[base]}); "
            f"present: {', '.join(present()) or 'none'}"
        )
    if ":" in backend:
        import cpmpy as cp

        if backend not in cp.SolverLookup.solvernames():
            subs = [n for n in cp.SolverLookup.solvernames() if n.startswith(base + ":")]
            known = f"its sub-solvers here: {', '.join(subs)}" if subs else f"{base} takes no sub-solver: write {base}"
            raise UsageError(f"solver cpmpy: backend {backend!r} is not available ({known})")


def _within(elapsed: float, left: float | None) -> bool:
    """Whether a call that took ``elapsed`` seconds ended well inside its limit ``left``.  A proof (no
    solution, all solutions, an optimum) is trusted only then: CPMpy's Choco interface reports a search
    stopped by its time limit as unsatisfiable when Choco's own clock reads a little under the limit."""
    return left is None or elapsed < left - max(0.5, 0.02 * left)


def _edge_model(p: EdgePuzzle, merge: bool, best: bool):
    import cpmpy as cp
    import numpy as np

    t = edge_table(p, merge=merge, scored=best)
    kind = cp.intvar(0, len(t.kinds) - 1, shape=p.n_cells, name="kind")
    colour = cp.intvar(0, t.max_colour, shape=t.n_colour_vars, name="colour")
    m = cp.Model()
    for cell in range(p.n_cells):
        sv = t.side_var[cell]
        m += cp.Table([kind[cell]] + [colour[v] for v in sv], np.array(t.tables[cell], dtype=int))
    if t.exact and all(c == 1 for c in t.copies):
        m += cp.AllDifferent(kind)
    else:
        for k, c in enumerate(t.copies):
            used = cp.Count(kind, k)
            m += (used == c) if t.exact else (used <= c)
    if best:
        m.maximize(cp.sum([colour[a] == colour[b] for a, b in t.joins]))

    def decode():
        shown = [tuple(int(colour[v].value()) for v in t.side_var[c]) for c in range(p.n_cells)]
        return t.decode([int(v) for v in kind.value()], shown)

    return m, decode, t.orderings


def _xcc_model(xcc):
    import cpmpy as cp

    rows = xcc_rows(xcc)
    x = cp.boolvar(shape=max(rows.n_options, 1), name="x")
    m = cp.Model()
    for ks in rows.exactly_one:
        m += cp.sum([x[k] for k in ks]) == 1
    for ks in rows.at_most_one:
        m += cp.sum([x[k] for k in ks]) <= 1
    for i, (plain, by_colour) in enumerate(rows.coloured):
        ys = []
        for j, ks in enumerate(by_colour):
            y = cp.boolvar(name=f"y{i}_{j}")
            for k in ks:
                m += x[k].implies(y)
            m += y.implies(cp.any([x[k] for k in ks]))  # never free: each solution counted once
            ys.append(y)
        m += cp.sum(ys + [x[k] for k in plain]) <= 1

    def decode():
        return [rows.decode[k] for k in range(rows.n_options) if x[k].value()]

    return m, decode, 1


class CpmpyOptions(ModelOptions):
    """The options of solver cpmpy (`eternity solvers NAME` lists them with their help)."""

    backend = Option(
        str,
        "ortools",
        "a CPMpy backend: ortools, exact (pseudo-Boolean), choco (CP), pumpkin "
        "(lazy clause generation), highs and scip (MIP), z3 (SMT), pindakaas, pysat[:NAME] "
        "(SAT), rc2[:NAME] (MaxSAT, mode best); `eternity solvers cpmpy` lists those present",
    )


class Cpmpy(SolverBase):
    """`cpmpy`: one CPMpy model handed to any backend: CP, LCG, pseudo-Boolean, MIP, SMT, SAT or MaxSAT."""

    name = "cpmpy"
    MODES = ("first", "count", "all", "best")

    @override
    def engine(self) -> str:
        return self.opts.backend

    Options = CpmpyOptions
    opts: CpmpyOptions

    @override
    @classmethod
    def here(cls) -> str:
        if extras.missing("engines"):
            return "CPMpy is not installed: pip install 'eternity[engines]'"
        have = present()
        missing = [f"{b} (pip install {pkg})" for b, pkg in BACKENDS.items() if b not in have]
        return f"backends {', '.join(have) or 'none'}" + (f"; absent: {', '.join(missing)}" if missing else "")

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        extras.require("engines", "solver cpmpy", "cpmpy")
        backend = self.opts.backend
        check_backend(backend)
        if backend.split(":")[0] in OPTIMISE_ONLY and mode != "best":
            raise UsageError(f"solver cpmpy: backend {backend} is a MaxSAT solver: mode best only")
        if self.opts.model == "table" and EDGES not in puzzle.features:
            raise UsageError("solver cpmpy: model table is for edge-matching puzzles; use model=xcc")
        if mode == "best" and self.opts.model == "xcc":
            raise UsageError("solver cpmpy: mode best uses the table model (the joins are scored)")

    def build(self, puzzle, mode: str):
        """The CPMpy model of ``puzzle`` for ``mode``, its decoder and the multiplier of merged identical pieces."""
        if EDGES in puzzle.features and self.opts.model != "xcc":
            return _edge_model(puzzle, self.opts.identical == "merge", mode == "best")
        return _xcc_model(puzzle.to_xcc())

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        import cpmpy as cp
        from cpmpy.solvers.solver_interface import ExitStatus, SolverInterface

        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        model, decode, mult = self.build(puzzle, mode)
        backend = self.opts.backend
        if limits.time_s is not None and backend.startswith(("pysat:cadical", "rc2:cadical")):
            raise UsageError(
                f"solver cpmpy: backend {backend} cannot stop at a time limit (pysat cannot interrupt "
                "CaDiCaL); use the sat solver, which runs it in conflict-budget slices, or pysat:glucose4"
            )
        solver = cp.SolverLookup.get(backend, model)
        build_s = time.perf_counter() - t0
        left = None if limits.time_s is None else max(0.01, limits.time_s - build_s)
        table = EDGES in puzzle.features and self.opts.model != "xcc"
        stats: dict = {"build_s": build_s, "backend": backend, "model": "table" if table else "xcc"}
        if mode in ("first", "best"):  # one solve: a board, or a proof that there is none (or of its optimum)
            t1 = time.perf_counter()
            found = solver.solve(time_limit=left)
            st = solver.status().exitstatus
            proved = _within(time.perf_counter() - t1, left)
            stats["time_s"] = time.perf_counter() - t0 - build_s
            if mode == "first":
                return enumerated(
                    mode,
                    complete=st == ExitStatus.UNSATISFIABLE and proved,
                    solutions=[decode()] if found else [],
                    count=None,
                    stats=stats,
                )
            if not found:
                status = Status.UNSAT if st == ExitStatus.UNSATISFIABLE and proved else Status.LIMIT
                return SolveResult(status, [], None, None, stats)
            score = int(round(solver.objective_value()))
            return SolveResult(
                Status.SOLVED, [decode()], None, score, stats, optimal=st == ExitStatus.OPTIMAL and proved
            )
        want = limits.wanted(mode)
        keep = want if mode == "all" else 0
        boards: list = []
        tally = Tally(puzzle)  # mode count: every model decoded and verified, none twice
        deadline = None if left is None else time.perf_counter() + left

        def collect():
            if mode == "count":
                tally.add(decode())
            elif keep is None or len(boards) < keep:
                boards.append(decode())
            if deadline is not None and time.perf_counter() > deadline:
                raise _Late()  # a backend that enumerates by repeated solves passes the limit on to each one

        t1 = time.perf_counter()
        late = False
        try:
            with warnings.catch_warnings():  # CPMpy warns that blocking clauses change the solver's state
                warnings.simplefilter("ignore")
                cap = None if want is None else -(-want // mult)
                if type(solver).solveAll is SolverInterface.solveAll:
                    n = _solve_all(solver, collect, deadline, cap)
                else:  # the backend's own enumeration
                    n = solver.solveAll(display=collect, time_limit=left, solution_limit=cap)
        except _Late:
            late, n = True, len(tally) if mode == "count" else len(boards)
        except BogusModel as e:
            stats["time_s"] = time.perf_counter() - t0 - build_s
            return SolveResult(Status.ERROR, [], None, None, stats, f"solver cpmpy ({backend}): {e}")
        st = solver.status().exitstatus
        stats["time_s"] = time.perf_counter() - t0 - build_s
        complete = (
            not late
            and st in (ExitStatus.OPTIMAL, ExitStatus.UNSATISFIABLE)
            and _within(time.perf_counter() - t1, left)
        )
        res = enumerated(
            mode,
            complete=complete,
            solutions=boards,
            count=n * mult,
            stats=stats,
            wanted=None if want is None else want,
        )
        return tally.stamp(res, self.engine())


def _solve_all(solver, collect, deadline: float | None, cap: int | None) -> int:
    """Every model by repeated solves with a blocking clause each, on this process's clock.

    CPMpy's generic ``solveAll`` takes each solve's time from the backend's ``solve_time`` off the limit; HiGHS
    reports there its run time since it was made, not the last solve's, so a 10 s limit ran out after 2.7 s
    with the count incomplete.  Here each solve gets what is left of the deadline, and the last one, which
    finds no model, ends the enumeration complete (the solver's status then says so)."""
    import cpmpy as cp
    from cpmpy.solvers.solver_interface import ExitStatus

    n = 0
    while True:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            raise _Late()
        if not solver.solve(time_limit=left):
            break
        collect()
        n += 1
        if cap is not None and n >= cap:
            solver.cpm_status.exitstatus = ExitStatus.FEASIBLE
            return n
        solver += cp.any([v != v.value() for v in solver.user_vars if v.value() is not None])
    if n and solver.status().exitstatus == ExitStatus.UNSATISFIABLE:
        solver.cpm_status.exitstatus = ExitStatus.OPTIMAL  # as CPMpy's own: every model found
    return n


class _Late(Exception):
    """The time limit passed during an enumeration: stop it between two models."""


# Formats CPMpy's writers produce (cpmpy.tools.io.write), by the name `eternity export --to` takes.
EXPORTS = {"opb": "opb", "lp": "lp", "mps": "mps", "fzn": "fzn"}


def export_model(puzzle, fmt: str, path: str, options: dict | None = None) -> None:
    """The CPMpy model written by CPMpy's own writer in ``fmt``.  Identical pieces are kept apart (an
    outside solver's count then means what it says); ``best=true`` writes the max-score problem (the
    default for wcnf: soft joins)."""
    import tempfile

    extras.require("engines", f"export --to {fmt}", "cpmpy")
    from cpmpy.tools.io import write

    from puzzles.files import formats

    opts = dict(options or {})
    scored = SCORED in puzzle.features
    best = str(opts.pop("best", "true" if fmt == "wcnf" and scored else "false")).lower() == "true"
    unknown = set(opts) - {"identical", "model"}
    if unknown:
        raise UsageError(f"export --to {fmt}: unknown option {sorted(unknown)[0]!r} (known: best, identical, model)")
    solver = Cpmpy({"identical": str(opts.get("identical", "distinct")), "model": str(opts.get("model", "auto"))})
    if fmt == "wcnf" and not best:
        raise UsageError(
            "export --to wcnf: the weighted CNF is the max-score problem (best=true); for the "
            "satisfaction problem use --to dimacs"
        )
    if best and not scored:
        raise UsageError(f"export --to {fmt}: best=true (the max-score problem) is for edge-matching puzzles")
    model, *_ = solver.build(puzzle, "best" if best else "first")
    with tempfile.TemporaryDirectory(prefix="eternity-export-") as d:
        tmp = f"{d}/model.{fmt}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            write(model, tmp, format=EXPORTS[fmt], header="")
        with open(tmp, encoding="utf-8") as f:
            formats.atomic_write(path, f.read())
