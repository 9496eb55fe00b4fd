"""`break-search`: the record method of Eternity II (Blackwood's break-schedule search) in numba.

A depth-first search in a fixed fill order (the row scan) that places a piece where it matches both of the
colours already around the cell (the cell above and the cell to the left), and, past the depths a *break
schedule* names, also where it misses one of them (a *break*): the k-th break is allowed only from depth D_k.
Candidates are kept by the colours they must match (``(north, west)`` for the exact ones, ``north`` alone and
``west`` alone for a break), each list in a random order drawn at every restart; a restart comes after a node
budget.  Every full board found is scored (joins less breaks) and the search then looks only for better ones
(the schedule is capped at one break fewer than the best board has).  The border rule is never broken.

Options: the schedule (``schedule=D1,D2,...``, or the default: a twenty-fifth of the joins as breaks, spread
over the last quarter of the board), the node budget of a restart (``restart``), the seed.  Every board goes
through the verifier; the answer is the best board found, never proven optimal."""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit
from typing_extensions import override

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from puzzles.puzzle import EDGES
from solving import Limits, Option, Opts, SolverBase, SolveResult, Status


class BreakOptions(Opts):
    """The options of `break-search`."""

    schedule = Option(
        str, "", "D1,D2,...: the k-th break (a missed join) allowed from depth D_k of the row scan (default: a "
        "twenty-fifth of the joins as breaks, spread over the last quarter of the cells)",
    )  # fmt: skip
    restart = Option(int, 20_000_000, "placements tried before a restart with new random candidate orders", lo=1000)
    seed = Option(int, 0, "the random orders' seed: the same seed gives the same search", lo=0)


def default_schedule(n_cells: int, n_joins: int) -> list[int]:
    """A twenty-fifth of the joins as breaks (about 19 on Eternity II), the k-th from depth
    n - q + k q / (breaks + 1), q a quarter of the cells: none early, more as the board fills."""
    breaks = max(1, round(n_joins / 25))
    q = n_cells / 4
    return [min(n_cells, int(n_cells - q + (k + 1) * q / (breaks + 1))) for k in range(breaks)]


def allowance(schedule: list[int], n: int) -> np.ndarray:
    """``allow[d]``: breaks allowed once the piece at depth d is placed (depth counted from 1)."""
    s = sorted(schedule)
    return np.array([sum(1 for x in s if x <= d + 1) for d in range(n)], np.int64)


def _tables(p: EdgePuzzle):
    """The placements that keep the border rule, by cell kind, and their lists by the colours they match."""
    n_colours = int(p.pieces.max()) + 1
    kinds = np.zeros(p.n_cells, np.int64)
    kind_of: dict[tuple, int] = {}
    for c in range(p.n_cells):
        out = p.outside_sides(c)
        kinds[c] = kind_of.setdefault(tuple(out), len(kind_of))
    pl_piece, pl_rot, pl_cols = [], [], []
    for q in range(p.n_pieces):
        for r in p.distinct_rotations(q):
            pl_piece.append(q)
            pl_rot.append(r)
            pl_cols.append(p.placed(q, r))
    cols = np.array(pl_cols, np.int64).reshape(-1, 4)
    n_kinds = len(kind_of)
    # per kind: exact lists keyed by north * C + west, break lists keyed by north and by west
    exact: list[list[list[int]]] = [[[] for _ in range(n_colours * n_colours)] for _ in range(n_kinds)]
    by_n: list[list[list[int]]] = [[[] for _ in range(n_colours)] for _ in range(n_kinds)]
    by_w: list[list[list[int]]] = [[[] for _ in range(n_colours)] for _ in range(n_kinds)]
    for out, k in kind_of.items():
        for i in range(len(cols)):
            if all((cols[i, s] == 0) == out[s] for s in range(4)) if p.bordered else True:
                exact[k][cols[i, 0] * n_colours + cols[i, 3]].append(i)
                by_n[k][cols[i, 0]].append(i)
                by_w[k][cols[i, 3]].append(i)

    def flat(lists):
        start = np.zeros(len(lists) * len(lists[0]) + 1, np.int64)
        items = []
        for a, per in enumerate(lists):
            for b, lst in enumerate(per):
                start[a * len(per) + b] = len(items)
                items.extend(lst)
        start[-1] = len(items)
        # the end of bucket j is the start of bucket j + 1
        return start, np.array(items, np.int64)

    ex = flat(exact)
    bn = flat(by_n)
    bw = flat(by_w)
    return n_colours, kinds, np.array(pl_piece, np.int64), np.array(pl_rot, np.int64), cols, ex, bn, bw


