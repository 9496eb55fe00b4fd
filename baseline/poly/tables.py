"""The poly engine's tables, built once a puzzle: cell geometry, the nearest cells of each site, the
cover classes of the options, the z-order of the cells; the search (``engine.py``) reads them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from puzzles.errors import UsageError
from puzzles.xcc import XCC

DEFAULT_SWEEP = 90.0  # degrees: the boundary is scanned from the top rows down, each row left to right
NEAR = 3  # the cells around a site whose cover classes its options (3: the neighbours on drafter grids)


class PolyTables(NamedTuple):
    """The poly engine's tables of one puzzle (``build``), as every search and kernel over them reads
    them.  Items are renumbered so that the sites come first, in the order the boundary is scanned."""

    n_sites: int  # cells (sites) to cover: the first n_sites items
    n_words: int  # 64-bit words of a board bitset
    scan: np.ndarray  # [site] its rank in the scan order
    nbr: np.ndarray  # [site, j] its nearest cells, -1 padded
    ow_ptr: np.ndarray  # [option] its words' range in ow_idx / ow_mask
    ow_idx: np.ndarray  # the words an option covers
    ow_mask: np.ndarray  # and its bits in each
    tag: np.ndarray  # [option] the piece it places (its colour item)
    sg_ptr: np.ndarray  # [site] its range of cover classes in c_info
    s_near: np.ndarray  # [site, j] the near cells whose state classes its options
    c_info: np.ndarray  # [class] (near-cell pattern, first group)
    g_ptr: np.ndarray  # [group] its range of entries in e_opt / e_lmask
    g_tag: np.ndarray  # [group] the piece of its options
    e_opt: np.ndarray  # [entry] an option
    e_lmask: np.ndarray  # [entry] the option's bits in its site's word
    prim: np.ndarray  # the bitset of the primary items
    os_ptr: np.ndarray  # [option] its range of sites in os_idx
    os_idx: np.ndarray  # the sites an option covers (the pocket check)
    area: int  # the cells of every piece, when all pieces have the same (else 0)
    max_col: int  # the most options of any site
    old_of: np.ndarray  # [new item] its number in the XCC problem


def _zorder(xy: np.ndarray) -> np.ndarray:
    """Morton keys of points (a 2-d array of floats): nearby points get nearby keys."""
    q = np.round((xy - xy.min(axis=0)) * 2).astype(np.int64)
    key = np.zeros(len(xy), np.int64)
    for b in range(20):
        key |= ((q[:, 0] >> b) & 1) << (2 * b)
        key |= ((q[:, 1] >> b) & 1) << (2 * b + 1)
    return key


def cell_of(item_name: str) -> tuple[int, ...]:
    """The grid cell a polyform XCC's site item names (``PolyformPuzzle.cell_item``: c<i>.<j>...)."""
    return tuple(int(v) for v in item_name[1:].split("."))


def _cell_geometry(item_names: list[str], n_sites: int, grid_name: str):
    """Centroids and neighbour lists of the site items of a polyform XCC (items named c<i>.<j>...)."""
    from puzzles.kinds.grids import get_grid

    grid = get_grid(grid_name)
    cells = [cell_of(n) for n in item_names[:n_sites]]
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
        seen, ring, got = {s}, [s], list[int]()
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
        out[s, : len(got)] = got
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


def build(xcc: XCC, grid: str | None = None, sweep: float = DEFAULT_SWEEP, near: int = NEAR) -> PolyTables:
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
        perm_sites = np.argsort(_zorder(cen), kind="stable")  # bit position -> site
        th = np.radians(sweep)  # 90: rows from the top, each left to right (as the beam sweeps)
        ux, uy = np.cos(th), np.sin(th)
        along = np.round(cen[:, 0] * ux + cen[:, 1] * uy, 6)
        across = np.round(cen[:, 0] * uy - cen[:, 1] * ux, 6)
        scan_rank = np.lexsort((across, -along))  # scan position -> site
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
    order = np.argsort(
        (e_site * (1 << s_near.shape[1]) + e_cls.astype(np.int64)) * (n_items + 1) + (e_tag + 1), kind="stable"
    )
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
    pi = new[: xcc.n_primary]
    np.bitwise_or.at(prim, pi >> 6, np.left_shift(np.uint64(1), (pi & 63).astype(np.uint64)))
    col_len = np.diff(np.concatenate([[0], np.cumsum(np.bincount(e_site, minlength=n_sites))]))
    old_of = np.empty(n_items, np.int64)
    old_of[new] = np.arange(n_items)
    return PolyTables(
        n_sites,
        n_words,
        scan.astype(np.int64),
        inbr,
        ow_ptr,
        ow_idx,
        ow_mask,
        tag,
        sg_ptr,
        s_near,
        c_info,
        g_ptr,
        g_tag,
        e_opt.astype(np.int64),
        e_lmask,
        prim,
        os_ptr,
        os_idx.astype(np.int64),
        area,
        int(col_len.max()) if n_sites else 0,
        old_of,
    )
