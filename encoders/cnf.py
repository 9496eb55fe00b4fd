"""Puzzles as CNF: the generic XCC encoding and a direct edge-matching one.

``xcc_cnf``: one variable per option (variables 1..n_options, option k is
variable k+1); exactly-one per primary item and at-most-one per secondary
item in the chosen encoding; coloured items either by a clause against
every pair of options that disagree on the colour (``colors=pairs``) or by a
variable per (item, colour) that each option implies, with at-most-one over
an item's colours (``colors=vars``).

``direct_cnf`` (Heule 2008 style): x[cell, piece, rotation] variables for
the placements the border rule allows, exactly one per cell and per piece,
a variable per (join, colour) implied by each placement for the colour it
shows there, at most one colour per join; the *support* clauses (a join's
colour implies, on each side of the join, one of the placements showing
it there: unit propagation then does arc consistency on every join, as
Heule's encodings do); optional redundant cardinality constraints (each
colour on exactly its number of joins; on a free rim, at most that many) and a fixed corner.

Both return an ``Encoding``: the clauses, the number of variables, and the
decision variables with what each means, so a model maps back to
placements and a count blocks only on decision variables.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysat.card import CardEnc
from pysat.formula import IDPool

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from solving import past

from .amo import PYSAT, at_most_one, exactly_one


@dataclass
class Encoding:
    """A puzzle's CNF: its clauses, its variables, and the decision variables that mean placements."""

    clauses: list[list[int]]
    n_vars: int
    decision: dict[int, Any]  # variable -> placement it means
    assumptions: list[int] = field(default_factory=list)
    multiplier: int = 1  # symmetry breaking: multiply counts back
    model: str = "xcc"  # which encoding: xcc, direct (edge matching) or magic (sums)
    groups: dict | None = None  # merged identical pieces: a board names a group's first piece
    # native cardinality constraints (literals, k): at most k true; a backend without them gets them as clauses
    atmost: list[tuple[list[int], int]] = field(default_factory=list)
    # a model's true decision variables -> its placements, where ``decision`` alone does not say (an
    # encoding whose placements leave the turn to other variables)
    decoder: Callable[[list[int]], list] | None = None
    # a formula's count is of its models projected on these variables: a model is blocked on every one of them,
    # true or false, and two models are the same when they agree on them.  None: a puzzle's placements, whose
    # exactly-one constraints make blocking a model's true decision variables enough.
    project: list[int] | None = None
    # a plug-in encoding's name (set by ``encoders.plugins.encode``, never by the plug-in): its CNF is not one
    # this project holds sound, so a proof about it or a count it multiplies is the encoding's claim
    foreign: str = ""
    _on: frozenset[int] | None = field(default=None, repr=False, compare=False)  # ``project`` as a set, made once

    def blocking(self, chosen: list[int]) -> list[int]:
        """The clause that excludes the model whose true decision variables are ``chosen`` (and only it, over
        what a count is of)."""
        if self.project is None:
            return [-v for v in chosen]
        on = set(chosen)
        return [-v if v in on else v for v in self.project]

    def key(self, solution) -> object:
        """What makes two decoded models the same model of the count (``solving.tally.Tally``)."""
        if self.project is None:
            return solution
        if self._on is None:
            self._on = frozenset(self.project)
        return sorted(int(v) for v in solution if int(v) in self._on)

    @property
    def n_literals(self) -> int:
        """The literals of all clauses and cardinality constraints (the CNF's size beside its clause count)."""
        return sum(len(c) for c in self.clauses) + sum(len(lits) for lits, _ in self.atmost)

    @property
    def n_constraints(self) -> int:
        """Clauses and cardinality constraints: the count a KNF file's lines give."""
        return len(self.clauses) + len(self.atmost)

    def expanded(self) -> Encoding:
        """The same encoding with its cardinality constraints as clauses (python-sat's sequential counter), for a
        backend without native cardinality constraints."""
        if not self.atmost:
            return self
        pool = IDPool(start_from=self.n_vars + 1)
        extra: list[list[int]] = []
        for lits, k in self.atmost:
            if k < len(lits):
                extra += CardEnc.atmost(lits=lits, bound=k, vpool=pool, encoding=PYSAT["seqcounter"]).clauses
        out = dataclasses.replace(self, clauses=self.clauses + extra, atmost=[])
        out.n_vars = max(self.n_vars, pool.top)
        return out


MAX_CLAUSES = 20_000_000  # an encoding that would write more is refused before it fills the memory


def too_large(name: str, clauses: int) -> None:
    """Refuse, before building, an encoding of more than ``MAX_CLAUSES`` clauses."""
    if clauses > MAX_CLAUSES:
        raise UsageError(
            f"encoding {name} would write {clauses:,} clauses, more than {MAX_CLAUSES:,}: it is for smaller boards"
        )


