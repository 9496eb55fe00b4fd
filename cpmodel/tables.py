"""Solver-neutral constraint models: edge matching as a table model, any puzzle as 0/1 rows of its XCC.

The CPMpy and MiniZinc models are written from these descriptions, so the two
front ends state the same model to every engine behind them, and a
difference between engines is the engines'.

**Edge matching, the table model** (Benoist and Bourreau's formulation, as
``models.table_model`` states it to CP-SAT): a cell holds a *kind* of piece
and shows four colours; the allowed (kind, N, E, S, W) of a cell are a table
(the border rule and fixed pieces applied); both sides of a join are one
colour variable; each kind is used on exactly as many cells as it has
copies (all different when every kind has one copy and no piece is spare).
Identical pieces are one kind with a count of copies (``identical=merge``):
one board of the merged model stands for the copies' permutations, so
counts are multiplied back by ``orderings`` and a board names every copy
once (``EdgePuzzle.relabel``).

**Mode best** keeps the two sides of a join apart and maximises the joins
whose sides agree; the border rule stays hard.

**Any puzzle** as its XCC: a 0/1 variable an option, exactly one option an
uncovered primary item, at most one a plain secondary item, and on a coloured
secondary item options of different colours exclude each other (a colour is
chosen by at most one value an item).
"""

from __future__ import annotations

from dataclasses import dataclass

from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from solving import Option, Opts


class ModelOptions(Opts):
    """The options of every front end that writes these models (`cpmpy`, `minizinc`)."""

    identical = Option(
        str,
        "merge",
        "edge matching: identical pieces as one kind with a count of copies (merge), or each piece its own (distinct)",
        ("merge", "distinct"),
    )
    model = Option(
        str,
        "auto",
        "table (edge matching) or xcc (any puzzle); auto: table for edge matching",
        ("auto", "table", "xcc"),
    )


@dataclass
class EdgeTable:
    """Edge matching as a table model.  Side ``s`` of ``cell`` shows colour variable ``side_var[cell][s]``;
    ``kinds``: the pieces a kind stands for; ``copies``: how many cells hold it (``exact``: exactly, else
    at most); ``tables[cell]``: allowed (kind, N, E, S, W)."""

    puzzle: EdgePuzzle
    n_colour_vars: int
    side_var: list[list[int]]
    joins: list[tuple[int, int]]  # pairs of colour variables a join makes equal (best: scored)
    kinds: list[list[int]]
    exact: bool
    tables: list[list[tuple[int, int, int, int, int]]]
    max_colour: int
    groups: dict[int, list[int]] | None = None
    orderings: int = 1

    @property
    def copies(self) -> list[int]:
        """How many cells each kind of piece fills (its identical copies)."""
        return [len(k) for k in self.kinds]

    def decode(self, kind_of_cell: list[int], colours_of_cell: list[tuple[int, int, int, int]]) -> list[EdgePlacement]:
        """A board from each cell's kind and shown colours (copies of a merged kind named once each)."""
        p = self.puzzle
        board = []
        for cell, (k, shown) in enumerate(zip(kind_of_cell, colours_of_cell)):
            q = self.kinds[k][0]
            r = next(r for r in range(4) if tuple(int(c) for c in p.placed(q, r)) == tuple(shown))
            board.append(EdgePlacement(cell, q, r))
        return p.relabel(board, self.groups) if self.groups else board


def edge_table(p: EdgePuzzle, merge: bool = True, scored: bool = False) -> EdgeTable:
    """The table model of ``p``; ``scored``: each side its own variable (mode best), no merging."""
    groups = p.mergeable_groups() if merge and not scored else None
    if groups:
        kind_of = {q: i for i, (rep, g) in enumerate(sorted(groups.items())) for q in g}
        kinds = [g for _, g in sorted(groups.items())]
    else:
        kind_of = {q: q for q in range(p.n_pieces)}
        kinds = [[q] for q in range(p.n_pieces)]
    # colour variables: one per (cell, side), the two sides of a join sharing one unless scored
    side_var = [[-1] * 4 for _ in range(p.n_cells)]
    n = 0
    joins = []
    for cell, side, nb in p.joins():
        opp = (side + 2) % 4
        if scored:
            side_var[cell][side], side_var[nb][opp] = n, n + 1
            joins.append((n, n + 1))
            n += 2
        else:
            side_var[cell][side] = side_var[nb][opp] = n
            n += 1
    for cell in range(p.n_cells):
        for s in range(4):
            if side_var[cell][s] < 0:  # the rim: grey on a bordered board (the tables say so), free otherwise
                side_var[cell][s] = n
                n += 1
    tables: list[set] = [set() for _ in range(p.n_cells)]
    for pl in p.candidates():
        tables[pl.cell].add((kind_of[pl.piece],) + tuple(int(c) for c in p.placed(pl.piece, pl.rotation)))
    return EdgeTable(
        puzzle=p,
        n_colour_vars=n,
        side_var=side_var,
        joins=joins,
        kinds=kinds,
        exact=p.n_pieces == p.n_cells,
        tables=[sorted(t) for t in tables],
        max_colour=int(p.pieces.max()),
        groups=groups,
        orderings=EdgePuzzle.orderings(groups),
    )


@dataclass
class XccRows:
    """An XCC as 0/1 constraints over one variable an option."""

    n_options: int
    exactly_one: list[list[int]]  # primary items
    at_most_one: list[list[int]]  # plain secondary items, and each coloured item's choice of colour
    # coloured secondary items: (its plain uses, its coloured uses grouped by colour); at most one plain use
    # or one colour, and a colour's options may share the item
    coloured: list[tuple[list[int], list[list[int]]]]
    decode: list


def xcc_rows(xcc) -> XccRows:
    """The XCC form's options as rows of item indices, for the CP models' constraints."""
    by_item: dict[int, dict[int, list[int]]] = {}
    for k in range(xcc.n_options):
        for it, col in xcc.option(k):
            by_item.setdefault(it, {}).setdefault(col, []).append(k)
    exactly, at_most, coloured = [], [], []
    for it in range(xcc.n_items):
        uses = by_item.get(it, {})
        if it < xcc.n_primary:
            exactly.append([k for ks in uses.values() for k in ks])
        elif len(uses) > 1 or (uses and 0 not in uses):
            coloured.append((uses.get(0, []), [ks for c, ks in sorted(uses.items()) if c]))
        elif uses:
            at_most.append(uses[0])
    return XccRows(xcc.n_options, exactly, at_most, coloured, list(xcc.decode))
