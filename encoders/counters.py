"""The SAT field's model counters and samplers on the workbench's CNF encodings (the ``counters`` extra).

* ``ganak``: an exact projected model count (Ganak, the Model Counting Competition's winner, ``pyganak``);
* ``approxmc``: a count within a factor (1 + epsilon) of the true one with probability at least 1 - delta
  (ApproxMC, ``pyapproxmc``); its answer carries that guarantee and the interval, never ``exhaustion``;
* ``unigen``: almost-uniform samples with UniGen's guarantee (``pyunigen``);
* ``cmsgen``: fast, uniform-like samples with no guarantee (CMSGen, ``pycmsgen``).

A puzzle's encoding is counted **projected on its placement variables** (``Encoding.decision``): the auxiliary
variables of its at-most-one and colour encodings are not fixed by the placements, and counted over every
variable ``queens-8``'s CNF has 3,581,984 models, not 92.  A CNF formula is counted over its own projection
(``c p show`` / ``c ind`` lines), else over all its variables, and says so.  Every sample is decoded and goes
through the verifier like any solver's board.

The counts are the engines' word (``claimed by ganak``); ApproxMC's is marked approximate, so that no table or
cross-check takes it for an exact count.
"""

from __future__ import annotations

import random
import time
from typing import Any

from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.puzzle import CNF, EDGES, EXACT_COVER
from solving import BuildLate, Limits, Option, SolverBase, SolveResult, Status, claim
from solving.extras import has, require
from solving.race import race

from .cnf import Encoding
from .solver import CnfOptions, check_cnf, decoded, encode, late

PACKAGES = {"ganak": "pyganak", "approxmc": "pyapproxmc", "unigen": "pyunigen", "cmsgen": "pycmsgen"}
GRACE_S = 0.5  # past the limit, the child process that runs a counter (which cannot be interrupted) is killed


def approximate(epsilon: float, delta: float, engine: str) -> str:
    """The evidence of an approximate count: its guarantee, and whose word it is."""
    return f"approximate (epsilon {epsilon:g}, delta {delta:g}), {claim(engine)}"


def is_approximate(evidence: str | None) -> bool:
    """Whether stored evidence is of an approximate count (not to be held against exact ones)."""
    return bool(evidence) and str(evidence).startswith("approximate")


def projection(enc: Encoding, puzzle) -> tuple[list[int], str]:
    """The variables a count is projected on, and what they are: a formula's own projection (or every variable),
    or a puzzle encoding's placement variables.  An encoding that declares none is refused in one line."""
    if CNF in puzzle.features:
        # the encoding's projection holds the counted variables some clause uses; the free ones (counted, in no
        # clause) are its multiplier, each a factor 2 exactly once, and never handed to the engine as well
        on = list(enc.project or [])
        free = enc.multiplier.bit_length() - 1
        if getattr(puzzle, "projection", None) is not None:
            what = f"the formula's projection ({len(on) + free} variables"
        else:
            what = f"all {enc.n_vars} variables (the formula declares no projection"
        return on, what + (f", {free} of them free: a factor 2^{free})" if free else ")")
    if not enc.decision:  # no piece fits anywhere: the count is over no variable (1 or 0 boards: its clauses say)
        return [], "no placement variables (no placement is possible)"
    if enc.decoder is not None:  # the placements leave something (a turn) to other variables
        raise UsageError(
            "this encoding's placement variables do not fix a board alone (its decoder reads other variables): "
            "a count projected on them would merge boards; choose another encoding"
        )
    return sorted(enc.decision), f"the {len(enc.decision)} placement variables"


def satisfiable(clauses: list[list[int]]) -> int:
    """The count over no variable: 1 when the clauses have a model, else 0.  An engine is not asked to count
    over an empty projection (some read it as "every variable"), and an empty clause has no model at all."""
    if not all(clauses):
        return 0
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        return int(s.solve())


class CounterOptions(CnfOptions):
    """The options of the counters: the encoding (as for `sat`) and the engine's seed."""

    seed = Option(int, 1, "the engine's random seed", lo=0)


