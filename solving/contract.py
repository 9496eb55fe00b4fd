"""The solver contract: what a solver is asked (puzzle, mode, limits) and what it answers.

Every solver, the project's own and any plugged in through the entry-point
group ``eternity.solvers``, implements ``Solver``; most do it by subclassing
``SolverBase``, which parses options and rejects puzzle kinds and modes the
solver does not handle.  ``enumerated()`` turns the outcome of a search that
enumerates solutions into a result, so the status rules live here once.
See docs/ARCHITECTURE.md, "The solving layer".
"""

from __future__ import annotations

import copy
import enum
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, Protocol, get_args, runtime_checkable

from puzzles.errors import UsageError
from puzzles.puzzle import EXACT_COVER, SCORED, kinds, kinds_with

from .options import Option, Opts, options_class

Mode = Literal["first", "count", "all", "best", "sample"]
MODES: tuple[str, ...] = get_args(Mode)  # the modes, named once (configs and the command line take these)
KINDS: tuple[str, ...] = kinds()  # the registered kinds of puzzle (puzzles.puzzle)


class Status(enum.StrEnum):
    """How a solve ended.  The values are what the store and the tables show.

    In mode best, ``SOLVED`` means a verified board with its score; whether that score is proven the
    best possible is ``SolveResult.optimal`` (an optimiser that finished: CP-SAT, MaxSAT, MIP, MiniZinc),
    stored and tabled as ``optimal``: a best board so far is solved and not optimal."""

    SOLVED = "solved"  # answered: solutions found, a count or a best board completed
    UNSAT = "unsatisfiable"  # the search finished and proved there is no solution
    LIMIT = "limit"  # a time, node or width limit stopped it before an answer
    MEMOUT = "memout"  # it ran out of memory (runner cells)
    ERROR = "error"  # it failed, or returned a solution the verifier rejects
    # the runner's: an answer that what is known of the instance contradicts ("unsatisfiable" on a board with
    # a planted solution, a count other solvers' evidence refutes); never a solver's own status
    WRONG = "wrong"
    # the runner's: a configuration that could not run on this machine (a binary, an extra or a backend is not
    # installed); its message says what is missing and how to get it, and a later run tries it again
    UNAVAILABLE = "unavailable"

    @property
    def answered(self) -> bool:
        """The solve answered the question: solutions, a count, a best board, or a proof of none."""
        return self in ANSWERED


ANSWERED = frozenset({Status.SOLVED, Status.UNSAT})


class Evidence(enum.StrEnum):
    """What an answer rests on, beside its status.  The values are what the store and the tables show; a
    claim is written ``claimed by ENGINE`` (``claim``).

    A board is checked by the verifier, whoever found it.  The other answers (a count, "unsatisfiable", an
    optimum) cannot be checked after the fact without their evidence, so each says what it is."""

    VERIFIED = "verified"  # every returned solution passed the independent verifier
    # a count whose every model was decoded, verified and found distinct, and whose "no more models" is proven
    # by a checked certificate; where that rests on the engine's word, the evidence is ``enumerated_claim``
    ENUMERATED = "enumerated"
    EXHAUSTION = "exhaustion"  # this project's own search finished (a count, no solution, an optimum)
    DIAGRAM = "diagram"  # counted on a diagram of all solutions built in this run
    FILE = "file"  # read from a sealed file (a diagram, a ledger): as good as what wrote it
    CERTIFICATE = "certificate"  # no solution, with a DRAT proof that a checker accepted


CLAIM = "claimed by "


def claim(engine: str) -> str:
    """The evidence of an answer that rests on an engine's word alone."""
    return CLAIM + (engine or "an engine")


def enumerated_claim(engine: str) -> str:
    """The evidence of a count whose models were each verified and found distinct, and whose completeness (the
    engine's final "no more models") is the engine's word alone: ``enumerated, complete as claimed by ENGINE``.
    The models make the count a proven lower bound; only the "no more" is a claim."""
    return f"{Evidence.ENUMERATED.value}, complete as {claim(engine)}"


CNF_CERTIFICATE = "certificate of encoding "


def cnf_certificate(encoding: str) -> str:
    """The evidence of an "unsatisfiable" proved by a checked certificate of an encoding this project does not
    hold sound (a plug-in's): the proof is of that CNF, so about the puzzle it is the encoding's claim."""
    return f"{CNF_CERTIFICATE}{encoding}'s CNF"


