"""The XCC beam's numba kernels (polyforms, queens): the sites to fill, the expansion of a level, the
liveness test and the materialising of the kept children; the policy is ``xcc.py``'s."""

from __future__ import annotations

import math

from numba import njit

from baseline.poly.boundary import placed_holds
from baseline.poly.engine import _bit, _count, _place, _pocket
from baseline.runtime.kernel import MANY


@njit(cache=True)
def _pick_site(board, scan, start, n_look, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
               scratch):
    """(the chosen site, its number of fitting options): the most constrained of the first
    ``n_look`` free sites in scan order from position ``start``; -1 when none is free."""
    best, best_n, seen = -1, MANY, 0
    for p in range(start, scan.shape[0]):
        s = scan[p]
        if _bit(board, s):
            continue
        k = _count(s, best_n, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
                   scratch)
        if k < best_n:
            best, best_n = s, k
        seen += 1
        if seen >= n_look or best_n <= 1:
            break
    return best, best_n


@njit(cache=True)
def _sites(board, first, n_states, pt, n_look, scratch, site, n_fit):
    """Each state's site and its number of fitting options; returns their sum (the children's upper bound)."""
    scan, sg_ptr, s_near, c_info, g_ptr = pt.scan, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr
    g_tag, e_opt, e_lmask, ow_ptr, ow_idx = pt.g_tag, pt.e_opt, pt.e_lmask, pt.ow_ptr, pt.ow_idx
    ow_mask = pt.ow_mask
    m = 0
    for i in range(n_states):
        s, k = _pick_site(board[i], scan, first[i], n_look, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr,
                          ow_idx, ow_mask, scratch)
        site[i] = s
        n_fit[i] = k if s >= 0 else 0
        m += n_fit[i]
    return m


@njit(cache=True)
def _child(c, o, child, sc, first_p, pt, opt_weight, kn, bt, work, tally):
    """The score of the child ``child`` (state c with option o placed, already written there), or -inf
    when it is dead: it cuts off a pocket no set of pieces fills, one of the next ``lookahead`` free
    sites in scan order has no fitting option, (``touch``) a free site next to the placed piece has
    none, or (boundary tables, ``bt``) the window of a free site next to it is a pattern no pieces fill.
    ``tally[0]`` counts the children only the tables rejected."""
    stamp, stack, scratch, near = work
    lookahead, touch, w_boundary, w_covers = kn[0], kn[1], kn[2], kn[3]
    win, tid, tab, inv_ptr, inv_idx = bt
    scan, nbr, area, sg_ptr, s_near = pt.scan, pt.nbr, pt.area, pt.sg_ptr, pt.s_near
    c_info, g_ptr, g_tag, e_opt, e_lmask = pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask
    ow_ptr, ow_idx, ow_mask, os_ptr, os_idx = pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.os_ptr, pt.os_idx
    n_scan = scan.shape[0]
    deg = nbr.shape[1]
    sc = sc + opt_weight[o]
    n_near = 0
    if deg > 0:
        # boundary change: a free neighbour is a new boundary edge, one covered before is one less
        delta = 0
        for r in range(os_ptr[o], os_ptr[o + 1]):
            x = os_idx[r]
            for d in range(deg):
                y = nbr[x, d]
                if y == -2:
                    continue
                if y == -1:
                    delta -= 1
                elif not _bit(child, y):
                    delta += 1
                    if touch:
                        seen_y = False
                        for u in range(n_near):
                            if near[u] == y:
                                seen_y = True
                                break
                        if not seen_y:
                            near[n_near] = y
                            n_near += 1
                elif _bit(c, y):
                    delta -= 1
        sc -= w_boundary * delta
        if area > 0 and _pocket(o, child, os_ptr, os_idx, nbr, area, stamp, stack):
            return -math.inf
    # the free sites next to the new piece must each still have a fitting option
    if touch:
        for u in range(n_near):
            if (
                _count(near[u], 1, child, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx,
                       ow_mask, scratch)
                == 0
            ):
                return -math.inf
    # lookahead: the next free sites in scan order must still have a cover
    if lookahead > 0:
        seen = 0
        fewest = MANY
        p = first_p
        while p < n_scan:
            t = scan[p]
            p += 1
            if _bit(child, t):
                continue
            kk = _count(t, 64, child, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
                        scratch)
            if kk == 0:
                return -math.inf
            if kk < fewest:
                fewest = kk
            seen += 1
            if seen >= lookahead:
                break
        if seen > 0:
            sc += w_covers * math.log(fewest)
    # the boundary tables: every window the new piece changed
    if win.shape[1] > 0 and not placed_holds(child, o, os_ptr, os_idx, win, tid, tab, inv_ptr, inv_idx):
        tally[0] += 1
        return -math.inf
    return sc


@njit(cache=True, inline="always")
def _first_free(board, scan, p):
    while p < scan.shape[0] and _bit(board, scan[p]):
        p += 1
    return p


