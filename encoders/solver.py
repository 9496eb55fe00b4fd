"""`sat`: any python-sat backend on the CNF encodings of ``cnf.py``.

``first`` solves once; ``count`` and ``all`` add a blocking clause over the
decision variables after every model, and a count is exact only when the
solver finally answers UNSAT.  A time limit interrupts the solver; a
conflict limit bounds each call.
"""

from __future__ import annotations

import functools
import threading
import time
from typing import Any

from pysat.solvers import Solver as PySatSolver
from pysat.solvers import SolverNames
from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.puzzle import CNF, EDGES, EXACT_COVER, SUMS
from solving import (
    BuildLate,
    Evidence,
    Limits,
    Option,
    Opts,
    SolverBase,
    SolveResult,
    Status,
    claim,
    cnf_certificate,
    enumerated,
    enumerated_claim,
    past,
)
from solving.tally import BogusModel, Tally

from . import drat
from .amo import ENCODINGS
from .cnf import Encoding, direct_cnf, magic_cnf, xcc_cnf
from .plugins import ENCODING_OPTION


def _available() -> tuple[str, ...]:
    """The backends this python-sat build can create (its name list also has ones it was built without)."""
    out = []
    for n in (n for n in vars(SolverNames) if not n.startswith("_")):
        try:
            PySatSolver(name=n).delete()
        except Exception:  # noqa: BLE001 - NoSuchSolverError and friends: not in this build
            continue
        out.append(n)
    return tuple(out)


BACKENDS = _available()
# What pysat does not offer for some backends (its own errors say so): no limited solve, so neither a
# time limit nor a conflict budget can stop them; and Kissat solves once per solver (no incremental
# solving), so an enumeration builds a fresh solver, with the blocking clauses so far, for every model.
UNLIMITED = ("kissat404", "lingeling")
# the backends python-sat keeps a DRAT proof for (``with_proof``) that a time limit can stop
# (MapleSAT's proofs, once clauses are added between calls as an enumeration adds them, do not check: it is left out)
PROOF_BACKENDS = tuple(
    n for n in BACKENDS if n.startswith(("cadical", "glucose", "maple")) and n not in UNLIMITED and n != "maplesat"
)
ONE_SHOT = ("kissat404",)
# How long a child solving with no clock (``Sat._in_child``) has past its limit to report what it has.
CHILD_GRACE_S = 0.5
# The conflicts of one slice of a solve that must poll ``stop()`` between slices (cube-and-conquer's children):
# a fixed number, so that the search does not depend on how fast the machine runs.
SLICE_CONFLICTS = 10_000


def _daemon() -> bool:
    """Whether this process is a race's child (a portfolio member, a cube worker), which may not fork: a backend
    without interrupt then runs here in slices of a fixed number of conflicts."""
    import multiprocessing

    return bool(multiprocessing.current_process().daemon)


def interruptible(backend: str) -> bool:
    """Whether python-sat can interrupt ``backend`` from another thread: it releases the GIL while it
    searches.  Its CaDiCaL holds the GIL and has no interrupt; Kissat and Lingeling have no limited solve."""
    return backend not in UNLIMITED and not backend.startswith("cadical")