class _Counter(SolverBase):
    """What the counters share: the encoding, its projection, a child process ended at the time limit."""

    TAKES = frozenset({EXACT_COVER, EDGES, CNF})
    Options = CounterOptions
    opts: CounterOptions

    @override
    def engine(self) -> str:
        return self.name

    @classmethod
    @override
    def here(cls) -> str | None:
        if not has(PACKAGES[cls.name]):
            return f"not installed: pip install 'eternity[counters]' (for {PACKAGES[cls.name]})"
        return f"{PACKAGES[cls.name]} installed"

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        check_cnf(self, puzzle)
        require("counters", f"solver {self.name}", PACKAGES[self.name])  # absent: a cell that says so

    def _encode(self, puzzle, deadline: float | None) -> tuple[Encoding, list[int], str]:
        options = self.opts.as_dict()
        options.pop("seed")
        options["symmetry"] = False  # a symmetry-broken count is a multiple: the counters count the board as it is
        enc = encode(puzzle, options, deadline)
        if enc.atmost:  # a KNF's cardinality constraints as clauses
            enc = enc.expanded()
        on, what = projection(enc, puzzle)
        return enc, on, what

    def _count(self, puzzle, mode: str, limits: Limits | None, count) -> SolveResult:
        """A count by ``count(clauses, projection)`` in a child process, times the encoding's multiplier."""
        self.check(puzzle, mode)
        limits = limits or Limits()
        t0, m0 = time.perf_counter(), time.monotonic()
        try:
            enc, on, what = self._encode(puzzle, None if limits.time_s is None else t0 + limits.time_s)
        except BuildLate:
            return late(t0)
        build_s = time.perf_counter() - t0
        clauses = enc.clauses + [[a] for a in enc.assumptions]
        n, why = self._run(lambda: count(clauses, on) if on and all(clauses) else satisfiable(clauses), limits, m0)
        stats: dict[str, Any] = {"build_s": build_s, "vars": enc.n_vars, "clauses": len(enc.clauses),
                                 "projection": what, "time_s": time.perf_counter() - t0 - build_s}  # fmt: skip
        if n is None:
            status = Status.LIMIT if why and "time limit" in why else Status.ERROR
            return SolveResult(status, [], None, None, stats, why or "")
        n *= enc.multiplier
        return SolveResult(Status.SOLVED if n else Status.UNSAT, [], n, None, stats, f"projected on {what}")

    def _run(self, job, limits: Limits, started: float):
        """``job()`` in a forked child, ended at the time limit counted from ``started`` (``time.monotonic``,
        the solve's start: the CNF's build spent part of it), as the engines cannot be interrupted."""
        if limits.time_s is not None and time.monotonic() >= started + limits.time_s:
            return None, f"the time limit ended {self.name} before its engine started"
        # a child even without a limit: an engine that ends its process (UniGen's exit 255) ends only the child
        deadline = None if limits.time_s is None else started + limits.time_s
        (out,) = race([lambda stop: job()], settles=lambda r: True, deadline=deadline, grace=GRACE_S)
        if out.result is not None:
            return out.result, None
        if out.killed:
            return None, f"the time limit ended {self.name}'s child process"
        return None, f"solver {self.name}: {out.error}"


class Ganak(_Counter):
    """`ganak`: the exact model count, projected on the placement variables (Ganak)."""

    name = "ganak"
    MODES = ("count",)

    @override
    def solve(self, puzzle, *, mode="count", limits: Limits | None = None, progress=None) -> SolveResult:
        seed = self.opts.seed

        def count(clauses: list[list[int]], on: list[int]) -> int:
            from pyganak import Counter

            c = Counter(seed=seed)
            c.add_clauses(clauses)
            c.set_sampling_set(on)
            return int(c.count())

        res = self._count(puzzle, mode, limits, count)
        if res.count is not None:
            res.evidence = claim(self.name)
        return res


