"""Heule's edge-matching encodings: the four variants of the SAT Competition 2009's crafted instances.

[Heule2008], the encodings of the crafted edge-matching instances of the SAT Competition 2009; the encoder is
public in his ``edge-matching`` repository.

The model, in its own terms:

* **a variable per piece and cell of its class**, no rotation: a corner piece may lie on the four corners,
  a border piece on the frame's border cells, an inner piece on the inner cells.  A corner or border
  piece's turn is forced by the grey rim; an inner piece's turn is implied by the colours around it.
* **a variable per join and colour of its domain**: the frame's joins (between two rim cells) take the
  frame colours, all other joins the inner colours; exactly one colour a join.
* **every piece on at least one cell, every cell with at least one piece**; two copies of a piece never
  on the same cell.  No at-most-one on cells at all: the colours keep two pieces off one cell.
* **a placed piece implies its colours**: a corner or border piece the colour of each join it touches.  An
  inner piece, whose turn is open, gets clauses by its *type* (the pattern of its four colours: one colour;
  three and one; two pairs opposite; two pairs adjacent; a pair opposite and two singles; a pair adjacent
  and two singles; four distinct), which say that its colours lie around the cell in its cyclic order.  A
  piece without every inner colour also gets, on each of its four joins, either one *support* clause (the
  join shows one of the piece's colours) or *forbidden-colour* clauses (the join shows none of the others).

The variants, as published: ``compact`` (none of the optional parts), ``exp`` (at most one cell a piece),
``fbc`` (forbidden-colour clauses in place of the support clauses) and ``all`` (both).  Each at-most-one,
over a join's colours and, in ``exp`` and ``all``, over a piece's cells, is written ``pairwise``, with
auxiliary variables (``aux``: three literals at a time, pairwise, then a new variable that stands for
them), or as a cardinality constraint (``card``; Heule's KNF lines ``k K lits``, at least K of the negated
literals).

The variables are numbered as his encoder numbers them (the pieces' blocks in file order, then the joins'
colours, then the auxiliary variables), so the largest variable and the clause count agree with his on
every board: measured on his eight competition boards and on boards from his generator with other seeds
(``benchmarks/bench_heule_encoder.py``, with his encoder built from a copy of his repository).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

import numpy as np

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from puzzles.puzzle import EDGES
from solving import past

from .cnf import Encoding

VARIANTS = ("compact", "exp", "fbc", "all")
AMOS = ("pairwise", "aux", "card")
# the names of Heule's encoder binaries, for the comparison with his encoder (em-encode-NAME)
HIS_NAMES = {
    ("compact", "pairwise"): "plain",
    ("exp", "pairwise"): "amo",
    ("fbc", "pairwise"): "fbc",
    ("all", "pairwise"): "all",
    ("compact", "aux"): "aux",
    ("exp", "aux"): "amo-aux",
    ("fbc", "aux"): "fbc-aux",
    ("all", "aux"): "all-aux",
    ("compact", "card"): "knf",
    ("exp", "card"): "amo-knf",
    ("fbc", "card"): "fbc-knf",
    ("all", "card"): "all-knf",
}
N, E, S, W = range(4)


class _Out:
    """The clauses, the cardinality constraints and the next auxiliary variable of one encoding."""

    def __init__(self, amo: str, next_aux: int):
        self.clauses: list[list[int]] = []
        self.atmost: list[tuple[list[int], int]] = []
        self.amo, self.aux = amo, next_aux

    def at_most_one(self, lits: list[int]) -> None:
        """At most one of the (positive) ``lits``, in the variant's at-most-one."""
        if self.amo == "card":
            self.atmost.append((list(lits), 1))  # one KNF line, even over a single literal, as Heule writes it
            return
        rest = list(lits)
        if self.amo == "aux":
            while len(rest) > 4:  # three at a time: pairwise, then a new variable implied by each
                a, b, c = rest[:3]
                y = self.aux
                self.aux += 1
                self.clauses += [[-a, -b], [-a, -c], [-b, -c], [y, -a], [y, -b], [y, -c]]
                rest = rest[3:] + [y]
        if len(rest) > 1:  # pairwise, every pair at once
            neg = -np.asarray(rest, np.int64)
            i, j = np.triu_indices(len(rest), 1)
            self.clauses += np.column_stack([neg[i], neg[j]]).tolist()