def is_claim(evidence: str | None) -> bool:
    """Whether stored evidence rests, in whole or in part, on an engine's word (not checked here): a claim, an
    enumeration whose completeness is claimed, or a certificate of a CNF nobody here holds sound."""
    return bool(evidence) and (CLAIM in str(evidence) or str(evidence).startswith(CNF_CERTIFICATE))


def models_checked(evidence: str | None) -> bool:
    """Whether a count's models were each verified and found distinct (``enumerated``, complete by certificate
    or by claim): its count is then a proven lower bound whatever is said of its completeness."""
    return bool(evidence) and str(evidence).startswith(Evidence.ENUMERATED.value)


# the evidence that a count or a "no solution" is complete, by the project's own checks (not an engine's word)
COMPLETE = frozenset(
    {Evidence.EXHAUSTION.value, Evidence.DIAGRAM.value, Evidence.FILE.value, Evidence.CERTIFICATE.value,
     Evidence.ENUMERATED.value}
)  # fmt: skip


def answered(status: str) -> bool:
    """``Status.answered`` of a status as the store writes it ("solved", "limit", ...)."""
    return status in ANSWERED


class BuildLate(Exception):
    """The time limit passed while a model or an encoding was being built; the solver answers ``limit``."""


def past(deadline: float | None) -> None:
    """Raise ``BuildLate`` once ``deadline`` (on ``time.perf_counter``) has passed: a model of Eternity II
    takes seconds to build, and a time limit counts them."""
    if deadline is not None and time.perf_counter() > deadline:
        raise BuildLate()


@dataclass
class Limits:
    """What bounds a solve: wall time, search nodes, how many solutions; a solve that meets one ends ``limit``
    with what it has (a partial count is a lower bound).

    Attributes:
        time_s: wall seconds (None: unbounded).
        nodes: search nodes (None: unbounded).
        solutions: stop after this many in mode all; how many to draw in mode sample.
        incumbent: mode best, a distributed search's shared best score, asked now and then.
    """

    time_s: float | None = None  # wall time
    nodes: int | None = None  # search nodes
    solutions: int | None = None  # stop after this many (mode all); how many to draw (mode sample)
    # mode best: the best score known elsewhere, asked now and then (a distributed search's shared
    # incumbent); a solver that can prunes with it and looks only for better boards.  None: nothing known
    incumbent: Callable[[], int | None] | None = None

    def wanted(self, mode: str) -> int | None:
        """Solutions after which a search may stop: 1 in mode first, the cap in mode all."""
        return 1 if mode == "first" else (self.solutions if mode == "all" else None)


class Stats:
    """What a solve measured, read by name.  A solver writes its measurements into ``SolveResult.stats`` (a dict:
    whatever it measured, under keys of its own, which ``--json`` and the store keep as they are); the fields
    every layer reads (the command line, the store, the runner) are named and typed here, over that same dict
    (``SolveResult.measured``), so a reader never spells a key."""

    __slots__ = ("raw",)

    def __init__(self, raw: dict[str, Any]):
        self.raw = raw  # the solver's own dict, not a copy: what it adds later is seen here

    def _num(self, key: str) -> float | None:
        v = self.raw.get(key)
        return None if v is None else float(v)

    def _int(self, key: str) -> int | None:
        v = self.raw.get(key)
        return None if v is None else int(v)

    @property
    def time_s(self) -> float | None:
        """The search's own time (the solver's clock), seconds."""
        return self._num("time_s")

    @property
    def build_s(self) -> float | None:
        """Building tables, a model or an encoding, seconds."""
        return self._num("build_s")

    @property
    def verify_s(self) -> float | None:
        """The independent verifier's checks of the returned solutions, seconds."""
        return self._num("verify_s")

    @property
    def nodes(self) -> int | None:
        """Search nodes (placements, for the native searches)."""
        return self._int("nodes")

    @property
    def conflicts(self) -> int | None:
        """CDCL conflicts (the SAT and CP-SAT engines)."""
        return self._int("conflicts")

    @property
    def deepest(self) -> int | None:
        """The deepest level a search reached."""
        return self._int("deepest")

    @property
    def placements_per_s(self) -> float | None:
        """Placements a second (the native searches)."""
        return self._num("placements_per_s")

    @property
    def distinct(self) -> int | None:
        """Solutions up to symmetry (``--distinct``)."""
        return self._int("distinct")

    @property
    def interrupted(self) -> bool:
        """The solve was stopped by Ctrl-C (its best board so far is kept)."""
        return bool(self.raw.get("interrupted"))


