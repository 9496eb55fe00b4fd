"""``solve_verified``: the one path from a solver to an answer anyone sees.

The CLI and the runner both call it, so an answer is accepted by the same
rule everywhere: every solution a solver returns passes the independent
verifier (``puzzles.verify``), which knows nothing of how it was found; one
rejected solution turns the result into an error, never into an answer.
"""

from __future__ import annotations

import copy
import time

from puzzles.verify import verify

from . import registry
from .contract import Evidence, Limits, Progress, SolveResult, Status, claim


def accepted(puzzle, solution, mode: str) -> bool:
    """One solution checked: a full valid board, or in mode best a full board whose only flaws are mismatches."""
    rep = verify(puzzle, solution, allow_mismatch=(mode == "best"))
    return rep.legal and rep.complete


def solve_verified(
    solver, puzzle, mode: str = "first", limits: Limits | None = None, progress: Progress | None = None
) -> tuple[SolveResult, bool | None]:
    """Run ``solver`` on ``puzzle`` and verify every solution it returns.

    Every solution is checked against a copy of the puzzle taken before the solver was called, one the
    solver never held.  Returns the result and ``verified``: True when every solution passed,
    False when one failed (the status is then ``error``), None when there
    was nothing to check (a count, or no solution).  ``stats["verify_s"]``
    holds the time the checks took.

    The result carries three clocks: ``load_s`` (the solver's import and its
    ``warm``: what a warm process no longer pays), ``build_s`` and
    ``search_s``.  A solver reports ``stats["time_s"]`` (its search) and
    ``stats["build_s"]``; whichever it leaves out is the rest of its call."""
    solver.check(puzzle, mode)
    # the verifier's own copy, taken before the solver holds the puzzle: a solver that changes the puzzle it is
    # given (a plug-in that drops a piece, a colour, a constraint) is checked against the puzzle as it was asked
    pristine = copy.deepcopy(puzzle)
    t0 = time.perf_counter()
    limits = limits or Limits()
    if registry.is_own(solver):
        solver.warm(puzzle, mode)
        t1 = time.perf_counter()
        res = solver.solve(puzzle, mode=mode, limits=limits, progress=progress)
    else:
        t1, res = _plugin_solve(solver, puzzle, mode, limits, progress)
    call = time.perf_counter() - t1
    res.load_s = registry.take_import_time(type(solver)) + (t1 - t0)
    search, build = res.measured.time_s, res.measured.build_s
    res.search_s = float(search) if search is not None else max(0.0, call - (build or 0.0))
    res.build_s = float(build) if build is not None else max(0.0, call - res.search_s)
    # the checks may run into half the grace; the other half is the caller's, to write what was checked
    checks_by = None if limits.time_s is None else t1 + limits.time_s + grace(limits.time_s) / 2
    verified = check_answer(pristine, res, mode, checks_by)
    res.evidence = evidence_of(solver, res, mode)
    return res, verified


def _plugin_solve(solver, puzzle, mode: str, limits: Limits, progress) -> tuple[float, SolveResult]:
    """A plug-in solver's solve, held to the contract: what it raises (but a ``UsageError``, its refusal) or
    returns that is not a ``SolveResult`` is an error result naming the plug-in, never the workbench's bug."""
    import os

    from puzzles.errors import UsageError

    name = getattr(solver, "name", type(solver).__name__)
    t1 = time.perf_counter()
    cwd = os.getcwd()
    try:
        solver.warm(puzzle, mode)
        t1 = time.perf_counter()
        res = solver.solve(puzzle, mode=mode, limits=limits, progress=progress)
    except (UsageError, MemoryError):  # a refusal, and running out of memory (the runner's `memout`), stay as they are
        raise
    except Exception as e:  # noqa: BLE001 - the plug-in's failure, named as its own in one line
        why = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        return t1, SolveResult(Status.ERROR, [], None, None, {}, f"solver {name} (a plug-in) failed: {why}")
    finally:  # a plug-in that changed the working directory: a relative output path still means what it meant
        if os.getcwd() != cwd:
            os.chdir(cwd)
    broken = None
    if not isinstance(res, SolveResult):
        broken = f"solve() returned {type(res).__name__}, not a SolveResult"
    elif not isinstance(res.status, Status) or not isinstance(res.solutions, list):
        broken = "its SolveResult's status is not a Status or its solutions not a list"
    elif res.count is not None and (isinstance(res.count, bool) or not isinstance(res.count, int) or res.count < 0):
        broken = f"its count {res.count!r} is not a whole number"
    elif not isinstance(res.stats, dict):
        broken = "its stats are not a dict"
    if broken:
        return t1, SolveResult(Status.ERROR, [], None, None, {}, f"solver {name} (a plug-in) is broken: {broken}")
    return t1, res


