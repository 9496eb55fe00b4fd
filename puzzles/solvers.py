"""The solver protocol, limits, results and a lazy registry of solvers by name.

The registry maps names to import strings, resolved on first use, so this
package imports no solver package and the runner, the CLI and the tests treat
every solver alike::

    from puzzles import catalog, solvers
    solver = solvers.get("backtrack", {"order": "mrv"})
    result = solver.solve(catalog.load("queens-8"), mode="count", limits=solvers.Limits())
    assert result.count == 92
"""

from __future__ import annotations

import importlib
import os
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, ClassVar, Literal, Protocol

Mode = Literal["first", "count", "all", "best"]
MODES = ("first", "count", "all", "best")
STATUSES = ("solved", "unsatisfiable", "limit", "error")

REGISTRY: dict[str, str] = {
    "backtrack": "baseline.backtrack:Backtrack",
    "edge-backtrack": "baseline.edge_backtrack:EdgeBacktrack",
    "cpsat": "cpmodel.solver:CpSat",
    "sat": "encoders.solver:Sat",
    "beam": "baseline.beam:Beam",
}

BUILTIN: tuple[str, ...] = tuple(REGISTRY)  # the project's own solvers, before any extras

# Extra solvers for a process tree, e.g. peers or test doubles that the
# runner's child processes must also see: ETERNITY_EXTRA_SOLVERS="name=module:Class,..."
for _entry in filter(None, os.environ.get("ETERNITY_EXTRA_SOLVERS", "").split(",")):
    _name, _, _target = _entry.partition("=")
    REGISTRY[_name.strip()] = _target.strip()


@dataclass
class Limits:
    time_s: float | None = None      # wall time
    nodes: int | None = None         # search nodes
    solutions: int | None = None     # stop after this many (mode all)


@dataclass
class SolveResult:
    """What a solver answers.  ``count`` is exact only when status is not 'limit'."""

    status: str
    solutions: list = field(default_factory=list)   # lists of placements
    count: int | None = None
    best_score: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    message: str = ""

    def as_dict(self) -> dict:
        d = asdict(self)
        d.pop("solutions")
        return d


Progress = Callable[[dict], None]


class Solver(Protocol):
    name: str

    def solve(self, puzzle, *, mode: Mode = "first", limits: Limits | None = None,
              progress: Progress | None = None) -> SolveResult: ...


class Option:
    """A solver option: type, default, allowed values, help."""

    def __init__(self, kind: type, default: Any, help: str = "", choices: tuple | None = None):
        self.kind, self.default, self.help, self.choices = kind, default, help, choices

    def parse(self, name: str, value: Any) -> Any:
        if isinstance(value, str) and self.kind is not str:
            try:
                value = {"true": True, "false": False}[value.lower()] if self.kind is bool else self.kind(value)
            except (ValueError, KeyError):
                raise ValueError(f"option {name}: {value!r} is not a {self.kind.__name__}") from None
        if self.kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, self.kind) or (self.kind is int and isinstance(value, bool)):
            raise ValueError(f"option {name}: {value!r} is not a {self.kind.__name__}")
        if self.choices and value not in self.choices:
            raise ValueError(f"option {name}: {value!r} is not one of {', '.join(map(str, self.choices))}")
        return value


class SolverBase:
    """Shared option handling: subclasses declare ``OPTIONS`` and ``MODES``."""

    name: ClassVar[str] = ""
    OPTIONS: ClassVar[dict[str, Option]] = {}
    MODES: ClassVar[tuple[str, ...]] = ("first", "count", "all")
    KINDS: ClassVar[tuple[str, ...]] = ("edge", "polyform", "queens")

    def __init__(self, options: dict[str, Any] | None = None):
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            known = ", ".join(sorted(self.OPTIONS)) or "none"
            raise ValueError(f"solver {self.name}: unknown option {unknown[0]!r} (known: {known})")
        self.options = {k: o.default for k, o in self.OPTIONS.items()}
        for k, v in options.items():
            self.options[k] = self.OPTIONS[k].parse(k, v)

    def check(self, puzzle, mode: str) -> None:
        if mode not in self.MODES:
            raise ValueError(f"solver {self.name} has no mode {mode!r} (it has {', '.join(self.MODES)})")
        if puzzle.kind not in self.KINDS:
            raise ValueError(f"solver {self.name} does not solve {puzzle.kind} puzzles")


def names() -> list[str]:
    return list(REGISTRY)


def solver_class(name: str):
    try:
        target = REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown solver {name!r} (known: {', '.join(REGISTRY)})") from None
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def get(name: str, options: dict[str, Any] | None = None):
    """A solver instance by registered name; unknown names and options are errors."""
    return solver_class(name)(options)


def register(name: str, target: str) -> None:
    """Add a solver (``"module:Class"``), e.g. a peer adapter or a test double."""
    REGISTRY[name] = target
