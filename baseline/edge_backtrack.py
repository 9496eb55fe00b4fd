"""`edge-backtrack`: the specialised edge-matching backtracker in numba.

Candidate tables
----------------
A cell's *class* is which of its sides face the rim (4 bits, N=1 E=2 S=4
W=8); its *known* mask K is which of its inner sides face a placed piece.
For every (class, K) there is a table: the key is the colours demanded on
the K sides (``sum colour[s] * C**j`` over the sides of K in N,E,S,W
order, C = number of colours + 1), and each key holds the (piece, rotation)
pairs that show exactly those colours there, grey exactly on the rim
sides and no grey elsewhere.  So a row scan looks a cell up by its top and
left colours, a column scan by top and left too, a spiral by whatever two
or three sides are placed, and ``mrv`` by any combination.

Arrays::

    tab_base[cls*16 + K]   start of that table's key slots in tab_ptr
    tab_ptr[base + key]    range of candidates in cand_* for the key
    cand_piece, cand_rot   the candidates;  cand_col[4*i + s] their colours
    bc[4*cell + s]         colour shown on side s of a cell, -1 when empty
    used[p >> 6]           bitset of placed pieces

Invariant: the cells at depths 0..k-1 hold pieces whose joins with each
other all match; ``cur[k]`` is the next candidate to try at depth k.
Rotations of a symmetric piece that show the same colours appear once
(DESIGN's counting convention); identical pieces are separate candidates.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from puzzles.edge import EdgePlacement, EdgePuzzle
from puzzles.orders import ORDERS, search_order
from puzzles.solvers import Limits, Option, SolveResult, SolverBase

from .driver import drive

DONE, SOLUTION, BUDGET = 0, 1, 2


# ------------------------------------------------------------------ tables
def build_tables(p: EdgePuzzle):
    """Candidate tables for every (cell class, known mask) (module docstring)."""
    n_col = int(p.pieces.max()) + 2  # colours 0..max, base C
    fixed_pieces = {f.piece for f in p.fixed}
    free = [q for q in range(p.n_pieces) if q not in fixed_pieces]
    # all distinct placed arrangements of the free pieces
    arr = [(q, r, p.placed(q, r)) for q in free for r in p.distinct_rotations(q)]
    tab_base = np.full(16 * 16, -1, np.int64)
    ptr_parts, piece_l, rot_l, col_l = [], [], [], []
    total_slots, n_cand = 0, 0
    classes = {tuple(p.outside_sides(c)) for c in range(p.n_cells)} if p.bordered else {(False,) * 4}
    for out in sorted(classes):
        cls = sum(1 << s for s in range(4) if out[s])
        inner = [s for s in range(4) if not out[s]]
        ok = [a for a in arr if all((a[2][s] == 0) == out[s] for s in range(4))] if p.bordered else arr
        for K in range(16):
            if any(K >> s & 1 and out[s] for s in range(4)):
                continue
            sides = [s for s in inner if K >> s & 1]
            size = n_col ** len(sides)
            buckets: list[list] = [[] for _ in range(size)]
            for a in ok:
                key = 0
                for j, s in enumerate(sides):
                    key += a[2][s] * n_col ** j
                buckets[key].append(a)
            ptr = np.zeros(size + 1, np.int64)
            for key, b in enumerate(buckets):
                for q, r, cols in b:
                    piece_l.append(q)
                    rot_l.append(r)
                    col_l.extend(cols)
                ptr[key + 1] = ptr[key] + len(b)
            ptr += n_cand
            n_cand += len(ok)
            tab_base[cls * 16 + K] = total_slots
            total_slots += size + 1
            ptr_parts.append(ptr)
    return (tab_base, np.concatenate(ptr_parts), np.asarray(piece_l, np.int32),
            np.asarray(rot_l, np.int8), np.asarray(col_l, np.int32), n_col)


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


@njit(cache=True, inline="always")
def static_range(k, placed, nb, dep_nk, dep_side, dep_mul, dep_base, dep_fixed, tab_ptr, cand_col):
    """Candidate range at depth k of a static order.  ``placed[nb[4k + j]]``
    is the candidate on the j-th earlier neighbour (``nb`` names cells or
    depths, as the caller indexes ``placed``).  A fixed cell has exactly its
    one candidate, or none when it clashes with a placed neighbour."""
    f = dep_fixed[k]
    if f >= 0:
        for j in range(dep_nk[k]):
            if cand_col[4 * placed[nb[4 * k + j]] + ((dep_side[4 * k + j] + 2) & 3)] != \
                    cand_col[4 * f + dep_side[4 * k + j]]:
                return f, f
        return f, f + 1
    key = 0
    for j in range(dep_nk[k]):
        key += cand_col[4 * placed[nb[4 * k + j]] + ((dep_side[4 * k + j] + 2) & 3)] * dep_mul[4 * k + j]
    return tab_ptr[dep_base[k] + key], tab_ptr[dep_base[k] + key + 1]


@njit(cache=True)
def run_static(n, dep_base, dep_nk, dep_at, dep_shift, dep_mul, dep_fixed, tab_ptr, cand,
               used, cur, end, pl_val, st, prof, budget, stop_on_solution):
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
    candidate placed at depth d is ``cur[d] - 1``.  A fixed cell
    (``dep_fixed[k] >= 0``) has exactly that one candidate, checked against
    its placed neighbours.  st: [0] depth, [1] phase (0 enter depth,
    1 continue at depth, 9 done), [2] placements, [3] solutions, [4] deepest.
    """
    k = st[0]
    left = budget
    deep = st[4]
    fresh = st[1] == 0
    i = cur[k]
    e = end[k]
    while True:
        if fresh:
            fresh = False
            if k == n:
                st[3] += 1
                k -= 1
                used[pl_val[k] >> 32] = False
                i = cur[k]
                e = end[k]
                if stop_on_solution:
                    st[0] = k
                    st[1] = 1
                    st[2] += budget - left
                    st[4] = deep
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
        while i < e and used[cand[i] >> 32]:
            i += 1
        if i < e:
            v = cand[i]
            cur[k] = i + 1
            end[k] = e
            used[v >> 32] = True
            pl_val[k] = v
            prof[k] += 1
            k += 1
            if k > deep:
                deep = k
            fresh = True
            left -= 1
            if left == 0:
                st[0] = k
                st[1] = 0
                st[2] += budget
                st[4] = deep
                return BUDGET
        else:
            k -= 1
            if k < 0:
                st[0] = 0
                st[1] = 9
                st[2] += budget - left
                st[4] = deep
                return DONE
            used[pl_val[k] >> 32] = False
            i = cur[k]
            e = end[k]