def grace(time_s: float) -> float:
    """How far past its time limit a solve may run to check and return what it found: a tenth of the limit,
    at least a second and at most a minute.  The command line's wall time (writing included) ends within it."""
    return min(60.0, max(1.0, 0.1 * time_s))


def check_answer(puzzle, res: SolveResult, mode: str, deadline: float | None = None) -> bool | None:
    """The acceptance rule of every answer, on every path (a local solve, a part on a Dask worker, the answer
    a cluster gathers): every solution passes the verifier, or the result becomes an error.  Returns True
    when every solution passed, False when one failed, None when there was none to check; the checks' time
    is ``stats["verify_s"]``.

    ``deadline`` (on ``time.perf_counter``): in modes sample and all, the solutions not yet checked when it
    passes are dropped, not returned unchecked, and the result is ``limit`` (a sample of ten million draws
    stopped by its time limit once spent longer checking than drawing)."""
    if not res.solutions:
        return None
    t0 = time.perf_counter()
    checked = 0
    verified = True
    for s in res.solutions:
        if (
            deadline is not None
            and mode in ("sample", "all")
            and checked
            and checked % 256 == 0
            and time.perf_counter() > deadline
        ):
            dropped = len(res.solutions) - checked
            res.solutions = res.solutions[:checked]
            res.status = Status.LIMIT
            res.stats["dropped_unchecked"] = dropped
            note = f"{dropped} solutions dropped unchecked at the time limit"
            res.message = f"{res.message}; {note}" if res.message else note
            break
        if not accepted(puzzle, s, mode):
            verified = False
            break
        checked += 1
    res.stats["verify_s"] = time.perf_counter() - t0
    if not verified:
        res.status = Status.ERROR
        res.message = "a returned solution failed verification" + (f" ({res.message})" if res.message else "")
    return verified


def evidence_of(solver, res: SolveResult, mode: str) -> str | None:
    """What an answer rests on (``Evidence``), by one rule for every solver.

    A result that answered nothing has none.  Evidence a solver set itself (a checked certificate, a count of
    verified models, a diagram) stands.  Otherwise a board is verified; a count, "no solution" and a proven
    optimum are an exhaustion when this project's own search finished, and the engine's claim when not.

    A plug-in solver (``registry.is_own`` false) chooses nothing: whatever evidence it sets and whatever it
    declares (``NATIVE``) are set aside, its boards are verified and the rest of its answers are its claim."""
    if not res.status.answered:
        return None
    own = registry.is_own(solver)
    if res.evidence and own:
        return res.evidence
    native = own and bool(getattr(solver, "NATIVE", False))
    engine = solver.engine() if hasattr(solver, "engine") else getattr(solver, "name", "")
    rests = Evidence.EXHAUSTION.value if native else claim(engine)
    if res.status == Status.UNSAT:
        return rests
    if mode == "best":
        return rests if res.optimal else Evidence.VERIFIED.value
    if mode == "count" or (mode == "all" and not res.solutions):
        return rests
    return Evidence.VERIFIED.value
