"""`minizinc`: the same models in MiniZinc, solved by any solver MiniZinc drives (Gecode by default).

The model is written as MiniZinc text from ``tables`` (edge matching as a
table model with ``table`` and ``global_cardinality``, identical pieces merged;
any other puzzle as its XCC in Booleans) and run through MiniZinc's Python
interface (the ``minizinc`` package, which calls the ``minizinc`` binary:
Debian's package ``minizinc`` brings it with Gecode).  ``export --to mzn``
writes the same text, for people who run it elsewhere.

Modes: first; count and all (MiniZinc's ``--all-solutions``; a count is exact
only when MiniZinc reports that it has them all); best maximises the matching
joins (``optimal`` when MiniZinc proved the score the best possible).
"""

from __future__ import annotations

import shutil
import time
import warnings
from datetime import timedelta
from functools import cache

from typing_extensions import override

from puzzles.errors import Unavailable, UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.puzzle import EDGES
from solving import Limits, Option, SolverBase, SolveResult, Status, enumerated, extras

from .tables import ModelOptions, edge_table, xcc_rows

INSTALL = "Debian: apt-get install minizinc (it brings Gecode)"


def _array2d(rows) -> str:
    return "[|" + "|".join(",".join(str(v) for v in r) for r in rows) + "|]"


def edge_mzn(p: EdgePuzzle, merge: bool = True, best: bool = False):
    """(MiniZinc text, decode(solution), orderings) of the table model."""
    t = edge_table(p, merge=merge, scored=best)
    n, k = p.n_cells, len(t.kinds)
    # the globals one by one: Debian's MiniZinc 2.6 and Gecode 6.2 fail to compile "globals.mzn" together
    lines = [
        'include "table.mzn";',
        'include "alldifferent.mzn";',
        'include "count.mzn";',
        f"array[1..{n}] of var 0..{k - 1}: kind;",
        f"array[1..{t.n_colour_vars}] of var 0..{t.max_colour}: colour;",
    ]
    for cell in range(n):
        sv = ", ".join(f"colour[{v + 1}]" for v in t.side_var[cell])
        lines.append(f"constraint table([kind[{cell + 1}], {sv}], {_array2d(t.tables[cell])});")
    if t.exact and all(c == 1 for c in t.copies):
        lines.append("constraint alldifferent(kind);")
    else:  # each kind on as many cells as it has copies (at most, with spare pieces)
        op = "=" if t.exact else "<="
        lines += [f"constraint count(kind, {i}) {op} {c};" for i, c in enumerate(t.copies)]
    if best:
        terms = " + ".join(f"bool2int(colour[{a + 1}] = colour[{b + 1}])" for a, b in t.joins) or "0"
        lines += [f"var int: score = {terms};", "solve maximize score;"]
    else:
        lines.append("solve satisfy;")
    lines.append('output ["kind = \\(kind);\\ncolour = \\(colour);\\n"];')

    def decode(sol) -> list:
        kinds, colours = list(sol.kind), list(sol.colour)
        shown = [(int(colours[a]), int(colours[b]), int(colours[c]), int(colours[d]))
                 for a, b, c, d in (t.side_var[i] for i in range(n))]  # fmt: skip
        return t.decode([int(v) for v in kinds], shown)

    return "\n".join(lines) + "\n", decode, t.orderings


def xcc_mzn(xcc):
    """(MiniZinc text, decode(solution), 1) of the XCC model: one Boolean an option."""
    rows = xcc_rows(xcc)
    m = max(rows.n_options, 1)

    def s(ks):
        return "[" + ", ".join(f"x[{k + 1}]" for k in ks) + "]"

    lines = [f"array[1..{m}] of var bool: x;"]
    lines += [f"constraint sum({s(ks)}) = 1;" for ks in rows.exactly_one]
    lines += [f"constraint sum({s(ks)}) <= 1;" for ks in rows.at_most_one]
    for i, (plain, by_colour) in enumerate(rows.coloured):
        ys = []
        for j, ks in enumerate(by_colour):
            y = f"y_{i}_{j}"
            lines.append(f"var bool: {y};")
            lines.append(f"constraint forall(v in {s(ks)})(v -> {y}) /\\ ({y} -> exists({s(ks)}));")
            ys.append(y)
        lines.append(f"constraint sum([{', '.join(ys + [f'x[{k + 1}]' for k in plain])}]) <= 1;")
    lines += ["solve satisfy;", 'output ["x = \\(x);\\n"];']

    def decode(sol) -> list:
        return [rows.decode[k] for k in range(rows.n_options) if sol.x[k]]

    return "\n".join(lines) + "\n", decode, 1


def model_text(puzzle, merge: bool = True, best: bool = False, kind: str = "auto"):
    """The MiniZinc model text of ``puzzle``, its decoder and the multiplier of merged identical pieces."""
    if EDGES in puzzle.features and kind != "xcc":
        return edge_mzn(puzzle, merge, best)
    return xcc_mzn(puzzle.to_xcc())