def xcc_cnf(xcc, amo: str = "seqcounter", colors: str = "pairs", deadline: float | None = None) -> Encoding:
    """The XCC form as CNF: a variable a option, each primary item exactly once, colour clashes excluded.
    ``deadline`` (``time.perf_counter``): ``BuildLate`` once it has passed."""
    n = xcc.n_options
    pool = IDPool(start_from=n + 1)
    out: list[list[int]] = []
    plain: dict[int, list[int]] = defaultdict(list)
    coloured: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for k in range(n):
        if k % 8192 == 0:
            past(deadline)
        for it, col in xcc.option(k):
            (coloured[it][col] if col else plain[it]).append(k + 1)
    if colors == "pairs":  # the clash clauses are quadratic: counted first
        clashes = 0
        for cols in coloured.values():
            sizes = [len(v) for v in cols.values()]
            clashes += (sum(sizes) ** 2 - sum(z * z for z in sizes)) // 2
        too_large("xcc (colour clashes as pairs)", clashes)
    for it in range(xcc.n_items):
        if it % 256 == 0:
            past(deadline)
        if it < xcc.n_primary:
            exactly_one(plain[it], amo, pool, out)
            continue
        cols = coloured.get(it, {})
        if not cols:
            at_most_one(plain.get(it, []), amo, pool, out)
        elif colors == "pairs":
            groups = list(cols.values())
            for a in range(len(groups)):
                for b in range(a + 1, len(groups)):
                    for x in groups[a]:
                        for y in groups[b]:
                            out.append([-x, -y])
            everything = [x for g in groups for x in g]
            for x in plain.get(it, []):  # an uncoloured use excludes all others
                out.extend([[-x, -y] for y in everything])
            at_most_one(plain.get(it, []), amo, pool, out)
        elif colors == "vars":
            ys = []
            for col, opts in cols.items():
                y = pool.id(("colour", it, col))
                ys.append(y)
                out.extend([[-x, y] for x in opts])
                out.append([-y] + opts)
            at_most_one(ys + plain.get(it, []), amo, pool, out)
        else:
            raise ValueError(f"colors must be pairs or vars, not {colors!r}")
    return Encoding(out, max(pool.top, n), {k + 1: xcc.decode[k] for k in range(n)}, model="xcc")


def placement_rules(
    p: EdgePuzzle,
    cands,
    amo: str,
    pool,
    out: list[list[int]],
    groups: dict[int, list[int]] | None = None,
    deadline: float | None = None,
) -> dict:
    """A variable per placement in ``cands``, exactly one a cell and each piece once (at most once with
    spare pieces; a merged group on exactly as many cells as it has copies).  Returns placement -> var."""
    x = {pl: pool.id(("x",) + tuple(pl)) for pl in cands}
    by_cell, by_piece = defaultdict(list), defaultdict(list)
    for pl, v in x.items():
        by_cell[pl.cell].append(v)
        by_piece[pl.piece].append(v)
    for cell in range(p.n_cells):
        exactly_one(by_cell[cell], amo, pool, out)
        past(deadline)
    spare = p.n_pieces > p.n_cells
    for piece in range(p.n_pieces) if groups is None else groups:
        past(deadline)
        m = 1 if groups is None else len(groups[piece])
        if m > 1 and len(by_piece[piece]) < m:  # fewer places than copies (none at all, say): no board
            out.append([])
        elif m > 1:  # a merged group: on exactly m cells
            out.extend(CardEnc.equals(lits=by_piece[piece], bound=m, vpool=pool, encoding=PYSAT["seqcounter"]).clauses)
        else:
            (at_most_one if spare else exactly_one)(by_piece[piece], amo, pool, out)
    return x


def fixed_assumptions(p: EdgePuzzle, x: dict, pool, out: list[list[int]]) -> list[int]:
    """The fixed pieces as assumptions: the variable of each one's placement (``x``: placement -> variable).  A
    fixed placement no variable stands for (it breaks the border rule) makes the CNF unsatisfiable."""
    assumptions = []
    for f in p.fixed:
        shown = p.placed(f.piece, f.rotation)
        v = next(
            (
                v
                for pl, v in x.items()
                if pl.cell == f.cell and pl.piece == f.piece and p.placed(pl.piece, pl.rotation) == shown
            ),
            None,
        )
        if v is None:  # the fixed placement breaks the border rule: unsatisfiable
            z = pool.id(("contradiction",))
            out.extend([[z], [-z]])
        else:
            assumptions.append(v)
    return assumptions


