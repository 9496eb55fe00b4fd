"""A large neighbourhood of an Eternity II board re-solved to optimality by CP-SAT or MaxSAT.

The repair phase's exact neighbourhoods (``repair.py``) move at most a 2x3 window together, because only
a hand-written search solves them, or many cells that are never neighbours (an assignment).  This one
frees about k x k cells around a mismatched join (a square block by default: 25 cells for k = 5) and lets
CP-SAT re-place its pieces among its cells, maximising the matched joins inside the block and to its frame,
with the board's own filling as the hint, so the answer is never worse than the board.

The model: x[i, j, r] = 1 when piece i stands on cell j turned r (only the turns the border rule allows
there); each cell one piece, each piece one cell.  A join to the frame is matched when the colour the
piece shows equals the frame's: a linear term.  A join inside the block is matched when both ends show
one colour: for each colour k, y[e, k] <= (the left end shows k) and y[e, k] <= (the right end shows k),
and the join's match is the sum of its y; maximising makes that sum exactly the match.

A third formulation, ``maxsat``, hands the one-hot model to python-sat's RC2 as weighted MaxSAT (a soft
clause a join: a frame join's clause the placements that match it, an inner join's the colours both ends
could show).  RC2 takes no hint and reports nothing until it proves an optimum, so it runs in a child
process that the time budget ends (``solving.race``); the board's own filling is feasible, so an optimum
is never worse than it.

``exact`` and ``pumpkin`` hand the same one-hot model, through CPMpy, to Exact (pseudo-Boolean, cutting
planes) and to Pumpkin (lazy clause generation) within the time budget, Exact with the board as the hint
(Pumpkin's warm start takes integer variables only); they need the ``engines`` extra.

The block grows by one when a call ends proven optimal within half its time budget and shrinks by one when
it ends unproven (as OR-Tools' own LNS adapts its neighbourhoods), between ``k_min`` and ``k_max``.

The freed cells need not be a square (``SHAPES``); any set of cells is a neighbourhood, since the model only
reads which joins lie inside it and which reach its frame.  Each shape frees about k x k cells around one
mismatch: ``square``; ``band``, two rows as long as that takes, for the seams the beam leaves along its
rows; ``ring``, the border of a square, whose pieces meet two frames; ``worst``, the cells at mismatched
joins nearest the chosen one, then their nearest neighbours, scattered over the board; ``mix``, one of the
four at random a step.  ``swap`` more cells at mismatches elsewhere (or anywhere, if there are none) join
the set, so that pieces from far away can move into the block and its pieces out to them.
"""

from __future__ import annotations

import numpy as np

FORMULATIONS = ("tables", "one-hot", "maxsat", "exact", "pumpkin")
SHAPES = ("square", "band", "ring", "worst", "mix")