@dataclass
class SolveResult:
    """What a solver answers.  ``count`` is exact only when status is not 'limit'."""

    status: Status
    solutions: list = field(default_factory=list)  # lists of placements
    count: int | None = None
    best_score: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)  # what the solver measured (read by name: ``measured``)
    message: str = ""
    # the three clocks, set by ``solve_verified``: loading what the solve needs (imports, compiled
    # kernels: paid once per process), building its tables, model or encoding, and the search itself
    load_s: float | None = None
    build_s: float | None = None
    search_s: float | None = None
    # mode best: True when the score is proven the best possible, False when it is a best board so far,
    # None when the solver does not say (the beam proves nothing: False)
    optimal: bool | None = None
    # what the answer rests on (``Evidence`` or ``claim(engine)``); None until ``solve_verified`` sets it, and
    # for a result that answered nothing (a limit, an error).  A solver that knows better sets it itself.
    evidence: str | None = None

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    @property
    def measured(self) -> Stats:
        """``stats`` read through its named, typed fields."""
        return Stats(self.stats)

    def as_dict(self) -> dict:
        """The result as JSON-ready fields (``--json``, the store): everything but the solutions, which are not
        copied on the way (``dataclasses.asdict`` would copy all of them first: seconds for a large sample)."""
        d = {f.name: copy.deepcopy(getattr(self, f.name)) for f in fields(self) if f.name != "solutions"}
        d["status"] = self.status.value
        return d


def enumerated(
    mode: str,
    *,
    complete: bool,
    solutions: list,
    count: int | None,
    stats: dict,
    wanted: int | None = None,
    message: str = "",
) -> SolveResult:
    """The result of a search that enumerates solutions (modes first, count, all).

    ``complete``: the search space was exhausted; ``count``: solutions met so
    far (``len(solutions)`` when None); ``wanted``: the cap the search stopped
    at, if any (``Limits.wanted``).  A search that stops because it has
    enough solutions has answered; one stopped by a limit reports what it has
    (a partial count is a lower bound)."""
    n = len(solutions) if count is None else count
    enough = wanted is not None and n >= wanted
    if mode == "first":
        status = Status.SOLVED if solutions else (Status.UNSAT if complete else Status.LIMIT)
        return SolveResult(status, solutions[:1], None, None, stats, message)
    if complete:
        return SolveResult(Status.SOLVED if n else Status.UNSAT, solutions, n, None, stats, message)
    if enough:  # mode all with a cap: answered, but the total is unknown
        return SolveResult(Status.SOLVED, solutions, None, None, stats, message)
    return SolveResult(Status.LIMIT, solutions, n, None, stats, message)


Progress = Callable[[dict], None]


@runtime_checkable
class Solver(Protocol):
    """A solver: a registered name, the modes and puzzle kinds it handles, and ``solve``."""

    name: str
    MODES: tuple[str, ...]
    TAKES: frozenset[str]

    def check(self, puzzle, mode: str) -> None:
        """Refuse a mode, a puzzle or an option that does not apply, before any work (a ``UsageError``)."""
        ...

    def warm(self, puzzle, mode: str) -> None:
        """Load once per process what a solve needs (compiled kernels), outside the solve's clocks."""
        ...

    def solve(
        self, puzzle, *, mode: Mode = "first", limits: Limits | None = None, progress: Progress | None = None
    ) -> SolveResult:
        """Solve ``puzzle`` in ``mode`` within ``limits``, calling ``progress`` with a dict now and then."""
        ...


