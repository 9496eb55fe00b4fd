"""The `poly` exhaust engine: Selby's site search over bitsets, for large polyform problems.

Dancing links keeps every item's option count up to date, which is what makes
its "most constrained item" exact -- and on Eternity that bookkeeping is the
whole cost: a placement there has 37 items (36 kisrhombille cells and the
piece), and placing one piece removes thousands of options, each unlinked
from 37 columns, about a million link updates a node (the nodes a second on
Eternity's regions: docs/results/eternity1.md, "Engine speed").  This engine keeps no counts.  The board is a
bitset over the items; a site (a primary item the search branches on: a
cell) is chosen among the first ``sites`` free sites on the boundary of the
free area (a free site with a covered or outside neighbour), in a sweep
order, by counting the options that still fit there -- each count stops as
soon as it cannot beat the best so far, and a site with one option stops the
choice.  A site's options are grouped by their *class* (which of the
site's neighbours they cover), so a class that covers a covered neighbour
is skipped with one AND, and then by their piece (the option's first
non-site item, its *tag*), so a used piece is skipped with one bit test;
an option fits when its few (word, mask) pairs miss the board.

Items are renumbered so that each option touches few 64-bit words: sites
first, in Z-order of their centroids when the grid is known.  The tree is
not Algorithm C's (the site choice differs), so node counts differ from
``dlx``; solution counts, of course, do not (tests check them on random
puzzles).  Per-piece use counts are kept natively: ``uses[item]`` counts the
solutions whose options carry that tag item, so a tilability exhaust needs
no list of its tilings.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from baseline.runtime.kernel import BUDGET, COUNT, DEEPEST, DONE, FINISHED, LEAF, LEVEL, MANY, PHASE, SOLUTION, pause

DEFAULT_RECON_SITES = 4  # reconnoitre: the boundary sites with the fewest options it looks below
DEFAULT_SITES = 0  # 0: every boundary site is counted (measured in benchmarks/bench_poly.py: robust)


class PolyWork(NamedTuple):
    """The work arrays of one search (``PolySearch`` owns them; ``run`` advances them): the board and,
    per level, where the scan stands, the options tried and the site counts' buffers."""

    board: np.ndarray  # the covered items, as a bitset
    first: np.ndarray  # [level] the first free site in scan order
    base: np.ndarray  # [level] the level's options start in cbuf
    cnt: np.ndarray  # [level] how many
    pos: np.ndarray  # [level] the next one to try
    chosen: np.ndarray  # [level] the option placed
    cbuf: np.ndarray  # the options of every level, end to end
    scratch: np.ndarray  # a site's options while it is counted
    best_buf: np.ndarray  # the best site's options
    uses: np.ndarray  # [piece] times placed
    wit: np.ndarray  # [site, j] witnesses: options a count of the site found
    later: np.ndarray  # sites whose witnesses still fit, counted last
    deep: np.ndarray  # the deepest path so far
    stamp: np.ndarray  # the pocket check's visit stamps
    stack: np.ndarray  # and its stack
    r_site: np.ndarray  # reconnoitre: the boundary sites of a node
    r_cnt: np.ndarray  # and their option counts
    r_buf: np.ndarray  # [3, max options] a candidate's options, a child's and a grandchild's


@njit(cache=True)
def seed_rng(seed):
    """Seed numba's random generator (the kernels' random tie-breaks), which Python's seed does not reach."""
    np.random.seed(seed)


@njit(cache=True, inline="always")
def _fits(o, board, ow_ptr, ow_idx, ow_mask):
    for q in range(ow_ptr[o], ow_ptr[o + 1]):
        if board[ow_idx[q]] & ow_mask[q]:
            return False
    return True


@njit(cache=True, inline="always")
def _bit(board, i):
    return (board[i >> 6] >> np.uint64(i & 63)) & np.uint64(1)


@njit(cache=True, inline="always")
def _covered(board, prim):
    """Every primary item covered (``prim``: their bits)."""
    for w in range(prim.shape[0]):
        if board[w] & prim[w] != prim[w]:
            return False
    return True


