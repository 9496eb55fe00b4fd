"""`edge-backtrack`: the specialised edge-matching backtracker in numba.

The candidate tables (``edge_tables``) give, for a cell's border class and
the colours on its placed sides, the (piece, rotation) pairs that fit.  Three
kernels walk them: ``run_static`` (any static order, packed candidates),
``run_best`` (mode best: branch and bound under a slip array) and ``run``
(order ``mrv``: the cell with fewest candidates next).

Invariant: the cells at depths 0..k-1 hold pieces whose joins with each
other all match; ``cur[k]`` is the next candidate to try at depth k.
Rotations of a symmetric piece that show the same colours appear once
(the counting convention of docs/ARCHITECTURE.md, "Puzzles").  Identical
pieces (``identical=merge``, the default in modes first, count and best,
every order) are one candidate whose copies left are counted in
``avail``: without that the tree holds a copy of every subtree for each
order of the copies (generated 8x8 boards at the peak have 4 to 384 such
orders).  A count is multiplied back by the copies' permutations and a
board names each copy once (``EdgePuzzle.relabel``); mode all lists every
labelling, so it keeps the pieces apart.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from baseline.edge.tables import EdgeTables, slip_allowance
from baseline.runtime import warmup
from baseline.runtime.driver import drive, luby
from baseline.runtime.kernel import (
    BEST_MIS,
    BUDGET,
    COUNT,
    DEEPEST,
    DONE,
    FINISHED,
    LEVEL,
    MANY,
    NODES,
    PHASE,
    SOLUTION,
    new_state,
    pause,
)
from puzzles.edge import EdgePlacement, EdgePuzzle
from puzzles.errors import UsageError
from puzzles.grids import square_symmetries
from puzzles.orders import ORDERS, search_order
from solving import Limits, Option, SolverBase, SolveResult, Status, enumerated


# ------------------------------------------------------------------ kernel
@njit(cache=True)
def _lookup(cell, bc, nbr, cls_of, tab_base, tab_ptr, n_col):
    """The candidate range of a cell given the colours placed around it."""
    key = 0
    K = 0
    mul = 1
    for s in range(4):
        nb = nbr[4 * cell + s]
        if nb >= 0 and bc[4 * nb + ((s + 2) & 3)] >= 0:
            K |= 1 << s
            key += bc[4 * nb + ((s + 2) & 3)] * mul
            mul *= n_col
    base = tab_base[cls_of[cell] * 16 + K]
    return tab_ptr[base + key], tab_ptr[base + key + 1]


@njit(cache=True)
def run_static(n, dep_base, dep_nk, dep_at, dep_shift, dep_mul, dep_fixed, tab_ptr, cand,
               avail, cur, end, pl_val, st, prof, budget, stop_on_solution):
    """The fast path for static orders: a tight loop over depths.

    ``cand[i]`` packs a candidate: its piece in the high 32 bits, the colours
    of its N, E, S, W sides in bytes 0..3.  The packed value of the
    candidate at depth d is copied to ``pl_val[d]``, so the key of a depth
    is read straight from the earlier depths ``dep_at`` (byte ``dep_shift``)
    with one load each, and the piece to free on the way back comes with it.
    Every depth has at least two key entries (a missing one reads the
    always-zero ``pl_val[n]`` with multiplier 0), so the usual case is
    straight-line code.  (Reading colours through the candidate index
    instead ran 22-32 against 38-48 M placements/s on brendan-8x8.)  The
    candidate placed at depth d is ``cur[d] - 1``; ``avail[q]`` the copies of
    piece q not yet placed (0 or 1 unless identical pieces are merged).  A fixed cell
    (``dep_fixed[k] >= 0``) has exactly that one candidate, checked against
    its placed neighbours.  st: [0] depth, [1] phase (0 enter depth,
    1 continue at depth, 9 done), [2] placements, [3] solutions, [4] deepest.
    """
    k = st[LEVEL]
    left = budget
    deep = st[DEEPEST]
    fresh = st[PHASE] == 0
    i = cur[k]
    e = end[k]
    while True:
        if fresh:
            fresh = False
            if k == n:
                st[COUNT] += 1
                k -= 1
                avail[pl_val[k] >> 32] += 1
                i = cur[k]
                e = end[k]
                if stop_on_solution:
                    pause(st, k, 1, budget - left)
                    st[DEEPEST] = deep
                    return SOLUTION
            else:
                f = dep_fixed[k]
                nk = dep_nk[k]
                if f >= 0:
                    i = f
                    e = f + 1
                    v = cand[f]
                    for j in range(nk):
                        a = 4 * k + j
                        if (pl_val[dep_at[a]] >> dep_shift[a]) & 255 != (v >> ((dep_shift[a] + 16) & 31)) & 255:
                            e = f
                else:
                    a = 4 * k
                    key = dep_base[k] + ((pl_val[dep_at[a]] >> dep_shift[a]) & 255) * dep_mul[a] \
                        + ((pl_val[dep_at[a + 1]] >> dep_shift[a + 1]) & 255) * dep_mul[a + 1]
                    if nk > 2:
                        for j in range(2, nk):
                            key += ((pl_val[dep_at[a + j]] >> dep_shift[a + j]) & 255) * dep_mul[a + j]
                    i = tab_ptr[key]
                    e = tab_ptr[key + 1]
        while i < e and avail[cand[i] >> 32] == 0:
            i += 1
        if i < e:
            v = cand[i]
            cur[k] = i + 1
            end[k] = e
            avail[v >> 32] -= 1
            pl_val[k] = v
            prof[k] += 1
            k += 1
            if k > deep:
                deep = k
            fresh = True
            left -= 1
            if left == 0:
                pause(st, k, 0, budget)
                st[DEEPEST] = deep
                return BUDGET
        else:
            k -= 1
            if k < 0:
                pause(st, 0, FINISHED, budget - left)
                st[DEEPEST] = deep
                return DONE
            avail[pl_val[k] >> 32] += 1
            i = cur[k]
            e = end[k]


@njit(cache=True)
def run_best(n, dep_base, dep_nk, dep_at, dep_shift, dep_mul, dep_fixed, dep_all, tab_ptr, cand,
             avail, cur, end, pas, mis, pl_val, allow, best_cand, st, prof, budget):
    """Mode ``best``: the exhaustive search of boards with at most ``allow[k]``
    mismatched joins among the first k + 1 pieces (Owen's slip array, [Owen]),
    branch and bound on the best complete board so far.

    At each depth the exact matches come first (the key table, pass 0), then
    the candidates of the cell's border class with exactly 1, 2, ...
    mismatched joins (``dep_all[k]``: that table's slot, pass m), so the
    first boards found are near-valid.  ``mis[k]``: the
    mismatches among the first k pieces.  st: [0] depth, [1] phase,
    [2] placements, [3] complete boards that improved the best, [4] deepest,
    [5] the best board's mismatches (``best_cand`` holds it).  Returns
    SOLUTION when a better board was found (the caller records it), DONE
    when the bound is exhausted or the board is perfect."""
    k = st[LEVEL]
    left = budget
    deep = st[DEEPEST]
    fresh = st[PHASE] == 0
    while True:
        if fresh:
            fresh = False
            if k == n:  # a complete board: better than the best, as the caps allow no other
                st[BEST_MIS] = mis[k]
                st[COUNT] += 1
                for d in range(n):
                    best_cand[d] = cur[d] - 1
                k -= 1
                avail[pl_val[k] >> 32] += 1
                pause(st, k, FINISHED if mis[n] == 0 else 1, budget - left)
                st[DEEPEST] = deep
                return DONE if mis[n] == 0 else SOLUTION
            else:
                pas[k] = 0
                f = dep_fixed[k]
                if f >= 0:
                    cur[k] = f
                    end[k] = f + 1
                else:
                    key = dep_base[k]
                    for j in range(dep_nk[k]):
                        a = 4 * k + j
                        key += ((pl_val[dep_at[a]] >> dep_shift[a]) & 255) * dep_mul[a]
                    cur[k] = tab_ptr[key]
                    end[k] = tab_ptr[key + 1]
        cap = min(allow[k], st[BEST_MIS] - 1)  # mismatches this depth may reach
        i = cur[k]
        e = end[k]
        found = -1
        m = 0
        while True:
            p = pas[k]
            while i < e:
                v = cand[i]
                i += 1
                if avail[v >> 32] == 0:
                    continue
                m = 0
                if p > 0 or dep_fixed[k] >= 0:
                    for j in range(dep_nk[k]):
                        a = 4 * k + j
                        if (pl_val[dep_at[a]] >> dep_shift[a]) & 255 != (v >> ((dep_shift[a] + 16) & 31)) & 255:
                            m += 1
                    if m != p:
                        continue  # tried in another pass
                if mis[k] + m <= cap:
                    found = i - 1
                    break
            if found >= 0 or p >= dep_nk[k] or mis[k] + p + 1 > cap:
                break
            pas[k] = p + 1  # next: the candidates with one more mismatch
            if dep_fixed[k] >= 0:
                i = dep_fixed[k]
                e = i + 1
            else:
                i = tab_ptr[dep_all[k]]
                e = tab_ptr[dep_all[k] + 1]
        cur[k] = i
        end[k] = e
        if found >= 0:
            v = cand[found]
            avail[v >> 32] -= 1
            pl_val[k] = v
            mis[k + 1] = mis[k] + m
            prof[k] += 1
            k += 1
            if k > deep:
                deep = k
            fresh = True
            left -= 1
            if left == 0:
                pause(st, k, 0, budget)
                st[DEEPEST] = deep
                return BUDGET
        else:
            k -= 1
            if k < 0:
                pause(st, 0, FINISHED, budget - left)
                st[DEEPEST] = deep
                return DONE
            avail[pl_val[k] >> 32] += 1


@njit(cache=True)
def run(order, fixed_n, fixed_piece, fixed_rot, fixed_cols, nbr, cls_of, tab_base, tab_ptr, cand_piece,
        cand_rot, cand_col, n_col, bc, avail, cell_at, cur, end, pl_piece, pl_rot, st, prof, budget,
        stop_on_solution):
    """Order ``mrv``: advance the search by at most ``budget`` placements, choosing at each
    depth the empty cell with the fewest candidates (static orders run ``run_static``).

    ``st`` (slots in ``kernel``): PHASE 0 = enter depth k, 1 = try the next
    candidate at depth k, 2 = remove the piece at depth k, 3 = go up.
    """
    n = order.shape[0]
    k = st[LEVEL]
    phase = st[PHASE]
    spent = 0
    while True:
        if phase == 0:  # enter depth k: pick the cell, find its candidates
            if k == n:
                st[COUNT] += 1
                k -= 1
                phase = 2  # unplace then try next at depth k
                if stop_on_solution:
                    pause(st, k, phase, spent)
                    return SOLUTION
                continue
            if k < fixed_n:
                cell = order[k]
                cell_at[k] = cell
                cur[k] = -1 - k  # marker: fixed placement, tried once
                end[k] = 0
                # check the fixed piece against already placed neighbours
                ok = True
                for s in range(4):
                    nb = nbr[4 * cell + s]
                    if nb >= 0 and bc[4 * nb + ((s + 2) & 3)] >= 0:
                        if bc[4 * nb + ((s + 2) & 3)] != fixed_cols[4 * k + s]:
                            ok = False
                if not ok:
                    phase = 3
                    continue
                phase = 1
                continue
            best = MANY
            cell = -1
            for c in range(n):
                if bc[4 * c] >= 0:
                    continue
                a, b = _lookup(c, bc, nbr, cls_of, tab_base, tab_ptr, n_col)
                cnt = 0
                for i in range(a, b):
                    if avail[cand_piece[i]] > 0:
                        cnt += 1
                        if cnt >= best:
                            break
                if cnt < best:
                    best = cnt
                    cell = c
                    if cnt == 0:
                        break
            a, b = _lookup(cell, bc, nbr, cls_of, tab_base, tab_ptr, n_col)
            cell_at[k] = cell
            cur[k] = a
            end[k] = b
            phase = 1
        elif phase == 1:  # try the next candidate at depth k
            cell = cell_at[k]
            if k < fixed_n:
                if cur[k] < 0:
                    cur[k] = 0
                    q = fixed_piece[k]
                    r = fixed_rot[k]
                    for s in range(4):
                        bc[4 * cell + s] = fixed_cols[4 * k + s]
                    avail[q] -= 1
                    pl_piece[k] = q
                    pl_rot[k] = r
                    spent += 1
                    prof[k] += 1
                    k += 1
                    st[DEEPEST] = max(st[DEEPEST], k)
                    phase = 0
                    continue
                phase = 3  # fixed cell exhausted: backtrack
                continue
            i = cur[k]
            e = end[k]
            while i < e:
                if avail[cand_piece[i]] > 0:
                    break
                i += 1
            if i >= e:
                phase = 3
                continue
            cur[k] = i + 1
            q = cand_piece[i]
            for s in range(4):
                bc[4 * cell + s] = cand_col[4 * i + s]
            avail[q] -= 1
            pl_piece[k] = q
            pl_rot[k] = cand_rot[i]
            spent += 1
            prof[k] += 1
            k += 1
            st[DEEPEST] = max(st[DEEPEST], k)
            phase = 0
            if spent >= budget:
                pause(st, k, phase, spent)
                return BUDGET
        elif phase == 2:  # remove the piece at depth k, then try the next one
            cell = cell_at[k]
            q = pl_piece[k]
            avail[q] += 1
            for s in range(4):
                bc[4 * cell + s] = -1
            phase = 1
        else:  # phase 3: depth k exhausted, go up
            k -= 1
            if k < 0:
                pause(st, 0, FINISHED, spent)
                return DONE
            phase = 2
    return DONE


class EdgeBacktrack(SolverBase):
    """`edge-backtrack`: the table-driven edge-matching backtracker in numba (static orders, MRV, best mode)."""

    name = "edge-backtrack"
    KINDS = ("edge",)
    MODES = ("first", "count", "all", "best")
    OPTIONS = {
        "order": Option(str, "rowscan", "search order", ORDERS),
        "slips": Option(str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k "
                                 "(default: anywhere, bounded by the best board so far)"),
        "seed": Option(int, -1, "random value order and a random symmetry of the order, from this seed "
                                "(-1: the tables' order)", lo=-1),
        "restarts": Option(str, "none", "mode first: restart with a new random order after a node budget "
                                        "following the Luby sequence (none: one search)", ("none", "luby")),
        "unit": Option(int, 2_000_000, "restarts: placements of one Luby unit", lo=1),
        "identical": Option(str, "merge", "identical pieces: one candidate per group, its copies counted "
                                          "(merge: the tree has no copies of a subtree; "
                                          "modes first, count, best) or each piece its own", ("merge", "distinct")),
    }

    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        if self.options["slips"] and mode != "best":
            raise UsageError(f"solver edge-backtrack: option slips is for mode best (mismatches allowed), not "
                             f"mode {mode}")
        if self.options["slips"] and puzzle.kind == "edge":
            slip_allowance(self.options["slips"], puzzle.n_cells)  # its words and depths, before any work

    def warm(self, puzzle, mode: str) -> None:
        """The kernel of this order and mode: ``run`` (mrv), ``run_best`` or ``run_static``."""
        kernel = "mrv" if self.options["order"] == "mrv" else ("best" if mode == "best" else "static")
        order = "mrv" if kernel == "mrv" else "rowscan"
        warmup.once(("edge-backtrack", kernel), lambda: EdgeBacktrack({"order": order}).solve(
            warmup.tiny_edge(), mode="best" if kernel == "best" else "count"))

    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        o = self.options
        limits = limits or Limits()
        restarts = o["restarts"] == "luby"
        if restarts and mode != "first":
            raise UsageError("solver edge-backtrack: restarts are for mode first (a count needs one whole search)")
        if (restarts or o["seed"] >= 0) and mode == "best":
            raise UsageError("solver edge-backtrack: mode best takes neither restarts nor a seed")
        t0 = time.perf_counter()
        merge = o["identical"] == "merge" and mode != "all"  # mode all lists every labelling
        variants = _Variants(puzzle, o["order"], o["seed"] if o["seed"] >= 0 or not restarts else 0, merge)
        s = EdgeSearch(variants.next())
        if mode == "best":
            if s.dynamic:
                raise UsageError("edge-backtrack: mode best needs a static order, not mrv")
            s.start_best(slip_allowance(o["slips"], puzzle.n_cells))
        build_s = time.perf_counter() - t0
        want = limits.wanted(mode)
        collect = mode in ("first", "all")
        solutions: list = []
        history: list = []

        def on_stop(code: int) -> bool:
            if code == SOLUTION and mode == "best":
                score = puzzle.n_joins - int(s.st[BEST_MIS])
                history.append((round(time.perf_counter() - t1, 3), score))
                if progress is not None:
                    progress({"best_score": score, "placements": int(s.st[NODES])})
                return False
            if code == SOLUTION:
                solutions.append(s.placements())
                return want is not None and len(solutions) >= want
            return True

        t1 = time.perf_counter()
        spent, runs = 0, 0
        while True:
            runs += 1
            budget = limits.nodes if limits.nodes is None else limits.nodes - spent
            if restarts:
                run_nodes = o["unit"] * luby(runs)
                budget = run_nodes if budget is None else min(budget, run_nodes)
            left = None if limits.time_s is None else limits.time_s - (time.perf_counter() - t1)
            outcome = drive(lambda b: s.step(b, collect), lambda: int(s.st[NODES]), time_s=left,
                            node_limit=budget, progress=progress,
                            info=lambda: {"placements": spent + int(s.st[NODES]),
                                          "solutions": int(s.st[COUNT]) * s.t.labelled,
                                          "deepest": int(s.st[DEEPEST]), "restarts": runs - 1},
                            on_stop=on_stop)
            spent += int(s.st[NODES])
            out_of_time = limits.time_s is not None and time.perf_counter() - t1 >= limits.time_s
            out_of_nodes = limits.nodes is not None and spent >= limits.nodes
            if not restarts or outcome != "limit" or out_of_time or out_of_nodes:
                break
            deepest = int(s.st[DEEPEST])
            s = EdgeSearch(variants.next())  # a new random value order (and symmetry of the order)
            s.st[DEEPEST] = deepest
        elapsed = time.perf_counter() - t1
        nodes = spent
        depth = int(np.max(np.nonzero(s.prof)[0])) + 1 if s.prof.any() else 0
        stats = {"time_s": elapsed, "build_s": build_s, "nodes": nodes,
                 "placements_per_s": nodes / elapsed if elapsed > 0 else 0.0,
                 "nodes_per_level": s.prof[:depth].tolist(), "order": o["order"], "deepest": int(s.st[DEEPEST])}
        if restarts:
            stats["restarts"] = runs - 1
        complete = outcome == "done"
        count = int(s.st[COUNT]) * s.t.labelled
        if mode == "best":
            stats["history"] = history  # (seconds, score) each time the best board improved
            if not history:
                return SolveResult(Status.UNSAT if complete else Status.LIMIT, [], None, None, stats)
            score = puzzle.n_joins - int(s.st[BEST_MIS])
            # the best board under the slips is proven when the search finished; without slips that is optimal
            stats["proven"] = complete
            optimal = score == puzzle.n_joins or (complete and not o["slips"])
            return SolveResult(Status.SOLVED, [s.placements(s.best_cand)], None, score, stats, optimal=optimal)
        return enumerated(mode, complete=complete, solutions=solutions, count=count if mode == "count" else None,
                          stats=stats, wanted=want)


class _Variants:
    """The tables of each run: the plain ones without a seed; with one, every run a random symmetry
    of the order (boards without fixed pieces) and a random value order."""

    def __init__(self, p: EdgePuzzle, order: str, seed: int, merge: bool = False):
        self.p, self.order, self.merge = p, order, merge
        self.rng = np.random.default_rng(seed) if seed >= 0 else None
        self.built: dict[int, EdgeTables] = {}
        base = search_order(p, order)
        self.orders = [base]
        if self.rng is not None and not p.fixed and order != "mrv":
            R, C = p.rows, p.cols
            syms = square_symmetries(R)[1:] if R == C else [
                lambda r, c: (R - 1 - r, C - 1 - c), lambda r, c: (r, C - 1 - c), lambda r, c: (R - 1 - r, c)]
            for f in syms:
                self.orders.append([(lambda rc: rc[0] * C + rc[1])(f(*divmod(c, C))) for c in base])

    def next(self) -> EdgeTables:
        k = 0 if self.rng is None else int(self.rng.integers(len(self.orders)))
        if k not in self.built:
            self.built[k] = EdgeTables(self.p, self.order, self.orders[k], self.merge)
        t = self.built[k]
        return t if self.rng is None else t.shuffled(self.rng)


class EdgeSearch:
    """The resumable state of one edge-matching search over its tables."""

    def __init__(self, tables: EdgeTables):
        t = self.t = tables
        p = self.p = t.p
        n = p.n_cells
        self.order, self.dynamic = t.order, t.dynamic
        self.best = False  # mode best (start_best)
        self.bc = np.full(4 * n, -1, np.int64)
        self.cell_at = np.zeros(n + 1, np.int64)
        self.cur = np.zeros(n + 1, np.int64)
        self.end = np.zeros(n + 1, np.int64)
        self.pl_piece = np.zeros(n + 1, np.int64)
        self.pl_rot = np.zeros(n + 1, np.int64)
        self.avail = t.avail.copy()  # copies left of each piece (of each group when merged)
        self.pl_val = np.zeros(n + 1, np.int64)
        self.st = new_state()
        self.prof = np.zeros(n + 1, np.int64)

    def start_best(self, allow: np.ndarray) -> None:
        """Arrays of mode best (``run_best``)."""
        n = self.p.n_cells
        self.allow = allow
        self.pas = np.zeros(n + 1, np.int64)
        self.mis = np.zeros(n + 1, np.int64)
        self.best_cand = np.zeros(n + 1, np.int64)
        self.best = True

    def step(self, budget: int, stop_on_solution: bool) -> int:
        t = self.t
        if self.best:
            return run_best(self.p.n_cells, t.dep_base, t.dep_nk, t.dep_at, t.dep_shift, t.dep_mul,
                            t.dep_fixed, t.dep_all, t.tab_ptr, t.cand, self.avail, self.cur, self.end,
                            self.pas, self.mis, self.pl_val, self.allow, self.best_cand, self.st,
                            self.prof, budget)
        if not self.dynamic:
            return run_static(self.p.n_cells, t.dep_base, t.dep_nk, t.dep_at, t.dep_shift,
                              t.dep_mul, t.dep_fixed, t.tab_ptr, t.cand, self.avail, self.cur,
                              self.end, self.pl_val, self.st, self.prof, budget, stop_on_solution)
        return run(self.order, t.fixed_n, t.fixed_piece, t.fixed_rot, t.fixed_cols, t.nbr,
                   t.cls_of, t.tab_base, t.tab_ptr, t.cand_piece, t.cand_rot, t.cand_col, t.n_col,
                   self.bc, self.avail, self.cell_at, self.cur, self.end, self.pl_piece, self.pl_rot, self.st,
                   self.prof, budget, stop_on_solution)

    def placements(self, cands: np.ndarray | None = None) -> list[EdgePlacement]:
        """The board of the current path (or of the candidate indices ``cands``, one per depth)."""
        n, t = self.p.n_cells, self.t
        if not self.dynamic:
            c = self.cur - 1 if cands is None else cands
            board = [EdgePlacement(int(self.order[k]), int(t.s_piece[c[k]]), int(t.s_rot[c[k]])) for k in range(n)]
            return self.p.relabel(board, t.copies) if t.copies else board
        board = [EdgePlacement(int(self.cell_at[k]), int(self.pl_piece[k]), int(self.pl_rot[k])) for k in range(n)]
        return self.p.relabel(board, t.copies) if t.copies else board