@dataclass(frozen=True)
class Layout:
    """The board's cells by class and its joins, numbered as Heule's encoder numbers them."""

    rows: int
    cols: int

    def class_cells(self) -> dict[str, list[int]]:
        """The cells (row * cols + col) of each class in the order of the pieces' variable blocks: the four
        corners (top left, top right, bottom left, bottom right); the border (top row, left column, right
        column, bottom row); the inner cells row by row."""
        R, C = self.rows, self.cols
        corner = [0, C - 1, (R - 1) * C, R * C - 1]
        border = (
            [c for c in range(1, C - 1)]
            + [r * C for r in range(1, R - 1)]
            + [r * C + C - 1 for r in range(1, R - 1)]
            + [(R - 1) * C + c for c in range(1, C - 1)]
        )
        inner = [r * C + c for r in range(1, R - 1) for c in range(1, C - 1)]
        return {"corner": corner, "edge": border, "inner": inner}

    def joins(self) -> tuple[list[tuple[int, int]], list[bool]]:
        """The joins 1..D as (cell, side E or S), each band a row's E joins then its S joins, and whether
        each runs along the frame (between two rim cells)."""
        R, C = self.rows, self.cols
        joins, frame = [], []
        for r in range(R):
            for c in range(C - 1):
                joins.append((r * C + c, E))
                frame.append(r in (0, R - 1))
            if r < R - 1:
                for c in range(C):
                    joins.append((r * C + c, S))
                    frame.append(c in (0, C - 1))
        return joins, frame


def _check(p: EdgePuzzle) -> None:
    if EDGES not in getattr(p, "features", ()):
        raise UsageError("Heule's encodings are for edge-matching puzzles")
    if p.rows < 3 or p.cols < 3 or p.n_pieces != p.n_cells or not p.bordered:
        raise UsageError("Heule's encodings take framed boards of at least 3x3 with no spare piece")
    counts: dict[str, int] = defaultdict(int)
    for q in range(p.n_pieces):
        counts[p.piece_class(q)] += 1
    want = {"corner": 4, "edge": 2 * (p.rows + p.cols) - 8, "inner": (p.rows - 2) * (p.cols - 2)}
    if dict(counts) != {k: v for k, v in want.items() if v}:
        raise UsageError(f"Heule's encodings need {want} pieces by class, the box has {dict(counts)}")


def _colour_indices(p: EdgePuzzle) -> tuple[dict[int, int], dict[int, int]]:
    """Each colour's number in the frame and in the inner domain, by first appearance, piece by piece and N E S W:
    a side's colour is an inner colour when both sides beside it are coloured, a frame colour otherwise."""
    frame: dict[int, int] = {}
    inner: dict[int, int] = {}
    for q in p.pieces.tolist():
        for s in range(4):
            if q[s] == 0:
                continue
            domain = inner if q[(s + 1) % 4] and q[(s + 3) % 4] else frame
            domain.setdefault(q[s], len(domain) + 1)
    return frame, inner


