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

import numpy as np
from numba import njit

from baseline.runtime.kernel import BUDGET, COUNT, DEEPEST, DONE, FINISHED, LEAF, LEVEL, MANY, PHASE, SOLUTION, pause
from puzzles.errors import UsageError
from puzzles.xcc import XCC

NEAR = 3  # the cells around a site whose cover classes its options (3: the neighbours on drafter grids)
DEFAULT_SITES = 0  # 0: every boundary site is counted (measured in benchmarks/bench_poly.py: robust)


def _zorder(xy: np.ndarray) -> np.ndarray:
    """Morton keys of points (a 2-d array of floats): nearby points get nearby keys."""
    q = np.round((xy - xy.min(axis=0)) * 2).astype(np.int64)
    key = np.zeros(len(xy), np.int64)
    for b in range(20):
        key |= ((q[:, 0] >> b) & 1) << (2 * b)
        key |= ((q[:, 1] >> b) & 1) << (2 * b + 1)
    return key


def _cell_geometry(item_names: list[str], n_sites: int, grid_name: str):
    """Centroids and neighbour lists of the site items of a polyform XCC (items named c<i>.<j>...)."""
    from puzzles.grids import get_grid

    grid = get_grid(grid_name)
    cells = [tuple(int(v) for v in n[1:].split(".")) for n in item_names[:n_sites]]
    index = {c: i for i, c in enumerate(cells)}
    deg = max(len(grid.neighbours(c)) for c in cells)
    nbr = np.full((n_sites, deg), -2, np.int64)
    for i, c in enumerate(cells):
        for d, nb in enumerate(grid.neighbours(c)):
            nbr[i, d] = index.get(nb, -1)
    cen = np.array([grid.centroid(c) for c in cells], float)
    return cen, nbr


def _nearest(nbr: np.ndarray, k: int) -> np.ndarray:
    """Each site's k nearest other sites by steps on the neighbour graph (ties in neighbour
    order), -1 where fewer are reachable."""
    n = nbr.shape[0]
    out = np.full((n, k), -1, np.int64)
    if nbr.shape[1] == 0 or k == 0:
        return out[:, :0]
    for s in range(n):
        seen, ring, got = {s}, [s], []
        while ring and len(got) < k:
            nxt = []
            for u in ring:
                for y in nbr[u]:
                    y = int(y)
                    if y >= 0 and y not in seen:
                        seen.add(y)
                        nxt.append(y)
            got.extend(nxt)
            ring = nxt
        got = got[:k]
        out[s, :len(got)] = got
    return out


@njit(cache=True)
def _classes(os_ptr, os_idx, s_near, n_sites):
    """Each (option, site) entry's class: bit d set when the option covers ``s_near[site, d]``
    (entries in option order, each option's sites from ``os_ptr``)."""
    cls = np.zeros(os_idx.shape[0], np.int16)
    stamp = np.full(n_sites, -1, np.int64)
    for o in range(os_ptr.shape[0] - 1):
        for r in range(os_ptr[o], os_ptr[o + 1]):
            stamp[os_idx[r]] = o
        for r in range(os_ptr[o], os_ptr[o + 1]):
            c = 0
            for d in range(s_near.shape[1]):
                y = s_near[os_idx[r], d]
                if y >= 0 and stamp[y] == o:
                    c |= 1 << d
            cls[r] = c
    return cls