class _Backend:
    """One pysat backend behind the three calls an enumeration needs, whatever the backend lacks."""

    def __init__(self, name: str, clauses: list, assumptions: list, proof: bool = False, atmost=()):
        if proof:  # a refutation under assumptions derives their negation, not the empty clause: units instead
            clauses, assumptions = clauses + [[a] for a in assumptions], []
        if not clauses:  # MapleSAT crashes on a solver with no clause: one unit of a variable nothing else uses
            top = max((abs(x) for x in assumptions), default=0)
            top = max([top] + [abs(x) for lits, _ in atmost for x in lits])
            clauses = [[top + 1]]
        self.name, self.clauses, self.assumptions = name, clauses, assumptions
        self.one_shot = name in ONE_SHOT
        self.s = None if self.one_shot else PySatSolver(name=name, bootstrap_with=clauses, with_proof=proof)
        for lits, k in atmost:  # a backend of CARD_BACKENDS: the KNF's cardinality constraints as they are
            assert self.s is not None
            self.s.add_atmost(lits, k)
        self.blocked: list[list[int]] = []
        self.model: list[int] | None = None

    def solve(self, deadline: float | None, conflicts: int):
        if self.name in UNLIMITED:
            if self.one_shot:
                with PySatSolver(name=self.name, bootstrap_with=self.clauses + self.blocked) as s:
                    res = s.solve(assumptions=self.assumptions)
                    self.model = s.get_model() if res else None
                return res
            assert self.s is not None
            res = self.s.solve(assumptions=self.assumptions)
        elif deadline is not None and not interruptible(self.name):  # in a child of a race: fixed slices
            res = solve_until(self.s, self.assumptions, deadline, conflicts, stop=lambda: False)
        else:
            res = solve_until(self.s, self.assumptions, deadline, conflicts)
        assert self.s is not None
        self.model = self.s.get_model() if res else None
        return res

    def proof(self) -> bytes:
        """The DRAT proof the backend kept (``proof=True``), as text."""
        lines = self.s.get_proof() if self.s is not None else None
        return ("\n".join(lines) + "\n").encode() if lines else b""

    def block(self, clause: list[int]) -> None:
        self.blocked.append(clause)  # kept either way: a proof is checked against every clause the solver holds
        if self.s is not None:  # a one-shot backend starts afresh with every blocked clause
            self.s.add_clause(clause)

    def interrupt(self) -> None:
        if self.s is not None:
            self.s.interrupt()

    def stats(self) -> dict:
        try:
            return (self.s.accum_stats() if self.s is not None else None) or {}
        except NotImplementedError:  # Kissat exposes none
            return {}

    def close(self) -> None:
        if self.s is not None:
            self.s.delete()


IDENTICAL = (
    "direct: identical pieces share their variables, each group on as many cells as it has copies "
    "(merge: no symmetric copies of a search; without fixed, spare pieces or symmetry=true), or each "
    "piece its own (distinct)"
)


def encode(puzzle, options: dict, deadline: float | None = None) -> Encoding:
    """The CNF of ``puzzle`` the options ask for: a plug-in encoding by name (``encoding``), else the model
    (``xcc``, ``direct`` for edge matching, sums for magic figures) with its at-most-one and colour encodings."""
    if CNF in puzzle.features:  # a published formula is its own encoding
        if options.get("encoding"):
            raise UsageError("a CNF formula is its own encoding: encoding= does not apply")
        return cnf_as_given(puzzle)
    if options.get("encoding"):
        from . import catalogue

        return catalogue.build(options["encoding"], puzzle, deadline)
    model = options["model"]
    if SUMS in puzzle.features:  # sums beside the exact cover: pseudo-Boolean constraints
        if model == "direct":
            raise UsageError("model direct is for edge-matching puzzles")
        return magic_cnf(puzzle, options["amo"], options["colors"])
    if model == "auto":
        model = "direct" if EDGES in puzzle.features else "xcc"
    if model == "direct":
        if EDGES not in puzzle.features:
            raise UsageError("model direct is for edge-matching puzzles; use model=xcc")
        if options["symmetry"] and not (
            puzzle.rows == puzzle.cols and not puzzle.fixed and puzzle.bordered and puzzle.n_pieces == puzzle.n_cells
        ):
            raise UsageError("symmetry=true needs a square bordered board without fixed or spare pieces")
        return direct_cnf(
            puzzle,
            options["amo"],
            options["redundant"],
            options["symmetry"],
            options["support"],
            options.get("identical") == "merge",
            deadline,
        )
    past(deadline)
    return xcc_cnf(puzzle.to_xcc(), options["amo"], options["colors"], deadline)


MAX_FREE_VARS = 100_000  # free counted variables a formula may have: 2^100,000 has 30,103 digits, printed at once


