"""`portfolio`: several solver configurations race in parallel processes; the first verified answer wins.

Members are any registered solvers with options, written
``name:key=value,key=value;name:...``.  Each runs in its own forked process
under the same limits (its answer checked by the verifier there); the first
member to answer (a verified solution, a count, or a proof of
unsatisfiability) stops the others.  In mode best all run to the limit and
the best board wins.  The result says which member answered
(``stats["member"]``), so tables can tell which idea mattered.  The
members' ``warm`` hooks run in the parent before the fork: every child
starts with the compiled kernels loaded.
"""

from __future__ import annotations

import os
import time

from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.puzzle import EDGES, EXACT_COVER, GRID, SUMS

from .contract import MODES, Limits, SolverBase, SolveResult, Status
from .options import Option, Opts, assignments
from .race import race
from .registry import get

MEMBER_SLACK_S = 10.0  # with 10% of the limit, how long past it a member may run before it is killed (its build)

# By the puzzle's feature (the first it has, in this order): for edge puzzles the backtracker, then the CDCL side,
# then more orders; for polyforms the poly engine; for sums CP-SAT and SAT; for the rest XCC and CP-SAT.
AUTO = {
    EDGES: [
        "edge-backtrack:order=rowscan",
        "cube:order=rowscan",
        "edge-backtrack:order=frame-first",
        "edge-backtrack:order=spiral",
    ],
    # polyforms: the poly engine from two sides first (its tree depends on where the boundary is scanned)
    GRID: [
        "backtrack:engine=poly",
        "backtrack:engine=poly,sweep=270",
        "backtrack:engine=poly,sweep=0",
        "backtrack:engine=poly,sweep=180",
    ],
    SUMS: ["cpsat", "sat"],
    EXACT_COVER: ["backtrack", "cpsat", "sat"],
}


def parse_members(spec: str) -> list[tuple[str, dict]]:
    """``name:k=v,k=v;name2`` -> [(name, {k: v})]; the options are parsed by each solver."""
    out = []
    for part in (x.strip() for x in spec.split(";")):
        if not part:
            continue
        name, _, opts = part.partition(":")
        pairs = [x.strip() for x in opts.split(",") if x.strip()]
        out.append((name.strip(), assignments(pairs, f"solver portfolio: member {part!r}: option")))
    return out


class PortfolioOptions(Opts):
    """The options of solver portfolio (`eternity solvers NAME` lists them with their help)."""

    members = Option(
        str, "auto", "name:key=value,...;name:... (auto: one per core from a list that suits the puzzle kind)"
    )
    jobs = Option(int, 0, "with members=auto: how many (0: one per core)", lo=0, hi=256)


class Portfolio(SolverBase):
    """`portfolio`: solver configurations racing in parallel processes; the first verified answer wins."""

    name = "portfolio"
    MODES = MODES
    TAKES = frozenset({EXACT_COVER, SUMS})
    Options = PortfolioOptions
    opts: PortfolioOptions

    def members(self, puzzle) -> list[tuple[str, dict]]:
        """The members to race on ``puzzle``: (solver name, options), the default portfolio unless ``members`` is set."""
        spec = self.opts.members
        if spec == "auto":
            pool = next(pool for feature, pool in AUTO.items() if feature in puzzle.features)
            n = self.opts.jobs or os.cpu_count() or 1
            spec = ";".join(pool[i % len(pool)] for i in range(n))
        members = parse_members(spec)
        if not members:
            raise UsageError("solver portfolio: no members")
        for name, _ in members:
            if name == self.name:
                raise UsageError("solver portfolio: a portfolio cannot be its own member")
        return members

    def _solvers(self, puzzle, mode: str):
        out = []
        for name, opts in self.members(puzzle):
            s = get(name, opts)
            s.check(puzzle, mode)
            out.append((f"{name}:{','.join(f'{k}={v}' for k, v in opts.items())}".rstrip(":"), s))
        return out

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        self._solvers(puzzle, mode)

    @override
    def warm(self, puzzle, mode: str) -> None:
        for _, s in self._solvers(puzzle, mode):
            s.warm(puzzle, mode)

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        from .verified import solve_verified

        members = self._solvers(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        # the members' own limits end their searches; their builds (and reports) come on top, so
        # the race only kills past this slack (killed members lose their boards and their depth)
        deadline = None if limits.time_s is None else time.monotonic() + limits.time_s * 1.1 + MEMBER_SLACK_S

        def job_of(label, solver):
            def job(stop):
                # each member's progress lines, marked with its label (written from its own process)
                tell = None if progress is None else (lambda info: progress({"member": label, **info}))
                res, _ = solve_verified(solver, puzzle, mode, limits, tell)
                return res

            return job

        outcomes = race(
            [job_of(label, s) for label, s in members],
            deadline=deadline,
            settles=lambda r: mode != "best" and r.status.answered,
        )
        took = time.perf_counter() - t0
        report = {members[o.index][0]: (o.error or o.result.status.value) for o in outcomes}
        answers = [o for o in outcomes if not o.error and o.result.status.answered]
        if mode == "best":
            answers.sort(key=lambda o: -(o.result.best_score or -1))
        stats = {
            "time_s": took,
            "members": report,
            "member_nodes": {
                members[o.index][0]: o.result.measured.nodes
                for o in outcomes
                if not o.error and o.result.measured.nodes is not None
            },
        }
        deepest = {
            members[o.index][0]: o.result.measured.deepest
            for o in outcomes
            if not o.error and o.result.measured.deepest is not None
        }
        if deepest:  # how far the members got (polyform searches and beams report it)
            stats.update(member_deepest=deepest, deepest=max(deepest.values()))
        if not answers:
            errors = [
                o for o in outcomes if (o.error and not o.killed) or (o.result and o.result.status == Status.ERROR)
            ]
            limited = [o for o in outcomes if o.killed or (not o.error and o.result.status == Status.LIMIT)]
            if limited or not errors:
                return SolveResult(Status.LIMIT, [], None, None, stats)
            msg = "; ".join(f"{members[o.index][0]}: {o.error or o.result.message}" for o in errors)
            return SolveResult(Status.ERROR, [], None, None, stats, message=msg)
        win = answers[0]
        res: SolveResult = win.result
        stats.update(
            member=members[win.index][0],
            member_stats=res.stats,
            member_search_s=res.search_s,
            nodes=res.measured.nodes,
            conflicts=res.measured.conflicts,
        )
        msg = f"answered by {members[win.index][0]}" + (f"; {res.message}" if res.message else "")
        out = SolveResult(res.status, res.solutions, res.count, res.best_score, stats, msg, optimal=res.optimal)
        out.evidence = res.evidence  # what the winning member's answer rests on, as its own solve said
        return out
