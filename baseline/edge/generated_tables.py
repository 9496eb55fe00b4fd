"""The tables a generated search kernel reads: each key's candidates as bit-mask entries.

The kernel itself is written by ``generated_source`` and kept by ``generated_cache``; this module
only turns the edge tables (``tables.EdgeTables``) into the flat arrays it walks.

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
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from baseline.edge.tables import EdgeTables


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