def cnf_as_given(f) -> Encoding:
    """A CNF formula (``puzzles.kinds.cnf_formula``) as an encoding: a solution is the model's true variables, and a
    count is of its models over the formula's projection (every declared variable when it names none).  A
    counted variable no clause mentions is free: it doubles the count (``multiplier``) and is not searched."""
    used = f.used
    if f.projection is None:  # every declared variable counts: the free ones are the declared ones no clause uses
        on, free = sorted(used), f.n_vars - len(used)
    else:
        counted = set(f.projection)
        on, free = sorted(used & counted), len(counted - used)
    if free > MAX_FREE_VARS:
        raise UsageError(
            f"{f.file or f.name or 'the formula'}: {free:,} of its counted variables appear in no clause: its count, "
            f"2^{free:,} times the rest, has over {int(free * 0.30103):,} digits; declare the variables it uses "
            f"(at most {MAX_FREE_VARS:,} free ones)"
        )
    atmost = [([-x for x in lits], len(lits) - k) for lits, k in f.atleast]
    clauses = [list(c) for c in f.clauses]
    n_vars = f.n_vars
    decoder: Any = sorted
    if f.n_vars > 2 * len(used) + 1024:  # sparse ids (one variable numbered 67,108,864): the engines allocate by id
        back = sorted(used)
        new = {v: i + 1 for i, v in enumerate(back)}
        clauses = [[new[x] if x > 0 else -new[-x] for x in c] for c in clauses]
        atmost = [([new[x] if x > 0 else -new[-x] for x in lits], k) for lits, k in atmost]
        on, used, n_vars = [new[v] for v in on], set(new.values()), len(back)
        decoder = functools.partial(_renumbered, tuple(back))
    enc = Encoding(clauses, n_vars, dict.fromkeys(sorted(used), None), model="cnf-file", atmost=atmost)
    enc.project = on
    enc.multiplier = 2**free
    enc.decoder = decoder
    return enc


def _renumbered(back: tuple[int, ...], chosen) -> list[int]:
    """A model's true variables in the formula's own numbering (``cnf_as_given`` numbered the used ones 1..k)."""
    return sorted(back[v - 1] for v in chosen)


# the options that shape the CNF the workbench builds: a named encoding or a formula fixes its CNF, and refuses them
SHAPING = ("model", "amo", "colors", "support", "redundant", "symmetry", "identical")


def refuse_shaping(solver, puzzle) -> None:
    """Refuse an option given by name that would shape a CNF this solve does not build: beside ``encoding=NAME``
    (the name fixes the CNF) or on a formula (its own CNF)."""
    given = [k for k in SHAPING if k in solver.given]
    if not given:
        return
    if CNF in puzzle.features:
        raise UsageError(f"solver {solver.name}: option {given[0]} does not apply to a CNF formula (it is its own CNF)")
    if solver.opts.encoding:
        raise UsageError(
            f"solver {solver.name}: option {given[0]} does not apply beside encoding={solver.opts.encoding} "
            "(a named encoding fixes its CNF; `eternity encodings PUZZLE` lists them)"
        )


def check_cnf(solver, puzzle) -> None:
    """What every solver of a CNF encoding refuses before any work: shaping options on a formula or beside a
    named encoding (``refuse_shaping``), and a named encoding that does not take the puzzle."""
    refuse_shaping(solver, puzzle)
    if solver.opts.encoding:
        takes(solver.opts.encoding, puzzle)


def takes(name: str, puzzle) -> None:
    """Refuse, before any work, an encoding nobody knows or one that does not take this puzzle's kind."""
    from . import catalogue, plugins

    if name in catalogue.NAMED:
        if not catalogue.applies(name, puzzle):
            raise UsageError(f"encoding {name} does not encode {puzzle.kind} puzzles")
        return
    if name not in plugins.names():
        plugged = plugins.names()
        raise UsageError(
            f"unknown encoding {name!r} (`eternity encodings PUZZLE` lists those that apply; built-in: "
            + ", ".join(sorted(catalogue.NAMED))
            + (f"; plug-ins: {', '.join(plugged)}" if plugged else "")
            + ")"
        )
    plugins.takes(name, puzzle)