class ApproxMC(_Counter):
    """`approxmc`: a count within (1 + epsilon) with probability 1 - delta, projected on the placements."""

    name = "approxmc"
    MODES = ("count",)

    class Options(CounterOptions):
        """ApproxMC's options: its guarantee's parameters and the encoding."""

        epsilon = Option(float, 0.8, "the tolerance: the count is within a factor 1 + epsilon", lo=0.01)
        delta = Option(float, 0.2, "the confidence: the guarantee holds with probability 1 - delta", lo=0.001, hi=0.999)

    opts: Any

    @override
    def solve(self, puzzle, *, mode="count", limits: Limits | None = None, progress=None) -> SolveResult:
        eps, delta, seed = self.opts.epsilon, self.opts.delta, self.opts.seed

        def count(clauses: list[list[int]], on: list[int]) -> int:
            from pyapproxmc import Counter

            c = Counter(seed=seed, epsilon=eps, delta=delta)
            for cl in clauses:
                c.add_clause(cl)
            cells, hashes = c.count(on)
            return int(cells) * 2 ** int(hashes)

        res = self._count(puzzle, mode, limits, count)
        if res.count is not None:
            lo, hi = res.count / (1 + eps), res.count * (1 + eps)
            res.stats.update(interval=[lo, hi], epsilon=eps, delta=delta)
            res.message += f"; within [{lo:.4g}, {hi:.4g}] with probability at least {1 - delta:g}"
            res.evidence = approximate(eps, delta, self.name)
        return res


class _Sampler(_Counter):
    MODES = ("sample",)
    GUARANTEE = ""

    def _draw(self, clauses: list[list[int]], on: list[int], n: int, seed: int) -> list[list[int]]:
        raise NotImplementedError

    @override
    def solve(self, puzzle, *, mode="sample", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        if CNF in puzzle.features:
            raise UsageError(f"solver {self.name}: a formula's models are not boards to verify; sample a puzzle")
        limits = limits or Limits()
        t0, m0 = time.perf_counter(), time.monotonic()
        try:
            enc, on, what = self._encode(puzzle, None if limits.time_s is None else t0 + limits.time_s)
        except BuildLate:
            return late(t0)
        build_s = time.perf_counter() - t0
        want, seed = limits.solutions or 1, self.opts.seed
        clauses = enc.clauses + [[a] for a in enc.assumptions]
        # a formula with no model is not given to the engines (UniGen ends its process on one)
        draws, why = self._run(lambda: self._draw(clauses, on, want, seed) if on and satisfiable(clauses) else [],
                               limits, m0)  # fmt: skip
        stats: dict[str, Any] = {"build_s": build_s, "vars": enc.n_vars, "clauses": len(enc.clauses),
                                 "projection": what, "time_s": time.perf_counter() - t0 - build_s,
                                 "guarantee": self.GUARANTEE}  # fmt: skip
        if draws is None:
            status = Status.LIMIT if why and "time limit" in why else Status.ERROR
            return SolveResult(status, [], None, None, stats, why or "")
        placed = set(enc.decision)
        # merged identical pieces: the engine's guarantee is over the CNF's models, one for every way of telling
        # the copies apart; each model's copies are dealt in a uniform order, so that it holds over boards too
        rng = random.Random(seed)
        solutions = [decoded(puzzle, enc, [v for v in model if v > 0 and v in placed], rng) for model in draws]
        if not solutions:
            res = SolveResult(Status.UNSAT, [], 0, None, stats, f"no model; {self.GUARANTEE}")
            res.evidence = claim(self.name)
            return res
        return SolveResult(Status.SOLVED, solutions, None, None, stats, f"{len(solutions)} drawn, {self.GUARANTEE}")


class UniGen(_Sampler):
    """`unigen`: almost-uniform samples of the boards (UniGen), each verified."""

    name = "unigen"
    GUARANTEE = "almost uniform (UniGen: each board's probability within (1 + epsilon) of uniform)"

    def _draw(self, clauses, on, n, seed):
        from pyunigen import Sampler

        s = Sampler(seed=seed)
        for cl in clauses:
            s.add_clause(cl)
        _, _, samples = s.sample(num=n, sampling_set=on)
        return [list(m) for m in samples]


class CmsGen(_Sampler):
    """`cmsgen`: fast, uniform-like samples of the boards (CMSGen), no guarantee, each verified."""

    name = "cmsgen"
    GUARANTEE = "uniform-like, no guarantee (CMSGen)"

    def _draw(self, clauses, on, n, seed):
        from pycmsgen import Solver

        s = Solver(seed=seed)
        s.add_clauses(clauses)
        out = []
        for _ in range(n):
            ok, model = s.solve()
            if not ok:
                break
            out.append([v for v in on if model[v]])
        return out