@njit(cache=True)
def _count(s, cap, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask, out):
    """The options that fit at site s, written to out; stops once cap are found.  A class of
    options that covers a covered cell near s (``s_near``) is skipped whole."""
    n = 0
    local = board[s >> 6]
    blocked = 0
    for d in range(s_near.shape[1]):
        y = s_near[s, d]
        if y >= 0 and _bit(board, y):
            blocked |= 1 << d
    for j in range(sg_ptr[s], sg_ptr[s + 1]):
        if c_info[j, 0] & blocked:
            continue
        for g in range(c_info[j, 1], c_info[j + 1, 1]):
            t = g_tag[g]
            if t >= 0 and _bit(board, t):
                continue
            for e in range(g_ptr[g], g_ptr[g + 1]):
                if local & e_lmask[e]:
                    continue
                o = e_opt[e]
                if _fits(o, board, ow_ptr, ow_idx, ow_mask):
                    out[n] = o
                    n += 1
                    if n >= cap:
                        return n
    return n


@njit(cache=True, inline="always")
def _on_boundary(s, board, nbr):
    """A boundary site: a neighbour covered or outside (any site, on a grid without neighbours)."""
    if nbr.shape[1] == 0:
        return True
    for d in range(nbr.shape[1]):
        y = nbr[s, d]
        if y == -1 or (y >= 0 and _bit(board, y)):
            return True
    return False


@njit(cache=True, inline="always")
def _witnessed(s, board, wit, tag, ow_ptr, ow_idx, ow_mask):
    """How many of the options that fitted at s when it was last counted still fit, up to the
    first that does not (the caller asks only whether all of them do)."""
    ok = 0
    for j in range(wit.shape[1]):
        o = wit[s, j]
        if o < 0 or (tag[o] >= 0 and _bit(board, tag[o])) or not _fits(o, board, ow_ptr, ow_idx, ow_mask):
            return ok
        ok += 1
    return ok


@njit(cache=True, inline="always")
def _consider(s, best, best_n, board, pt, wit, randomize, scratch, best_buf):
    """Count site s against the best so far (its options to best_buf when it wins, its first
    ones kept as witnesses); returns the new (best, best_n)."""
    sg_ptr, s_near, c_info, g_ptr, g_tag = pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag
    e_opt, e_lmask, ow_ptr, ow_idx, ow_mask = pt.e_opt, pt.e_lmask, pt.ow_ptr, pt.ow_idx, pt.ow_mask
    # a tie counts only when its count is complete: randomised runs count one further
    cap = best_n + 1 if randomize and best_n < MANY else best_n
    k = _count(s, cap, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask, scratch)
    for j in range(wit.shape[1]):
        wit[s, j] = scratch[j] if j < k else -1
    if k < best_n or (randomize and k == best_n and k < cap and np.random.random() < 0.5):
        for r in range(k):
            best_buf[r] = scratch[r]
        return s, k
    return best, best_n


