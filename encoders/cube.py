"""`cube`: cube-and-conquer on the direct edge-matching CNF (Heule, Kullmann, Wieringa, Biere 2011).

The splitter cuts the puzzle into *cubes*: every consistent way of filling
the first ``depth`` cells of a static search order (the native
backtracker's orders), each a list of placement literals.  The cubes
partition the solutions, so counts add up, and all cubes refuted is a proof
that there is no solution.  Each cube is then solved by one incremental
CDCL solver under assumptions: the clauses it learns in one cube stay for
the next, and a found solution is blocked for the rest.  With ``jobs`` > 1,
forked processes take cubes from a shared counter (hard cubes do not hold
up the others); in mode first the first solution stops them all.  The
runner can spread a count over a cluster cube by cube (``split_depth`` in a
config: ``split_parts``/``part_options``).
"""

from __future__ import annotations

import time
from collections import defaultdict

from pysat.solvers import Solver as PySatSolver
from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.kinds.orders import ORDERS, search_order
from puzzles.puzzle import EDGES
from solving import BuildLate, Limits, Option, Opts, SolverBase, SolveResult, Status, enumerated
from solving.race import race

from .amo import ENCODINGS
from .cnf import Encoding
from .solver import BACKENDS, IDENTICAL, ONE_SHOT, UNLIMITED, decoded, encode, late, solve_until

STATIC = tuple(o for o in ORDERS if o != "mrv")
INCREMENTAL = tuple(b for b in BACKENDS if b not in ONE_SHOT + UNLIMITED)


MAX_CUBES = 2_000_000  # more cubes than any split needs; a depth that makes more is refused, not built


def make_cubes(
    p: EdgePuzzle, enc: Encoding, order: str, depth: int = 0, target: int = 100, deadline: float | None = None
) -> list[list[int]] | None:
    """The cubes: every consistent filling of the order's first ``depth`` cells (distinct pieces,
    matching joins, no placement the encoding's unit clauses forbid).  ``depth`` 0: the first depth
    giving at least ``target`` cubes (or the whole board).  None when ``deadline`` (time.monotonic)
    passes while they are made; more than MAX_CUBES is a UsageError naming the depth."""
    banned = {-c[0] for c in enc.clauses if len(c) == 1 and c[0] < 0}
    fixed = {f.cell: (f.piece, p.placed(f.piece, f.rotation)) for f in p.fixed}
    by_cell = defaultdict(list)  # cell -> (var, piece, colours shown)
    for v, pl in enc.decision.items():
        shown = p.placed(pl.piece, pl.rotation)
        if v in banned or (pl.cell in fixed and fixed[pl.cell] != (pl.piece, shown)):
            continue
        by_cell[pl.cell].append((v, pl.piece, shown))
    cells = search_order(p, order)
    limit = len(cells) if depth == 0 else min(depth, len(cells))
    copies = {q: len(g) for q, g in enc.groups.items()} if enc.groups else {}  # merged identical pieces
    # a frontier of partial fillings: (vars, pieces used, cell -> colours shown)
    level: list[tuple[list[int], tuple, dict]] = [([], (), {})]
    for d in range(limit):
        if depth == 0 and len(level) >= target:
            break
        cell = cells[d]
        nbs = [(s, p.neighbour(cell, s)) for s in range(4)]
        nxt: list = []
        for i, (vs, used, shown_at) in enumerate(level):
            if i & 1023 == 0 and deadline is not None and time.monotonic() > deadline:
                return None
            if len(nxt) > MAX_CUBES:
                raise UsageError(
                    f"solver cube: depth {depth} makes more than {MAX_CUBES:,} cubes; choose a smaller "
                    "depth (0 picks one from the cubes option)"
                )
            for v, piece, shown in by_cell[cell]:
                if used.count(piece) >= copies.get(piece, 1):
                    continue
                if any(nb in shown_at and shown_at[nb][(s + 2) % 4] != shown[s] for s, nb in nbs if nb >= 0):
                    continue
                nxt.append((vs + [v], used + (piece,), {**shown_at, cell: shown}))
        level = nxt
    return [vs for vs, _, _ in level]


class CubeOptions(Opts):
    """The options of solver cube (`eternity solvers NAME` lists them with their help)."""

    backend = Option(str, "cadical195", "incremental python-sat solver for the cubes", INCREMENTAL)
    amo = Option(str, "seqcounter", "at-most-one encoding", ENCODINGS)
    support = Option(bool, True, "support clauses: arc consistency on every join (see sat)")
    redundant = Option(bool, False, "each colour on exactly its number of joins (cardinality)")
    symmetry = Option(bool, False, "fix a corner piece at A1 (square bordered boards), counts times 4")
    identical = Option(str, "merge", IDENTICAL, ("merge", "distinct"))
    order = Option(str, "rowscan", "splitter: the backtracker's static order whose first cells a cube fills", STATIC)
    depth = Option(int, 0, "cells a cube fills (0: the first depth with at least `cubes` cubes)", lo=0, hi=10_000)
    cubes = Option(int, 100, "with depth 0: how many cubes to aim for (each costs a solver call)", lo=1, hi=10_000_000)
    jobs = Option(int, 1, "processes taking cubes", lo=1, hi=256)
    part = Option(int, -1, "solve only this cube (0-based; the runner's split)", lo=-1)