def heule_cnf(
    p: EdgePuzzle, variant: str = "compact", amo: str = "pairwise", deadline: float | None = None
) -> Encoding:
    """Heule's encoding of ``p`` in ``variant`` (compact, exp, fbc, all) with at-most-ones ``amo`` (pairwise, aux,
    card).  ``deadline`` (``time.perf_counter``): ``BuildLate`` once it has passed."""
    if variant not in VARIANTS or amo not in AMOS:
        raise UsageError(f"Heule's encodings: variant one of {VARIANTS}, at-most-one one of {AMOS}")
    _check(p)
    lay = Layout(p.rows, p.cols)
    cells = lay.class_cells()
    slot = {cls: {cell: i for i, cell in enumerate(cs)} for cls, cs in cells.items()}
    classes = [p.piece_class(q) for q in range(p.n_pieces)]
    # the pieces' blocks, in file order
    start, top = [], 0
    for cls in classes:
        start.append(top)
        top += len(cells[cls])

    def x(q: int, cell: int) -> int:
        return start[q] + slot[classes[q]][cell] + 1

    frame_idx, inner_idx = _colour_indices(p)
    joins, on_frame = lay.joins()
    base, join_var, size = [], {}, []
    for k, (cell, side) in enumerate(joins):
        base.append(top)
        size.append(len(frame_idx) if on_frame[k] else len(inner_idx))
        join_var[(cell, side)] = join_var[(p.neighbour(cell, side), (side + 2) % 4)] = k
        top += size[-1]

    def colour(cell: int, side: int, c: int) -> int:
        k = join_var[(cell, side)]
        return base[k] + (frame_idx if on_frame[k] else inner_idx)[c]

    out = _Out(amo, top + 1)
    past(deadline)
    for k in range(len(joins)):  # every join exactly one colour of its domain
        lits = list(range(base[k] + 1, base[k] + size[k] + 1))
        out.clauses.append(lits)
        out.at_most_one(lits)
    for q in range(p.n_pieces):  # every piece on a cell of its class (at most one in exp and all)
        lits = [x(q, cell) for cell in cells[classes[q]]]
        out.clauses.append(lits)
        if variant in ("exp", "all"):
            out.at_most_one(lits)
    by_class = defaultdict(list)
    for q, cls in enumerate(classes):
        by_class[cls].append(q)
    for cls in ("corner", "edge", "inner"):  # every cell a piece of its class
        for cell in cells[cls]:
            out.clauses.append([x(q, cell) for q in by_class[cls]])
    fbc = variant in ("fbc", "all")
    # each inner cell's four joins (N E S W), as the variable before their first colour
    inner_joins = np.array([[base[join_var[(cell, s)]] for s in range(4)] for cell in cells["inner"]], np.int64)
    for q in range(p.n_pieces):
        if q % 16 == 0:
            past(deadline)
        cols = [int(v) for v in p.pieces[q]]
        if classes[q] == "inner":
            v = start[q] + 1 + np.arange(len(cells["inner"]), dtype=np.int64)  # the piece's block, cell by cell
            _inner_piece(out.clauses, cols, v, inner_joins, inner_idx, fbc)
        else:
            _rim_piece(out.clauses, p, q, cells[classes[q]], x, colour)
    _copies(out.clauses, p, classes, cells, x)
    decision: dict[int, tuple] = {
        v: ("x", q, cell) for q in range(p.n_pieces) for cell in cells[classes[q]] for v in [x(q, cell)]
    }
    for (cell, side), k in join_var.items():
        if side in (E, S):
            domain = frame_idx if on_frame[k] else inner_idx
            for c, i in domain.items():
                decision[base[k] + i] = ("colour", cell, side, c)
    assumptions = _fixed(p, x, colour)
    enc = Encoding(out.clauses, out.aux - 1, decision, assumptions, model=f"heule-{variant}-{amo}")
    enc.atmost = out.atmost
    enc.decoder = _decoder(p, decision)
    return enc


def _rim_piece(out, p: EdgePuzzle, q: int, cells: list[int], x, colour) -> None:
    """A corner or border piece on each cell of its class implies the colours of the joins it touches, in
    the one turn that puts its grey sides outside."""
    for cell in cells:
        outside = p.outside_sides(cell)
        turn = next(r for r in range(4) if all((c == 0) == o for c, o in zip(p.placed(q, r), outside)))
        v = x(q, cell)
        out.extend([[-v, colour(cell, s, c)] for s, c in enumerate(p.placed(q, turn)) if c])


