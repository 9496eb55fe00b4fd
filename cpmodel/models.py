"""CP-SAT models with placement variables, one readable function each.

* ``xcc_model``: any puzzle through its XCC form.  One Boolean per option;
  ``exactly_one`` per primary item, ``at_most_one`` per uncoloured secondary
  item; a coloured secondary item gets one Boolean per (item, colour),
  implied by the options that put that colour there, at most one per item,
  and itself implying one of those options (so it is never free and
  enumeration counts each solution once).
* ``placement_model``: x[cell, piece, rotation]; each join's colour is the
  same seen from both sides, written as one equality per colour between
  the placements showing that colour on either side (``join=sum``), with
  one integer variable per join (``join=int``), or with one Boolean per
  (join, colour) tied to the placements by clauses (``join=onehot``: pure
  SAT structure; the best at 8x8 here).
* ``table_model``: per cell an integer piece and rotation and four colour
  variables tied by ``add_allowed_assignments`` on (piece, rotation, N, E,
  S, W), ``add_all_different`` on the pieces, equal colours across joins
  (Benoist and Bourreau's formulation).
* ``score_model``: the placement model with soft joins, maximising the
  number of matching joins (the Eternity II score).

Each returns (model, decode) where ``decode(solver_or_callback)`` turns the
current assignment back into placements.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from ortools.sat.python import cp_model

from puzzles.kinds.edge import E, EdgePlacement, EdgePuzzle, S
from solving import past


def xcc_model(xcc):
    """The XCC form as a CP-SAT model: a Boolean a option, each primary item covered once, colours consistent."""
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"o{k}") for k in range(xcc.n_options)]
    plain: dict[int, list] = defaultdict(list)
    coloured: dict[int, dict[int, list]] = defaultdict(lambda: defaultdict(list))
    for k in range(xcc.n_options):
        for it, col in xcc.option(k):
            if col:
                coloured[it][col].append(x[k])
            else:
                plain[it].append(x[k])
    for it in range(xcc.n_items):
        if it < xcc.n_primary:
            m.add_exactly_one(plain[it])
        elif it in coloured:
            ys = []
            for col, opts in coloured[it].items():
                y = m.new_bool_var(f"y{it}_{col}")
                for o in opts:
                    m.add_implication(o, y)
                m.add_bool_or([y.Not()] + opts)
                ys.append(y)
            # an uncoloured use excludes every coloured one
            m.add_at_most_one(ys + plain.get(it, []))
        elif plain.get(it):
            m.add_at_most_one(plain[it])

    def decode(v):
        return [xcc.decode[k] for k in range(xcc.n_options) if v.boolean_value(x[k])]

    return m, decode, x


def magic_model(p):
    """A magic figure (``puzzles.kinds.magic``): one integer a cell, all different when the figure says so, every
    line a linear sum.  (The one-hot form over the exact cover enumerated the hexagon's 12 solutions far
    slower.)"""
    m = cp_model.CpModel()
    lo, hi = p.values[0], p.values[-1]
    cells = [m.new_int_var(lo, hi, f"c{i}") for i in range(len(p.cells))]
    if p.distinct:
        m.add_all_different(cells)
    for line in p.lines:
        m.add(sum(cells[c] for c in line) == p.target)
    from puzzles.kinds.magic import MagicPlacement

    def decode(v):
        return [MagicPlacement(i, int(v.value(x))) for i, x in enumerate(cells)]

    return m, decode, cells


def _placements(p: EdgePuzzle):
    return p.candidates()


def _one_piece_a_cell(m: cp_model.CpModel, p: EdgePuzzle, cands) -> tuple[dict, dict[int, list]]:
    """A Boolean a candidate placement, exactly one on every cell: (the variables by placement, those of each
    piece), the placement and score models' common ground."""
    x = {pl: m.new_bool_var(f"x{pl.cell}_{pl.piece}_{pl.rotation}") for pl in cands}
    by_cell: dict[int, list] = defaultdict(list)
    by_piece: dict[int, list] = defaultdict(list)
    for pl, v in x.items():
        by_cell[pl.cell].append(v)
        by_piece[pl.piece].append(v)
    for cell in range(p.n_cells):
        m.add_exactly_one(by_cell[cell])
    return x, by_piece


