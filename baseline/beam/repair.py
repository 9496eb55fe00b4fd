"""Large-neighbourhood repair of an Eternity II board: more matched joins from a full board.

After the beam, the best board is improved by destroying part of it and
re-solving that part exactly, keeping the result when it is no worse (a
board of equal score is taken too: the search drifts along plateaus).  Two
neighbourhoods, both exact:

* ``assign`` [SchausDeville2008]: a random set of pairwise non-adjacent
  movable cells of one class (inner, or rim); every join of such a cell
  faces a piece that stays, so the best placement of the set is an
  assignment problem: piece x cell, weight = joins matched in the piece's
  best rotation there.  Solved by ``scipy.optimize.linear_sum_assignment``.
  Inner sets hold 60-70 cells, so one step reconsiders a third of the board.
* ``window``: a rectangle (default 2x3) around a mismatched join; its pieces
  are re-placed among its cells by an exhaustive depth-first search that
  keeps the best filling (the joins inside the window and to its frame).

The border rule holds throughout: a piece only moves to a cell of its class,
turned so that its grey sides face out; fixed pieces never move.

Board arrays: ``pc[cell]`` the piece, ``rt[cell]`` its rotation;
``col[q, r, s]`` the colour piece q shows on side s when turned r;
``nb[cell, s]`` the neighbour (-1 outside).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
from numba import njit
from scipy.optimize import linear_sum_assignment

from puzzles.kinds.edge import EdgePlacement, EdgePuzzle

if TYPE_CHECKING:
    from baseline.beam.repair_block import ExactBlock


@njit(cache=True)
def _cell_score(cell, q, r, pc, rt, col, nb):
    """Joins of `cell` matched when it holds piece q turned r (neighbours as on the board)."""
    m = 0
    for s in range(4):
        d = nb[cell, s]
        if d >= 0 and pc[d] >= 0 and col[q, r, s] == col[pc[d], rt[d], (s + 2) & 3]:
            m += 1
    return m


@njit(cache=True)
def _matched(pc, rt, col, nb):
    """Matched interior joins of a full board."""
    m = 0
    for c in range(pc.shape[0]):
        for s in (1, 2):
            d = nb[c, s]
            if d >= 0 and col[pc[c], rt[c], s] == col[pc[d], rt[d], (s + 2) & 3]:
                m += 1
    return m


@njit(cache=True)
def _mismatched(pc, rt, col, nb):
    """The first cell of every mismatched join (E and S sides), in cell order."""
    out = np.empty(2 * pc.shape[0], np.int64)
    m = 0
    for c in range(pc.shape[0]):
        for s in (1, 2):
            d = nb[c, s]
            if d >= 0 and col[pc[c], rt[c], s] != col[pc[d], rt[d], (s + 2) & 3]:
                out[m] = c
                m += 1
    return out[:m]


@njit(cache=True)
def _independent(cells, nb, mark, cap):
    """A random maximal set (at most `cap`) of pairwise non-adjacent cells from the shuffled `cells`."""
    out = np.empty(cells.shape[0], np.int64)
    n = 0
    for c in cells:
        if n >= cap:
            break
        ok = True
        for s in range(4):
            d = nb[c, s]
            if d >= 0 and mark[d]:
                ok = False
                break
        if ok:
            mark[c] = True
            out[n] = c
            n += 1
    for i in range(n):
        mark[out[i]] = False
    return out[:n]


@njit(cache=True)
def _weights(S, pc, rt, col, nb, rots, n_rots):
    """W[i, j]: the most joins piece pc[S[i]] matches at cell S[j]; R[i, j] the rotation that does it.
    (The cells of S are pairwise non-adjacent: every neighbour they see stays.)"""
    k = S.shape[0]
    W = np.zeros((k, k), np.int64)
    R = np.zeros((k, k), np.int64)
    for i in range(k):
        q = pc[S[i]]
        for j in range(k):
            cell = S[j]
            best, br = -1, 0
            for t in range(n_rots[cell]):
                r = rots[q, cell, t]
                m = _cell_score(cell, q, r, pc, rt, col, nb)
                if m > best:
                    best, br = m, r
            W[i, j] = best
            R[i, j] = br
    return W, R


@njit(cache=True)
def _window_search(cells, pieces, pc, rt, col, nb, allowed, order_in_win, budget, floor, first, old_pc, old_rt):
    """Exhaustive best re-placement of `pieces` on `cells` (a window) among the fillings matching
    at least `floor` joins: returns (best matched joins that touch the window, nodes), the best
    filling left in pc/rt, or (-1, nodes) with pc of the window emptied when there is none.
    The floor (today's count) is what makes large windows cheap: a branch that has lost more
    joins than the window's mismatches is cut at once.  With `first`, the first filling that
    reaches the floor and differs from the old one (`old_pc`, `old_rt`) is taken instead: a
    random step of bounded loss (the pieces come shuffled).  ``allowed[q, cell]`` is the
    rotation piece q must take at a rim cell, 4 for any (inner), -1 when it may not go there."""
    k = cells.shape[0]
    # the window's cells empty; the count is of joins with at least one end in the window
    for c in cells:
        pc[c] = -1
    best = floor - 1
    best_pc = np.full(k, -1, np.int64)
    best_rt = np.empty(k, np.int64)
    usedp = np.zeros(k, np.bool_)
    choice = np.full(k, -1, np.int64)  # index into pieces*4 + rot tried at depth d
    gain = np.zeros(k + 1, np.int64)
    # upper bound on joins still to come: joins of cells d.. not yet counted
    later = np.zeros(k + 1, np.int64)
    for d in range(k - 1, -1, -1):
        c = cells[d]
        cnt = 0
        for s in range(4):
            nbc = nb[c, s]
            if nbc < 0:
                continue
            if order_in_win[nbc] < 0 or order_in_win[nbc] < d:
                cnt += 1  # counted when c is placed: the neighbour is outside or earlier
        later[d] = later[d + 1] + cnt
    nodes = 0
    d = 0
    while d >= 0:
        c = cells[d]
        choice[d] += 1
        if choice[d] > 0 and pc[c] >= 0:  # undo the previous try at this depth
            usedp[(choice[d] - 1) // 4] = False
            pc[c] = -1
        placed = False
        while choice[d] < 4 * k:
            i = choice[d] // 4
            r = choice[d] % 4
            q = pieces[i]
            a = allowed[q, c]
            if usedp[i] or a < 0 or (a < 4 and a != r):
                choice[d] = 4 * (i + 1) if (usedp[i] or a < 0) else choice[d] + 1
                continue
            g = _cell_score(c, q, r, pc, rt, col, nb)
            if gain[d] + g + later[d + 1] <= best:
                choice[d] += 1
                continue
            pc[c] = q
            rt[c] = r
            usedp[i] = True
            gain[d + 1] = gain[d] + g
            placed = True
            break
        if not placed:
            choice[d] = -1
            pc[c] = -1
            d -= 1
            continue
        nodes += 1
        if d == k - 1:
            if first and gain[k] > best:
                same = True
                for t in range(k):
                    if pc[cells[t]] != old_pc[t] or rt[cells[t]] != old_rt[t]:
                        same = False
                        break
                if not same:
                    best = gain[k]
                    for t in range(k):
                        best_pc[t] = pc[cells[t]]
                        best_rt[t] = rt[cells[t]]
                    break
            elif gain[k] > best:
                best = gain[k]
                for t in range(k):
                    best_pc[t] = pc[cells[t]]
                    best_rt[t] = rt[cells[t]]
            if nodes >= budget:
                break
            continue  # try the next choice at this depth
        if nodes >= budget:
            break
        d += 1
    for t in range(k):
        pc[cells[t]] = best_pc[t]
        rt[cells[t]] = best_rt[t]
    return best, nodes


class Repair:
    """Large-neighbourhood search from a full board (module docstring)."""

    def __init__(
        self,
        p: EdgePuzzle,
        seed: int = 0,
        window: tuple[int, int] = (2, 3),
        block_s: float = 2.0,
        block_model: str = "tables",
        block_shape: str = "square",
        block_swap: int = 0,
    ):
        self.p = p
        n = p.n_cells
        self.rng = np.random.default_rng([0x4E9A, seed])
        self.col = np.array([[p.placed(q, r) for r in range(4)] for q in range(p.n_pieces)], np.int64)
        self.nb = np.array([[p.neighbour(c, s) for s in range(4)] for c in range(n)], np.int64)
        fixed = {f.cell for f in p.fixed}
        out = [p.outside_sides(c) for c in range(n)]
        grey = [tuple(int(x) == 0 for x in p.pieces[q]) for q in range(p.n_pieces)]
        bordered = p.bordered
        # allowed[q, cell]: the rotation q must take there (rim), 4 any (inner), -1 never
        self.allowed = np.full((p.n_pieces, n), -1, np.int64)
        for c in range(n):
            for q in range(p.n_pieces):
                if not bordered:
                    self.allowed[q, c] = 4
                    continue
                rs = [r for r in range(4) if all((self.col[q, r, s] == 0) == out[c][s] for s in range(4))]
                if rs and not any(out[c]) and not any(grey[q]):
                    self.allowed[q, c] = 4
                elif rs and any(out[c]):
                    self.allowed[q, c] = rs[0]
        # rotations to try per (piece, cell) for the assignment weights
        self.n_rots = np.array([1 if (bordered and any(out[c])) else 4 for c in range(n)], np.int64)
        self.rots = np.zeros((p.n_pieces, n, 4), np.int64)
        for q in range(p.n_pieces):
            for c in range(n):
                a = self.allowed[q, c]
                self.rots[q, c, :] = np.arange(4) if a == 4 else max(a, 0)
        kinds = [sum(out[c]) if bordered else 0 for c in range(n)]
        self.classes = [
            np.array([c for c in range(n) if kinds[c] == k and c not in fixed], np.int64) for k in sorted(set(kinds))
        ]
        self.classes = [cl for cl in self.classes if len(cl) >= 2]
        self.movable = np.array([c not in fixed for c in range(n)], np.bool_)
        self.window = window
        self.block_s, self.block_model = block_s, block_model
        self.block_shape, self.block_swap = block_shape, block_swap
        self._block: ExactBlock | None = None  # the CP-SAT neighbourhood, made when first used
        self.stats = {
            "assign_steps": 0,
            "window_steps": 0,
            "kicks": 0,
            "restarts": 0,
            "improvements": 0,
            "window_nodes": 0,
        }

    def board(self, placements) -> tuple[np.ndarray, np.ndarray]:
        """The repair's arrays of a board: the piece and the rotation at each cell."""
        pc = np.full(self.p.n_cells, -1, np.int64)
        rt = np.zeros(self.p.n_cells, np.int64)
        for pl in placements:
            pc[pl.cell], rt[pl.cell] = pl.piece, pl.rotation
        return pc, rt

    def placements(self, pc, rt) -> list[EdgePlacement]:
        """The board of the arrays ``pc`` (pieces) and ``rt`` (rotations) as placements, for the verifier."""
        return [EdgePlacement(c, int(pc[c]), int(rt[c])) for c in range(self.p.n_cells)]

    def score(self, pc, rt) -> int:
        """The matching joins of the board ``pc``, ``rt``."""
        return int(_matched(pc, rt, self.col, self.nb))

    # ---------------------------------------------------------------- moves
    def assign_step(self, pc, rt) -> int:
        """One assignment move on a random class; returns the change in matched joins (>= 0)."""
        sizes = np.array([len(c) for c in self.classes], float)
        cl = self.classes[self.rng.choice(len(self.classes), p=sizes / sizes.sum())]
        S = _independent(self.rng.permutation(cl), self.nb, np.zeros(self.p.n_cells, np.bool_), 1 << 30)
        if len(S) < 2:
            return 0
        W, R = _weights(S, pc, rt, self.col, self.nb, self.rots, self.n_rots)
        before = int(sum(_cell_score(c, pc[c], rt[c], pc, rt, self.col, self.nb) for c in S))
        rows, cols = linear_sum_assignment(W, maximize=True)
        after = int(W[rows, cols].sum())
        self.stats["assign_steps"] += 1
        if after < before:
            return 0
        old = pc[S].copy()
        for i, j in zip(rows, cols):
            pc[S[j]] = old[i]
            rt[S[j]] = R[i, j]
        return after - before

    def window_step(self, pc, rt, budget: int = 200_000, loss: int = 0) -> int:
        """Re-place the pieces of a window around a random mismatch exactly; returns the change.
        With ``loss`` > 0 a kick instead: some other filling that loses at most ``loss`` joins."""
        p = self.p
        bad = _mismatched(pc, rt, self.col, self.nb)
        if len(bad) == 0:
            return 0
        c = int(bad[self.rng.integers(len(bad))])
        h = int(self.rng.integers(min(2, self.window[0]), self.window[0] + 1))
        w = int(self.rng.integers(min(2, self.window[1]), self.window[1] + 1))
        if self.rng.random() < 0.5:
            h, w = w, h
        r0, c0 = divmod(c, p.cols)
        top = int(np.clip(r0 - self.rng.integers(h), 0, p.rows - h))
        left = int(np.clip(c0 - self.rng.integers(w), 0, p.cols - w))
        cells = np.array(
            [
                (top + i) * p.cols + left + j
                for i in range(h)
                for j in range(w)
                if self.movable[(top + i) * p.cols + left + j]
            ],
            np.int64,
        )
        if len(cells) < 2:
            return 0
        before = _touching(cells, pc, rt, self.col, self.nb)
        pieces = self.rng.permutation(pc[cells])
        saved_pc, saved_rt = pc.copy(), rt.copy()
        win = np.full(p.n_cells, -1, np.int64)
        win[cells] = np.arange(len(cells))
        best, nodes = _window_search(cells, pieces, pc, rt, self.col, self.nb, self.allowed, win, budget, before - loss,
                                     loss > 0, saved_pc[cells], saved_rt[cells])
        self.stats["window_steps" if loss == 0 else "kicks"] += 1
        self.stats["window_nodes"] += int(nodes)
        if best < before - loss or (pc[cells] < 0).any():
            pc[:], rt[:] = saved_pc, saved_rt
            return 0
        return int(best - before)

    def block_step(self, pc, rt, deadline: float | None = None) -> int:
        """About k x k cells around a random mismatch, in the block's shape, re-solved exactly
        (``repair_block``); returns the change.  ``deadline``: the block's time is cut to what is left
        before it."""
        if self._block is None:
            from baseline.beam.repair_block import ExactBlock

            self._block = ExactBlock(
                self.p.rows,
                self.p.cols,
                self.col,
                self.nb,
                self.allowed,
                self.movable,
                self.rng,
                self.block_s,
                model=self.block_model,
                shape=self.block_shape,
                swap=self.block_swap,
            )
        left = self.block_s if deadline is None else deadline - time.perf_counter()
        if left < 0.05:
            return 0
        self._block.time_s = min(self.block_s, left)
        return self._block.step(pc, rt, _mismatched(pc, rt, self.col, self.nb))

    # ---------------------------------------------------------------- the run
    def run(
        self,
        placements,
        deadline: float,
        on_better=None,
        assign_share: float = 0.5,
        kick: float = 0.05,
        drift: int = 3,
        block_share: float = 0.0,
    ):
        """Improve the board until the deadline; ``on_better(placements, score)`` at each new best.

        An iterated local search: exact steps (assignments, windows) never lose a join; with
        probability ``kick`` a step is a kick that may lose one; a walk that has fallen ``drift``
        joins below the best goes back to the best board."""
        pc, rt = self.board(placements)
        cur = self.score(pc, rt)
        best = cur
        best_pc, best_rt = pc.copy(), rt.copy()
        top = len(self.p.joins())
        while time.perf_counter() < deadline and best < top:
            u = self.rng.random()
            if block_share > 0 and self.rng.random() < block_share:
                cur += self.block_step(pc, rt, deadline)
            elif u < kick:
                cur += self.window_step(pc, rt, loss=1)
            elif u < kick + (1 - kick) * assign_share:
                cur += self.assign_step(pc, rt)
            else:
                cur += self.window_step(pc, rt)
            if cur > best:
                best = cur
                best_pc[:], best_rt[:] = pc, rt
                self.stats["improvements"] += 1
                if on_better:
                    on_better(self.placements(pc, rt), best)
            elif cur < best - drift:
                pc[:], rt[:] = best_pc, best_rt
                cur = best
                self.stats["restarts"] += 1
        if self._block is not None:
            for key, v in self._block.stats.items():
                self.stats[key] = v
            self.stats["block_k"] = self._block.k  # the block side the run ended with
        assert cur == self.score(pc, rt), "repair lost track of its score"
        return self.placements(best_pc, best_rt), best


@njit(cache=True)
def _touching(cells, pc, rt, col, nb):
    """Matched joins with at least one end in `cells`."""
    inwin = np.zeros(pc.shape[0], np.bool_)
    for c in cells:
        inwin[c] = True
    m = 0
    for c in cells:
        for s in range(4):
            d = nb[c, s]
            if d < 0:
                continue
            if inwin[d] and d < c:
                continue  # counted from the other end
            if col[pc[c], rt[c], s] == col[pc[d], rt[d], (s + 2) & 3]:
                m += 1
    return m


def proven_windows(p, placements, k: int = 3, time_s: float = 2.0) -> dict:
    """How many of the k x k windows tiling an edge-matching board are proven optimal.

    Each window in turn (the rest of the board as it stands) is re-solved by CP-SAT: ``optimal`` when no
    other filling of its cells by its pieces matches more joins inside it and to its frame, ``improvable``
    when one does (by ``gain`` joins in all), ``unproven`` when CP-SAT did not finish in ``time_s``.  Fixed
    pieces stay.  A window's optimum is conditional on its frame, so the sum is no bound on the board's score.
    """
    from baseline.beam.repair_block import ExactBlock

    rep = Repair(p)
    pc, rt = rep.board(placements)
    out = {"window": k, "windows": 0, "optimal": 0, "improvable": 0, "unproven": 0, "gain": 0}
    for top in range(0, p.rows, k):
        for left in range(0, p.cols, k):
            cells = np.array(
                [
                    r * p.cols + c
                    for r in range(top, min(p.rows, top + k))
                    for c in range(left, min(p.cols, left + k))
                    if rep.movable[r * p.cols + c]
                ],
                np.int64,
            )
            if len(cells) < 2:
                continue
            b = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, time_s, k, k, k)
            gain = b.step(pc.copy(), rt.copy(), None, cells)
            out["windows"] += 1
            if gain > 0:
                out["improvable"] += 1
                out["gain"] += gain
            elif b.stats["block_optimal"]:
                out["optimal"] += 1
            else:
                out["unproven"] += 1
    return out