def _inner_piece(out, cols: list[int], v: np.ndarray, joins: np.ndarray, idx: dict[int, int], fbc: bool) -> None:
    """The clauses of an inner piece with colours ``cols`` (N E S W) on every inner cell (``v``: its variables
    there; ``joins``: each cell's four joins, N E S W, as the variable before their first colour; ``idx``: the
    inner colours' numbers), by the piece's type: its colours lie around the cell in its cyclic order.  Built a
    rule at a time over all cells at once (numpy): the clause lists are most of a 16x16 board's build."""
    distinct = list(dict.fromkeys(cols))
    a, b, c, d = cols
    # each rule a clause "the piece here implies one of": (side, colour, whether the side shows it or not)
    rules: list[tuple[tuple[int, int, bool], ...]] = []

    def around(col):  # the colour on one of the four sides
        return tuple((j, col, True) for j in range(4))

    if len(distinct) == 1:  # one colour: each side shows it
        rules = [((j, a, True),) for j in range(4)]
        nogood_sides = False
    else:
        nogood_sides = len(distinct) < len(idx)
        if len(distinct) == 2 and a == c and b == d:  # two pairs opposite: the colour next to each is the other
            for j in range(4):
                rules += [((j, a, True), (j + 1, a, True)), ((j, b, True), (j + 1, b, True))]
        elif len(distinct) == 2 and (a == c or b == d):  # three of one and one of another
            major, odd = max(distinct, key=cols.count), min(distinct, key=cols.count)
            rules += [around(odd), ((0, major, True), (2, major, True)), ((1, major, True), (3, major, True))]
            rules += [((j, major, True), (j + 1, major, True)) for j in range(4)]
        elif len(distinct) == 2:  # two pairs adjacent: each colour on one of two opposite sides
            for j in range(2):
                rules += [((j, a, True), (j + 2, a, True)), ((j, c, True), (j + 2, c, True))]
        elif len(distinct) == 3 and (a == c or b == d):  # a pair opposite, two singles opposite each other
            pair = a if a == c else b
            s1, s2 = (b, d) if a == c else (c, a)
            rules += [around(s1), around(s2)]
            for j in range(4):
                rules += [((j, pair, True), (j + 1, pair, True)), ((j, s1, False), (j + 2, s2, True))]
                rules += [((j, s2, False), (j + 2, s1, True))]
        elif len(distinct) == 3:  # a pair adjacent, then two singles: A A C D clockwise
            k = next(i for i in range(4) if cols[i] == cols[(i + 1) % 4])
            pair, s1, s2 = cols[k], cols[(k + 2) % 4], cols[(k + 3) % 4]
            rules += [around(s1), around(s2), ((0, pair, True), (2, pair, True)), ((1, pair, True), (3, pair, True))]
            for j in range(4):
                rules += [((j, s2, False), (j + 3, s1, True)), ((j, s1, False), (j + 1, s2, True))]
                rules += [((j, pair, False), (j + 1, pair, False), (j + 2, s1, True))]
        else:  # four colours: each present, and each followed clockwise by the next
            rules += [around(col) for col in cols]
            for j in range(4):
                rules += [((j, cols[i], False), (j + 1, cols[(i + 1) % 4], True)) for i in range(4)]
    others = [k for k in idx if k not in distinct]

    def lit(j: int, col: int, shown: bool) -> np.ndarray:
        return (joins[:, j % 4] + idx[col]) * (1 if shown else -1)

    blocks: list[np.ndarray] = []
    if nogood_sides:
        for j in range(4):
            if fbc:  # the join shows none of the colours the piece lacks
                blocks += [np.column_stack([-v, lit(j, k, False)]) for k in others]
            else:  # support: the join shows one of the piece's colours
                blocks.append(np.column_stack([-v] + [lit(j, k, True) for k in distinct]))
    for rule in rules:
        blocks.append(np.column_stack([-v] + [lit(j, col, shown) for j, col, shown in rule]))
    for blk in blocks:
        out.extend(blk.tolist())


def _copies(out, p: EdgePuzzle, classes: list[str], cells, x) -> None:
    """Two copies of a piece (the same colours up to a turn) never on the same cell."""
    seen: dict[tuple, list[int]] = defaultdict(list)
    for q in range(p.n_pieces):
        seen[min(p.placed(q, r) for r in range(4))].append(q)
    for group in seen.values():
        for i, qa in enumerate(group):
            for qb in group[i + 1 :]:
                out.extend([[-x(qa, cell), -x(qb, cell)] for cell in cells[classes[qa]]])


def _fixed(p: EdgePuzzle, x, colour) -> list[int]:
    """Fixed pieces as assumptions: the piece on its cell and the colours it shows there."""
    out = []
    for f in p.fixed:
        out.append(x(f.piece, f.cell))
        outside = p.outside_sides(f.cell)
        for s, c in enumerate(p.placed(f.piece, f.rotation)):
            if outside[s]:
                continue
            out.append(colour(f.cell, s, int(c)))
    return out


def _decoder(p: EdgePuzzle, decision: dict):
    """Placements from a model's true decision variables: each piece on its cell, turned to show the colours
    the model gives the joins around it."""

    def decode(chosen: list[int]) -> list[EdgePlacement]:
        shown: dict[tuple[int, int], int] = {}
        at = []
        for v in chosen:
            m = decision[v]
            if m[0] == "x":
                at.append((m[1], m[2]))
            else:
                _, cell, side, c = m
                shown[(cell, side)] = c
                shown[(p.neighbour(cell, side), (side + 2) % 4)] = c
        board = []
        for q, cell in at:
            want = tuple(shown.get((cell, s), 0) for s in range(4))
            r = next((r for r in range(4) if tuple(int(c) for c in p.placed(q, r)) == want), 0)
            board.append(EdgePlacement(cell, q, r))
        return board

    return decode