# backends that take cardinality constraints natively (a KNF encoding's lines); others get them as clauses
CARD_BACKENDS = ("minicard", "gluecard3", "gluecard4")


def late(t0: float) -> SolveResult:
    """The answer of a solve whose time limit passed while its CNF was being built."""
    return SolveResult(
        Status.LIMIT,
        [],
        None,
        None,
        {"build_s": time.perf_counter() - t0, "time_s": 0.0},
        "the time limit passed while the CNF was being built",
    )


class CnfOptions(Opts):
    """The options of the CNF a SAT solver is given, shared by `sat` and `external`: the model, its at-most-one
    and colour encodings, its redundant clauses, or a plug-in encoding in their place."""

    amo = Option(str, "seqcounter", "at-most-one encoding", ENCODINGS)
    colors = Option(str, "pairs", "coloured items: pairs of clashing options, or colour variables", ("pairs", "vars"))
    model = Option(
        str,
        "auto",
        "xcc (any puzzle) or direct (edge matching); auto picks direct for edges",
        ("auto", "xcc", "direct"),
    )
    support = Option(
        bool,
        True,
        "direct: a join's colour implies a placement showing it on each side (arc consistency by unit propagation)",
    )
    redundant = Option(bool, False, "direct: each colour on exactly its number of joins (cardinality)")
    symmetry = Option(bool, False, "direct: fix a corner piece at A1, count multiplied by 4")
    identical = Option(str, "merge", IDENTICAL, ("merge", "distinct"))
    encoding = ENCODING_OPTION


class SatOptions(CnfOptions):
    """The options of solver sat (`eternity solvers NAME` lists them with their help)."""

    backend = Option(str, "cadical195", "python-sat solver", BACKENDS)
    conflicts = Option(int, 0, "conflict limit per solver call (0: none)", lo=0)
    certify = Option(
        bool,
        False,
        "keep the backend's DRAT proof in memory (" + ", ".join(PROOF_BACKENDS) + ") and check an "
        "unsatisfiable with it: checked, the answer is by certificate; without one it is the backend's claim",
    )


