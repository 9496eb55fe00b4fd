"""A search kernel generated for each board: the row scan (or any static order) written out depth by
depth, its candidates found by bit masks, compiled by numba and cached on disk.

Why generated
-------------
The table kernel (``kernels.run_static``) reads, at every depth, where the key's colours are
(``dep_at``, ``dep_shift``, ``dep_mul``) and then walks the key's candidate list, skipping the
pieces already placed.  Both cost: the first is a chain of loads before the key is known, the second
a branch per candidate that the processor cannot predict.  Here the code of each depth is written
out with its constants folded in (which earlier depths it reads, at which byte, with which
multiplier), and the candidates of a key are a bit mask of pieces: ``mask & available`` gives the
pieces that still fit, the lowest bit is the next one tried, and the popcount of the bits below it is
its place in the key's list.  No candidate is looked at that cannot be placed.

Entries
-------
A key's candidates become one or more *entries*, each a mask over one 64-piece word: the candidates
whose pieces lie in that word, at most one rotation of a piece an entry (a piece that fits a key in
two rotations has its second in another entry).  ``e_mask[j]``, ``e_word[j]``, ``e_base[j]`` (its
first candidate in ``g_cand``) and ``e_next[j]`` (the next entry of the same key, or -1).  The first
entry of a key is the key's own slot (``j = key``), so the lookup is the table kernel's key.  A fixed
cell's depth has an entry holding its one candidate, or the empty entry when the colours clash.

The state of a depth is its entry and the bits of it not tried yet (``ent``, ``rem``), the packed
candidate placed there (``pl_val``: the piece in the high 32 bits, colours in bytes 0..3, as
``run_static`` packs them) and its index in ``g_cand`` (``cur[k] - 1``; ``g_orig`` turns it into
the tables' candidate, so the solver reads a board as from ``run_static``).  A count, a first solution and
the placements are those of the table kernel; only the order in which the candidates of a key are
tried can differ (bits in piece order), so first mode may meet another solution first.

What is counted: a placement made (a piece put on a cell that fits its placed neighbours), as the
table kernel and riplatt's C++ solver count; candidates looked at and refused are not counted
(``docs/explanation/kernel.md``).

The source depends on the order's depth structure, not on the pieces (a fixed cell's one candidate
is checked from arrays): written out by kind of depth (``unroll shape``), boards of every size share
a kernel; written out depth by depth (``unroll depth``), boards of a size and order do.  The order
takes fixed cells first, which changes the distances back to the neighbours of the depths after
them; by kind, only kinds that a quarter of the depths share are written out and the rest read their
key's places from arrays, so boards with clues at different cells share a handful of kernels instead
of compiling one each (1.3-3.5 s for a 10x10 board).  Its hash names the file in the kernel cache
(``ETERNITY_KERNEL_DIR``, default ``~/.cache/eternity/kernels``); numba caches the compiled
machine code beside it, so a board's first run pays the compilation once and later runs (other
processes too) load it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import numpy as np

from baseline.edge.tables import EdgeTables

KERNEL_VERSION = 1  # bump when the generated source changes meaning: old cache files are ignored


class GenTables(NamedTuple):
    """The arrays a generated kernel reads (module docstring, "Entries")."""

    dep_base: np.ndarray  # [depth] the key slot of the depth's table (the table kernel's)
    dep_fixed: np.ndarray  # [depth] the entry of a fixed cell's candidate, or -1
    dep_shape: np.ndarray  # [depth] its shape's code (unroll shape; shape_of)
    dep_nk: np.ndarray  # the table kernel's key places, for depths of no written-out shape
    dep_at: np.ndarray
    dep_shift: np.ndarray
    dep_mul: np.ndarray
    e_mask: np.ndarray  # [entry] the pieces of the entry, bit (piece & 63) of word e_word
    e_word: np.ndarray  # [entry] which 64-piece word
    e_base: np.ndarray  # [entry] its first candidate in g_cand
    e_next: np.ndarray  # [entry] the next entry of the same key, or -1
    g_cand: np.ndarray  # [candidate] packed as the table kernel's cand
    g_orig: np.ndarray  # [candidate] its index in the tables' candidates
    par: np.ndarray  # the kernel's parameters (shape_of)


def avail_mask(avail: np.ndarray, words: int) -> np.ndarray:
    """The availability words: bit g & 63 of word g >> 6 set when piece (group) g has a copy left."""
    am = np.zeros(words, np.uint64)
    for g in np.nonzero(avail)[0]:
        am[g >> 6] |= np.uint64(1) << np.uint64(g & 63)
    return am.view(np.int64)


def _entries(key_of: np.ndarray, piece: np.ndarray, first: np.ndarray, slot0: int):
    """Entries of candidates grouped by key (``key_of``, ascending): per (key, rotation layer,
    word) one entry; ``first[key]`` the slot of a key's first entry (-1: take a new slot), new
    slots from ``slot0`` on.  Returns the candidates in entry order and, per entry: slot, mask,
    word, start, next slot."""
    m = len(key_of)
    order = np.lexsort((piece, key_of))
    ks, gs = key_of[order], piece[order]
    # the layer of a candidate: how many earlier candidates of its key show the same piece
    same = np.zeros(m, bool)
    same[1:] = (ks[1:] == ks[:-1]) & (gs[1:] == gs[:-1])
    run_start = np.maximum.accumulate(np.where(~same, np.arange(m), 0))
    layer_sorted = np.arange(m) - run_start
    layer = np.empty(m, np.int64)
    layer[order] = layer_sorted
    word = piece >> 6
    order = np.lexsort((piece, word, layer, key_of))  # entries: key, then layer, then word
    ks, ls, ws, gs = key_of[order], layer[order], word[order], piece[order]
    new = np.ones(m, bool)
    new[1:] = (ks[1:] != ks[:-1]) | (ls[1:] != ls[:-1]) | (ws[1:] != ws[:-1])
    starts = np.nonzero(new)[0]
    bits = (np.uint64(1) << (gs & 63).astype(np.uint64)).astype(np.uint64)
    mask = np.bitwise_or.reduceat(bits, starts).view(np.int64) if m else np.zeros(0, np.int64)
    ekey = ks[starts]
    head = np.ones(len(starts), bool)
    head[1:] = ekey[1:] != ekey[:-1]
    slot = np.empty(len(starts), np.int64)
    hk = first[ekey[head]]
    n_new = int((~head).sum() + (hk < 0).sum())
    fresh = np.arange(slot0, slot0 + n_new)
    take = np.where(hk < 0)[0]
    hk = hk.copy()
    hk[take] = fresh[: len(take)]
    slot[head] = hk
    slot[~head] = fresh[len(take) :]
    nxt = np.full(len(starts), -1, np.int64)
    nxt[:-1] = np.where(ekey[1:] == ekey[:-1], slot[1:], -1)
    return order, slot, mask, ws[starts], starts, nxt


def gen_tables(
    t: EdgeTables, dep_shape: np.ndarray, params: np.ndarray, perm: np.ndarray | None = None, lists: bool = False
) -> GenTables:
    """The entries of every key of the tables, and one entry per fixed depth (module docstring);
    ``perm``: piece (group) g is numbered ``perm[g]`` (a random value order).  ``lists``: the tables'
    own lists (``e_base`` is ``tab_ptr``, ``dep_fixed`` the fixed candidates, ``g_cand`` the tables'
    candidates: the kernel skips used pieces one by one)."""
    if lists:
        cand = t.cand if perm is None else (t.cand & 0xFFFFFFFF) | (perm.astype(np.int64)[t.cand >> 32] << 32)
        z = np.zeros(1, np.int64)
        return GenTables(t.dep_base.copy(), t.dep_fixed, dep_shape, t.dep_nk, t.dep_at, t.dep_shift, t.dep_mul,
                         z, z, t.tab_ptr, z, cand, np.arange(len(cand), dtype=np.int64), params)  # fmt: skip
    n = t.p.n_cells
    n_keys = len(t.tab_ptr) - 1
    n_tab = int(t.tab_ptr[-1])
    fixed_k = np.nonzero(t.dep_fixed[:n] >= 0)[0]
    # the tables' candidates by key, then each fixed depth's one candidate as a key of its own
    cand_idx = np.concatenate([np.arange(n_tab), t.dep_fixed[fixed_k]]).astype(np.int64)
    key_of = np.concatenate([np.repeat(np.arange(n_keys), np.diff(t.tab_ptr)), n_keys + 1 + np.arange(len(fixed_k))])
    cand = t.cand
    if perm is not None:
        cand = (cand & 0xFFFFFFFF) | (perm.astype(np.int64)[cand >> 32] << 32)
    piece = (cand[cand_idx] >> 32).astype(np.int64)
    first = np.concatenate([np.arange(n_keys), [-1] * (1 + len(fixed_k))]).astype(np.int64)  # slot n_keys: empty
    order, slot, mask, word, starts, nxt = _entries(key_of, piece, first, n_keys + 1)
    size = max(n_keys + 1, int(slot.max()) + 1 if len(slot) else 0)
    e_mask = np.zeros(size, np.int64)
    e_word = np.zeros(size, np.int64)
    e_base = np.zeros(size, np.int64)
    e_next = np.full(size, -1, np.int64)
    e_mask[slot], e_word[slot], e_base[slot], e_next[slot] = mask, word, starts, nxt
    g_orig = cand_idx[order]
    dep_fixed = np.full(n + 1, -1, np.int64)
    if len(fixed_k):
        ekey = key_of[order][starts]
        fixed_slot = {int(k): int(sl) for k, sl in zip(ekey, slot) if k > n_keys}
        dep_fixed[fixed_k] = [fixed_slot[n_keys + 1 + i] for i in range(len(fixed_k))]
    return GenTables(
        t.dep_base.copy(),
        dep_fixed,
        dep_shape,
        t.dep_nk,
        t.dep_at,
        t.dep_shift,
        t.dep_mul,
        e_mask,
        e_word,
        e_base,
        e_next,
        cand[g_orig] if len(g_orig) else np.zeros(0, np.int64),
        g_orig,
        params,
    )


MAX_SHAPES = 12  # kinds of depth written out (unroll shape); rarer ones read their key's places from arrays
SHARED_SHARE = 4  # unroll shape: a kind is written out when at least a quarter of the depths (and 2) have it
DEPTH_UNROLL = (64, 100)  # unroll auto: depth by depth for boards of this many cells (else by shape)
MIN_CELLS = 36  # kernel auto: the generated kernel for boards of this many cells or more (6x6 up)


class Shape(NamedTuple):
    """What the source of a kernel depends on: not the pieces (which cells are fixed only through the
    order's distances, ``shape_of``)."""

    words: int  # 64-piece words of the availability mask
    counted: bool  # some piece has several copies (merged identical pieces): keep counts
    profile: bool  # count placements per depth
    unroll: str  # "depth": the code of every depth written out; "shape": of every kind of depth
    lists: bool  # candidates as the tables' lists (boards of more than 64 pieces), not bit masks
    # unroll depth: per depth ((at, shift, mul), ...);  unroll shape: (distances, multipliers,
    # per kind ((distance slot, shift, multiplier slot or -1), ...))
    depths: tuple


def _terms(t: EdgeTables, k: int, relative: bool) -> tuple:
    n = t.p.n_cells
    return tuple(
        (
            (k - int(t.dep_at[4 * k + j])) if relative else int(t.dep_at[4 * k + j]),
            int(t.dep_shift[4 * k + j]),
            int(t.dep_mul[4 * k + j]),
        )  # fmt: skip
        for j in range(max(int(t.dep_nk[k]), 2))
        if int(t.dep_mul[4 * k + j]) != 0 and int(t.dep_at[4 * k + j]) < n
    )


def wanted(kernel: str, n_cells: int) -> bool:
    """Whether option ``kernel`` asks for the generated kernel on a board of ``n_cells`` cells:
    ``auto`` takes it from ``MIN_CELLS`` up.  Below, a search takes milliseconds, and a compilation
    (about 1.5 s the first time a shape is met) would be most of the run."""
    return kernel == "generated" or (kernel == "auto" and n_cells >= MIN_CELLS)


def pick_unroll(unroll: str, n_cells: int, restarts: bool = False) -> str:
    """``auto``: depth by depth where the compilation (about 1 s per 13 depths) pays for its speed
    (about 15% over the kinds' code), by kind of depth elsewhere: small boards take milliseconds
    and share one kernel, large ones would compile for minutes, and restarts run up to eight
    symmetries of the order, a kernel each."""
    if unroll != "auto":
        return unroll
    lo, hi = DEPTH_UNROLL
    return "depth" if lo <= n_cells <= hi and not restarts else "shape"


def shape_of(
    t: EdgeTables, profile: bool = False, unroll: str = "shape", candidates: str = "auto"
) -> tuple[Shape, np.ndarray, np.ndarray]:
    """The shape of a board's kernel, each depth's kind and the kernel's parameters.

    Unroll shape: the depths whose keys read the same relative depths, bytes and multipliers share
    code (kind -1: the complete board; ``MAX_SHAPES``: a depth whose key's places are read from
    arrays); the distances and multipliers are parameters (``params``: the distances, then the
    multipliers), so a row scan of any size has the same source.  Unroll depth: every depth's code
    with its own constants.  Fixed cells are looked up from arrays in both."""
    n = t.p.n_cells
    words = max(1, (len(t.avail) + 63) // 64)
    counted = bool(t.avail.max() > 1)
    lists = candidates == "lists" or (candidates == "auto" and words > 1)
    ids = np.full(n + 1, -1, np.int64)
    if unroll == "depth":
        depths = tuple(_terms(t, k, False) for k in range(n))
        return Shape(words, counted, profile, unroll, lists, depths), ids, np.zeros(1, np.int64)
    rel = [_terms(t, k, True) for k in range(n)]
    # Only kinds that many depths share are written out: a board with fixed cells (which the order
    # takes first) has a few depths with distances of their own, which would make a source, and a
    # compilation, per board; those read their key's places from arrays like any rare kind.
    freq = Counter(rel)
    least = max(2, n // SHARED_SHARE)
    chosen = sorted((kd for kd, c in freq.items() if c >= least), key=lambda kd: (-len(kd), kd))[:MAX_SHAPES]
    # the board's numbers are parameters, not constants, so that boards of every size share a kernel:
    # the distance back to a neighbour's depth (1 and the width, in a row scan) and the colour base
    offs = sorted({x for ts in chosen for x, _, _ in ts})
    muls = sorted({m for ts in chosen for _, _, m in ts} - {1})
    common = [tuple((offs.index(x), sh, muls.index(m) if m != 1 else -1) for x, sh, m in ts) for ts in chosen]
    sid = {kd: i for i, kd in enumerate(chosen)}  # the inner cells' kind first
    for k, ts in enumerate(rel):
        ids[k] = sid.get(ts, MAX_SHAPES)
    params = np.array(offs + muls + [0], np.int64)
    return Shape(words, counted, profile, unroll, lists, (len(offs), len(muls), tuple(common))), ids, params


def _lookup(w, terms: tuple, ind: str, at, mul) -> None:
    """Code: the entry ``j`` of the depth's key (``at(x)``: the pl_val index of a term, ``mul(m)``
    its multiplier)."""
    key = " + ".join(["ld(dep_base, k)"] + [f"((ld(pl_val, {at(x)}) >> {sh}) & 255){mul(m)}" for x, sh, m in terms])
    w(f"{ind}j = {key}")


def _fixed(w, ind: str) -> None:
    """Code: the entry of a fixed cell's one candidate (``f``), or -1 when it does not fit its placed
    neighbours."""
    w(f"{ind}j = f")
    _fixed_fits(w, ind, "ld(g_cand, ld(e_base, f))", "j = -1")


def _fixed_fits(w, ind: str, value: str, clash: str) -> None:
    """Code: the fixed candidate (``value``) against the colours its placed neighbours show; ``clash``
    runs where one differs."""
    w(f"{ind}v = {value}")
    w(f"{ind}for q in range(ld(dep_nk, k)):")
    w(f"{ind}    a = 4 * k + q")
    w(f"{ind}    sh = ld(dep_shift, a)")
    w(f"{ind}    if (ld(pl_val, ld(dep_at, a)) >> sh) & 255 != (v >> ((sh + 16) & 31)) & 255:")
    w(f"{ind}        {clash}")


def _key_from_arrays(w, ind: str) -> None:
    """Code: the entry of a depth whose key's places are read from the arrays (as run_static)."""
    w(f"{ind}j = ld(dep_base, k)")
    w(f"{ind}for q in range(ld(dep_nk, k)):")
    w(f"{ind}    a = 4 * k + q")
    w(f"{ind}    j += ((ld(pl_val, ld(dep_at, a)) >> ld(dep_shift, a)) & 255) * ld(dep_mul, a)")


def _depth_tree(w, s: Shape, lo: int, hi: int, ind: str, complete) -> None:
    """Code: a balanced tree of tests on k over depths lo..hi-1 (depth n: the complete board),
    each leaf a short chain (numba's SSA pass recurses along a long chain of tests)."""
    if hi - lo > 6:
        mid = (lo + hi) // 2
        w(f"{ind}if k < {mid}:")
        _depth_tree(w, s, lo, mid, ind + "    ", complete)
        w(f"{ind}else:")
        _depth_tree(w, s, mid, hi, ind + "    ", complete)
        return
    n = len(s.depths)
    for k in range(lo, hi):
        if k == n:
            w(f"{ind}else:" if k > lo else f"{ind}if True:")
            complete(ind + "    ")
            continue
        w(f"{ind}{'if' if k == lo else 'elif'} k == {k}:")
        _lookup(w, s.depths[k], ind + "    ", lambda x: x, lambda m: f" * {m}" if m != 1 else "")


def source(s: Shape) -> str:
    """The kernel's Python source for numba (module docstring).  Hot reads and writes go through
    ``ld``/``put`` (no negative-index wrap-around: every index is in range by construction)."""
    one = s.words == 1  # the availability word lives in a register
    word = "a0" if one else "ld(am, ld(e_word, j))"
    L: list[str] = []
    w = L.append
    w(f'"""Generated by baseline/edge/generated.py (version {KERNEL_VERSION}): do not edit."""')
    w("from numba import njit")
    w("")
    w("from baseline.edge.bits import ctz, ld, popcount, put")
    w("")
    w("")
    w("@njit(cache=True)")
    w("def kernel(tb, avail, am, ent, rem, cur, pl_val, st, prof, budget, stop):")
    w("    dep_base, dep_fixed, dep_shape, dep_nk, dep_at, dep_shift, dep_mul = tb[:7]")
    w("    e_mask, e_word, e_base, e_next, g_cand, g_orig, par = tb[7:]")
    if one:
        w("    a0 = am[0]")
    if s.unroll == "shape":
        n_offs, n_muls, _ = s.depths
        for i in range(n_offs):
            w(f"    o{i} = par[{i}]")
        for i in range(n_muls):
            w(f"    m{i} = par[{n_offs + i}]")
    w("    k = st[0]")
    w("    left = budget")
    w("    deep = st[4]")
    w("    fresh = st[1] == 0")
    w("    j = 0")
    w("    r = 0")
    w("    while True:")
    w("        if fresh:")
    w("            fresh = False")

    def complete(ind: str) -> None:  # the board is full: count it, take the last piece back
        w(f"{ind}st[3] += 1")
        w(f"{ind}k -= 1")
        _unplace(w, s, ind)
        w(f"{ind}if stop:")
        _save(w, s, ind + "    ")
        w(f"{ind}    st[0] = k")
        w(f"{ind}    st[1] = 1")
        w(f"{ind}    st[2] += budget - left")
        w(f"{ind}    st[4] = deep")
        w(f"{ind}    return 1")
        w(f"{ind}continue")

    w("            f = ld(dep_fixed, k)")
    w("            if f >= 0:")
    if s.lists:
        _fixed_list(w, "                ")
    else:
        _fixed(w, "                ")
    if s.unroll == "depth":
        w("            else:")
        _depth_tree(w, s, 0, len(s.depths) + 1, "                ", complete)
    else:
        _, _, shapes = s.depths
        w("            else:")
        w("                sid = ld(dep_shape, k)")
        for i, terms in enumerate(shapes):
            w(f"                {'if' if i == 0 else 'elif'} sid == {i}:")
            _lookup(w, terms, "                    ", lambda x: f"k - o{x}", lambda m: f" * m{m}" if m >= 0 else "")
        w(f"                {'elif' if shapes else 'if'} sid < 0:")
        complete("                    ")
        w("                else:")
        _key_from_arrays(w, "                    ")
    if s.lists:
        _scan_list(w, s)
        return "\n".join(L) + "\n"
    w("            if j < 0:")
    w("                r = 0")
    w("            else:")
    w(f"                r = ld(e_mask, j) & {word}")
    w("        else:")
    w("            j = ld(ent, k)")
    w("            r = ld(rem, k)")
    w("        while r == 0 and j >= 0:")
    w("            j = ld(e_next, j)")
    w("            if j >= 0:")
    w(f"                r = ld(e_mask, j) & {word}")
    w("        if r != 0:")
    w("            b = ctz(r)")
    w("            idx = ld(e_base, j) + popcount(ld(e_mask, j) & ((1 << b) - 1))")
    w("            put(ent, k, j)")
    w("            put(rem, k, r & (r - 1))")
    w("            put(cur, k, idx + 1)")
    w("            v = ld(g_cand, idx)")
    w("            put(pl_val, k, v)")
    w("            g = v >> 32")
    flip = "a0 ^= 1 << (g & 63)" if one else "put(am, g >> 6, ld(am, g >> 6) ^ (1 << (g & 63)))"
    if s.counted:
        w("            c = ld(avail, g) - 1")
        w("            put(avail, g, c)")
        w("            if c == 0:")
        w(f"                {flip}")
    else:
        w(f"            {flip}")
    _down_or_up(w, s)
    return "\n".join(L) + "\n"


def _fixed_list(w, ind: str) -> None:
    """Code, lists: the range of a fixed cell's one candidate ``f``, empty when it does not fit."""
    w(f"{ind}i = f")
    w(f"{ind}e = f + 1")
    _fixed_fits(w, ind, "ld(g_cand, f)", "e = f")


def _scan_list(w, s: Shape) -> None:
    """Code, lists: the key's range of candidates (``e_base`` holds the tables' ``tab_ptr``), the
    pieces already placed skipped one by one, as the table kernel does, with the key's constants
    folded in and no wrap-around."""
    w("            if f < 0:")
    w("                i = ld(e_base, j)")
    w("                e = ld(e_base, j + 1)")
    w("        else:")
    w("            i = ld(ent, k)")
    w("            e = ld(rem, k)")
    w("        while i < e and ld(avail, ld(g_cand, i) >> 32) == 0:")
    w("            i += 1")
    w("        if i < e:")
    w("            v = ld(g_cand, i)")
    w("            put(ent, k, i + 1)")
    w("            put(rem, k, e)")
    w("            put(cur, k, i + 1)")
    w("            put(pl_val, k, v)")
    w("            g = v >> 32")
    w("            put(avail, g, ld(avail, g) - 1)")
    _down_or_up(w, s)


def _down_or_up(w, s: Shape) -> None:
    """Code, both forms: after a placement at depth k, go down (pausing when the budget is spent);
    without one, go up and take the piece there back (done above the root)."""
    if s.profile:
        w("            put(prof, k, ld(prof, k) + 1)")
    w("            k += 1")
    w("            if k > deep:")
    w("                deep = k")
    w("            fresh = True")
    w("            left -= 1")
    w("            if left == 0:")
    _save(w, s, "                ")
    w("                st[0] = k")
    w("                st[1] = 0")
    w("                st[2] += budget")
    w("                st[4] = deep")
    w("                return 2")
    w("        else:")
    w("            k -= 1")
    w("            if k < 0:")
    _save(w, s, "                ")
    w("                st[0] = 0")
    w("                st[1] = 9")
    w("                st[2] += budget - left")
    w("                st[4] = deep")
    w("                return 0")
    _unplace(w, s, "            ")


def _unplace(w, s: Shape, ind: str) -> None:
    """Code: the piece at depth k goes back."""
    w(f"{ind}g = ld(pl_val, k) >> 32")
    if s.lists:
        w(f"{ind}put(avail, g, ld(avail, g) + 1)")
        return
    setbit = "a0 |= 1 << (g & 63)" if s.words == 1 else "put(am, g >> 6, ld(am, g >> 6) | (1 << (g & 63)))"
    if s.counted:
        w(f"{ind}c = ld(avail, g)")
        w(f"{ind}if c == 0:")
        w(f"{ind}    {setbit}")
        w(f"{ind}put(avail, g, c + 1)")
    else:
        w(f"{ind}{setbit}")


def _save(w, s: Shape, ind: str) -> None:
    if s.words == 1:
        w(f"{ind}am[0] = a0")


def cache_dir() -> Path:
    return Path(os.environ.get("ETERNITY_KERNEL_DIR") or Path.home() / ".cache" / "eternity" / "kernels")


_loaded: dict[str, object] = {}
_lock = threading.Lock()
_private: Path | None = None  # where kernels go when the cache cannot be written


def _write(d: Path, name: str, src: str) -> Path:
    """The kernel's source file in ``d``, written unless it is there already."""
    d.mkdir(parents=True, exist_ok=True)
    path = d / f"{name}.py"
    if not path.exists() or path.read_text() != src:
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")  # whole or absent, also with racing writers
        try:
            with os.fdopen(fd, "w") as f:
                f.write(src)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # as any file written here, not mkstemp's 0600
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    return path


class Compiled(NamedTuple):
    kernel: object
    name: str  # the module's name: kernel_<hash>
    seconds: float  # time spent loading or compiling it in this process (0 once loaded)


def compiled(s: Shape, warm) -> Compiled:
    """The kernel of a shape: imported from the cache (written first if new), compiled on its first
    call (``warm(kernel)`` makes that call, so its time is the build's, not the search's)."""
    src = source(s)
    digest = hashlib.sha256(src.encode()).hexdigest()[:20]
    name = f"kernel_{digest}"
    with _lock:
        if name in _loaded:
            return Compiled(_loaded[name], name, 0.0)
        t0 = time.perf_counter()
        try:
            path = _write(cache_dir(), name, src)
        except (OSError, RuntimeError):  # no cache to make or write (RuntimeError: no home directory): this
            # process's own, compiled again next time
            global _private
            if _private is None:
                _private = Path(tempfile.mkdtemp(prefix="eternity-kernels-"))
            path = _write(_private, name, src)
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        warm(module.kernel)
        _loaded[name] = module.kernel
        return Compiled(module.kernel, name, time.perf_counter() - t0)