@njit(cache=True)
def _shuffle_buckets(start, items, seed):
    np.random.seed(seed)
    for j in range(len(start) - 1):
        a, b = start[j], start[j + 1]
        for i in range(b - 1, a, -1):
            k = a + np.random.randint(0, i - a + 1)
            items[i], items[k] = items[k], items[i]


SLICE = 2_000_000  # placements between two looks at the clock: a deadline holds within a fraction of a second


def _state(n: int, n_pieces: int) -> tuple[np.ndarray, ...]:
    """A fresh search's state: pieces used, the placement at each depth, each depth's phase and position in
    its list, the breaks so far, and the depth (``at[0]``; below 0 once the tree is exhausted)."""
    phase = np.zeros(n, np.int64)
    phase[0] = -1
    return (np.zeros(n_pieces, np.bool_), np.full(n, -1, np.int64), phase, np.zeros(n, np.int64),
            np.zeros(n + 1, np.int64), np.zeros(1, np.int64))  # fmt: skip


@njit(cache=True)
def _search(rows, cols_n, nc, kinds, pl_piece, cols, ex_s, ex_i, bn_s, bn_i, bw_s, bw_i, allow, fixed_pl, budget,
            best_breaks, best_board, used, placed, phase, pos, brk, at):  # fmt: skip
    """Depth-first in the row scan from the state given (``_state``), at most ``budget`` placements, the state
    kept for the next call.  ``best_breaks[0]`` is the best full board's breaks so far (a board must beat
    it); a better board is copied to ``best_board``.  Returns the placements tried."""
    n = rows * cols_n
    nodes = 0
    d = at[0]
    while d >= 0:
        if nodes >= budget:
            break
        if phase[d] == -1:  # entering depth d: start at the exact list
            phase[d] = 0
            pos[d] = -1
        c = d
        r, col = c // cols_n, c % cols_n
        n_req = 0 if r == 0 else cols[placed[c - cols_n], 2]
        w_req = 0 if col == 0 else cols[placed[c - 1], 1]
        k = kinds[c]
        cap = min(allow[d], best_breaks[0] - 1)
        if placed[d] >= 0:  # backtracking into d: take its piece back
            used[pl_piece[placed[d]]] = False
            placed[d] = -1
        found = -1
        extra = 0
        while found < 0 and phase[d] < 3:
            ph = phase[d]
            if fixed_pl[c] >= 0:  # a clue: its one placement, a break or two if it misses
                if ph == 0 and pos[d] < 0:
                    i = fixed_pl[c]
                    pos[d] = 0
                    miss = (1 if cols[i, 0] != n_req else 0) + (1 if cols[i, 3] != w_req else 0)
                    if not used[pl_piece[i]] and brk[d] + miss <= cap:
                        found = i
                        extra = miss
                        break
                phase[d] = 3
                break
            if ph == 0:
                j = k * nc * nc + n_req * nc + w_req
                a, b = ex_s[j], ex_s[j + 1]
                items = ex_i
            elif ph == 1:
                j = k * nc + n_req
                a, b = bn_s[j], bn_s[j + 1]
                items = bn_i
            else:
                j = k * nc + w_req
                a, b = bw_s[j], bw_s[j + 1]
                items = bw_i
            if ph > 0 and brk[d] + 1 > cap:  # no break allowed here
                phase[d] += 1
                pos[d] = -1
                continue
            start = a if pos[d] < 0 else pos[d] + 1
            for t in range(start, b):
                i = items[t]
                if used[pl_piece[i]]:
                    continue
                if ph == 1 and cols[i, 3] == w_req:  # exact: tried in phase 0
                    continue
                if ph == 2 and cols[i, 0] == n_req:
                    continue
                pos[d] = t
                found = i
                extra = 0 if ph == 0 else 1
                break
            if found < 0:
                phase[d] += 1
                pos[d] = -1
        if found < 0:  # depth d exhausted: back up
            phase[d] = -1
            d -= 1
            continue
        nodes += 1
        placed[d] = found
        used[pl_piece[found]] = True
        brk[d + 1] = brk[d] + extra
        if d + 1 == n:  # a full board: kept if it beats the best, and the search looks for better
            if brk[n] < best_breaks[0]:
                best_breaks[0] = brk[n]
                best_board[:] = placed
            used[pl_piece[found]] = False
            placed[d] = -1
            continue
        d += 1
        phase[d] = -1
    at[0] = d
    return nodes


