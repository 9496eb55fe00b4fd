"""A search kernel generated for each board: the row scan (or any static order) written out depth by
depth, its candidates found by bit masks (``generated_tables``), compiled by numba and kept on disk
(``generated_cache``).

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

What is counted: a placement made (a piece put on a cell that fits its placed neighbours), as the
table kernel and riplatt's C++ solver count; candidates looked at and refused are not counted
(``docs/results/speed.md`` compares the two on the same tree).

The source depends on the order's depth structure, not on the pieces (a fixed cell's one candidate
is checked from arrays): written out by kind of depth (``unroll shape``), boards of every size share
a kernel; written out depth by depth (``unroll depth``), boards of a size and order do.  The order
takes fixed cells first, which changes the distances back to the neighbours of the depths after
them; by kind, only kinds that a quarter of the depths share are written out and the rest read their
key's places from arrays, so boards with clues at different cells share a handful of kernels instead
of compiling one each (1.3-3.5 s for a 10x10 board).

The source names the state slots, the phases and the return codes as ``baseline.runtime.kernel`` does
for the hand-written kernels (numba reads module-level integers as constants, so the names cost nothing).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import numpy as np

from baseline.edge.tables import EdgeTables

KERNEL_VERSION = 2  # bump when the generated source changes meaning: old cache files are ignored

# The project's modules a generated kernel imports (its cache key covers their source: generated_cache)
IMPORTED = ("baseline.edge.bits", "baseline.runtime.kernel")
# The names it takes from baseline.runtime.kernel: the state's slots, the phases, the return codes
NAMES = ("BUDGET", "COUNT", "DEEPEST", "DONE", "ENTER", "FINISHED", "LEVEL", "NODES", "PHASE", "RESUME", "SOLUTION")

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
    w(f'"""Generated by baseline/edge/generated_source.py (version {KERNEL_VERSION}): do not edit."""')
    w("from numba import njit")
    w("")
    w("from baseline.edge.bits import ctz, ld, popcount, put")
    w(f"from baseline.runtime.kernel import {', '.join(NAMES)}")
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
    w("    k = st[LEVEL]")
    w("    left = budget")
    w("    deep = st[DEEPEST]")
    w("    fresh = st[PHASE] == ENTER")
    w("    j = 0")
    w("    r = 0")
    w("    while True:")
    w("        if fresh:")
    w("            fresh = False")

    def complete(ind: str) -> None:  # the board is full: count it, take the last piece back
        w(f"{ind}st[COUNT] += 1")
        w(f"{ind}k -= 1")
        _unplace(w, s, ind)
        w(f"{ind}if stop:")
        _save(w, s, ind + "    ")
        w(f"{ind}    st[LEVEL] = k")
        w(f"{ind}    st[PHASE] = RESUME")
        w(f"{ind}    st[NODES] += budget - left")
        w(f"{ind}    st[DEEPEST] = deep")
        w(f"{ind}    return SOLUTION")
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
    w("                st[LEVEL] = k")
    w("                st[PHASE] = ENTER")
    w("                st[NODES] += budget")
    w("                st[DEEPEST] = deep")
    w("                return BUDGET")
    w("        else:")
    w("            k -= 1")
    w("            if k < 0:")
    _save(w, s, "                ")
    w("                st[LEVEL] = 0")
    w("                st[PHASE] = FINISHED")
    w("                st[NODES] += budget - left")
    w("                st[DEEPEST] = deep")
    w("                return DONE")
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
