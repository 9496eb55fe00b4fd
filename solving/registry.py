"""Solvers by name, from the entry-point group ``eternity.solvers``.

A solver is found the way any Python plugin is: its package declares

    [project.entry-points."eternity.solvers"]
    my-solver = "my_package.module:MySolver"

and, once installed, ``eternity solvers`` lists it and the CLI, the runner
and the agreement tests run it like the project's own.  Classes are
imported on first use, so listing names imports no solver package.
``register`` adds one for this process only (tests, notebooks).
"""

from __future__ import annotations

import importlib
import time
from importlib.metadata import entry_points
from typing import Any

from puzzles.errors import Unavailable, UsageError

from .contract import SolverBase

GROUP = "eternity.solvers"

_extra: dict[str, str] = {}  # registered at run time: name -> "module:Class"
_classes: dict[str, type[SolverBase]] = {}
_import_s: dict[type, float] = {}  # seconds the first import of a solver's module took, until a solve claims it


def _targets() -> dict[str, str]:
    found = {ep.name: ep.value for ep in entry_points(group=GROUP)}
    return {**found, **_extra}


def is_own(solver: Any) -> bool:
    """Whether ``solver`` (an instance or a class) is one this project ships: the class its own entry point names.
    Only such a solver's evidence is taken as it says; a plug-in's answers are checked or shown as claims."""
    cls = solver if isinstance(solver, type) else type(solver)
    if cls not in _own:
        _own[cls] = any(
            ep.dist is not None and ep.dist.name == "eternity" and ep.value == f"{cls.__module__}:{cls.__qualname__}"
            for ep in entry_points(group=GROUP)
        )
    return _own[cls]


_own: dict[type, bool] = {}


def own() -> list[str]:
    """The solvers this project ships (declared by the ``eternity`` distribution itself)."""
    return [ep.name for ep in entry_points(group=GROUP) if ep.dist is not None and ep.dist.name == "eternity"]


def names() -> list[str]:
    """Registered solver names: the project's in its declared order, then plug-ins and extras."""
    return list(_targets())


class BrokenPlugin(Unavailable):
    """A registered plug-in that cannot be used: its module does not import, its target is missing, or what it
    declares breaks the contract.  Named in one line; every other solver still works."""


def solver_class(name: str) -> type[SolverBase]:
    """The class registered as ``name`` (imported on first use).  A plug-in is held to ``SolverBase``'s
    declarations (a subclass, with ``MODES``, ``TAKES`` and typed options), as the project's own are; one that
    fails to import or to declare is a ``BrokenPlugin`` naming it and why."""
    if name in _classes:
        return _classes[name]
    targets = _targets()
    if name not in targets:
        raise UsageError(f"unknown solver {name!r} (known: {', '.join(targets)})")
    module, _, attr = targets[name].partition(":")
    t0 = time.perf_counter()
    try:
        cls = getattr(importlib.import_module(module), attr)
    except Exception as e:  # noqa: BLE001 - whatever a plug-in raises on import is its fault, told in one line
        raise BrokenPlugin(f"solver {name} ({targets[name]}) is broken: {_first_line(e)}") from None
    why = contract_breach(cls)
    if why:
        raise BrokenPlugin(f"solver {name} ({targets[name]}) is broken: {why}")
    _import_s[cls] = time.perf_counter() - t0
    _classes[name] = cls
    return cls


def _first_line(e: BaseException) -> str:
    return f"{type(e).__name__}: {e}".splitlines()[0][:300]


def contract_breach(cls: Any) -> str | None:
    """What a registered class lacks of the solver contract, or None: a ``SolverBase`` subclass whose modes
    are known ones, whose ``TAKES`` names puzzle features, and whose options are ``Option`` declarations."""
    from puzzles.puzzle import FEATURES

    from .contract import MODES
    from .options import Option

    if not (isinstance(cls, type) and issubclass(cls, SolverBase)):
        return f"{cls!r} is not a subclass of solving.SolverBase"
    bad = [m for m in cls.MODES if m not in MODES]
    if bad:
        return f"MODES holds {bad[0]!r}, not a mode ({', '.join(MODES)})"
    if not cls.TAKES or set(cls.TAKES) - set(FEATURES):
        return f"TAKES must name puzzle features ({', '.join(FEATURES)}), not {sorted(cls.TAKES)}"
    odd = [k for k, o in cls.OPTIONS.items() if not isinstance(o, Option)]
    if odd:
        return f"option {odd[0]!r} is not declared with solving.Option"
    for k, o in cls.OPTIONS.items():  # each declaration must parse its own default
        if o.kind not in (int, float, bool, str):
            return f"option {k!r} is of type {getattr(o.kind, '__name__', o.kind)!r}, not int, float, bool or str"
        try:
            o.parse(k, o.default)
        except (UsageError, TypeError) as e:
            return f"option {k!r}: its default does not fit its declaration ({e})"
    return None


def take_import_time(cls: type) -> float:
    """The import time of a solver class's module, once: the first solve in a process is charged with it."""
    return _import_s.pop(cls, 0.0)


def get(name: str, options: dict[str, Any] | None = None) -> SolverBase:
    """A solver instance by registered name; unknown names and options are errors."""
    return solver_class(name)(options)


def register(name: str, target: str) -> None:
    """Add a solver (``"module:Class"``) for this process, e.g. a test double."""
    _extra[name] = target
    _classes.pop(name, None)


def default_solver(puzzle: Any) -> str:
    """The solver a solve without one named runs: the native search the puzzle's kind declares
    (``native_solver``), else Knuth's Algorithm C (``backtrack``), which takes every puzzle's XCC."""
    return str(getattr(puzzle, "native_solver", "backtrack"))