@njit(cache=True)
def _choose(p, board, pt, wit, later, n_sites_look, randomize, scratch, best_buf):
    """The site to branch on: the fewest fitting options among the boundary sites from scan
    position p (the first free one), at most ``n_sites_look`` of them counted (0: all).  Its
    options go to best_buf; returns their number, or -1 when every site is covered.

    ``wit[s]`` keeps options a count of s found (witnesses).  Sites whose witnesses all still fit
    have at least that many options; they are counted last, and not at all once the best is
    that small -- so a node counts the sites its placement touched, not the whole boundary.  It
    is always right: witnesses are tested on the board as it is."""
    scan, nbr, sg_ptr, s_near, c_info = pt.scan, pt.nbr, pt.sg_ptr, pt.s_near, pt.c_info
    g_ptr, g_tag, e_opt, e_lmask, ow_ptr = pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask, pt.ow_ptr
    ow_idx, ow_mask, tag = pt.ow_idx, pt.ow_mask, pt.tag
    W = wit.shape[1]
    n_scan = scan.shape[0]
    if p >= n_scan:
        return -1
    best, best_n, seen, n_later = -1, MANY, 0, 0
    q = p
    done = False
    while q < n_scan and not done:
        s = scan[q]
        q += 1
        if _bit(board, s):
            continue
        if not _on_boundary(s, board, nbr):
            continue
        if _witnessed(s, board, wit, tag, ow_ptr, ow_idx, ow_mask) >= W:
            later[n_later] = s
            n_later += 1
            continue
        best, best_n = _consider(s, best, best_n, board, pt, wit, randomize, scratch, best_buf)
        seen += 1
        done = best_n <= 1 or seen == n_sites_look
    for i in range(n_later):
        if done or (best_n + 1 if randomize and best_n < MANY else best_n) <= W:
            break  # each of these has W options or more: none can win
        best, best_n = _consider(later[i], best, best_n, board, pt, wit, randomize, scratch, best_buf)
        seen += 1
        done = best_n <= 1 or seen == n_sites_look
    if best < 0:  # free sites, none on the boundary: the first one
        best_n = _count(scan[p], MANY, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx,
                        ow_mask, best_buf)
    return best_n


@njit(cache=True)
def _leaves(p, board, pt, wit, later, scratch, out, area, stamp, stack):
    """The options of the engine's own choice of site on the board as it is (``_choose``): how many
    ways the search would branch there; a covered board counts 1 when it is a solution, else 0."""
    scan = pt.scan
    while p < scan.shape[0] and _bit(board, scan[p]):  # the first free site of this board
        p += 1
    n = _choose(p, board, pt, wit, later, 0, False, scratch, out)
    if n < 0:
        return 1 if _covered(board, pt.prim) else 0
    return n


@njit(cache=True)
def _below(opts, n, depth, cap, p, board, pt, wit, later, scratch, r_buf, area, stamp, stack):
    """Leaves of the tree ``depth`` levels below a site whose options are ``opts[:n]``: each option
    placed (one that cuts off a dead pocket counts nothing), then the engine's own site chosen
    ``depth`` times; stops once ``cap`` is reached (the best site so far has fewer)."""
    ow_ptr, ow_idx, ow_mask, tag, os_ptr, os_idx, nbr = pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.tag, pt.os_ptr, pt.os_idx, pt.nbr
    total = 0
    for i in range(n):
        o = opts[i]
        _place(o, board, ow_ptr, ow_idx, ow_mask, tag, True)
        if not (area > 0 and _pocket(o, board, os_ptr, os_idx, nbr, area, stamp, stack)):
            m = _leaves(p, board, pt, wit, later, scratch, r_buf[1], area, stamp, stack)
            if depth == 1 or m <= 0 or _covered(board, pt.prim):
                total += m
            else:
                for j in range(m):
                    o2 = r_buf[1, j]
                    _place(o2, board, ow_ptr, ow_idx, ow_mask, tag, True)
                    if not (area > 0 and _pocket(o2, board, os_ptr, os_idx, nbr, area, stamp, stack)):
                        total += _leaves(p, board, pt, wit, later, scratch, r_buf[2], area, stamp, stack)
                    _place(o2, board, ow_ptr, ow_idx, ow_mask, tag, False)
                    if total >= cap:
                        break
        _place(o, board, ow_ptr, ow_idx, ow_mask, tag, False)
        if total >= cap:
            break
    return total


