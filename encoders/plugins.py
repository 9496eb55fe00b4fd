"""Encodings from other packages: the entry-point group ``eternity.encodings``.

A researcher's CNF encoding of a kind of puzzle is one class in a small package that declares

    [project.entry-points."eternity.encodings"]
    my-encoding = "my_package.module:MyEncoding"

The class has a ``name``, the puzzle features it ``TAKES`` (``puzzles.puzzle.FEATURES``: any of them) and
``encode(puzzle)``, which returns an ``encoders.cnf.Encoding``: the clauses, the number of variables, and
``decision``, the variables that mean placements (variable -> the placement it stands for).  Once installed,
``sat --opt encoding=my-encoding`` and ``external --opt encoding=my-encoding`` solve with it; every model is
decoded through ``decision`` and goes through the independent verifier like any other answer, and
``eternity encodings PUZZLE`` sets its size beside the built-in models'.
"""

from __future__ import annotations

from typing import Any

from puzzles.errors import Unavailable, UsageError
from solving import Option, plugins

from .cnf import Encoding

GROUP = "eternity.encodings"


class BrokenEncoding(Unavailable):
    """A registered encoding that cannot be used: its module does not import, or it breaks the contract."""


def names() -> list[str]:
    """The registered encoding plug-ins, by name."""
    return sorted(plugins.registered(GROUP))


def load(name: str) -> Any:
    """The encoding registered as ``name``, an instance of its class; ``UsageError`` for a name nobody
    registered, ``BrokenEncoding`` (one line) for one that fails to import or to declare."""
    return plugins.load(GROUP, name, "encoding", BrokenEncoding, _lacks)


def _lacks(made: Any) -> str | None:
    """What an encoding plug-in lacks of its contract: ``TAKES`` (a set of features) and ``encode``."""
    from puzzles.puzzle import FEATURES

    takes = getattr(made, "TAKES", None)
    if not (callable(getattr(made, "encode", None)) and isinstance(takes, (set, frozenset))):
        return "it needs TAKES (a set of puzzle features) and encode()"
    if not takes or set(takes) - set(FEATURES):
        return f"TAKES must name puzzle features ({', '.join(FEATURES)}), not {sorted(map(str, takes))}"
    return None


def takes(name: str, puzzle) -> None:
    """Refuse, before any work, an encoding that does not take this puzzle's kind."""
    enc = load(name)
    if not puzzle.features & set(enc.TAKES):
        raise UsageError(
            f"encoding {name} does not encode {puzzle.kind} puzzles (it takes {', '.join(sorted(enc.TAKES))})"
        )


def encode(name: str, puzzle, deadline: float | None = None) -> Encoding:
    """The plug-in's CNF of ``puzzle``, checked for what the solvers rely on: its literals within its variables,
    and its decision variables among them.  With ``deadline`` (on ``time.perf_counter``) the plug-in's
    ``encode`` runs in a forked child ended at the deadline (``BuildLate``): its code cannot hang a solve."""
    takes(name, puzzle)
    made = load(name)
    if deadline is not None:
        enc = _in_child(name, made, puzzle, deadline)
    else:
        try:
            enc = made.encode(puzzle)
        except Exception as e:  # noqa: BLE001 - the plug-in's failure, named in one line
            why = f"{type(e).__name__}: {e}".splitlines()[0]
            raise BrokenEncoding(f"encoding {name} failed on {puzzle.name or puzzle.kind}: {why}") from None
    if not isinstance(enc, Encoding):
        raise BrokenEncoding(f"encoding {name} is broken: encode() returned {type(enc).__name__}, not an Encoding")
    if not (_whole(enc.n_vars) and isinstance(enc.clauses, list) and isinstance(enc.decision, dict)):
        raise BrokenEncoding(f"encoding {name} is broken: n_vars, clauses (a list) or decision (a dict) is mistyped")
    odd = next((c for c in enc.clauses if not isinstance(c, list)), None)
    if odd is not None:
        raise BrokenEncoding(f"encoding {name} is broken: a clause is {type(odd).__name__}, not a list of literals")
    bad = next((x for c in enc.clauses for x in c if not _whole(x) or x == 0), None)
    if bad is not None:
        raise BrokenEncoding(f"encoding {name} is broken: a clause holds {bad!r}, not a nonzero integer literal")
    if any(not _whole(v) for v in enc.decision) or any(not _whole(a) for a in enc.assumptions):
        raise BrokenEncoding(f"encoding {name} is broken: a decision variable or assumption is not an integer")
    top = max((abs(x) for c in enc.clauses for x in c), default=0)
    if top > enc.n_vars or any(not 0 < v <= enc.n_vars for v in enc.decision):
        raise BrokenEncoding(f"encoding {name} is broken: a literal or decision variable past n_vars={enc.n_vars}")
    enc.model = name
    enc.foreign = name
    return enc


def _in_child(name: str, made: Any, puzzle, deadline: float) -> Any:
    """``made.encode(puzzle)`` in a forked child, ended at ``deadline`` (``BuildLate``); its failure is a
    ``BrokenEncoding`` naming the plug-in.  The encoding comes back pickled (a decoder it sets must pickle)."""
    import time

    from solving import BuildLate
    from solving.race import GRACE_S, race

    left = deadline - time.perf_counter()
    if left <= 0:
        raise BuildLate
    (out,) = race(
        [lambda stop: made.encode(puzzle)], settles=lambda r: True, deadline=time.monotonic() + left - GRACE_S
    )
    if out.killed:
        raise BuildLate
    if out.error:
        raise BrokenEncoding(f"encoding {name} failed on {puzzle.name or puzzle.kind}: {out.error.splitlines()[0]}")
    return out.result


def _whole(x: object) -> bool:
    """A plain integer (not a bool, a float or a string): what python-sat and a DIMACS file take."""
    return type(x) is int


# the option of the SAT solvers (``sat``, ``external``) that names a plug-in encoding
ENCODING_OPTION = Option(
    str,
    "",
    "a named encoding: a built-in one (heule-exp-aux, direct-redundant, primal-support, xcc, ...) or a plug-in's "
    "(the entry-point group eternity.encodings); `eternity encodings PUZZLE` lists those that apply with their "
    "sizes; empty: the model the other options shape",
)