@njit(cache=True)
def run_best(n, dep_base, dep_nk, dep_at, dep_shift, dep_mul, dep_fixed, dep_all, tab_ptr, cand,
             used, cur, end, pas, mis, pl_val, allow, best_cand, st, prof, budget):
    """Mode ``best``: the exhaustive search of boards with at most ``allow[k]``
    mismatched joins among the first k + 1 pieces (seed 001's slip array),
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
    k = st[0]
    left = budget
    deep = st[4]
    fresh = st[1] == 0
    while True:
        if fresh:
            fresh = False
            if k == n:  # a complete board: better than the best, as the caps allow no other
                st[5] = mis[k]
                st[3] += 1
                for d in range(n):
                    best_cand[d] = cur[d] - 1
                k -= 1
                used[pl_val[k] >> 32] = False
                st[0] = k
                st[1] = 9 if mis[n] == 0 else 1
                st[2] += budget - left
                st[4] = deep
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
        cap = min(allow[k], st[5] - 1)  # mismatches this depth may reach
        i = cur[k]
        e = end[k]
        found = -1
        m = 0
        while True:
            p = pas[k]
            while i < e:
                v = cand[i]
                i += 1
                if used[v >> 32]:
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
            used[v >> 32] = True
            pl_val[k] = v
            mis[k + 1] = mis[k] + m
            prof[k] += 1
            k += 1
            if k > deep:
                deep = k
            fresh = True
            left -= 1
            if left == 0:
                st[0] = k
                st[1] = 0
                st[2] += budget
                st[4] = deep
                return BUDGET
        else:
            k -= 1
            if k < 0:
                st[0] = 0
                st[1] = 9
                st[2] += budget - left
                st[4] = deep
                return DONE
            used[pl_val[k] >> 32] = False


def slip_allowance(spec: str, n: int) -> np.ndarray:
    """``allow[k]``: mismatches allowed once the piece at depth k is placed, from
    ``D1,D2,...`` (the i-th mismatch allowed from depth D_i, counted in pieces;
    empty: anywhere)."""
    slips = [int(x) for x in spec.split(",") if x.strip()] if spec else []
    if any(d < 1 or d > n for d in slips):
        raise ValueError(f"slips: every depth must lie in 1..{n}")
    if not slips:
        return np.full(n + 1, 1 << 30, np.int64)
    sl = sorted(slips)
    return np.array([sum(1 for d in sl if d <= k + 1) for k in range(n + 1)], np.int64)


@njit(cache=True, inline="always")
def _lookup_static(k, bc, dep_base, dep_nk, dep_idx, dep_mul, tab_ptr):
    """The candidate range at depth k of a static order: the known sides of
    that depth's cell were worked out once (``static_lookup``)."""
    key = 0
    for j in range(dep_nk[k]):
        key += bc[dep_idx[4 * k + j]] * dep_mul[4 * k + j]
    base = dep_base[k]
    return tab_ptr[base + key], tab_ptr[base + key + 1]


