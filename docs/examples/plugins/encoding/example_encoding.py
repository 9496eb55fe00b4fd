"""`xcc-pairwise`: a CNF encoding of any puzzle's exact cover with colours, as a plug-in.

One variable a option of the XCC form (``puzzle.to_xcc()``).  Each primary item is covered by at least one of
its options, and by at most one (every pair of its options excluded: the pairwise at-most-one); two options that
put different colours on one secondary item exclude each other, and so do two that cover it plainly.  It is the
textbook encoding, small to read and quadratic in size: the workbench's own ``xcc`` model uses a sequential
counter instead (``eternity encodings PUZZLE`` sets the two sizes side by side).
"""

from itertools import combinations

from encoders.cnf import Encoding
from puzzles.puzzle import EXACT_COVER


class PairwiseXcc:
    """The encoding, as the entry-point group ``eternity.encodings`` takes it."""

    name = "xcc-pairwise"
    TAKES = frozenset({EXACT_COVER})  # every puzzle whose XCC is the whole puzzle

    def encode(self, puzzle) -> Encoding:
        x = puzzle.to_xcc()
        options = [x.option(k) for k in range(x.n_options)]
        var = {k: k + 1 for k in range(x.n_options)}
        clauses: list[list[int]] = []
        on_item: dict[int, list[tuple[int, int]]] = {}
        for k, opt in enumerate(options):
            for item, colour in opt:
                on_item.setdefault(item, []).append((k, colour))
        for item, ks in on_item.items():
            if item < x.n_primary:
                clauses.append([var[k] for k, _ in ks])  # covered at least once
                clauses += [[-var[a], -var[b]] for (a, _), (b, _) in combinations(ks, 2)]  # and at most once
            else:  # a secondary item: one colour, or one plain cover
                clauses += [[-var[a], -var[b]] for (a, ca), (b, cb) in combinations(ks, 2) if ca == 0 or ca != cb]
        for item in range(x.n_primary):
            if item not in on_item:
                clauses.append([])  # an item no option covers: no solution
        return Encoding(clauses, x.n_options, {var[k]: x.decode[k] for k in range(x.n_options)}, model=self.name)