def placement_model(
    p: EdgePuzzle,
    join: str = "onehot",
    redundant: bool = False,
    symmetry: bool = False,
    groups: dict[int, list[int]] | None = None,
    deadline: float | None = None,
):
    """With ``groups`` (``EdgePuzzle.mergeable_groups``) a group's copies share one set of
    placement variables, on exactly as many cells as there are copies; ``decode`` names every
    copy once.  ``deadline`` (``time.perf_counter``): ``BuildLate`` once it has passed."""
    m = cp_model.CpModel()
    cands = _placements(p)
    if groups is not None:
        cands = [pl for pl in cands if pl.piece in groups]
    x, by_piece = _one_piece_a_cell(m, p, cands)
    spare = p.n_pieces > p.n_cells
    for piece in range(p.n_pieces) if groups is None else groups:
        copies = 1 if groups is None else len(groups[piece])
        if copies > 1:  # a merged group: on exactly as many cells as it has copies
            m.add(sum(by_piece[piece]) == copies)
        else:
            (m.add_at_most_one if spare else m.add_exactly_one)(by_piece[piece])
    past(deadline)
    show = defaultdict(list)  # (cell, side, colour) -> placements
    turned: dict[tuple[int, int], tuple] = {}  # (piece, rotation) -> colours shown, worked out once
    for pl, v in x.items():
        shown = turned.get((pl.piece, pl.rotation))
        if shown is None:
            shown = turned[(pl.piece, pl.rotation)] = p.placed(pl.piece, pl.rotation)
        for side, c in enumerate(shown):
            show[(pl.cell, side, c)].append(v)
    colours = sorted({int(c) for c in p.pieces.flatten()})
    for cell, side, nb in p.joins():
        past(deadline)
        opp = (side + 2) % 4
        if join == "onehot":
            # one Boolean per (join, colour): exactly one per join, tied to the placements by clauses
            ys = []
            for c in colours:
                a, b = show.get((cell, side, c), []), show.get((nb, opp, c), [])
                if not (a and b):
                    for v in a + b:  # this colour can never be matched across this join
                        m.add(v == 0)
                    continue
                y = m.new_bool_var(f"y{cell}_{side}_{c}")
                for v in a + b:
                    m.add_implication(v, y)
                m.add_bool_or([y.Not(), *a])
                m.add_bool_or([y.Not(), *b])
                ys.append(y)
            m.add_exactly_one(ys)
        elif join == "int":
            j = m.new_int_var(min(colours), max(colours), f"j{cell}_{side}")
            for c in colours:
                for v in show.get((cell, side, c), []) + show.get((nb, opp, c), []):
                    m.add(j == c).only_enforce_if(v)
        else:
            for c in colours:
                a, b = show.get((cell, side, c), []), show.get((nb, opp, c), [])
                if a or b:
                    m.add(sum(a) == sum(b))
    if redundant and not spare:
        # every colour sits on exactly (its edge count on inner sides) / 2 joins
        edges: dict[int, int] = defaultdict(int)
        for piece in p.pieces:
            for c in piece:
                edges[int(c)] += 1
        for c in colours:
            if c == 0:
                continue
            terms = [v for cell, side, nb in p.joins() for v in show.get((cell, side, c), [])]
            if terms:
                m.add(sum(terms) == edges[c] // 2)
    if symmetry:
        _break_corner(m, p, x)

    def decode(v):
        board = [pl for pl, var in x.items() if v.boolean_value(var)]
        return p.relabel(board, groups) if groups else board

    return m, decode, x


def _break_corner(m, p: EdgePuzzle, x) -> None:
    """Fix the first corner piece to cell A1 (square boards without fixed pieces)."""
    corners = [q for q in range(p.n_pieces) if p.piece_class(q) == "corner"]
    if corners:
        for pl, v in x.items():
            if pl.piece == corners[0] and pl.cell != 0:
                m.add(v == 0)


def symmetry_breakable(p: EdgePuzzle) -> bool:
    """Fixing a corner piece divides the count by 4 exactly: square, no fixed pieces, bordered."""
    return p.rows == p.cols and not p.fixed and p.bordered and p.n_pieces == p.n_cells and p.rows > 1


def _table_cells(m: cp_model.CpModel, p: EdgePuzzle, symmetry: bool):
    """The table formulation's ground, shared by the table and score-table models: each cell's piece and
    turn, tied by a table to the four colours it shows; the pieces all different; with ``symmetry`` the
    first corner piece fixed to A1.  Returns (pieces, turns, colours) by cell, and the decoder."""
    rows_by_cell: dict[int, list[tuple]] = defaultdict(list)
    for pl in _placements(p):
        rows_by_cell[pl.cell].append((pl.piece, pl.rotation) + tuple(int(c) for c in p.placed(pl.piece, pl.rotation)))
    maxc = int(p.pieces.max())
    P, R, COL = [], [], []
    for cell in range(p.n_cells):
        pv = m.new_int_var(0, p.n_pieces - 1, f"P{cell}")
        rv = m.new_int_var(0, 3, f"R{cell}")
        cv = [m.new_int_var(0, maxc, f"C{cell}_{s}") for s in range(4)]
        m.add_allowed_assignments([pv, rv, *cv], rows_by_cell[cell])
        P.append(pv)
        R.append(rv)
        COL.append(cv)
    m.add_all_different(P)
    if symmetry:
        corners = [q for q in range(p.n_pieces) if p.piece_class(q) == "corner"]
        if corners:
            m.add(P[0] == corners[0])

    def decode(v):
        return [EdgePlacement(cell, int(v.value(P[cell])), int(v.value(R[cell]))) for cell in range(p.n_cells)]

    return P, R, COL, decode


def table_model(p: EdgePuzzle, symmetry: bool = False):
    """Edge matching as a CP-SAT table model: a piece-and-rotation tuple a cell, matching joins, each piece once."""
    m = cp_model.CpModel()
    P, _, COL, decode = _table_cells(m, p, symmetry)
    for cell, side, nb in p.joins():
        m.add(COL[cell][side] == COL[nb][(side + 2) % 4])
    return m, decode, P


def score_model(p: EdgePuzzle):
    """Maximise matching joins; the border rule and the piece rules stay hard."""
    m = cp_model.CpModel()
    cands = _placements(p)
    x, by_piece = _one_piece_a_cell(m, p, cands)
    for piece in range(p.n_pieces):
        (m.add_at_most_one if p.n_pieces > p.n_cells else m.add_exactly_one)(by_piece[piece])
    show = defaultdict(list)
    for pl, v in x.items():
        for side, c in enumerate(p.placed(pl.piece, pl.rotation)):
            show[(pl.cell, side, c)].append(v)
    colours = sorted({int(c) for c in p.pieces.flatten()} - {0} if p.bordered else {int(c) for c in p.pieces.flatten()})
    matches = []
    for cell, side, nb in p.joins():
        opp = (side + 2) % 4
        for c in colours:
            a, b = show.get((cell, side, c), []), show.get((nb, opp, c), [])
            if a and b:
                mv = m.new_bool_var(f"m{cell}_{side}_{c}")
                m.add(mv <= sum(a))
                m.add(mv <= sum(b))
                matches.append(mv)
    m.maximize(sum(matches))

    def decode(v):
        return [pl for pl, var in x.items() if v.boolean_value(var)]

    return m, decode, x


def score_table_model(p: EdgePuzzle, symmetry: bool = False):
    """Maximise matching joins with the table formulation: each cell's placement one integer, its four
    colours tied to it by a table, the pieces all different, and each join's match variable tied to the
    equality of its two colours both ways (exact, so the relaxation is as tight as the tables allow).

    ``symmetry``: the first corner piece fixed to A1 (square boards, ``symmetry_breakable``), which
    keeps one of the four turns of every board: the score is the same on all four."""
    m = cp_model.CpModel()
    P, R, COL, decode = _table_cells(m, p, symmetry)
    matches = []
    for cell, side, nb in p.joins():
        e = m.new_bool_var(f"m{cell}_{side}")
        a, b = COL[cell][side], COL[nb][(side + 2) % 4]
        m.add(a == b).only_enforce_if(e)
        m.add(a != b).only_enforce_if(~e)
        matches.append((cell, side, nb, e))
    m.maximize(sum(e for *_, e in matches))
    return m, decode, ScoreTableVars(P, R, COL, matches)


class ScoreTableVars(NamedTuple):
    """The score table model's variables: a cell's piece and turn, its colours, and each join's match."""

    piece: list
    turn: list
    colours: list
    matches: list  # (cell, side, neighbour, match)

    def hint(self, m: cp_model.CpModel, p: EdgePuzzle, board) -> None:
        """A whole board as the hint, every variable of it, so CP-SAT starts from its score."""
        shown = {}
        for pl in board:
            m.add_hint(self.piece[pl.cell], pl.piece)
            m.add_hint(self.turn[pl.cell], pl.rotation)
            shown[pl.cell] = p.placed(pl.piece, pl.rotation)
            for s in range(4):
                m.add_hint(self.colours[pl.cell][s], int(shown[pl.cell][s]))
        for cell, side, nb, e in self.matches:
            if cell in shown and nb in shown:
                m.add_hint(e, shown[cell][side] == shown[nb][(side + 2) % 4])


def turned_board(p: EdgePuzzle, board, turns: int) -> list[EdgePlacement]:
    """A square board turned ``turns`` quarter turns clockwise: every piece moves and turns with it (the
    same joins match, so the same score)."""
    n = p.rows
    out = list(board)
    for _ in range(turns % 4):
        out = [EdgePlacement((pl.cell % n) * n + (n - 1 - pl.cell // n), pl.piece, (pl.rotation + 1) % 4) for pl in out]
    return out


__all__ = [
    "xcc_model",
    "placement_model",
    "table_model",
    "score_model",
    "score_table_model",
    "turned_board",
    "symmetry_breakable",
    "E",
    "S",
]
