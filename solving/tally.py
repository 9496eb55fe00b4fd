"""``Tally``: a count made by an outside engine, model by model, on evidence.

An engine that enumerates models in mode count (a SAT solver with blocking clauses, CP-SAT's solution
callback) is not taken at its word: each model is decoded into a board, goes through the independent
verifier, and is checked distinct from every model before it by a 16-byte digest of its placements.
A model that is not a solution, or one met twice, ends the count as an error naming the model's
number.  A count that passes is a proven lower bound; it is complete on the engine's word
(``enumerated, complete as claimed by ENGINE``) unless a checked certificate proves there are no more
(``enumerated``).
"""

from __future__ import annotations

import hashlib

from .contract import Evidence, SolveResult, Status, enumerated_claim
from .verified import accepted


class BogusModel(Exception):
    """An engine returned, in mode count, a model that is not a solution or one it returned before."""


class Tally:
    """The distinct verified models of one enumeration (``add`` each as it comes)."""

    def __init__(self, puzzle, key=None) -> None:
        self.puzzle = puzzle
        self.key = key or (lambda placements: placements)  # what makes two models the same (a projection)
        self.seen: set[bytes] = set()

    def add(self, placements) -> None:
        """Check one decoded model; ``BogusModel`` when it is not a solution or is not new."""
        n = len(self.seen) + 1
        if not accepted(self.puzzle, placements, "count"):
            raise BogusModel(f"model {n} the engine returned is not a solution (the verifier rejects it)")
        key = hashlib.blake2b(repr(sorted(_plain(list(self.key(placements))))).encode(), digest_size=16).digest()
        if key in self.seen:
            raise BogusModel(f"model {n} the engine returned is one it returned before")
        self.seen.add(key)

    def __len__(self) -> int:
        return len(self.seen)

    def stamp(self, res: SolveResult, engine: str, certified: bool = False) -> SolveResult:
        """``res`` with its evidence when it is a finished count of the models this tally checked (a count of
        none is "unsatisfiable", whose evidence is the engine's to bring): ``enumerated`` when ``certified``
        (the engine's final "no more models" came with a proof that a checker accepted), else
        ``enumerated, complete as claimed by ENGINE``: the models are checked, their completeness is not."""
        if len(self) and res.status == Status.SOLVED:
            res.evidence = Evidence.ENUMERATED.value if certified else enumerated_claim(engine)
        return res


def _plain(x):
    """A placement or a list of them as plain nested tuples of ints (numpy scalars and named tuples alike)."""
    if isinstance(x, (tuple, list)):
        return tuple(_plain(y) for y in x)
    return int(x)