@njit(cache=True)
def _options_below(board, first_p, pt, kn, work, opts):
    """(scan position of ``board``'s first free site, the number of options written to ``opts`` at its most
    constrained site); the number is -1 when the board has no free site left."""
    p = _first_free(board, pt.scan, first_p)
    s, k = _pick_site(board, pt.scan, p, kn[4], pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt,
                      pt.e_lmask, pt.ow_ptr, pt.ow_idx, pt.ow_mask, work[2])
    if s < 0:
        return p, -1
    k = _count(s, MANY, board, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask, pt.ow_ptr,
               pt.ow_idx, pt.ow_mask, opts)
    return p, k


@njit(cache=True)
def _below_1(board, sc, first_p, pt, opt_weight, kn, bt, work, tally, child, opts):
    """The best score one placement below ``board`` (at its own most constrained site), -inf when every
    child there is dead; ``sc`` itself when the board has no free site left."""
    p, k = _options_below(board, first_p, pt, kn, work, opts)
    if k < 0:
        return sc
    best = -math.inf
    for j in range(k):
        for w in range(board.shape[0]):
            child[w] = board[w]
        _place(opts[j], child, pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.tag, True)
        best = max(best, _child(board, opts[j], child, sc, p, pt, opt_weight, kn, bt, work, tally))
    return best


@njit(cache=True)
def _below_2(board, sc, first_p, pt, opt_weight, kn, bt, work, tally, child, opts, child2, opts2):
    """The best score two placements below ``board``: each live child's own best child (``_below_1``)."""
    p, k = _options_below(board, first_p, pt, kn, work, opts)
    if k < 0:
        return sc
    best = -math.inf
    for j in range(k):
        for w in range(board.shape[0]):
            child[w] = board[w]
        _place(opts[j], child, pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.tag, True)
        v = _child(board, opts[j], child, sc, p, pt, opt_weight, kn, bt, work, tally)
        if v > -math.inf:
            v = _below_1(child, v, p, pt, opt_weight, kn, bt, work, tally, child2, opts2)
        best = max(best, v)
    return best


@njit(cache=True)
def _expand(board, first, site, n_states, pt, opt_hash, opt_weight, score, hsh, kn, bt, out, work, look, tally):
    """The live children of every state at its site, scored; returns their number.

    A child's checks and score are ``_child``'s.  With ``look`` 1 or 2 (Selby's lookahead) a live
    child is scored by its best descendant that many placements on, and is dead when it has none."""
    stamp, stack, scratch, opts, near, child, below = work
    small = (stamp, stack, scratch, near)
    out_parent, out_opt, out_score, out_hash = out
    top, deep = tally[0:1], tally[1:2]  # the tables' rejections among the children, and further below
    m = 0
    for i in range(n_states):
        s = site[i]
        if s < 0:
            continue
        c = board[i]
        k = _count(s, MANY, c, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask, pt.ow_ptr,
                   pt.ow_idx, pt.ow_mask, opts)
        for j in range(k):
            o = opts[j]
            for w in range(c.shape[0]):
                child[w] = c[w]
            _place(o, child, pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.tag, True)
            sc = _child(c, o, child, score[i], first[i], pt, opt_weight, kn, bt, small, top)
            if sc > -math.inf and look == 1:
                sc = _below_1(child, sc, first[i], pt, opt_weight, kn, bt, small, deep, below[0], below[2])
            elif sc > -math.inf and look >= 2:
                sc = _below_2(child, sc, first[i], pt, opt_weight, kn, bt, small, deep, below[0], below[2], below[1],
                              below[3])
            if sc > -math.inf:
                out_parent[m] = i
                out_opt[m] = o
                out_score[m] = sc
                out_hash[m] = hsh[i] ^ opt_hash[o]
                m += 1
    return m


@njit(cache=True)
def _alive(board, first, n_states, pt, scratch, out):
    """out[i]: every free site of state i still has a fitting option (the ``every_site`` check).
    A site far from the last pieces can lose its last option to a piece used elsewhere; the touch
    and lookahead checks do not see it, and the state is dead long before the beam reaches it."""
    scan, sg_ptr, s_near, c_info, g_ptr = pt.scan, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr
    g_tag, e_opt, e_lmask, ow_ptr, ow_idx = pt.g_tag, pt.e_opt, pt.e_lmask, pt.ow_ptr, pt.ow_idx
    ow_mask = pt.ow_mask
    for i in range(n_states):
        ok = True
        for p in range(first[i], scan.shape[0]):
            s = scan[p]
            if _bit(board[i], s):
                continue
            if (
                _count(s, 1, board[i], sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
                       scratch)
                == 0
            ):
                ok = False
                break
        out[i] = ok


@njit(cache=True)
def _children(board, first, par, opt, scan, ow_ptr, ow_idx, ow_mask, tag, out_board, out_first):
    """The kept children's boards, and the scan position of each one's first free site."""
    n_scan = scan.shape[0]
    for j in range(par.shape[0]):
        row = out_board[j]
        src = board[par[j]]
        for w in range(row.shape[0]):
            row[w] = src[w]
        _place(opt[j], row, ow_ptr, ow_idx, ow_mask, tag, True)
        p = first[par[j]]
        while p < n_scan and _bit(row, scan[p]):
            p += 1
        out_first[j] = p
