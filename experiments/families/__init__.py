"""Instance families of an experiment config: each a small class that makes its own instances.

A family is a validated TOML table (``kind`` picks the class) with one
method, ``puzzles(seed, ...)``: the (puzzle, params) pairs it stands for,
generated reproducibly from the config's seed.  ``instance_id`` names an
instance in the store; ``detail`` optionally names a function
``f(puzzle, solutions, count, stats) -> dict`` that a cell applies to its answer (the
tilability statistics of an excess-piece state), so the runner stays generic.
Adding a family: a class here with ``kind``, ``name`` and ``puzzles``, and
its name in ``Family``.

One kind a module: ``base`` (what every family shares), ``generated`` (edge boards, polyform sets, piece sets),
``files`` (built-in puzzles, puzzle files, CNF files), ``excess`` (excess-piece states).
"""

from .base import _NAME, MAX_INSTANCES, MAX_VALUE, Around, OnSample, Pairs, Range, _Family, derived_seed
from .excess import ExcessFamily
from .files import BuiltinFamily, CnfFamily, FilesFamily
from .generated import EdgeFamily, PiecesFamily, PolyformFamily, _unsolvable

__all__ = [
    "MAX_INSTANCES",
    "Around",
    "Range",
    "MAX_VALUE",
    "_NAME",
    "OnSample",
    "Pairs",
    "_Family",
    "derived_seed",
    "ExcessFamily",
    "BuiltinFamily",
    "CnfFamily",
    "FilesFamily",
    "EdgeFamily",
    "PiecesFamily",
    "PolyformFamily",
    "_unsolvable",
]