def build(xcc: XCC, grid: str | None = None, sweep: float = 90.0, near: int = NEAR):
    """The engine's flat arrays for ``xcc`` (uncoloured).

    Sites are the primary items named as cells when ``grid`` is given (the
    pieces are then tags), otherwise every primary item; ``near``: the cells
    around a site that class its options (0-15)."""
    if not 0 <= near <= 15:
        raise UsageError(f"engine poly: near must be 0-15 cells, not {near}")
    if xcc.opt_colors.any():
        raise UsageError("engine poly: coloured XCC problems are not supported")
    n_items, n_opt = xcc.n_items, xcc.n_options
    ptr = xcc.opt_ptr.astype(np.int64)
    items = xcc.opt_items.astype(np.int64)
    if grid is not None:
        n_sites = 0
        while n_sites < xcc.n_primary and xcc.item_names[n_sites].startswith("c"):
            n_sites += 1
        if n_sites == 0:
            grid = None
    if grid is None:
        n_sites = xcc.n_primary
        perm_sites = np.arange(n_sites)
        scan_rank = np.arange(n_sites)
        nbr = np.zeros((n_sites, 0), np.int64)
    else:
        cen, nbr = _cell_geometry(xcc.item_names, n_sites, grid)
        perm_sites = np.argsort(_zorder(cen), kind="stable")        # bit position -> site
        th = np.radians(sweep)  # 90: rows from the top, each left to right (as the beam sweeps)
        ux, uy = np.cos(th), np.sin(th)
        along = np.round(cen[:, 0] * ux + cen[:, 1] * uy, 6)
        across = np.round(cen[:, 0] * uy - cen[:, 1] * ux, 6)
        scan_rank = np.lexsort((across, -along))                    # scan position -> site
    # internal numbering: sites in locality order, then every other item in input order
    new = np.empty(n_items, np.int64)
    new[perm_sites] = np.arange(n_sites)
    new[n_sites:] = np.arange(n_sites, n_items)
    scan = new[scan_rank]
    nbr_new = np.where(nbr >= 0, new[np.maximum(nbr, 0)], nbr)
    inbr = np.full((n_sites, nbr.shape[1]), -2, np.int64)
    inbr[new[:n_sites]] = nbr_new
    owner = np.repeat(np.arange(n_opt), np.diff(ptr))
    it = new[items]
    is_site = it < n_sites
    # each option's tag: its first non-site item (the piece), or -1
    tag = np.full(n_opt, -1, np.int64)
    ns = np.nonzero(~is_site)[0]
    if len(ns):
        first = ns[np.unique(owner[ns], return_index=True)[1]]
        tag[owner[first]] = it[first]
    # (word, mask) pairs of each option, the tag left out
    keep = it != tag[owner]
    o_k, i_k = owner[keep], it[keep]
    n_words = (n_items + 63) >> 6
    key = o_k * n_words + (i_k >> 6)
    bits = np.left_shift(np.uint64(1), (i_k & 63).astype(np.uint64))
    order = np.argsort(key, kind="stable")
    key, bits = key[order], bits[order]
    new_key = np.ones(len(key), bool)
    new_key[1:] = key[1:] != key[:-1]
    start = np.nonzero(new_key)[0]
    ukey = key[start]
    ow_mask = np.bitwise_or.reduceat(bits, start) if len(start) else np.zeros(0, np.uint64)
    # each kept entry's (option, word) group: its mask in its own word, without a search
    group_of = np.empty(len(key), np.int64)
    group_of[order] = np.cumsum(new_key) - 1
    del key, bits, new_key
    ow_idx = (ukey % n_words).astype(np.int64)
    ow_ptr = np.concatenate([[0], np.cumsum(np.bincount(ukey // n_words, minlength=n_opt))]).astype(np.int64)
    # each site's options grouped by which of its ``near`` nearest cells they cover (their class),
    # then by tag: groups (site, class, tag).  At a boundary site some of those cells are
    # covered, and every class that covers one is skipped whole: a piece placed at a site
    # covers most of the cells around it, so few classes are left to scan.
    e_site, e_opt = it[is_site], owner[is_site]
    e_group = group_of[np.cumsum(keep)[is_site] - 1]  # sites are never tags: every site entry is kept
    del group_of
    e_tag = tag[e_opt]
    s_near = _nearest(inbr, near)
    os_ptr = np.concatenate([[0], np.cumsum(np.bincount(owner[is_site], minlength=n_opt))]).astype(np.int64)
    e_cls = _classes(os_ptr, e_site, s_near, n_sites)  # the entries are in option order here
    # (site, class, tag) order; the entries are in option order already, so a stable sort keeps it within
    order = np.argsort((e_site * (1 << s_near.shape[1]) + e_cls.astype(np.int64)) * (n_items + 1) + (e_tag + 1),
                       kind="stable")
    e_site, e_opt, e_tag, e_cls = e_site[order], e_opt[order], e_tag[order], e_cls[order]
    new_group = np.ones(len(e_site), bool)
    new_group[1:] = (e_site[1:] != e_site[:-1]) | (e_cls[1:] != e_cls[:-1]) | (e_tag[1:] != e_tag[:-1])
    g_start = np.nonzero(new_group)[0]
    g_ptr = np.append(g_start, len(e_site)).astype(np.int64)
    g_tag = e_tag[g_start]
    # the classes: c_info[j] = (its mask, its first group); c_info[j + 1, 1] ends its groups;
    # sg_ptr[s] .. sg_ptr[s + 1]: the classes of site s
    new_cls = new_group.copy()
    new_cls[1:] = (e_site[1:] != e_site[:-1]) | (e_cls[1:] != e_cls[:-1])
    c_start = np.nonzero(new_cls)[0]
    c_info = np.zeros((len(c_start) + 1, 2), np.int64)
    c_info[:-1, 0] = e_cls[c_start]
    c_info[:-1, 1] = np.cumsum(new_group)[c_start] - 1
    c_info[-1, 1] = len(g_start)
    sg_ptr = np.concatenate([[0], np.cumsum(np.bincount(e_site[c_start], minlength=n_sites))]).astype(np.int64)
    # each entry's option restricted to the word of its site: one AND rejects most options at a
    # boundary site, whose covered neighbours usually share its word
    e_lmask = ow_mask[e_group[order]] if len(e_opt) else np.zeros(0, np.uint64)
    # each option's sites (for the pocket check) and the piece area when every option has the same
    os_idx = it[is_site]
    per = np.diff(os_ptr)
    area = int(per[0]) if grid is not None and len(per) and (per == per[0]).all() else 0
    prim = np.zeros(n_words, np.uint64)
    pi = new[:xcc.n_primary]
    np.bitwise_or.at(prim, pi >> 6, np.left_shift(np.uint64(1), (pi & 63).astype(np.uint64)))
    col_len = np.diff(np.concatenate([[0], np.cumsum(np.bincount(e_site, minlength=n_sites))]))
    old_of = np.empty(n_items, np.int64)
    old_of[new] = np.arange(n_items)
    return {
        "n_sites": n_sites, "n_words": n_words, "scan": scan.astype(np.int64), "nbr": inbr,
        "ow_ptr": ow_ptr, "ow_idx": ow_idx, "ow_mask": ow_mask, "tag": tag,
        "sg_ptr": sg_ptr, "s_near": s_near, "c_info": c_info, "g_ptr": g_ptr, "g_tag": g_tag, "e_opt": e_opt.astype(np.int64), "e_lmask": e_lmask,
        "prim": prim, "os_ptr": os_ptr, "os_idx": os_idx.astype(np.int64), "area": area, "max_col": int(col_len.max()) if n_sites else 0, "old_of": old_of,
    }


@njit(cache=True)
def seed_rng(seed):
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
def _consider(s, best, best_n, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask, wit, randomize,
              scratch, best_buf):
    """Count site s against the best so far (its options to best_buf when it wins, its first
    ones kept as witnesses); returns the new (best, best_n)."""
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
def _choose(p, board, scan, nbr, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask, tag, wit,
            later, n_sites_look, randomize, scratch, best_buf):
    """The site to branch on: the fewest fitting options among the boundary sites from scan
    position p (the first free one), at most ``n_sites_look`` of them counted (0: all).  Its
    options go to best_buf; returns their number, or -1 when every site is covered.

    ``wit[s]`` keeps options a count of s found (witnesses).  Sites whose witnesses all still fit
    have at least that many options; they are counted last, and not at all once the best is
    that small -- so a node counts the sites its placement touched, not the whole boundary.  It
    is always right: witnesses are tested on the board as it is."""
    W = wit.shape[1]
    n_scan = scan.shape[0]
    if p >= n_scan:
        return -1
    deg = nbr.shape[1]
    best, best_n, seen, n_later = -1, MANY, 0, 0
    q = p
    done = False
    while q < n_scan and not done:
        s = scan[q]
        q += 1
        if _bit(board, s):
            continue
        if deg > 0:  # a boundary site: a neighbour covered or outside
            edge = False
            for d in range(deg):
                y = nbr[s, d]
                if y == -1 or (y >= 0 and _bit(board, y)):
                    edge = True
                    break
            if not edge:
                continue
        if _witnessed(s, board, wit, tag, ow_ptr, ow_idx, ow_mask) >= W:
            later[n_later] = s
            n_later += 1
            continue
        best, best_n = _consider(s, best, best_n, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr,
                                 ow_idx, ow_mask, wit, randomize, scratch, best_buf)
        seen += 1
        done = best_n <= 1 or seen == n_sites_look
    for i in range(n_later):
        if done or (best_n + 1 if randomize and best_n < MANY else best_n) <= W:
            break  # each of these has W options or more: none can win
        best, best_n = _consider(later[i], best, best_n, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt,
                                 e_lmask, ow_ptr, ow_idx, ow_mask, wit, randomize, scratch, best_buf)
        seen += 1
        done = best_n <= 1 or seen == n_sites_look
    if best < 0:  # free sites, none on the boundary: the first one
        best_n = _count(scan[p], MANY, board, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx,
                        ow_mask, best_buf)
    return best_n


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
def run(scan, nbr, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask, tag, prim, n_sites_look,
        board, first, base, cnt, pos, chosen, cbuf, scratch, best_buf, uses, wit, later, deep, os_ptr, os_idx, area, stamp, stack, st, prof,
        budget, stop_on_solution, split_depth, randomize):
    """Advance the search by at most ``budget`` nodes (a resumable state machine, as ``dlx.run``).

    Phases: 2 enter a level (choose its site), 1 try the level's next
    option, 3 go back up one level."""
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
            best_n = _choose(p, board, scan, nbr, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
                             tag, wit, later, n_sites_look, randomize, scratch, best_buf)
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