class SolverBase:
    """Shared option handling: subclasses declare ``OPTIONS``, ``MODES`` and ``TAKES`` (the puzzle features,
    ``puzzles.puzzle.FEATURES``, of the puzzles it solves: any of them).

    Capabilities a runner may use are declared here too: a solver that can cut
    a count into independent parts overrides ``split_parts`` and ``part_options``."""

    name: ClassVar[str] = ""
    # the options, as a class of typed ``Option`` attributes (``solving.options.Opts``); ``OPTIONS`` is the
    # same declarations by name, made from it (a plug-in may declare ``OPTIONS`` as a dict instead)
    Options: ClassVar[type[Opts]] = Opts
    OPTIONS: ClassVar[dict[str, Option]] = {}
    opts: Opts
    MODES: ClassVar[tuple[str, ...]] = ("first", "count", "all")
    TAKES: ClassVar[frozenset[str]] = frozenset({EXACT_COVER})
    CAN_SPLIT: ClassVar[bool] = False
    # this project's own exhaustive search: a count or "no solution" from a finished search is an exhaustion.
    # Any other solver's such answers are its engine's claim (``engine``) unless it brings their evidence.
    NATIVE: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "Options" in vars(cls):
            cls.OPTIONS = cls.Options.declared()
        elif "OPTIONS" in vars(cls):  # declared as a dict: its typed class is made from it
            cls.Options = options_class(f"{cls.__name__}Options", cls.OPTIONS)

    def __init__(self, options: dict[str, Any] | None = None):
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(sorted(self.OPTIONS)) or "none"
            raise UsageError(f"solver {self.name}: unknown option {unknown[0]!r} (known: {known})")
        self.given = frozenset(options)  # the options asked for by name (``check`` may refuse some for a puzzle)
        self.opts = self.Options({k: self.OPTIONS[k].parse(k, v) for k, v in options.items()})

    @property
    def options(self) -> dict[str, Any]:
        """Every option's value by name, a copy: for code that passes them on as data (a child process, an
        encoder that takes a dict); a solver reads its own as typed attributes (``self.opts.order``)."""
        return self.opts.as_dict()

    def check(self, puzzle, mode: str) -> None:
        """Refuse, before any work, a mode or puzzle kind this solver does not handle, and an option
        asked for by name that does not apply to them (an option is refused, never silently ignored)."""
        why = self.declines(puzzle, mode)
        if why:
            raise UsageError(why)
        self.check_options(mode, puzzle)

    @classmethod
    def declines(cls, puzzle, mode: str) -> str | None:
        """Why this solver does not take ``puzzle`` in ``mode`` at all, from its declarations alone (``MODES``,
        ``TAKES``; mode best needs a scored puzzle), whatever its options and whatever is installed; None when
        it takes it.  The runner leaves a row out of an instance only for this reason."""
        if mode not in cls.MODES:
            return f"solver {cls.name} has no mode {mode!r} (it has {', '.join(cls.MODES)})"
        if not puzzle.features & cls.TAKES:
            return f"solver {cls.name} does not solve {puzzle.kind} puzzles (it solves {', '.join(cls.kinds())})"
        if mode == "best" and SCORED not in puzzle.features:
            return "mode best (the most matching joins) is for edge-matching puzzles"
        return None

    @classmethod
    def kinds(cls) -> tuple[str, ...]:
        """The registered kinds of puzzle this solver takes (those with a feature in ``TAKES``)."""
        return kinds_with(cls.TAKES)

    def check_options(self, mode: str | None, puzzle: Any = None) -> None:
        """Refuse an option given by name that does not apply to ``mode`` or to ``puzzle``
        (either None: not known yet, as when a config is read before its puzzles are made)."""
        for k in sorted(self.given):
            why = self.OPTIONS[k].refusal(k, puzzle, mode)
            if why:
                raise UsageError(f"solver {self.name}: {why}")

    def engine(self) -> str:
        """The engine whose word an answer rests on when it brings no evidence (a backend, a binary)."""
        return self.name

    @classmethod
    def here(cls) -> str | None:
        """What this solver can use on this machine (backends, binaries), for `eternity solvers NAME`."""
        return None

    def warm(self, puzzle, mode: str) -> None:
        """Load what a solve of ``puzzle`` in ``mode`` needs (compiled kernels, say), once per process,
        so that its clocks hold building and searching only (``load_s`` gets this time)."""

    def solve(
        self, puzzle, *, mode: Mode = "first", limits: Limits | None = None, progress: Progress | None = None
    ) -> SolveResult:
        """Solve ``puzzle`` in ``mode`` within ``limits`` (every solver defines it)."""
        raise NotImplementedError

    def split_parts(self, puzzle, depth: int) -> int:
        """How many independent sub-problems a count splits into at ``depth`` (CAN_SPLIT solvers)."""
        raise UsageError(f"solver {self.name} cannot split a count into parts")

    def part_options(self, depth: int, part: int) -> dict[str, Any]:
        """The options that make this solver count only sub-problem ``part`` of a split at ``depth``."""
        raise UsageError(f"solver {self.name} cannot split a count into parts")