def direct_cnf(
    p: EdgePuzzle,
    amo: str = "seqcounter",
    redundant: bool = False,
    symmetry: bool = False,
    support: bool = True,
    merge: bool = False,
    deadline: float | None = None,
) -> Encoding:
    """The direct encoding: a variable per (cell, piece, rotation), one per join colour.  ``deadline``
    (``time.perf_counter``): ``BuildLate`` once it has passed.  ``merge``
    (no fixed, no spare pieces, no corner symmetry): identical pieces share their variables, the
    group on exactly as many cells as it has copies; counts are multiplied back (``Encoding.groups``)."""
    free = EdgePuzzle(p.rows, p.cols, p.pieces, name=p.name)  # fixed pieces become assumptions
    spare = p.n_pieces > p.n_cells
    groups = p.mergeable_groups(symmetry) if merge else None
    cands = free.candidates() if groups is None else [pl for pl in free.candidates() if pl.piece in groups]
    pool = IDPool()
    out: list[list[int]] = []
    past(deadline)
    x = placement_rules(p, cands, amo, pool, out, groups, deadline)
    join_of = {}
    for cell, side, nb in p.joins():
        join_of[(cell, side)] = join_of[(nb, (side + 2) % 4)] = (cell, side)
    colour_vars: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)  # join -> colour -> var
    shows = defaultdict(list)  # (cell, side, colour) -> placements showing that colour there
    turned: dict[tuple[int, int], tuple] = {}  # (piece, rotation) -> colours shown, worked out once
    for i, (pl, v) in enumerate(x.items()):
        if i % 8192 == 0:
            past(deadline)
        shown = turned.get((pl.piece, pl.rotation))
        if shown is None:
            shown = turned[(pl.piece, pl.rotation)] = p.placed(pl.piece, pl.rotation)
        for side, c in enumerate(shown):
            j = join_of.get((pl.cell, side))
            if j is None:
                continue
            y = colour_vars[j].get(c) or pool.id(("join",) + j + (int(c),))
            colour_vars[j][c] = y
            out.append([-v, y])
            shows[(pl.cell, side, c)].append(v)
    for d in colour_vars.values():
        at_most_one(list(d.values()), amo, pool, out)
    past(deadline)
    if support:  # a join's colour needs a placement showing it on each side: propagation = arc consistency
        for (cell, side), d in colour_vars.items():
            nb = p.neighbour(cell, side)
            for c, y in d.items():
                out.append([-y] + shows[(cell, side, c)])
                out.append([-y] + shows[(nb, (side + 2) % 4, c)])
    if redundant and not spare:
        edges: dict[int, int] = defaultdict(int)
        for piece in p.pieces:
            for c in piece:
                edges[int(c)] += 1
        # On a bordered board every side of a colour but grey lies on a join, so the colour is on exactly half
        # its sides' number of joins.  On a free rim (no grey edge) some of its sides may face the outside:
        # then it is on at most that many joins, and nothing more is known.
        exact = p.bordered
        general = amo not in ("pairwise", "bitwise", "ladder")  # those encode at-most-one only
        kind = PYSAT.get(amo, PYSAT["seqcounter"]) if general else PYSAT["seqcounter"]
        for c in sorted(edges):
            lits = [d[c] for d in colour_vars.values() if c in d]
            bound = edges[c] // 2
            if not c:
                continue
            if exact and bound > len(lits):  # more sides of the colour than joins could show it: no solution
                out.append([])
            elif exact and lits:
                out.extend(CardEnc.equals(lits=lits, bound=bound, vpool=pool, encoding=kind).clauses)
            elif bound < len(lits):
                out.extend(CardEnc.atmost(lits=lits, bound=bound, vpool=pool, encoding=kind).clauses)
    mult = p.orderings(groups)
    if symmetry:
        corners = [q for q in range(p.n_pieces) if p.piece_class(q) == "corner"]
        if corners:
            out.extend([[-v] for pl, v in x.items() if pl.piece == corners[0] and pl.cell != 0])
            mult = 4
    assumptions = fixed_assumptions(p, x, pool, out)
    return Encoding(out, pool.top, {v: pl for pl, v in x.items()}, assumptions, mult, model="direct", groups=groups)


def magic_cnf(p, amo: str = "seqcounter", colors: str = "pairs") -> Encoding:
    """A magic figure (``puzzles.kinds.magic``): the assignment's exact cover, every line a pseudo-Boolean sum
    (python-sat's ``pb`` module, encoded by pindakaas)."""
    from pysat.pb import PBEnc

    xcc = p.to_xcc()
    enc = xcc_cnf(xcc, amo, colors)
    top = enc.n_vars
    by_cell: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for k, pl in enumerate(xcc.decode):
        by_cell[pl.cell].append((k + 1, pl.value))
    for line in p.lines:
        lits = [v for c in line for v, w in by_cell[c] if w]  # a 0 adds nothing to the sum
        weights = [w for c in line for _, w in by_cell[c] if w]
        pb = PBEnc.equals(lits=lits, weights=weights, bound=p.target, top_id=top)
        enc.clauses.extend(pb.clauses)
        top = max(top, pb.nv)
    enc.n_vars, enc.model = top, "magic"
    return enc