@njit(cache=True)
def _reconnoitre(p, board, pt, wit, later, depth, n_cand, scratch, best_buf, r_site, r_cnt, r_buf, area, stamp,
                 stack):  # fmt: skip
    """Selby's reconnoitre: among the ``n_cand`` boundary sites with the fewest options, the one whose tree
    ``depth`` levels down (1 or 2, the engine's own sites below it) has the fewest leaves -- the factor by
    which branching there multiplies the search, measured instead of guessed from the site's own count.
    A site whose options all die within the depth makes the node dead (0 options).  Its options go to
    best_buf; returns their number, or -1 when every site is covered."""
    scan, nbr = pt.scan, pt.nbr
    n_scan = scan.shape[0]
    if p >= n_scan:
        return -1
    k = 0
    for q in range(p, n_scan):
        s = scan[q]
        if _bit(board, s):
            continue
        if not _on_boundary(s, board, nbr):
            continue
        c = _count(s, MANY, board, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask,
                   pt.ow_ptr, pt.ow_idx, pt.ow_mask, scratch)  # fmt: skip
        if c <= 1:  # dead or forced: nothing to reconnoitre
            for r in range(c):
                best_buf[r] = scratch[r]
            return c
        r_site[k] = s
        r_cnt[k] = c
        k += 1
    if k == 0:  # free sites, none on the boundary
        return _count(scan[p], MANY, board, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt,
                      pt.e_lmask, pt.ow_ptr, pt.ow_idx, pt.ow_mask, best_buf)  # fmt: skip
    order = np.argsort(r_cnt[:k], kind="mergesort")
    best, best_leaves = -1, MANY * MANY
    for i in range(min(n_cand, k)):
        s = r_site[order[i]]
        n = _count(s, MANY, board, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask,
                   pt.ow_ptr, pt.ow_idx, pt.ow_mask, r_buf[0])  # fmt: skip
        leaves = _below(r_buf[0], n, depth, best_leaves, p, board, pt, wit, later, scratch, r_buf, area, stamp, stack)
        if leaves < best_leaves:
            best, best_leaves = s, leaves
            if leaves == 0:
                return 0  # every option of this site dies within the depth: the node is dead
    return _count(best, MANY, board, pt.sg_ptr, pt.s_near, pt.c_info, pt.g_ptr, pt.g_tag, pt.e_opt, pt.e_lmask,
                  pt.ow_ptr, pt.ow_idx, pt.ow_mask, best_buf)  # fmt: skip


@njit(cache=True)
def _pocket(o, board, os_ptr, os_idx, nbr, area, stamp, stack):
    """True when placing o cut off a pocket of free sites whose size is not a multiple of the
    piece area (no set of pieces fills it).  Floods from the free neighbours of o's sites, each
    bounded at 3 piece areas; a flood that meets an earlier one of this check is the big
    component.  ``stamp[-1]`` is the tag counter (stamps only grow, so none is ever cleared)."""
    stamp[-1] += 1
    first_tag = stamp[-1]
    for r in range(os_ptr[o], os_ptr[o + 1]):
        x = os_idx[r]
        for d in range(nbr.shape[1]):
            y = nbr[x, d]
            if y < 0 or _bit(board, y) or stamp[y] >= first_tag:
                continue
            stamp[-1] += 1
            t = stamp[-1]
            stamp[y] = t
            stack[0] = y
            top, size, big = 1, 0, False
            while top > 0 and not big:
                top -= 1
                u = stack[top]
                size += 1
                if size > 3 * area:
                    big = True
                    break
                for e in range(nbr.shape[1]):
                    v = nbr[u, e]
                    if v >= 0 and not _bit(board, v):
                        if stamp[v] == t:
                            continue
                        if stamp[v] >= first_tag:
                            big = True
                            break
                        stamp[v] = t
                        stack[top] = v
                        top += 1
            if not big and size % area != 0:
                return True
    return False


@njit(cache=True)
def _place(o, board, ow_ptr, ow_idx, ow_mask, tag, on):
    for q in range(ow_ptr[o], ow_ptr[o + 1]):
        if on:
            board[ow_idx[q]] |= ow_mask[q]
        else:
            board[ow_idx[q]] &= ~ow_mask[q]
    t = tag[o]
    if t >= 0:
        b = np.uint64(1) << np.uint64(t & 63)
        if on:
            board[t >> 6] |= b
        else:
            board[t >> 6] &= ~b