class Sat(SolverBase):
    """`sat`: CNF encodings (XCC or direct edge matching) through any python-sat backend."""

    name = "sat"
    TAKES = frozenset({EXACT_COVER, SUMS, CNF})

    @override
    def engine(self) -> str:
        return self.opts.backend

    Options = SatOptions
    opts: SatOptions

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        if self.opts.certify and self.opts.backend not in PROOF_BACKENDS:
            raise UsageError(
                f"solver sat: backend {self.opts.backend} keeps no proof; certify=true needs one of "
                + ", ".join(PROOF_BACKENDS)
            )
        check_cnf(self, puzzle)

    def _in_child(self, puzzle, mode: str, limits: Limits) -> SolveResult:
        """A time-limited solve by a backend that python-sat cannot interrupt (CaDiCaL, Kissat 4.0.4,
        Lingeling): the CNF is built here, within the limit, then searched in a forked child process that runs
        with no clock, so that its search is the uninterrupted one whatever the machine's load.  At the limit
        the child is told to stop (an enumeration stops between models and reports what it has) and, if it is
        inside a call, killed: the answer is then ``limit`` with nothing found."""
        from solving.race import race

        t0 = time.perf_counter()
        assert limits.time_s is not None
        try:
            enc = encode(puzzle, self.opts.as_dict(), t0 + limits.time_s)
        except BuildLate:
            return late(t0)
        built = time.perf_counter() - t0
        left = limits.time_s - built
        if left <= 0:
            return late(t0)
        inner = Limits(time_s=None, nodes=limits.nodes, solutions=limits.solutions)
        options = self.opts.as_dict()

        def job(stop):
            return Sat(options)._solve(puzzle, mode, inner, None, stop, (enc, built))

        (out,) = race([job], settles=lambda r: True, deadline=time.monotonic() + left, grace=CHILD_GRACE_S)
        if out.result is not None:
            out.result.stats["child_process"] = True
            return out.result
        if out.killed:
            why = f"the time limit ended the child process of backend {self.opts.backend} (python-sat cannot stop it)"
            return _ended(t0, self.opts.backend, why)
        return _ended(t0, self.opts.backend, f"solver sat ({self.opts.backend}): {out.error}", Status.ERROR)

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        backend = self.opts.backend
        if backend in UNLIMITED and self.opts.conflicts:
            raise UsageError(
                f"solver sat: backend {backend} cannot be stopped by a conflict limit (python-sat has no limited "
                "solve for it): drop the limit or choose another backend"
            )
        if limits.time_s is not None and not interruptible(backend) and not _daemon():
            return self._in_child(puzzle, mode, limits)
        return self._solve(puzzle, mode, limits, progress)

    def _solve(self, puzzle, mode: str, limits: Limits, progress, stop=None, built=None) -> SolveResult:
        """The solve itself: ``stop()`` (a child's) is polled between models; ``built``: the encoding and the
        seconds it took, when the parent built it."""
        backend = self.opts.backend
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else t0 + limits.time_s  # encoding counts too
        if built is not None:
            enc, build_s = built
        else:
            try:
                enc = encode(puzzle, self.opts.as_dict(), deadline)
            except BuildLate:
                return late(t0)
            build_s = time.perf_counter() - t0
        stats: dict[str, Any] = {
            "build_s": build_s,
            "vars": enc.n_vars,
            "clauses": enc.n_constraints,
            "literals": enc.n_literals,
            "model": enc.model,
            "backend": self.opts.backend,
        }
        native = backend in CARD_BACKENDS and not self.opts.certify
        if enc.atmost and not native:  # cardinality constraints as clauses for a backend without them
            stats["cardinality"] = "as clauses (sequential counter)"
            enc = enc.expanded()
        want = limits.wanted(mode)
        keep = mode != "count"
        solutions: list[list] = []
        count, complete = 0, False
        tally, bogus = Tally(puzzle, enc.key), ""
        t1 = time.perf_counter()
        if deadline is not None and t1 > deadline:  # the solver itself takes seconds to load a large CNF
            return late(t0)
        certify = self.opts.certify
        s = _Backend(backend, enc.clauses, enc.assumptions, proof=certify, atmost=enc.atmost)
        certificate = None
        # An interrupt timer stops the backends that release the GIL while they search; the others run in a
        # child process with no deadline (``_in_child``), or in a race's child in fixed slices (``_Backend``).
        timer = None
        if deadline is not None and interruptible(backend):
            timer = threading.Timer(max(deadline - time.perf_counter(), 0.0), s.interrupt)
            timer.daemon = True
            timer.start()
        try:
            while True:
                if stop is not None and stop():
                    break
                res = s.solve(deadline, self.opts.conflicts)
                if res is None:  # a limit
                    break
                if not res:  # no solution beyond those blocked: the enumeration is complete
                    complete = True
                    if certify:
                        certificate = _certificate(s, stats, deadline)
                        if certificate.late:  # not checked within the limit: the answer is the engine's claim
                            certificate = None
                    break
                assert s.model is not None
                chosen = [v for v in enc.decision if s.model[v - 1] > 0]
                count += 1
                if not keep:  # mode count: every model decoded and verified, none twice
                    try:
                        tally.add(decoded(puzzle, enc, chosen))
                    except BogusModel as e:
                        bogus = str(e)
                        break
                elif want is None or len(solutions) < want:
                    solutions.append(decoded(puzzle, enc, chosen))
                if want is not None and count >= want:
                    break
                s.block(enc.blocking(chosen))
                if progress and count % 100 == 0:
                    progress({"solutions": count})
            st = s.stats()
        finally:
            if timer:
                timer.cancel()
            s.close()
        stats.update(
            time_s=time.perf_counter() - t1 - stats.get("certificate_s", 0.0),  # the check is not the search
            conflicts=st.get("conflicts"),
            decisions=st.get("decisions"),
            propagations=st.get("propagations"),
        )
        if bogus:
            return SolveResult(Status.ERROR, [], None, None, stats, f"solver sat ({backend}): {bogus}")
        if certificate is not None and not certificate.ok:
            why = f"its proof of unsatisfiability does not check: {certificate.reason}"
            return SolveResult(Status.ERROR, [], None, None, stats, f"solver sat ({backend}): {why}")
        res = enumerated(
            mode,
            complete=complete,
            solutions=solutions,
            count=count * enc.multiplier,
            stats=stats,
            wanted=None if want is None else want * enc.multiplier,
        )
        if res.status == Status.UNSAT and certificate is not None:
            res.evidence = Evidence.CERTIFICATE.value
        return vouched(tally.stamp(res, self.engine(), certified=certificate is not None and certificate.ok), enc)


