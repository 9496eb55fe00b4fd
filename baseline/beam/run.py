"""`beam`: Selby and Riordan's beam search for edge matching ([Selby2001]; docs/references.md).

(The solver is ``solver.py``; polyform and other XCC puzzles go to ``xcc.py``.)

A breadth-first beam over partial boards.  The sites are the cells of a
static search order (in a row scan the next cell is always the most
constrained one: two sides known).  At each level every state is expanded
by every candidate for its next cell, children with a dead site within
``lookahead`` cells are dropped, and the ``width`` best children by score are
kept.  When ``exhaust_at`` cells are left, each survivor, best first, is
handed to an exhaustive numba search (the end-game).

Score (``score=pairings``): the log of the number of ways the open edges of
the board and the edges of the pieces left can be paired colour by colour,
``sum_c log P(r_c, b_c) + log (r_c - b_c - 1)!!`` for r_c edges of colour c
left on pieces and b_c open edges of colour c on the board -- Owen's
expected completions up to a factor that is the same for every state of a
level.  A state needing more edges of a colour than are left is dead.
``score=none`` keeps children in generation order (a plain breadth-limited
search, for comparison).

``best`` mode (the Eternity II score): a child may mismatch one more join
than its parent when the slip array allows it at that depth (default: any
depth), each mismatch costing ``penalty`` in the score; a state with no
candidate takes any piece of the right class, so every run ends in a full
board with the border rule kept.  The run repeats with a wider beam while
time is left and reports the best board over time.

State arrays (one row a state): ``cands[i, d]`` the candidate placed at
depth d (an index into the candidates of ``baseline.edge.tables``), ``used[i, q]``,
``rem[i, c]`` colour-c edges left on unused pieces, ``need[i, c]`` open
colour-c edges on the board, ``mis[i]`` mismatched joins.  The frontier is
checkpointed packed by ``codec`` (10 bits a tile on Eternity II).
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np

from baseline.beam.best import BestMode
from baseline.beam.frontier import Frontier, PassEnd, _per_parent, _take, diversity
from baseline.beam.kernels import (
    ENDGAME_GAVE_UP,
    ENDGAME_SOLUTION,
    BeamTables,
    Children,
    Knobs,
    _children,
    _endgame,
    _expand,
    log_tables,
)
from baseline.beam.schedule import Schedule, _planned_width
from baseline.beam.snapshots import FRONTIER_EVERY_S, Snapshots
from baseline.edge.tables import EdgeTables, slip_allowance
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
from solving import Limits, SolveResult

GREEDY_GRACE_S = 2.0  # mode best past its deadline: seconds the best state's greedy finish may take
PARALLEL_MIN = 1024  # states a thread at least: narrower levels run on one thread


class BeamRun(Snapshots, Schedule, BestMode):
    """Tables, options and the frontier of one beam search."""

    def __init__(self, p: EdgePuzzle, o: dict, best: bool, job: int | None = None, share: int = 1):
        """``o``: the solver's options; ``job``: this run's number among ``jobs`` parallel runs (its
        checkpoint files carry it); ``share``: how many runs share the machine's memory."""
        o = dict(o)
        self.job, self.share = job, share
        if o["order"] == "auto":  # the shorter boundary: fewer open edges, sharper scores
            o["order"] = "colscan" if p.cols > p.rows else "rowscan"
        if o["exhaust_at"] < 0:
            o["exhaust_at"] = min(30, p.n_cells // 4)
        self.p, self.o, self.best = p, o, best
        tables = EdgeTables(p, o["order"])
        self.tables = tables
        n = p.n_cells
        self.n = n
        self.order = tables.order
        depth_of = np.empty(n, np.int64)
        depth_of[self.order] = np.arange(n)
        self.dep_nbd = np.zeros(4 * (n + 1), np.int64)
        for k in range(n):
            for j in range(int(tables.dep_nk[k])):
                self.dep_nbd[4 * k + j] = depth_of[tables.dep_nb[4 * k + j]]
        # dep_free[4k + s]: side s of the depth-k cell faces a cell filled later (an open edge until then)
        self.dep_free = np.zeros(4 * (n + 1), np.bool_)
        for k, cell in enumerate(self.order):
            for s in range(4):
                nb = p.neighbour(int(cell), s)
                self.dep_free[4 * k + s] = nb >= 0 and depth_of[nb] > k
        # edge pools (see _term): 0 frame, 1 a rim piece's inward edge, 2 an inner piece's edge
        out = [p.outside_sides(c) if p.bordered else (False,) * 4 for c in range(n)]

        def own_cat(outs, s):
            if not any(outs):
                return 2
            return 0 if outs[(s + 1) % 4] or outs[(s + 3) % 4] else 1

        self.cell_cat = np.full(4 * (n + 1), 2, np.int64)
        self.dep_cat = np.full(4 * (n + 1), 2, np.int64)
        for k, cell in enumerate(self.order):
            cell = int(cell)
            for s in range(4):
                self.cell_cat[4 * k + s] = own_cat(out[cell], s)
                nb = p.neighbour(cell, s)
                if nb >= 0 and any(out[nb]):
                    self.dep_cat[4 * k + s] = 0 if any(out[cell]) else 1
        self.order_cls = np.append(tables.cls_of[self.order], 0).astype(np.int64)
        # the forecast's sites at depth k: later sites with two or more sides known by then
        looks: list[list[int]] = [[] for _ in range(n)]
        for kk in range(n if o["forecast"] > 0 else 0):
            known = sorted(int(self.dep_nbd[4 * kk + j]) for j in range(int(tables.dep_nk[kk])))
            if tables.dep_fixed[kk] < 0 and len(known) >= 2:
                for k in range(known[1], kk):  # from its second known side until it is filled
                    looks[k].append(kk)
        self.look_ptr = np.concatenate([[0], np.cumsum([len(x) for x in looks])]).astype(np.int64)
        self.look_cell = np.array([kk for x in looks for kk in x] + [0], np.int64)
        self.n_col = int(tables.n_col)
        self.allow = slip_allowance(o["slips"], n)
        colours = {int(c) for c in np.unique(p.pieces) if c > 0}
        self.penalty = o["penalty"] if o["penalty"] >= 0 else math.log(max(2, len(colours)))
        if not best:
            self.penalty = 0.0
        # pen[k]: the penalty of the children made at depth k (late_penalty in the last late_at cells)
        self.pen = np.full(n + 1, self.penalty)
        if best and o["late_penalty"] >= 0 and o["late_at"] > 0:
            self.pen[max(0, n - o["late_at"]) :] = o["late_penalty"]
        # (piece, rotation) -> a candidate index with those colours (for the codec)
        lut = np.full((p.n_pieces, 4), -1, np.int64)
        for ci in range(len(tables.s_piece) - 1, -1, -1):
            lut[tables.s_piece[ci], tables.s_rot[ci]] = ci
        self.lut = lut
        # twin[q]: the previous free piece identical to q (same colours up to rotation), or -1
        fixed = {f.piece for f in p.fixed}
        self.twin = np.full(p.n_pieces, -1, np.int64)
        last: dict = {}
        for q in range(p.n_pieces):
            if q in fixed:
                continue
            key = min(tuple(int(x) for x in p.placed(q, r)) for r in range(4))
            self.twin[q] = last.get(key, -1)
            last[key] = q
        zr = np.random.default_rng(0x5E1B7)
        self.zu = zr.integers(0, 2**63, p.n_pieces, dtype=np.int64).astype(np.uint64)
        self.zb = zr.integers(0, 2**63, (4 * n, self.n_col), dtype=np.int64).astype(np.uint64)
        self.lg, self.ldf = log_tables(4 * p.n_pieces + 8)
        # the narrowest integers that hold a state's numbers: a row of Eternity II is 1.1 KB, not 3.4
        self.cdt = np.int16 if len(tables.s_piece) < 2**15 else np.int32
        self.s_piece16 = tables.s_piece.astype(np.int16 if p.n_pieces < 2**15 else np.int32)
        self.s_rot8 = tables.s_rot.astype(np.int8)
        self.rdt = np.int16 if 4 * p.n_pieces + 8 < 2**15 else np.int32
        self.stats = {"levels": [], "endgame_states": 0, "endgame_nodes": 0, "endgame_gave_up": 0}
        self.tb = BeamTables(
            self.twin, self.zu, self.zb, self.cell_cat, self.dep_cat, self.order_cls, tables.dep_nk, self.dep_nbd,
            tables.dep_side, tables.dep_base, tables.dep_mul, tables.dep_fixed, self.dep_free, tables.tab_base,
            tables.tab_ptr, tables.s_piece, tables.s_col, self.lg, self.ldf, self.look_ptr, self.look_cell, self.allow,
            self.n_col,
        )  # fmt: skip
        self.kn = Knobs(o["lookahead"], best, o["score"] == "pairings", float(o["cut"]), float(o["forecast"]))

    # -------------------------------------------------------------- states
    # A frontier (``Frontier``) holds one row a state.
    def root(self):
        """The frontier of level 0: the one empty board (with the fixed pieces placed)."""
        p, n = self.p, self.n
        nc = self.n_col
        rem = np.zeros((1, 3 * nc), self.rdt)
        for q in range(p.n_pieces):
            greys = tuple(int(c) == 0 for c in p.pieces[q]) if p.bordered else (False,) * 4
            for s, c in enumerate(p.pieces[q]):
                if c > 0:
                    cat = 2 if not any(greys) else (0 if greys[(s + 1) % 4] or greys[(s + 3) % 4] else 1)
                    rem[0, cat * nc + int(c)] += 1
        return Frontier(
            np.zeros((1, n), self.cdt),
            np.zeros((1, p.n_pieces), np.bool_),
            rem,
            np.zeros((1, 3 * nc), self.rdt),
            np.zeros(1, np.int64),
            np.zeros(1, np.uint64),
            np.zeros(1),
        )

    def _materialise(self, k, states, sp, sc, sm) -> tuple[np.ndarray, ...]:
        Wn = len(sp)
        new = (
            np.empty((Wn, self.n), self.cdt),
            np.empty((Wn, self.p.n_pieces), np.bool_),
            np.empty((Wn, 3 * self.n_col), self.rdt),
            np.empty((Wn, 3 * self.n_col), self.rdt),
            np.empty(Wn, np.int64),
            np.empty(Wn, np.uint64),
        )
        T, bounds = self._ranges(Wn)

        def run(j):
            a, b = bounds[j], bounds[j + 1]
            _children(k, sp[a:b], sc[a:b], sm[a:b], states, self.tb, tuple(x[a:b] for x in new))

        self._map(run, T)
        return new

    def rebuild(self, k: int, cands: np.ndarray, mis: np.ndarray, score: np.ndarray):
        """A frontier from its placements alone (resume): replay them level by level."""
        W = cands.shape[0]
        states = Frontier(*(np.repeat(a, W, axis=0) for a in self.root()))
        for d in range(k):
            states = Frontier(*self._materialise(d, states, np.arange(W), cands[:, d].copy(), mis), score)  # type: ignore[call-arg]
        return states

    def _cut_rank(self, width: int) -> int:
        """The rank of the exact child that bounds the mismatch children (0: no bound); a quarter
        more than the width, as duplicates leave the beam."""
        return 0 if self.o["cut"] < 0 else width + width // 4 + 64

    def _ranges(self, n_states: int) -> tuple[int, np.ndarray]:
        """(T, bounds): a level of n_states cut into T ranges, one a thread: ``threads``, but one
        for narrow levels, where starting threads costs more than it saves."""
        T = max(1, min(self.o["threads"], n_states // PARALLEL_MIN))
        return T, np.linspace(0, n_states, T + 1).astype(np.int64)

    def _map(self, fn, n: int) -> list:
        """fn(0..n-1), on the run's threads when n > 1 (the kernels release the GIL)."""
        if n == 1:
            return [fn(0)]
        if getattr(self, "_pool", None) is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=self.o["threads"], thread_name_prefix="beam")
        return list(self._pool.map(fn, range(n)))

    def _children_of(self, k, states, width, force):
        """Every child of the level, as parts (consecutive runs of the children, in order), each
        (parent, candidate, mismatches, score, hash) arrays of the same length: parts, not one
        array, as a copy of a wide level's children took gigabytes.  The states are cut into one
        range a thread; with the mismatch cut, all ranges make their exact children first
        (phase 0), then the threshold is taken over all of them and each range makes its
        mismatch children (phase 1)."""
        W = states.cands.shape[0]
        T, bounds = self._ranges(W)
        if T > 1:
            self.stats["threaded_levels"] = self.stats.get("threaded_levels", 0) + 1
        cut_rank = self._cut_rank(width)
        split = cut_rank > 0 and self.best and self.o["score"] == "pairings"
        cap = max(1024, (W // T + 1) * 16)
        while True:
            made, bases = np.zeros(W, np.int64), np.zeros(W)
            outs = [
                Children(*(np.empty(cap, dt) for dt in (np.int64, np.int64, np.int64, np.float64, np.uint64)))
                for _ in range(T)
            ]

            def run(j, phase, m0, gain, thr, made=made, bases=bases, outs=outs):
                return _expand(
                    k,
                    bounds[j],
                    bounds[j + 1],
                    phase,
                    m0,
                    gain,
                    thr,
                    made,
                    bases,
                    states,
                    self.tb,
                    self.kn,
                    self.pen[k],
                    force,
                    outs[j],
                )

            res = self._map(lambda j: run(j, 0 if split else 2, 0, 0.0, -1e300), T)
            if split and all(r[0] >= 0 for r in res):
                ms = [r[0] for r in res]
                total, thr = sum(ms), -1e300
                gain = max(r[1] for r in res)
                if total >= cut_rank:
                    exact = np.concatenate([outs[j][3][: ms[j]] for j in range(T)]) if T > 1 else outs[0][3][: ms[0]]
                    thr = float(np.partition(exact, total - cut_rank)[total - cut_rank])
                elif self.o["cut_states"] > 0 and gain > -1e299:
                    # too few exact children to bound by: only the states with the best bounds (the
                    # kernel's test) make mismatch children, cut_states times as many as places are left
                    take = int(self.o["cut_states"] * (cut_rank - total)) + 1
                    if take < W:
                        bound = bases + gain + self.o["cut"] - self.pen[k] * (states.mis + 1)
                        thr = float(np.partition(bound, W - take)[W - take])
                res = self._map(lambda j, ms=ms, gain=gain, thr=thr: run(j, 1, ms[j], gain, thr), T)
            if all(r[0] >= 0 for r in res):
                break
            # the kernel counted the children it had no room for: the next try has room for them
            cap = max(2 * cap, int(1.25 * max(-r[0] for r in res if r[0] < 0)) + 1024)
        if T == 1:
            return [tuple(a[: res[0][0]] for a in outs[0])]
        # the order of one thread: every range's phase-0 children, then every range's phase-1 ones
        # (so the seeded tie-breaks, and the run, do not depend on the number of threads)
        mid = ms if split else [r[0] for r in res]
        return [tuple(a[0 : mid[j]] for a in outs[j]) for j in range(T)] + [
            tuple(a[mid[j] : res[j][0]] for a in outs[j]) for j in range(T)
        ]

    def expand(self, k, states, width, rng, force=False):
        """Level ``k``'s children of ``states``, the best ``width`` kept (ties drawn by ``rng``); None when none lives."""
        parts = self._children_of(k, states, width, force)
        m = sum(len(p[0]) for p in parts)
        if m == 0:
            if self.best and not force:  # best mode always ends in a full board: break the slips this once
                self.stats["forced_levels"] = self.stats.get("forced_levels", 0) + 1
                return self.expand(k, states, width, rng, force=True)
            return None, 0
        pool = 2 * width + 64  # children worth sorting: the beam keeps `width`, some are duplicates
        if self.o["score"] == "pairings":
            # seeded tie-break, then negated for the ascending partition; in place, as a wide level
            # has tens of millions of children
            neg = rng.random(m)
            neg *= -1e-9
            at = 0
            for p in parts:
                neg[at : at + len(p[3])] -= p[3]
                at += len(p[3])
        while True:
            if self.o["score"] == "pairings":
                if m > pool:  # a partial sort: only the best `pool` children are ranked
                    top = np.argpartition(neg, pool)[:pool]
                    ranked = top[np.argsort(neg[top], kind="stable")]
                else:
                    ranked = np.argsort(neg, kind="stable")
            else:
                ranked = np.arange(min(m, pool))
            # one child per hash (the best scored): equal hashes have the same future
            _, first = np.unique(_take(parts, 4, ranked), return_index=True)
            if len(first) >= width or len(ranked) >= m:
                break
            pool *= 4  # too many duplicates among the best: rank more of them
        keep = ranked[np.sort(first)]
        if self.o["per_parent"] > 0:  # diversity: no parent fills the beam with its own children
            keep = _per_parent(keep, _take(parts, 0, np.arange(m)), self.o["per_parent"], width, len(states.cands))
        keep = keep[:width]
        sp, sc, sm = _take(parts, 0, keep), _take(parts, 1, keep), _take(parts, 2, keep)
        score = -neg[keep] if self.o["score"] == "pairings" else _take(parts, 3, keep)
        return Frontier(*self._materialise(k, states, sp, sc, sm), score), m

    def placements(self, row) -> list[EdgePlacement]:
        """A frontier row as the board's placements, fixed pieces included."""
        tables = self.tables
        return [
            EdgePlacement(int(self.order[k]), int(tables.s_piece[row[k]]), int(tables.s_rot[row[k]]))
            for k in range(self.n)
        ]

    # -------------------------------------------------------------- checkpoints

    # -------------------------------------------------------------- the run
    def solve(self, limits: Limits, progress, started: float | None = None) -> SolveResult:
        """The run; in mode best, Ctrl-C ends it with the best board so far (``stats["interrupted"]``),
        which the caller writes before it exits, instead of losing it.  ``started``: when the time
        limit began (``time.perf_counter``), so that building the tables counts (seconds on a board
        of 90,000 pieces); default now."""
        self._t0 = time.perf_counter() if started is None else started
        self.best_pl = None
        try:
            return self._solve(limits, progress)
        except KeyboardInterrupt:
            if not self.best or self.best_pl is None:
                raise
            self._save_best(force=True)
            res = self._result(
                "solved", [self.best_pl], self.best_score, self._t0, self.history, "interrupted: the best board so far"
            )
            res.stats["interrupted"] = True
            return res

    def _solve(self, limits: Limits, progress) -> SolveResult:
        t0 = self._t0
        deadline = None if limits.time_s is None else t0 + limits.time_s
        o = self.o
        self.history: list[tuple[float, int]] = []
        budget = self.best and deadline is not None and o["schedule"] != "widen"
        if o["schedule"] == "budget" and deadline is None:
            raise UsageError("solver beam: schedule=budget needs a time limit")
        if o["start"] and deadline is None:
            raise UsageError("solver beam: start=FILE needs a time limit (the repair phase runs until it)")
        repairing = self.best and deadline is not None and (o["repair"] > 0 or bool(o["start"]))
        beam_deadline = deadline
        if repairing:
            assert deadline is not None  # repairing needs a time limit
            beam_deadline = t0 + (1.0 - o["repair"]) * (deadline - t0)
        self.best_pl, self.best_score = None, None  # the best board as placements (repair works on these)
        resumed = self._load_best() if self.best and o["resume"] else None
        if resumed is None and o["start"]:
            resumed = self._start_board()
            self.stats["start_score"] = resumed[1]
        if resumed is not None:  # a best board was checkpointed: go on from it
            status = PassEnd.BOARD
            self._better(resumed[0], resumed[1], t0, progress, save=False)
            self.stats["resumed_score"] = resumed[1]
            cut_width = self._frontier_width() if budget and o["resume"] else None
            if cut_width is not None:
                # killed during a pass: that pass goes on from its frontier (a time model from two
                # narrow passes lets it shrink to meet the deadline), then the repair phase; a
                # narrow pass cut short (a probe) gives way to the schedule again
                self._calibrate(t0, beam_deadline)
                assert beam_deadline is not None  # the budget schedule has a deadline
                if cut_width >= _planned_width(self._model, beam_deadline - time.perf_counter()) / 2:
                    self.stats["resumed_pass"] = cut_width
                    status = self._pass(cut_width, beam_deadline, progress, t0, resume=True, profile=self._model)
                else:
                    status = self._budget_passes(t0, beam_deadline, progress, fill=not repairing)
            elif repairing and o["tail"] > 0:
                self._calibrate(t0, deadline)
        elif budget:
            status = self._budget_passes(t0, beam_deadline, progress, fill=not repairing)
        else:
            fits = self.memory_width()
            if o["width"] > fits:
                raise UsageError(
                    f"solver beam: width {o['width']:,} does not fit in the memory left on this board "
                    f"(at most {fits:,} states; a state of {self.n:,} cells takes "
                    f"{self._state_bytes() / 2**10:,.0f} KB): use option width={fits}"
                )
            widths = [o["width"]]
            if self.best:  # anytime: narrow first, wider while time is left
                widths = sorted({max(1, min(o["width"], w)) for w in (16, 256, 4096)} | {o["width"]})
            status = PassEnd.DEAD
            for wi, width in enumerate(widths):
                status = self._pass(width, beam_deadline, progress, t0, resume=(wi == 0))
                if status in (PassEnd.SOLUTION, PassEnd.LIMIT, PassEnd.PERFECT):
                    break
        if status == PassEnd.SOLUTION:
            return self._result("solved", [self.placements(self.solution)], None, t0, self.history)
        if self.best and self.best_pl is not None:
            if (
                repairing
                and deadline is not None
                and time.perf_counter() < deadline
                and self.best_score < self.p.n_joins
            ):
                self._repair(t0, deadline, progress)
            self._save_best(force=True)
            return self._result("solved", [self.best_pl], self.best_score, t0, self.history)
        # a dead beam proves nothing (the search is incomplete): the width was the limit
        why = "the beam died out: no survivor completed (beam search is incomplete; try a wider beam)"
        if getattr(self, "_exhausted", False):
            why = "the beam died out with no level cut: the pieces have no legal arrangement on this board"
        return self._result("limit", [], None, t0, self.history, why if status == PassEnd.DEAD else "")

    def _pass(self, width, deadline, progress, t0, resume, profile=None):
        """One beam pass; returns how it ended (``PassEnd``) and keeps the best board."""
        res = self._one_run(width, deadline, progress, t0, resume, profile)
        if res is None:
            return PassEnd.LIMIT
        kind, row, mis = res
        if kind == PassEnd.SOLUTION:
            self.solution = row
        if kind == PassEnd.BOARD:
            self._better(self.placements(row), self.p.n_joins - mis, t0, progress, width=width)
            if self.o["checkpoint"]:  # the pass is over: its board is kept, its frontier is not needed
                self._save_best(force=True)
                (Path(self.o["checkpoint"]) / f"{self._frontier_name()}.npz").unlink(missing_ok=True)
            if mis == 0:
                return PassEnd.PERFECT  # nothing left to improve
        if kind == PassEnd.BOARD and deadline is not None and time.perf_counter() >= deadline:
            return PassEnd.LIMIT
        return kind

    # -------------------------------------------------------------- best boards

    def _result(self, status, sols, score, t0, history, message=""):
        self.stats.update(time_s=time.perf_counter() - t0, score_history=history, order=self.o["order"])
        self.stats["nodes"] = sum(lv["children"] for lv in self.stats["levels"]) + self.stats["endgame_nodes"]
        return SolveResult(status, sols, None, score, self.stats, message)

    def _one_run(self, width, deadline, progress, t0, resume, profile=None, start_at=None, salt=0):
        """One pass from the root (or from a checkpointed frontier, or from ``start_at`` =
        (depth, frontier): a tail pass, which writes no frontier checkpoint)."""
        o, n = self.o, self.n
        rng_base = o["seed"] + 7919 * salt
        ck = Path(o["checkpoint"]) if o["checkpoint"] and start_at is None else None
        k = 0
        states = self.root()
        if start_at is not None:
            k, states = start_at
        elif resume and o["resume"]:
            k, width, states = self.load(Path(o["resume"]))
        exhaust = not self.best and o["exhaust_at"] > 0
        greedy = False
        # per level: seconds taken and states expanded (the next pass plans with them)
        took, expanded = np.zeros(n), np.zeros(n)
        self._profile = (took, expanded)  # filled level by level: what the pass cost, also when it dies
        start = time.perf_counter()
        spent_pred = 0.0
        planned = width
        grow = o["grow"] or (4.0 if o["repair"] == 0 else 1.0)
        last_ck = time.perf_counter()
        k_first = k
        while k < n:
            if exhaust and n - k <= o["exhaust_at"]:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                if not self.best or time.perf_counter() >= deadline + GREEDY_GRACE_S:
                    # a huge board's greedy finish (90,000 levels) would hold the limit for minutes
                    return (PassEnd.LIMIT, None, None)
                greedy = True  # out of time: finish the best state alone
            if profile is not None and deadline is not None:
                # behind plan? shrink the width so that the rest of the pass fits before the deadline
                fixed, per = profile
                now = time.perf_counter()
                # the model's error so far in this pass, once there is enough of it to judge
                ratio = (now - start) / spent_pred if spent_pred > 1.0 else 1.0
                ratio = min(max(ratio, 0.5), 2.0)
                rest = (float(fixed[k:].sum()) + float(per[k:].sum()) * planned) * ratio
                width = planned
                if float(per[k:].sum()) > 0:
                    fit = ((deadline - now) / ratio - float(fixed[k:].sum())) / float(per[k:].sum())
                    if rest > deadline - now:
                        width = max(1, min(planned, int(fit)))
                        self.stats["shrunk"] = self.stats.get("shrunk", 0) + 1
                    elif grow > 1.0 and spent_pred > 1.0 and fit > 1.1 * planned:
                        # ahead of the model (the narrow passes that fitted it cost more per state,
                        # e.g. with ``cut``): widen, at most ``grow`` times the planned width
                        width = int(min(fit * 0.95, grow * planned, getattr(self, "_cap", 1 << 40)))
                        self.stats["grown"] = self.stats.get("grown", 0) + 1
                spent_pred += float(fixed[k] + per[k] * len(states.cands))
            tl = time.perf_counter()
            rng = np.random.default_rng([rng_base, k, width])
            new, m = self.expand(k, states, 1 if greedy else width, rng)
            if new is None:  # dead with no level ever cut: nothing fits at all, at any width
                self._exhausted = not greedy and all(lv["children"] <= width for lv in self.stats["levels"][-k:] if k)
                return (PassEnd.DEAD, None, None)
            dt = time.perf_counter() - tl
            took[k], expanded[k] = dt, len(states.cands)
            states = new
            k += 1
            lv = {
                "level": k,
                "kept": int(len(states.cands)),
                "children": int(m),
                "best": float(states.score.max()),
                "worst": float(states.score.min()),
                "time_s": dt,
            }
            if o.get("diversity"):
                lv |= diversity(states, k)
            self.stats["levels"].append(lv)
            # a small frontier is written at every level; a wide one (Eternity II for an hour: hundreds
            # of MB) at most every FRONTIER_EVERY_S, so a kill loses at most that much of the pass
            if ck is not None and (
                len(states.cands) * k <= 2_000_000 or time.perf_counter() - last_ck >= FRONTIER_EVERY_S
            ):
                self.save(ck, k, width, states)
                last_ck = time.perf_counter()
            if progress:
                done = k - k_first  # levels of this pass: its own pace gives the time to its end
                rate = m / dt if dt > 0 else 0.0
                left = (n - (o["exhaust_at"] if exhaust else 0)) - k
                el = time.perf_counter() - start
                # on the board's own scale: the joins the best state has missed so far, not the beam's ranking
                # score (colour pairings, which passes the joins' maximum on Eternity II)
                missed = int(states.mis.min()) if self.best and len(states.mis) else None
                progress(
                    {
                        "level": k,
                        "width": width,
                        "kept": lv["kept"],
                        **({} if missed is None else {"mismatches_so_far": missed}),
                        "states_per_s": round(rate),
                        "eta_s": round(el / done * left, 1) if done else None,
                    }
                )
        if k >= n:
            mis = states.mis
            i = int(np.argmin(mis)) if self.best else 0
            if not self.best:
                return (PassEnd.SOLUTION, states.cands[i], 0)
            return (PassEnd.BOARD, states.cands[i], int(mis[i]))
        # the end-game: every survivor, best first
        cur = np.zeros(n + 1, np.int64)
        end = np.zeros(n + 1, np.int64)
        for i in range(len(states.cands)):
            if deadline is not None and time.perf_counter() >= deadline:
                return (PassEnd.LIMIT, None, None)
            row = states.cands[i].copy()
            used = states.used[i].copy()
            code, nodes = _endgame(k, n, row, used, self.tb, cur, end, o["endgame_nodes"])
            self.stats["endgame_states"] += 1
            self.stats["endgame_nodes"] += int(nodes)
            if code == ENDGAME_SOLUTION:
                return (PassEnd.SOLUTION, row, 0)
            if code == ENDGAME_GAVE_UP:
                self.stats["endgame_gave_up"] += 1
        return (PassEnd.DEAD, None, None)