@njit(cache=True)
def run(pt, n_sites_look, ws, area, st, prof, budget, stop_on_solution, split_depth, randomize, recon, recon_sites):
    """Advance the search by at most ``budget`` nodes (a resumable state machine, as ``dlx.run``).

    Phases: 2 enter a level (choose its site), 1 try the level's next
    option, 3 go back up one level.  ``recon`` > 0: each level's site is chosen by Selby's reconnoitre
    of that depth among the ``recon_sites`` boundary sites with the fewest options (``_reconnoitre``)."""
    board, first, base, cnt, pos, chosen, cbuf, scratch = ws.board, ws.first, ws.base, ws.cnt, ws.pos, ws.chosen, ws.cbuf, ws.scratch
    best_buf, uses, wit, later, deep, stamp, stack = ws.best_buf, ws.uses, ws.wit, ws.later, ws.deep, ws.stamp, ws.stack
    r_site, r_cnt, r_buf = ws.r_site, ws.r_cnt, ws.r_buf
    scan, nbr, ow_ptr, ow_idx, ow_mask, tag, prim = pt.scan, pt.nbr, pt.ow_ptr, pt.ow_idx, pt.ow_mask, pt.tag, pt.prim
    os_ptr, os_idx = pt.os_ptr, pt.os_idx
    level = st[LEVEL]
    phase = st[PHASE]
    spent = 0
    n_scan = scan.shape[0]
    while True:
        if phase == FINISHED:
            return DONE
        if phase == 2:
            if split_depth >= 0 and level == split_depth:
                pause(st, level, 3, spent)
                return LEAF
            # the first free site in scan order (it only moves forward as the board fills)
            p = first[level - 1] if level > 0 else 0
            while p < n_scan and _bit(board, scan[p]):
                p += 1
            first[level] = p
            if recon > 0:
                best_n = _reconnoitre(p, board, pt, wit, later, recon, recon_sites, scratch, best_buf, r_site, r_cnt,
                                      r_buf, area, stamp, stack)  # fmt: skip
            else:
                best_n = _choose(p, board, pt, wit, later, n_sites_look, randomize, scratch, best_buf)
            if best_n < 0:  # every site covered: a solution when every primary item is
                if _covered(board, prim):
                    st[COUNT] += 1
                    for lv in range(level):
                        t = tag[chosen[lv]]
                        if t >= 0:
                            uses[t] += 1
                    if stop_on_solution:
                        pause(st, level, 3, spent)
                        return SOLUTION
                phase = 3
                continue
            if best_n == 0:
                phase = 3
                continue
            b0 = base[level]
            if randomize:
                for r in range(best_n - 1, 0, -1):
                    j = np.random.randint(0, r + 1)
                    best_buf[r], best_buf[j] = best_buf[j], best_buf[r]
            for r in range(best_n):
                cbuf[b0 + r] = best_buf[r]
            cnt[level] = best_n
            pos[level] = 0
            base[level + 1] = b0 + best_n
            phase = 1
        if phase == 1:
            if pos[level] < cnt[level]:
                if spent >= budget:
                    pause(st, level, 1, spent)
                    return BUDGET
                o = cbuf[base[level] + pos[level]]
                pos[level] += 1
                _place(o, board, ow_ptr, ow_idx, ow_mask, tag, True)
                chosen[level] = o
                spent += 1
                prof[level] += 1
                if area > 0 and _pocket(o, board, os_ptr, os_idx, nbr, area, stamp, stack):
                    _place(o, board, ow_ptr, ow_idx, ow_mask, tag, False)  # a dead pocket: next option
                    continue
                level += 1
                if level > st[DEEPEST]:  # the deepest partial tiling so far, for pictures of long runs
                    st[DEEPEST] = level
                    for r in range(level):
                        deep[r] = chosen[r]
                phase = 2
            else:
                phase = 3
        if phase == 3:
            if level == 0:
                pause(st, 0, FINISHED, spent)
                return DONE
            level -= 1
            _place(chosen[level], board, ow_ptr, ow_idx, ow_mask, tag, False)
            phase = 1