def vouched(res: SolveResult, enc: Encoding) -> SolveResult:
    """``res`` with evidence no stronger than what was checked of a plug-in encoding (``Encoding.foreign``): a
    checked proof is of its CNF, not of the puzzle; a count it multiplies is its word; a count of models each
    verified and distinct is complete on its word (it may drop solutions).  The built-in encodings are held
    sound by the tests, and their answers keep their evidence."""
    if not enc.foreign or not res.status.answered:
        return res
    who = f"encoding {enc.foreign}"
    if res.status == Status.UNSAT:
        res.evidence = cnf_certificate(enc.foreign) if res.evidence == Evidence.CERTIFICATE.value else claim(who)
    elif res.count is not None and not res.solutions:  # a count
        res.evidence = enumerated_claim(who) if enc.multiplier == 1 and res.evidence else claim(who)
    return res


def _ended(t0: float, backend: str, why: str, status: Status = Status.LIMIT) -> SolveResult:
    return SolveResult(status, [], None, None, {"time_s": time.perf_counter() - t0, "backend": backend}, why)


def _certificate(s: _Backend, stats: dict, deadline: float | None):
    """The backend's proof checked against the CNF it holds (the encoding, its assumptions as units and the
    blocking clauses so far), by the solve's ``deadline``."""
    return drat.certify(s.clauses + s.blocked, s.proof(), stats, deadline)


def decoded(puzzle, enc: Encoding, chosen: list[int], rng=None) -> list:
    """The placements of a model's true decision variables, every copy of a merged group named once (with
    ``rng``, the copies in an order drawn uniformly: ``EdgePuzzle.relabel``)."""
    if enc.decoder is not None:
        return enc.decoder(chosen)
    board = [enc.decision[v] for v in chosen]
    if not enc.groups:
        return board
    return puzzle.relabel(board, enc.groups) if rng is None else puzzle.relabel(board, enc.groups, rng)


def solve_until(s, assumptions, deadline: float | None, conflicts: int, stop=None, clock=time.perf_counter):
    """One SAT call bounded by a conflict budget and a deadline (of ``clock``), or until ``stop()`` turns
    true.  Returns True, False or None (a limit reached).

    Without ``stop`` it is one call: the caller's interrupt timer ends it at the deadline, so the search is
    the uninterrupted one up to the moment it stops.  With ``stop`` it runs in slices of a fixed number of
    conflicts (``SLICE_CONFLICTS``), never slices sized by the clock: the search is the same whatever the
    machine's load (learned clauses carry over between slices), and only where it stops depends on time.
    """
    if stop is None:
        if conflicts:
            s.conf_budget(conflicts)
        return s.solve_limited(assumptions=assumptions, expect_interrupt=True)
    used = 0
    while True:
        if (deadline is not None and clock() >= deadline) or (conflicts and used >= conflicts) or stop():
            return None
        budget = min(SLICE_CONFLICTS, conflicts - used) if conflicts else SLICE_CONFLICTS
        s.conf_budget(budget)
        res = s.solve_limited(assumptions=assumptions, expect_interrupt=True)
        if res is not None:
            return res
        used += budget