class Cube(SolverBase):
    """`cube`: cube-and-conquer on the direct edge-matching CNF: cubes from the backtracker's order, CDCL under assumptions."""

    name = "cube"
    TAKES = frozenset({EDGES})
    CAN_SPLIT = True

    @override
    def engine(self) -> str:
        return self.opts.backend

    Options = CubeOptions
    opts: CubeOptions

    def encode(self, puzzle: EdgePuzzle, deadline: float | None = None) -> Encoding:
        """The direct CNF; ``deadline`` on ``time.perf_counter`` (``BuildLate`` once it has passed)."""
        return encode(puzzle, {**self.opts.as_dict(), "model": "direct", "colors": "pairs"}, deadline)

    @override
    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        o = self.opts
        limits = limits or Limits()
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else time.monotonic() + limits.time_s
        try:
            enc = self.encode(puzzle, None if limits.time_s is None else t0 + limits.time_s)
        except BuildLate:
            return late(t0)
        cubes = make_cubes(puzzle, enc, o.order, o.depth, o.cubes, deadline)
        if cubes is None:  # the time limit passed while the cubes were made
            return SolveResult(
                Status.LIMIT,
                [],
                None,
                None,
                {"build_s": time.perf_counter() - t0},
                "the time limit passed while the cubes were made (a smaller depth makes fewer)",
            )
        if o.part >= 0:
            if o.part >= len(cubes):
                raise UsageError(f"solver cube: part {o.part} out of range (the split has {len(cubes)} cubes)")
            cubes = [cubes[o.part]]
        build_s = time.perf_counter() - t0
        want = limits.wanted(mode)
        stats = {
            "build_s": build_s,
            "vars": enc.n_vars,
            "clauses": len(enc.clauses),
            "cubes": len(cubes),
            "depth": len(cubes[0]) if cubes else 0,
            "jobs": o.jobs,
        }
        t1 = time.perf_counter()
        if o.jobs == 1 or len(cubes) <= 1:
            part = _conquer(enc, cubes, range(len(cubes)), mode, want, deadline, o.backend, lambda: False, progress)
            parts = [part]
        else:
            parts = self._parallel(enc, cubes, mode, want, deadline)
        count = sum(p["count"] for p in parts)
        solutions = [sol for p in parts for sol in p["solutions"]]
        refuted = sum(p["refuted"] for p in parts)
        complete = all(p["complete"] for p in parts) and refuted + sum(p["solved_cubes"] for p in parts) == len(cubes)
        stats.update(
            time_s=time.perf_counter() - t1, refuted_cubes=refuted, conflicts=sum(p["conflicts"] for p in parts)
        )
        if mode == "first" and solutions:
            complete = False
        sols = [decoded(puzzle, enc, s) for s in solutions]
        res = enumerated(
            mode,
            complete=complete,
            solutions=sols,
            count=count * enc.multiplier,
            stats=stats,
            wanted=None if want is None else want * enc.multiplier,
        )
        if res.status == Status.LIMIT and any(p.get("error") for p in parts):
            res.message = "; ".join(p["error"] for p in parts if p.get("error"))
        return res

    def _parallel(self, enc: Encoding, cubes: list, mode: str, want, deadline) -> list[dict]:
        import multiprocessing as mp

        nxt = mp.get_context("fork").Value("l", 0)

        def take():
            with nxt.get_lock():
                i = nxt.value
                nxt.value += 1
            return i

        def job(stop):
            return _conquer(enc, cubes, iter(take, None), mode, want, deadline, self.opts.backend, stop, None)

        outcomes = race(
            [job] * self.opts.jobs, deadline=deadline, settles=lambda r: mode == "first" and bool(r["solutions"])
        )
        parts = []
        for oc in outcomes:
            if oc.error:
                parts.append(
                    {
                        "count": 0,
                        "solutions": [],
                        "refuted": 0,
                        "solved_cubes": 0,
                        "complete": False,
                        "conflicts": 0,
                        "error": oc.error,
                    }
                )
            else:
                parts.append(oc.result)
        return parts

    @override
    def split_parts(self, puzzle, depth: int) -> int:
        c = Cube({**self.opts.as_dict(), "depth": depth})
        return len(make_cubes(puzzle, c.encode(puzzle), c.opts.order, depth) or [])

    @override
    def part_options(self, depth: int, part: int) -> dict:
        return {"depth": depth, "part": part, "jobs": 1}


def _conquer(enc: Encoding, cubes: list, indices, mode: str, want, deadline, backend: str, stop, progress) -> dict:
    """Solve cubes in turn with one incremental solver: ``indices`` yields cube numbers (a range, or a
    shared counter); a number past the end ends the loop."""
    keep = mode != "count"
    count = refuted = solved_cubes = 0
    solutions: list[list[int]] = []
    complete = True
    s = PySatSolver(name=backend, bootstrap_with=enc.clauses)
    try:
        for i in indices:
            if i >= len(cubes):
                break
            cube = cubes[i]
            found_here = 0
            while True:
                res = solve_until(s, enc.assumptions + cube, deadline, 0, stop, time.monotonic)
                if res is None:
                    complete = False
                    break
                if not res:
                    if found_here:
                        solved_cubes += 1
                    else:
                        refuted += 1
                    break
                model = s.get_model()
                chosen = [v for v in enc.decision if model[v - 1] > 0]
                count += 1
                found_here += 1
                if keep and (want is None or len(solutions) < want):
                    solutions.append(chosen)
                if want is not None and count >= want:
                    complete = False
                    break
                s.add_clause([-v for v in chosen])
            if not complete:
                break
            if progress is not None and (refuted + solved_cubes) % 50 == 0:
                progress({"cubes_done": refuted + solved_cubes, "cubes": len(cubes), "solutions": count})
            if stop():
                complete = False
                break
        st = s.accum_stats() or {}
    finally:
        s.delete()
    return {
        "count": count,
        "solutions": solutions,
        "refuted": refuted,
        "solved_cubes": solved_cubes,
        "complete": complete,
        "conflicts": st.get("conflicts", 0),
    }