@njit(cache=True)
def run(order, dynamic, dep_base, dep_nk, dep_idx, dep_mul, fixed_n, fixed_piece, fixed_rot, fixed_cols, nbr, cls_of, tab_base, tab_ptr, cand_piece,
        cand_rot, cand_col, n_col, bc, used, cell_at, cur, end, pl_piece, pl_rot, st, prof, budget,
        stop_on_solution):
    """Advance the search by at most ``budget`` placements.

    st: [0] depth k, [1] phase (0 = enter depth k, 1 = try next candidate
    at depth k, 9 = finished), [2] placements, [3] solutions, [4] deepest.
    """
    n = order.shape[0]
    k = st[0]
    phase = st[1]
    spent = 0
    while True:
        if phase == 0:  # enter depth k: pick the cell, find its candidates
            if k == n:
                st[3] += 1
                k -= 1
                phase = 2  # unplace then try next at depth k
                if stop_on_solution:
                    st[0] = k
                    st[1] = phase
                    st[2] += spent
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
            if dynamic:
                best = 1 << 40
                cell = -1
                for c in range(n):
                    if bc[4 * c] >= 0:
                        continue
                    a, b = _lookup(c, bc, nbr, cls_of, tab_base, tab_ptr, n_col)
                    cnt = 0
                    for i in range(a, b):
                        q = cand_piece[i]
                        if not (used[q >> 6] >> np.uint64(q & 63)) & np.uint64(1):
                            cnt += 1
                            if cnt >= best:
                                break
                    if cnt < best:
                        best = cnt
                        cell = c
                        if cnt == 0:
                            break
                a, b = _lookup(cell, bc, nbr, cls_of, tab_base, tab_ptr, n_col)
            else:
                cell = order[k]
                a, b = _lookup_static(k, bc, dep_base, dep_nk, dep_idx, dep_mul, tab_ptr)
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
                    used[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
                    pl_piece[k] = q
                    pl_rot[k] = r
                    spent += 1
                    prof[k] += 1
                    k += 1
                    if k > st[4]:
                        st[4] = k
                    phase = 0
                    continue
                phase = 3  # fixed cell exhausted: backtrack
                continue
            i = cur[k]
            e = end[k]
            while i < e:
                q = cand_piece[i]
                if not (used[q >> 6] >> np.uint64(q & 63)) & np.uint64(1):
                    break
                i += 1
            if i >= e:
                phase = 3
                continue
            cur[k] = i + 1
            q = cand_piece[i]
            for s in range(4):
                bc[4 * cell + s] = cand_col[4 * i + s]
            used[q >> 6] |= np.uint64(1) << np.uint64(q & 63)
            pl_piece[k] = q
            pl_rot[k] = cand_rot[i]
            spent += 1
            prof[k] += 1
            k += 1
            if k > st[4]:
                st[4] = k
            phase = 0
            if spent >= budget:
                st[0] = k
                st[1] = phase
                st[2] += spent
                return BUDGET
        elif phase == 2:  # remove the piece at depth k, then try the next one
            cell = cell_at[k]
            q = pl_piece[k]
            used[q >> 6] &= ~(np.uint64(1) << np.uint64(q & 63))
            for s in range(4):
                bc[4 * cell + s] = -1
            phase = 1
        else:  # phase 3: depth k exhausted, go up
            k -= 1
            if k < 0:
                st[0] = 0
                st[1] = 9
                st[2] += spent
                return DONE
            phase = 2
    return DONE


class EdgeBacktrack(SolverBase):
    name = "edge-backtrack"
    KINDS = ("edge",)
    MODES = ("first", "count", "all", "best")
    OPTIONS = {
        "order": Option(str, "rowscan", "search order", ORDERS),
        "slips": Option(str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k "
                                 "(default: anywhere, bounded by the best board so far)"),
    }

    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        s = EdgeSearch(puzzle, self.options["order"])
        if mode == "best":
            if s.dynamic:
                raise ValueError("edge-backtrack: mode best needs a static order, not mrv")
            s.start_best(slip_allowance(self.options["slips"], puzzle.n_cells))
        build_s = time.perf_counter() - t0
        want = 1 if mode == "first" else (limits.solutions if mode == "all" else None)
        collect = mode in ("first", "all")
        solutions: list = []
        history: list = []

        def on_stop(code: int) -> bool:
            if code == SOLUTION and mode == "best":
                score = puzzle.n_joins - int(s.st[5])
                history.append((round(time.perf_counter() - t1, 3), score))
                if progress is not None:
                    progress({"best_score": score, "placements": int(s.st[2])})
                return False
            if code == SOLUTION:
                solutions.append(s.placements())
                return want is not None and len(solutions) >= want
            return True

        t1 = time.perf_counter()
        outcome = drive(lambda b: s.step(b, collect), lambda: int(s.st[2]), time_s=limits.time_s,
                        node_limit=limits.nodes, progress=progress,
                        info=lambda: {"placements": int(s.st[2]), "solutions": int(s.st[3]), "deepest": int(s.st[4])},
                        on_stop=on_stop)
        elapsed = time.perf_counter() - t1
        nodes = int(s.st[2])
        depth = int(np.max(np.nonzero(s.prof)[0])) + 1 if s.prof.any() else 0
        stats = {"time_s": elapsed, "build_s": build_s, "nodes": nodes,
                 "placements_per_s": nodes / elapsed if elapsed > 0 else 0.0,
                 "nodes_per_level": s.prof[:depth].tolist(), "order": self.options["order"]}
        complete = outcome == "done"
        count = int(s.st[3])
        if mode == "best":
            stats["history"] = history  # (seconds, score) each time the best board improved
            if not history:
                return SolveResult("unsatisfiable" if complete else "limit", [], None, None, stats)
            score = puzzle.n_joins - int(s.st[5])
            # "solved": the best board under the slips is proven (or perfect)
            stats["proven"] = complete
            return SolveResult("solved", [s.placements(s.best_cand)], None, score, stats)
        if mode == "count":
            status = "limit" if not complete else ("solved" if count else "unsatisfiable")
            return SolveResult(status, [], count, None, stats)
        status = "solved" if solutions else ("unsatisfiable" if complete else "limit")
        return SolveResult(status, solutions, len(solutions) if mode == "all" and complete else None, None, stats)


class EdgeSearch:
    """Tables and resumable state of one edge-matching search."""

    def __init__(self, p: EdgePuzzle, order: str):
        self.p = p
        n = p.n_cells
        self.order = np.asarray(search_order(p, order), np.int64)
        self.dynamic = order == "mrv"
        self.best = False  # mode best (start_best)
        (self.tab_base, self.tab_ptr, self.cand_piece, self.cand_rot, self.cand_col, self.n_col) = build_tables(p)
        self.nbr = np.array([p.neighbour(c, s) for c in range(n) for s in range(4)], np.int64)
        self.cls_of = np.array([sum(1 << s for s, o in enumerate(p.outside_sides(c)) if o) if p.bordered else 0
                                for c in range(n)], np.int64)
        self.fixed_n = len(p.fixed)
        self.fixed_piece = np.array([f.piece for f in p.fixed] + [0], np.int64)
        self.fixed_rot = np.array([f.rotation for f in p.fixed] + [0], np.int64)
        self.fixed_cols = np.array([c for f in p.fixed for c in p.placed(f.piece, f.rotation)] + [0] * 4, np.int64)
        self.dep_base, self.dep_nk, self.dep_idx, self.dep_mul = self.static_lookup()
        if not self.dynamic:
            self._init_static()
        self.bc = np.full(4 * n, -1, np.int64)
        self.used = np.zeros((p.n_pieces >> 6) + 1, np.uint64)
        self.cell_at = np.zeros(n + 1, np.int64)
        self.cur = np.zeros(n + 1, np.int64)
        self.end = np.zeros(n + 1, np.int64)
        self.pl_piece = np.zeros(n + 1, np.int64)
        self.pl_rot = np.zeros(n + 1, np.int64)
        self.st = np.zeros(6, np.int64)
        self.st[5] = 1 << 40  # best mode: mismatches of the best board so far
        self.prof = np.zeros(n + 1, np.int64)

    def _init_static(self) -> None:
        p, n = self.p, self.p.n_cells
        f0 = len(self.cand_piece)  # fixed placements go after the table candidates
        self.s_piece = np.concatenate([self.cand_piece, np.array([f.piece for f in p.fixed], np.int32)])
        self.s_rot = np.concatenate([self.cand_rot, np.array([f.rotation for f in p.fixed], np.int8)])
        self.s_col = np.concatenate([self.cand_col, np.array(
            [c for f in p.fixed for c in p.placed(f.piece, f.rotation)], np.int32)])
        self.dep_fixed = np.full(n + 1, -1, np.int64)
        self.dep_fixed[: len(p.fixed)] = np.arange(f0, f0 + len(p.fixed))
        self.dep_nb = np.zeros(4 * (n + 1), np.int64)
        self.dep_side = np.zeros(4 * (n + 1), np.int64)
        for k in range(n):
            for j in range(int(self.dep_nk[k])):
                slot = int(self.dep_idx[4 * k + j])  # 4 * neighbour + its side facing us
                self.dep_nb[4 * k + j] = slot // 4
                self.dep_side[4 * k + j] = (slot % 4 + 2) % 4
        if self.n_col > 256:
            raise ValueError(f"edge-backtrack: static orders take at most 255 colours, this puzzle has "
                             f"{self.n_col - 1}; use --opt order=mrv")
        # packed candidates and, per depth, where the key's colours are (module docstring of run_static)
        col = self.s_col.reshape(-1, 4).astype(np.int64)
        self.cand = (self.s_piece.astype(np.int64) << 32) | col[:, 0] | (col[:, 1] << 8) | (col[:, 2] << 16) | (col[:, 3] << 24)
        depth_of = np.zeros(n, np.int64)
        depth_of[self.order] = np.arange(n)
        self.dep_at = depth_of[self.dep_nb]
        for k in range(n):  # pad the keys to two entries: pl_val[n] stays 0
            for j in range(int(self.dep_nk[k]), 2):
                self.dep_at[4 * k + j] = n
                self.dep_mul[4 * k + j] = 0
        self.dep_shift = 8 * ((self.dep_side + 2) % 4)
        self.dep_all = np.array([self.tab_base[self.cls_of[c] * 16] for c in self.order] + [0], np.int64)
        self.s_used = np.zeros(p.n_pieces, np.bool_)
        self.pl_val = np.zeros(n + 1, np.int64)

    def start_best(self, allow: np.ndarray) -> None:
        """Arrays of mode best (``run_best``)."""
        n = self.p.n_cells
        self.allow = allow
        self.pas = np.zeros(n + 1, np.int64)
        self.mis = np.zeros(n + 1, np.int64)
        self.best_cand = np.zeros(n + 1, np.int64)
        self.best = True

    def step(self, budget: int, stop_on_solution: bool) -> int:
        if self.best:
            return run_best(self.p.n_cells, self.dep_base, self.dep_nk, self.dep_at, self.dep_shift, self.dep_mul,
                            self.dep_fixed, self.dep_all, self.tab_ptr, self.cand, self.s_used, self.cur, self.end,
                            self.pas, self.mis, self.pl_val, self.allow, self.best_cand, self.st,
                            self.prof, budget)
        if not self.dynamic:
            return run_static(self.p.n_cells, self.dep_base, self.dep_nk, self.dep_at, self.dep_shift,
                              self.dep_mul, self.dep_fixed, self.tab_ptr, self.cand, self.s_used, self.cur,
                              self.end, self.pl_val, self.st, self.prof, budget, stop_on_solution)
        return run(self.order, self.dynamic, self.dep_base, self.dep_nk, self.dep_idx, self.dep_mul, self.fixed_n, self.fixed_piece, self.fixed_rot, self.fixed_cols, self.nbr,
                   self.cls_of, self.tab_base, self.tab_ptr, self.cand_piece, self.cand_rot, self.cand_col, self.n_col,
                   self.bc, self.used, self.cell_at, self.cur, self.end, self.pl_piece, self.pl_rot, self.st,
                   self.prof, budget, stop_on_solution)

    def static_lookup(self):
        """Per depth of a static order: the table and the bc slots of the key."""
        n = self.p.n_cells
        base = np.zeros(n + 1, np.int64)
        nk = np.zeros(n + 1, np.int64)
        idx = np.zeros(4 * (n + 1), np.int64)
        mul = np.zeros(4 * (n + 1), np.int64)
        depth_of = {int(c): k for k, c in enumerate(self.order)}
        for k, cell in enumerate(self.order):
            K, m, j = 0, 1, 0
            for s in range(4):
                nb = self.nbr[4 * cell + s]
                if nb >= 0 and depth_of[int(nb)] < k:
                    K |= 1 << s
                    idx[4 * k + j] = 4 * nb + (s + 2) % 4
                    mul[4 * k + j] = m
                    m *= self.n_col
                    j += 1
            nk[k] = j
            base[k] = self.tab_base[self.cls_of[cell] * 16 + K]
        return base, nk, idx, mul

    def placements(self, cands: np.ndarray | None = None) -> list[EdgePlacement]:
        """The board of the current path (or of the candidate indices ``cands``, one per depth)."""
        n = self.p.n_cells
        if not self.dynamic:
            c = self.cur - 1 if cands is None else cands
            return [EdgePlacement(int(self.order[k]), int(self.s_piece[c[k]]), int(self.s_rot[c[k]]))
                    for k in range(n)]
        return [EdgePlacement(int(self.cell_at[k]), int(self.pl_piece[k]), int(self.pl_rot[k])) for k in range(n)]
