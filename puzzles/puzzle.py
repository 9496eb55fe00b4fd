"""One interface for every kind of puzzle: what the layers above ask of a puzzle, the puzzle declares.

A solver, the runner or a command never asks which class a puzzle is.  It asks what the puzzle offers:

- ``to_xcc()``: its exact cover with colours, which every puzzle compiles to;
- ``features``: what it is beyond that, from ``FEATURES`` (an edge-matching board, a region of a grid,
  a score, sums beside the cover), which is what solvers and options are declared against;
- ``native_solver``: the search a solve without a named solver runs;
- ``grid_name``: the grid of a polyform region (None for the rest);
- ``canonical()`` and ``summary()``: its file form (hashed into the puzzle's identity) and its facts.

Verification, rendering, symmetry and the file formats take a puzzle through the functions of their own
modules (``verify``, ``render``, ``symmetry``, ``formats``), which are the only places that know each
kind's insides.  ``KINDS`` registers the kinds by name; the solving layer's list of kinds is this one.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from puzzles.xcc import XCC

# What a puzzle can be beyond its exact cover (``Puzzle.features``); solvers declare which they take.
EXACT_COVER = "exact-cover"  # its XCC is the whole puzzle: a solution of the cover is a solution
SUMS = "sums"  # its XCC and sums over lines beside it (the magic figures): a cover alone is not a solution
EDGES = "edges"  # square pieces with coloured sides on a rows x cols board (the edge-matching models)
GRID = "grid"  # a region of a grid tiled by polyforms (the site search, the tilability weights)
SCORED = "scored"  # a full board has a score, its matching joins: mode best, partial boards, the viewer link
CNF = "cnf"  # a CNF formula, solved as given by the SAT solvers (``puzzles.kinds.cnf_formula``)
FEATURES = (EXACT_COVER, SUMS, EDGES, GRID, SCORED, CNF)

# kind -> the class that implements it ("module:Class"), imported when first asked for
KINDS: dict[str, str] = {
    "edge": "puzzles.kinds.edge:EdgePuzzle",
    "polyform": "puzzles.kinds.polyform:PolyformPuzzle",
    "queens": "puzzles.kinds.queens:QueensPuzzle",
    "latin": "puzzles.kinds.latin:LatinPuzzle",
    "magic": "puzzles.kinds.magic:MagicPuzzle",
    "cnf": "puzzles.kinds.cnf_formula:CnfFormula",
}


@runtime_checkable
class Puzzle(Protocol):
    """What every kind of puzzle declares (module docstring)."""

    kind: ClassVar[str]
    features: ClassVar[frozenset[str]]
    native_solver: ClassVar[str]
    name: str

    def to_xcc(self) -> XCC:
        """The puzzle as exact cover with colours: what every solver family can take."""
        ...

    def canonical(self) -> dict[str, Any]:
        """The fields that define the puzzle (its file's JSON), hashed to name it in solution files."""
        ...

    def summary(self) -> dict[str, Any]:
        """What `eternity info` shows of the puzzle."""
        ...


def kinds() -> tuple[str, ...]:
    """The registered kinds of puzzle, by name."""
    return tuple(KINDS)


@cache
def puzzle_class(kind: str) -> type[Puzzle]:
    """The class of a registered kind (``KeyError`` for an unknown one)."""
    module, _, attr = KINDS[kind].partition(":")
    return getattr(importlib.import_module(module), attr)


def kinds_with(features: frozenset[str] | set[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The registered kinds that have any of ``features``: what a solver or an option declared against them
    applies to, by name (for its listing and its refusals)."""
    return tuple(k for k in KINDS if puzzle_class(k).features & set(features))


def has(puzzle: Any, feature: str) -> bool:
    """Whether ``puzzle`` declares ``feature``."""
    return feature in getattr(puzzle, "features", frozenset())
