"""The edge backtracker's numba kernels: the row scan (static orders), best mode's branch and bound, and the
most-constrained-cell order (mrv).  Each advances a resumable search by a node budget (``baseline.runtime``);
the solver (``backtrack.py``) drives them."""

from __future__ import annotations

from numba import njit

from baseline.runtime.kernel import (
    BEST_MIS,
    BUDGET,
    COUNT,
    DEEPEST,
    DONE,
    ENTER,
    FINISHED,
    LEVEL,
    MANY,
    PHASE,
    RESUME,
    SOLUTION,
    pause,
)


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
def run_static(n, tb, avail, cur, end, pl_val, st, prof, budget, stop_on_solution):
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
    dep_base, dep_nk, dep_at, dep_shift, dep_mul = tb.dep_base, tb.dep_nk, tb.dep_at, tb.dep_shift, tb.dep_mul
    dep_fixed, tab_ptr, cand = tb.dep_fixed, tb.tab_ptr, tb.cand
    k = st[LEVEL]
    left = budget
    deep = st[DEEPEST]
    fresh = st[PHASE] == ENTER
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
                    pause(st, k, RESUME, budget - left)
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
                    key = (
                        dep_base[k]
                        + ((pl_val[dep_at[a]] >> dep_shift[a]) & 255) * dep_mul[a]
                        + ((pl_val[dep_at[a + 1]] >> dep_shift[a + 1]) & 255) * dep_mul[a + 1]
                    )
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
                pause(st, k, ENTER, budget)
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
def run_best(n, tb, avail, cur, end, pas, mis, pl_val, allow, best_cand, st, prof, budget):
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
    dep_base, dep_nk, dep_at, dep_shift, dep_mul = tb.dep_base, tb.dep_nk, tb.dep_at, tb.dep_shift, tb.dep_mul
    dep_fixed, dep_all, tab_ptr, cand = tb.dep_fixed, tb.dep_all, tb.tab_ptr, tb.cand
    k = st[LEVEL]
    left = budget
    deep = st[DEEPEST]
    fresh = st[PHASE] == ENTER
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
                pause(st, k, FINISHED if mis[n] == 0 else RESUME, budget - left)
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
                pause(st, k, ENTER, budget)
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
def run(order, tb, bc, avail, cell_at, cur, end, pl_piece, pl_rot, st, prof, budget, stop_on_solution):
    """Order ``mrv``: advance the search by at most ``budget`` placements, choosing at each
    depth the empty cell with the fewest candidates (static orders run ``run_static``).

    ``st`` (slots in ``kernel``): PHASE 0 = enter depth k, 1 = try the next
    candidate at depth k, 2 = remove the piece at depth k, 3 = go up.
    """
    fixed_n, fixed_piece, fixed_rot, fixed_cols, nbr = tb.fixed_n, tb.fixed_piece, tb.fixed_rot, tb.fixed_cols, tb.nbr
    cls_of, tab_base, tab_ptr, cand_piece, cand_rot = tb.cls_of, tb.tab_base, tb.tab_ptr, tb.cand_piece, tb.cand_rot
    cand_col, n_col = tb.cand_col, tb.n_col
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