class ExactBlock:
    """The exact neighbourhood of one board (arrays as ``repair.Repair`` keeps them), in one of
    ``FORMULATIONS``."""

    def __init__(
        self,
        rows,
        cols,
        col,
        nb,
        allowed,
        movable,
        rng,
        time_s=2.0,
        k=4,
        k_min=3,
        k_max=8,
        model="tables",
        shape="square",
        swap=0,
    ):
        if model not in FORMULATIONS:
            raise ValueError(f"unknown block formulation {model!r}: one of {', '.join(FORMULATIONS)}")
        if shape not in SHAPES:
            raise ValueError(f"unknown block shape {shape!r}: one of {', '.join(SHAPES)}")
        self.rows, self.cols = rows, cols
        self.model, self.shape, self.swap = model, shape, int(swap)
        self.col, self.nb, self.allowed, self.movable = col, nb, allowed, movable
        self.rng = rng
        self.time_s, self.k, self.k_min, self.k_max = time_s, k, k_min, k_max
        self.stats = {"block_steps": 0, "block_optimal": 0, "block_better": 0, "block_cells": 0}

    def _block(self, pc, rt, bad) -> np.ndarray:
        """The cells freed around one of the mismatched joins ``bad`` (first cells, as ``repair._mismatched``
        gives them): about k x k of them in the block's shape, and ``swap`` more from elsewhere."""
        c = int(bad[self.rng.integers(len(bad))])
        shape = self.shape if self.shape != "mix" else SHAPES[int(self.rng.integers(len(SHAPES) - 1))]
        k = self.k
        if shape == "worst":
            cells = self._worst(c, pc, rt, bad, k * k)
        else:
            h, w = (k, k) if shape != "band" else (2, -(-k * k // 2))
            if shape == "band" and w > self.cols:  # a longer band than the board is wide: more rows
                h = -(-k * k // self.cols)
                w = -(-k * k // h)
            if shape == "ring":
                h = w = k * k // 4 + 1
            h, w = min(h, self.rows), min(w, self.cols)
            r0, c0 = divmod(c, self.cols)
            top = int(np.clip(r0 - self.rng.integers(h), 0, self.rows - h))
            left = int(np.clip(c0 - self.rng.integers(w), 0, self.cols - w))
            if shape == "ring":  # the mismatch on the ring: one of its sides through the cell
                side = int(self.rng.integers(4))
                top = int(np.clip(r0 - (h - 1) * (side == 2), 0, self.rows - h)) if side in (0, 2) else top
                left = int(np.clip(c0 - (w - 1) * (side == 1), 0, self.cols - w)) if side in (1, 3) else left
            cells = [
                (top + i) * self.cols + left + j
                for i in range(h)
                for j in range(w)
                if shape != "ring" or i in (0, h - 1) or j in (0, w - 1)
            ]
            if c not in cells:
                cells.append(c)
        cells = [int(x) for x in cells if self.movable[x]]
        if self.swap:
            inside = set(cells)
            far = [int(x) for x in _ends(pc, rt, bad, self.col, self.nb) if int(x) not in inside]
            far = [x for x in far if self.movable[x]] or [
                x for x in range(self.rows * self.cols) if self.movable[x] and x not in inside
            ]
            if far:
                pick = self.rng.choice(len(far), size=min(self.swap, len(far)), replace=False)
                cells.extend(far[int(i)] for i in pick)
        return np.array(cells, np.int64)

    def _worst(self, c, pc, rt, bad, n) -> list[int]:
        """The n cells nearest the mismatched joins, the cells at mismatches first, nearest ``c`` first."""
        ends = _ends(pc, rt, bad, self.col, self.nb)
        rc = np.arange(self.rows * self.cols)
        rr, cc = rc // self.cols, rc % self.cols
        er, ec = ends // self.cols, ends % self.cols
        to_bad = (np.abs(rr[:, None] - er[None, :]) + np.abs(cc[:, None] - ec[None, :])).min(axis=1)
        to_c = np.abs(rr - c // self.cols) + np.abs(cc - c % self.cols)
        order = np.lexsort((self.rng.random(len(rc)), to_c, to_bad))
        return [int(x) for x in order if self.movable[x]][:n]

    def step(self, pc, rt, bad, cells: np.ndarray | None = None) -> int:
        """Re-place a block around one of the mismatched joins ``bad`` (or the cells given); returns the joins
        gained (>= 0)."""
        if cells is None:
            if len(bad) == 0:
                return 0
            cells = self._block(pc, rt, bad)
        if len(cells) < 2:
            return 0
        if self.model == "maxsat":
            return self._maxsat(cells, pc, rt)
        if self.model in ("exact", "pumpkin"):
            return self._cpmpy(cells, pc, rt)
        build = self._tables if self.model == "tables" else self._one_hot
        m, decode = build(cells, pc, rt)
        return self._solve(m, decode, cells, pc, rt)

    def _tables(self, cells, pc, rt):
        """Each cell's (piece, turn) one integer, its four colours tied to it by a table; a join's match
        variable tied to the equality of its two colours both ways; the pieces all different."""
        from ortools.sat.python import cp_model

        col, nb, allowed = self.col, self.nb, self.allowed
        pieces = [int(q) for q in pc[cells]]
        where = {int(c): j for j, c in enumerate(cells)}
        m = cp_model.CpModel()
        n_col = int(col.max()) + 1
        choice, piece_of, shows = [], [], []
        for j, c in enumerate(cells):
            rows = []
            for i, q in enumerate(pieces):
                a = allowed[q, c]
                if a < 0:
                    continue
                for r in range(4) if a == 4 else (a,):
                    rows.append((len(rows), i, *(int(col[q, r, s]) for s in range(4)), r))
            z = m.new_int_var(0, len(rows) - 1, "")
            pi = m.new_int_var(0, len(pieces) - 1, "")
            cs = [m.new_int_var(0, n_col - 1, "") for _ in range(4)]
            rr = m.new_int_var(0, 3, "")
            m.add_allowed_assignments([z, pi, *cs, rr], rows)
            choice.append((z, rows, rr))
            piece_of.append(pi)
            shows.append(cs)
            home = next((t for t in rows if t[1] == j and t[6] == int(rt[c])), None)
            if home is not None:
                m.add_hint(z, home[0])
        m.add_all_different(piece_of)
        terms = []
        for j, s, jd, d in _joins(cells, nb, where):
            other = shows[jd][(s + 2) & 3] if jd is not None else int(col[pc[d], rt[d], (s + 2) & 3])
            e = m.new_bool_var("")
            m.add(shows[j][s] == other).only_enforce_if(e)
            m.add(shows[j][s] != other).only_enforce_if(~e)
            terms.append(e)
        m.maximize(sum(terms))

        def decode(solver):
            out = []
            for j, (z, rows, _) in enumerate(choice):
                t = rows[solver.value(z)]
                out.append((j, pieces[t[1]], t[6]))
            return out

        return m, decode

    def _one_hot_keys(self, cells, pieces) -> list[tuple[int, int, int]]:
        """The one-hot formulations' placements (i, j, r): piece i of the block on its cell j turned r, for
        every turn the border rule allows there."""
        allowed = self.allowed
        return [
            (i, j, r)
            for i, q in enumerate(pieces)
            for j, c in enumerate(cells)
            if allowed[q, c] >= 0
            for r in (range(4) if allowed[q, c] == 4 else (int(allowed[q, c]),))
        ]

    def _one_hot(self, cells, pc, rt):
        """x[i, j, r] one-hot, a join's match as the sum over colours of y <= both ends showing it."""
        from ortools.sat.python import cp_model

        col, nb = self.col, self.nb
        pieces = pc[cells].copy()
        where = {int(c): j for j, c in enumerate(cells)}
        m = cp_model.CpModel()
        x = {key: m.new_bool_var("") for key in self._one_hot_keys(cells, pieces)}
        groups, at = _one_hot_groups(x, pieces, len(cells))
        for vs in groups:
            m.add_exactly_one(vs)
        terms = []
        for frame, pairs in _one_hot_joins(cells, pc, rt, col, nb, at, where):
            terms.extend(frame)
            for left, right in pairs:
                y = m.new_bool_var("")
                m.add(y <= sum(left))
                m.add(y <= sum(right))
                terms.append(y)
        m.maximize(sum(terms))
        for (i, j, r), v in x.items():  # the board as it stands: the hint
            m.add_hint(v, int(j == i and rt[cells[i]] == r))

        def decode(solver):
            return [(j, int(pieces[i]), r) for (i, j, r), v in x.items() if solver.value(v)]

        return m, decode

    def _maxsat(self, cells, pc, rt) -> int:
        """The one-hot model as weighted MaxSAT, solved by RC2 in a child process within the time budget."""
        import time

        from pysat.card import CardEnc, EncType
        from pysat.examples.rc2 import RC2
        from pysat.formula import WCNF

        from solving.race import race

        t0, end = time.perf_counter(), time.monotonic() + self.time_s  # the budget counts the encoding too
        col, nb = self.col, self.nb
        pieces = pc[cells].copy()
        where = {int(c): j for j, c in enumerate(cells)}
        x = {key: k + 1 for k, key in enumerate(self._one_hot_keys(cells, pieces))}
        groups, at = _one_hot_groups(x, pieces, len(cells))
        w = WCNF()
        top = len(x)
        for lits in groups:
            enc = CardEnc.equals(lits=lits, bound=1, top_id=top, encoding=EncType.seqcounter)
            top = max(top, enc.nv)
            for cl in enc.clauses:
                w.append(cl)
        for frame, pairs in _one_hot_joins(cells, pc, rt, col, nb, at, where):
            if frame:
                w.append(frame, weight=1)
            ys = []
            for left, right in pairs:
                top += 1
                w.append([-top, *left])
                w.append([-top, *right])
                ys.append(top)
            if ys:
                w.append(ys, weight=1)

        def job(stop):
            with RC2(w, solver="g4", adapt=True, exhaust=True, minz=True) as rc2:
                model = rc2.compute()
                return None if model is None else [v for v in model if 0 < v <= len(x)]

        outcome = race([job], settles=lambda r: True, deadline=max(end, time.monotonic() + 0.05))[0]
        spent = time.perf_counter() - t0
        chosen = None if outcome.error or outcome.result is None else set(outcome.result)
        self._adapt(chosen is not None, spent, len(cells))
        if chosen is None:
            return 0
        placed = [(j, int(pieces[i]), r) for (i, j, r), v in x.items() if v in chosen]
        return self._apply(placed, cells, pc, rt)

    def _cpmpy(self, cells, pc, rt) -> int:
        """The one-hot model through CPMpy, solved by Exact or Pumpkin within the time budget (Exact with the
        board as the hint)."""
        import time

        import cpmpy as cp

        t0 = time.perf_counter()  # the budget counts CPMpy's translation too, which can take seconds
        col, nb = self.col, self.nb
        pieces = pc[cells].copy()
        where = {int(c): j for j, c in enumerate(cells)}
        keys = self._one_hot_keys(cells, pieces)
        xs = cp.boolvar(shape=len(keys), name="x")
        x = {key: xs[k] for k, key in enumerate(keys)}
        groups, at = _one_hot_groups(x, pieces, len(cells))
        cons = [cp.sum(vs) == 1 for vs in groups]
        terms: list = []
        for frame, pairs in _one_hot_joins(cells, pc, rt, col, nb, at, where):
            terms.extend(frame)
            for left, right in pairs:
                y = cp.boolvar()
                cons.append(y <= cp.sum(left))
                cons.append(y <= cp.sum(right))
                terms.append(y)
        model = cp.Model(cons, maximize=cp.sum(terms))
        solver = cp.SolverLookup.get(self.model, model)
        if self.model == "exact":  # Pumpkin's warm start takes integer variables only, not these Booleans
            solver.solution_hint(list(xs), [int(j == i and rt[cells[i]] == r) for i, j, r in keys])
        found = solver.solve(time_limit=max(self.time_s - (time.perf_counter() - t0), 0.05))
        spent = time.perf_counter() - t0
        optimal = found and solver.status().exitstatus == cp.solvers.solver_interface.ExitStatus.OPTIMAL
        self._adapt(bool(optimal), spent, len(cells))
        if not found:
            return 0
        placed = [(j, int(pieces[i]), r) for (i, j, r), v in x.items() if v.value()]
        return self._apply(placed, cells, pc, rt)

    def _adapt(self, optimal: bool, seconds: float, cells: int) -> None:
        """A step's count, and the block's size for the next: larger after a quick proof, smaller after a
        time-out."""
        self.stats["block_steps"] += 1
        self.stats["block_cells"] += cells
        self.stats["block_optimal"] += int(optimal)
        if optimal and seconds < self.time_s / 2:
            self.k = min(self.k_max, self.k + 1)
        elif not optimal:
            self.k = max(self.k_min, self.k - 1)

    def _solve(self, m, decode, cells, pc, rt) -> int:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = self.time_s
        solver.parameters.num_workers = 1
        t = solver.solve(m)
        self._adapt(t == cp_model.OPTIMAL, solver.wall_time, len(cells))
        if t not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return 0
        return self._apply(decode(solver), cells, pc, rt)

    def _apply(self, placed, cells, pc, rt) -> int:
        """The block's new filling onto the board, unless it scores less than the old one."""
        col, nb = self.col, self.nb
        before = _touching(cells, pc, rt, col, nb)
        saved_pc, saved_rt = pc[cells].copy(), rt[cells].copy()
        for j, q, r in placed:
            pc[cells[j]], rt[cells[j]] = q, r
        after = _touching(cells, pc, rt, col, nb)
        if after < before:  # never worse than the board (a time-out may return less than the hint)
            pc[cells], rt[cells] = saved_pc, saved_rt
            return 0
        self.stats["block_better"] += int(after > before)
        return int(after - before)


def _ends(pc, rt, bad, col, nb) -> np.ndarray:
    """Both cells of every mismatched join, from their first cells ``bad``."""
    out = []
    for c in {int(x) for x in bad}:
        for s in (1, 2):
            d = int(nb[c, s])
            if d >= 0 and col[pc[c], rt[c], s] != col[pc[d], rt[d], (s + 2) & 3]:
                out += [c, d]
    return np.array(sorted(set(out)), np.int64)


def _one_hot_joins(cells, pc, rt, col, nb, at: dict, where: dict):
    """The one-hot formulations' joins, each once: (the placements that match it, for a join to the frame,
    else []; for a join inside the block, a (left end shows k, right end shows k) pair of variable lists for
    each colour k both ends could show)."""
    for j, s, jd, d in _joins(cells, nb, where):
        if jd is None:
            f = col[pc[d], rt[d], (s + 2) & 3]
            yield [v for q, r, v in at[j] if col[q, r, s] == f], []
            continue
        colours = {int(col[q, r, s]) for q, r, _ in at[j]} & {int(col[q, r, (s + 2) & 3]) for q, r, _ in at[jd]}
        yield (
            [],
            [
                (
                    [v for q, r, v in at[j] if col[q, r, s] == kcol],
                    [v for q, r, v in at[jd] if col[q, r, (s + 2) & 3] == kcol],
                )
                for kcol in colours
            ],
        )


def _one_hot_groups(x: dict, pieces, n_cells: int) -> tuple[list[list], dict[int, list]]:
    """The exactly-one groups of a one-hot block (a cell's placements, then a piece's), and each cell's
    (piece, turn, variable) list."""
    by_cell: list[list] = [[] for _ in range(n_cells)]
    by_piece: list[list] = [[] for _ in range(len(pieces))]
    at: dict[int, list] = {j: [] for j in range(n_cells)}
    for (i, j, r), v in x.items():
        by_cell[j].append(v)
        by_piece[i].append(v)
        at[j].append((int(pieces[i]), r, v))
    return by_cell + by_piece, at


def _joins(cells, nb, where: dict):
    """The joins of a block, each once: (cell index j, its side s, the other end's index in the block or None
    for the frame, the other end's cell)."""
    for j, c in enumerate(cells):
        for s in range(4):
            d = int(nb[c, s])
            if d < 0:
                continue
            jd = where.get(d)
            if jd is not None and jd < j:
                continue  # counted from the other end
            yield j, s, jd, d


def _touching(cells, pc, rt, col, nb) -> int:
    inside = set(int(c) for c in cells)
    m = 0
    for c in cells:
        for s in range(4):
            d = int(nb[c, s])
            if d < 0 or (d in inside and d < c):
                continue
            if col[pc[c], rt[c], s] == col[pc[d], rt[d], (s + 2) & 3]:
                m += 1
    return m
