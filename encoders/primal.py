"""The primal model of edge matching: a variable per placement (cell, piece, turn) and no colour variables.

Ansótegui, Béjar, Fernández, Gomes and Mateu [ABFGM2008] set edge matching as SAT and CSP benchmarks in several
models; the primal one takes the placements as its only variables: exactly one a cell, exactly one cell a
piece, and two neighbours that match.  The matching is a binary constraint between two cells' placements, and
it is written in one of the two classic encodings of a binary constraint:

* ``support`` [Gent2002]: a placement implies one of the placements next door that match it across the
  join; unit propagation then keeps arc consistency, as the colour variables of the direct model do;
* ``conflict`` (the direct encoding [Walsh2000]): every pair of neighbouring placements that clash is
  excluded by a binary clause; quadratic in the placements, so for small boards.
"""

from __future__ import annotations

from collections import defaultdict

from pysat.formula import IDPool

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from solving import past

from .cnf import Encoding, fixed_assumptions, placement_rules, too_large


def primal_cnf(
    p: EdgePuzzle, style: str = "support", amo: str = "seqcounter", deadline: float | None = None
) -> Encoding:
    """The primal model of ``p`` with its matching in ``style`` (support or conflict)."""
    if style not in ("support", "conflict"):
        raise UsageError("the primal model's matching is support or conflict")
    free = EdgePuzzle(p.rows, p.cols, p.pieces, name=p.name)  # fixed pieces become assumptions
    pool = IDPool()
    out: list[list[int]] = []
    x = placement_rules(p, free.candidates(), amo, pool, out, None, deadline)
    by_side: dict = defaultdict(lambda: defaultdict(list))  # (cell, side) -> colour shown there -> placements
    for pl, v in x.items():
        for side, c in enumerate(p.placed(pl.piece, pl.rotation)):
            by_side[(pl.cell, side)][int(c)].append(v)
    if style == "conflict":  # quadratic in the placements: counted first
        clashes = 0
        for cell, side, nb in p.joins():
            here, there = by_side[(cell, side)], by_side[(nb, (side + 2) % 4)]
            total = sum(len(v) for v in there.values())
            clashes += sum(len(us) * (total - len(there.get(c, []))) for c, us in here.items())
        too_large("primal-conflict", clashes)
    for k, (cell, side, nb) in enumerate(p.joins()):
        if k % 16 == 0:
            past(deadline)
        here, there = by_side[(cell, side)], by_side[(nb, (side + 2) % 4)]
        if style == "support":
            for a, b in ((here, there), (there, here)):
                for c, us in a.items():
                    match = b.get(c, [])
                    out.extend([[-u] + match for u in us])
        else:
            for c, us in here.items():
                clash = [v for c2, vs in there.items() if c2 != c for v in vs]
                out.extend([[-u, -v] for u in us for v in clash])
    assumptions = fixed_assumptions(p, x, pool, out)
    return Encoding(out, pool.top, {v: pl for pl, v in x.items()}, assumptions, 1, model=f"primal-{style}")