@cache
def installed() -> tuple[str, ...]:
    """The solver tags MiniZinc can run here (empty without the binary)."""
    if shutil.which("minizinc") is None:
        return ()
    import json
    import subprocess

    try:
        out = subprocess.run(["minizinc", "--solvers-json"], capture_output=True, text=True, timeout=30).stdout
        configs = json.loads(out)
    except (OSError, ValueError, subprocess.TimeoutExpired):
        return ()
    tags = []
    for c in configs:
        name = c.get("id", "").rsplit(".", 1)[-1]
        if not c.get("executable") or name == "gist":
            continue  # a plug-in that needs a vendor library (CPLEX, Gurobi, ...), or Gecode's GUI
        tags.append(name)
    return tuple(dict.fromkeys(t for t in tags if t))


def check_backend(backend: str) -> None:
    """Refuse a missing MiniZinc binary or a backend MiniZinc does not have here, in one line."""
    if shutil.which("minizinc") is None:
        raise Unavailable(f"solver minizinc: the minizinc binary is not installed or not on PATH ({INSTALL})")
    if backend not in installed():
        raise UsageError(
            f"solver minizinc: MiniZinc has no solver {backend!r} here "
            f"(installed: {', '.join(installed()) or 'none'}; `minizinc --solvers` lists them)"
        )


class MiniZincOptions(ModelOptions):
    """The options of solver minizinc (`eternity solvers NAME` lists them with their help)."""

    backend = Option(
        str,
        "gecode",
        "a solver MiniZinc runs (`minizinc --solvers`): gecode (Debian's "
        "minizinc brings it), chuffed, cp-sat, ... where installed",
    )


class MiniZinc(SolverBase):
    """`minizinc`: the table and XCC models in MiniZinc, run by Gecode or any solver MiniZinc drives."""

    name = "minizinc"
    MODES = ("first", "count", "all", "best")

    @override
    def engine(self) -> str:
        return self.opts.backend

    Options = MiniZincOptions
    opts: MiniZincOptions

    @override
    @classmethod
    def here(cls) -> str:
        if extras.missing("engines"):
            return "MiniZinc's Python interface is not installed: pip install 'eternity[engines]'"
        if shutil.which("minizinc") is None:
            return f"no minizinc binary ({INSTALL})"
        return f"MiniZinc solvers {', '.join(installed()) or 'none'}"

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        extras.require("engines", "solver minizinc", "minizinc")
        check_backend(self.opts.backend)
        if self.opts.model == "table" and EDGES not in puzzle.features:
            raise UsageError("solver minizinc: model table is for edge-matching puzzles; use model=xcc")
        if mode == "best" and self.opts.model == "xcc":
            raise UsageError("solver minizinc: mode best uses the table model (the joins are scored)")

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        import minizinc

        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        text, decode, mult = model_text(puzzle, self.opts.identical == "merge", mode == "best", self.opts.model)
        model = minizinc.Model()
        model.add_string(text)
        instance = minizinc.Instance(minizinc.Solver.lookup(self.opts.backend), model)
        build_s = time.perf_counter() - t0
        timeout = None if limits.time_s is None else timedelta(seconds=max(0.05, limits.time_s - build_s))
        stats: dict = {"build_s": build_s, "backend": self.opts.backend, "model_chars": len(text)}
        want = limits.wanted(mode)
        S = minizinc.Status
        if mode in ("first", "best"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # Debian's Gecode library warns about its own global files
                result = instance.solve(timeout=timeout)
            stats["time_s"] = time.perf_counter() - t0 - build_s
            stats["minizinc"] = {k: v for k, v in result.statistics.items() if isinstance(v, (int, float, str))}
            if result.status == S.UNSATISFIABLE:
                return SolveResult(Status.UNSAT, [], None, None, stats)
            if not result.status.has_solution():
                return SolveResult(Status.LIMIT, [], None, None, stats)
            board = decode(result.solution)
            if mode == "first":
                return SolveResult(Status.SOLVED, [board], None, None, stats)
            score = int(result.objective)
            return SolveResult(Status.SOLVED, [board], None, score, stats, optimal=result.status == S.OPTIMAL_SOLUTION)
        kw = {"all_solutions": True}
        if want is not None:
            kw = {"nr_solutions": -(-want // mult)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = instance.solve(timeout=timeout, **kw)
        stats["time_s"] = time.perf_counter() - t0 - build_s
        sols = result.solution if isinstance(result.solution, list) else ([result.solution] if result.solution else [])
        complete = result.status in (S.ALL_SOLUTIONS, S.UNSATISFIABLE)
        boards = [decode(s) for s in sols[:want]] if mode == "all" else []
        return enumerated(mode, complete=complete, solutions=boards, count=len(sols) * mult, stats=stats, wanted=want)


def export_mzn(puzzle, path: str, options: dict | None = None) -> None:
    """The MiniZinc model (identical pieces kept apart, so an outside count means what it says)."""
    from puzzles.files import formats

    opts = options or {}
    text, _, _ = model_text(
        puzzle,
        merge=opts.get("identical", "distinct") == "merge",
        best=bool(opts.get("best", False)),
        kind=str(opts.get("model", "auto")),
    )
    formats.atomic_write(path, text)