class BreakSearch(SolverBase):
    """`break-search`: the break-schedule search of the Eternity II records, in numba (mode best)."""

    name = "break-search"
    NATIVE = True
    TAKES = frozenset({EDGES})
    MODES = ("best",)
    Options = BreakOptions
    opts: BreakOptions

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        if not puzzle.bordered:
            raise UsageError("solver break-search: a board with a grey rim (its fill order starts at the frame)")
        if self.opts.schedule:
            try:
                depths = [int(x) for x in self.opts.schedule.split(",") if x.strip()]
            except ValueError:
                raise UsageError(f"solver break-search: schedule {self.opts.schedule!r} is not D1,D2,...") from None
            if any(not 1 <= x <= puzzle.n_cells for x in depths):
                raise UsageError(f"solver break-search: every depth of the schedule must lie in 1..{puzzle.n_cells}")

    @override
    def solve(self, puzzle: EdgePuzzle, *, mode="best", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        p = puzzle.dense_colours()
        nc, kinds, pl_piece, pl_rot, cols, ex, bn, bw = _tables(p)
        if self.opts.schedule:
            sched = [int(x) for x in self.opts.schedule.split(",") if x.strip()]
        else:
            sched = default_schedule(p.n_cells, p.n_joins)
        allow = allowance(sched, p.n_cells)
        fixed_pl = np.full(p.n_cells, -1, np.int64)
        for f in p.fixed:
            shown = p.placed(f.piece, f.rotation)
            i = next(i for i in range(len(pl_piece)) if pl_piece[i] == f.piece and tuple(cols[i]) == shown)
            fixed_pl[f.cell] = i
        build_s = time.perf_counter() - t0
        deadline = None if limits.time_s is None else t0 + limits.time_s
        best_breaks = np.array([p.n_joins + 1], np.int64)
        best_board = np.full(p.n_cells, -1, np.int64)
        nodes = restarts = 0
        exhausted = False
        t1 = time.perf_counter()
        while True:
            seed = self.opts.seed * 1_000_003 + restarts
            for s, items in (ex, bn, bw):
                _shuffle_buckets(s, items, seed % (2**32))
            state = _state(p.n_cells, p.n_pieces)
            spent = 0
            while spent < self.opts.restart and state[-1][0] >= 0:  # one restart, in slices between clock looks
                before = int(best_breaks[0])
                budget = min(SLICE, self.opts.restart - spent)
                if limits.nodes is not None:
                    budget = min(budget, limits.nodes - nodes)
                done = _search(p.rows, p.cols, nc, kinds, pl_piece, cols, ex[0], ex[1], bn[0], bn[1], bw[0], bw[1],
                               allow, fixed_pl, budget, best_breaks, best_board, *state)  # fmt: skip
                spent += done
                nodes += done
                if progress is not None and best_breaks[0] < before:
                    progress({"score": p.n_joins - int(best_breaks[0]), "restarts": restarts})
                out_of_nodes = limits.nodes is not None and nodes >= limits.nodes
                if best_breaks[0] == 0 or out_of_nodes or (deadline is not None and time.perf_counter() >= deadline):
                    break
            restarts += 1
            exhausted = state[-1][0] < 0  # the whole tree under this schedule searched: the best is its optimum
            if best_breaks[0] == 0 or exhausted:
                break
            if limits.nodes is not None and nodes >= limits.nodes:
                break
            if deadline is None and limits.nodes is None:
                break  # no limit at all: one restart
            if deadline is not None and time.perf_counter() >= deadline:
                break
        search_s = time.perf_counter() - t1
        stats: dict[str, Any] = {"build_s": build_s, "time_s": search_s, "nodes": nodes, "restarts": restarts,
                                 "schedule": sched, "exhausted": exhausted,
                                 "placements_per_s": nodes / search_s if search_s > 0 else None}  # fmt: skip
        if best_breaks[0] > p.n_joins:
            return SolveResult(Status.LIMIT, [], None, None, stats, "no full board within the schedule and the limit")
        board = [EdgePlacement(c, int(pl_piece[i]), int(pl_rot[i])) for c, i in enumerate(best_board)]
        score = p.n_joins - int(best_breaks[0])
        res = SolveResult(Status.SOLVED, [board], None, score, stats, f"{restarts} restarts, {nodes:,} placements")
        # never proven below a perfect board: a cell takes a break on one join at a time, so even a whole tree
        # searched with every break allowed leaves out boards with a piece that misses both of its joins
        res.optimal = True if score == p.n_joins else None
        return res
