"""What `edge-backtrack` and `beam` share: candidate tables, the static order's lookups, slips.

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
    avail[p]               copies of piece p not yet placed (mrv and static kernels)

For a static order the depth-k cell's known sides are worked out once
(``EdgeTables.static_lookup``): ``dep_base[k]`` its table, ``dep_nk[k]`` how
many sides are known, ``dep_idx``/``dep_mul`` where their colours are and
their place in the key, ``dep_nb``/``dep_side`` the neighbour and side.
``s_piece``, ``s_rot``, ``s_col`` extend the candidates with the fixed
placements; ``cand`` packs a candidate into one int64 (``run_static``).
"""

from __future__ import annotations

import copy
from functools import cached_property
from typing import NamedTuple

import numpy as np
from numba import njit

from baseline.runtime.kernel import MANY
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.kinds.orders import search_order

MAX_TABLE_BYTES = 4 << 30  # the key slots of a board's candidate tables, before a clear refusal


def table_colours(p: EdgePuzzle) -> int:
    """The key base C of a board's tables: colours 0..max and one more."""
    return int(p.pieces.max()) + 2


def build_tables(p: EdgePuzzle, merge: bool = False, needed: set[int] | None = None):
    """Candidate tables for every (cell class, known mask) (module docstring), or only those in
    ``needed`` (``class * 16 + K``; the others' ``tab_base`` stays -1): a static order knows which it
    looks up, and a table of four known sides has C**4 keys.  ``merge``: one candidate per group of
    identical pieces (its lowest piece stands for the group).  Tables whose key slots would pass
    ``MAX_TABLE_BYTES`` are refused before anything is allocated."""
    n_col = table_colours(p)
    fixed_pieces = {f.piece for f in p.fixed}
    free = sorted(p.identical_groups()) if merge else [q for q in range(p.n_pieces) if q not in fixed_pieces]
    # all distinct placed arrangements of the free pieces
    arr = [(q, r, p.placed(q, r)) for q in free for r in p.distinct_rotations(q)]
    a_piece = np.array([a[0] for a in arr], np.int32)
    a_rot = np.array([a[1] for a in arr], np.int8)
    a_col = np.array([a[2] for a in arr], np.int64).reshape(-1, 4)
    tab_base = np.full(16 * 16, -1, np.int64)
    ptr_parts, piece_l, rot_l, col_l = [], [], [], []
    total_slots, n_cand = 0, 0
    classes = {tuple(p.outside_sides(c)) for c in range(p.n_cells)} if p.bordered else {(False,) * 4}
    slots = sum(
        n_col ** bin(K).count("1") + 1
        for out in classes
        for K in range(16)
        if not any(K >> s & 1 and out[s] for s in range(4))
        and (needed is None or sum(1 << s for s in range(4) if out[s]) * 16 + K in needed)
    )
    if 8 * slots > MAX_TABLE_BYTES:
        raise UsageError(
            f"the candidate tables of this board would take {8 * slots / 2**30:.3g} GiB ({n_col - 1} colours, "
            f"{'every cell with up to four known sides' if needed is None else 'the sides its order knows'}); "
            "more than the native search's tables can hold (cpsat and sat have no such tables)"
        )
    for out in sorted(classes):
        cls = sum(1 << s for s in range(4) if out[s])
        inner = [s for s in range(4) if not out[s]]
        if p.bordered:
            grey = a_col == 0
            ok = np.flatnonzero(np.all(grey == np.array(out, bool), axis=1))
        else:
            ok = np.arange(len(arr))
        for K in range(16):
            if any(K >> s & 1 and out[s] for s in range(4)) or (needed is not None and cls * 16 + K not in needed):
                continue
            sides = [s for s in inner if K >> s & 1]
            size = n_col ** len(sides)
            # numpy, not a Python loop over every key: at 60 colours a cell with four known sides has 61**4 keys
            keys = np.zeros(len(ok), np.int64)
            for j, s in enumerate(sides):
                keys += a_col[ok, s] * n_col**j
            by_key = ok[np.argsort(keys, kind="stable")]  # within a key, the arrangements' own order
            ptr = np.zeros(size + 1, np.int64)
            np.cumsum(np.bincount(keys, minlength=size), out=ptr[1:])
            piece_l.append(a_piece[by_key])
            rot_l.append(a_rot[by_key])
            col_l.append(a_col[by_key].ravel())
            ptr += n_cand
            n_cand += len(ok)
            tab_base[cls * 16 + K] = total_slots
            total_slots += size + 1
            ptr_parts.append(ptr)
    return (
        tab_base,
        np.concatenate(ptr_parts),
        np.concatenate(piece_l).astype(np.int32) if piece_l else np.zeros(0, np.int32),
        np.concatenate(rot_l).astype(np.int8) if rot_l else np.zeros(0, np.int8),
        np.concatenate(col_l).astype(np.int32) if col_l else np.zeros(0, np.int32),
        n_col,
    )


@njit(cache=True, inline="always")
def static_range(k, placed, nb, dep_nk, dep_side, dep_mul, dep_base, dep_fixed, tab_ptr, cand_col):
    """Candidate range at depth k of a static order.  ``placed[nb[4k + j]]``
    is the candidate on the j-th earlier neighbour (``nb`` names cells or
    depths, as the caller indexes ``placed``).  A fixed cell has exactly its
    one candidate, or none when it clashes with a placed neighbour."""
    f = dep_fixed[k]
    if f >= 0:
        for j in range(dep_nk[k]):
            if (
                cand_col[4 * placed[nb[4 * k + j]] + ((dep_side[4 * k + j] + 2) & 3)]
                != cand_col[4 * f + dep_side[4 * k + j]]
            ):
                return f, f
        return f, f + 1
    key = 0
    for j in range(dep_nk[k]):
        key += cand_col[4 * placed[nb[4 * k + j]] + ((dep_side[4 * k + j] + 2) & 3)] * dep_mul[4 * k + j]
    return tab_ptr[dep_base[k] + key], tab_ptr[dep_base[k] + key + 1]


def slip_allowance(spec: str, n: int) -> np.ndarray:
    """``allow[k]``: mismatches allowed once the piece at depth k is placed, from
    ``D1,D2,...`` (the i-th mismatch allowed from depth D_i, counted in pieces;
    empty: anywhere)."""
    try:
        slips = [int(x) for x in spec.split(",") if x.strip()] if spec else []
    except ValueError:
        raise UsageError(f"option slips: {spec!r} is not a list of depths like 192,192,200") from None
    if any(d < 1 or d > n for d in slips):
        raise UsageError(f"slips: every depth must lie in 1..{n}")
    if not slips:
        return np.full(n + 1, MANY, np.int64)
    sl = sorted(slips)
    return np.array([sum(1 for d in sl if d <= k + 1) for k in range(n + 1)], np.int64)


class StaticTables(NamedTuple):
    """What the static-order kernels (``run_static``, ``run_best``) read, per depth of the order."""

    dep_base: np.ndarray  # [depth] the candidate table's base for the depth's cell class
    dep_nk: np.ndarray  # [depth] neighbours already placed
    dep_at: np.ndarray  # [4 * depth + j] the depth of the j-th of them
    dep_shift: np.ndarray  # [4 * depth + j] the shift of its colour that faces the cell
    dep_mul: np.ndarray  # [4 * depth + j] the colour's multiplier in the key
    dep_fixed: np.ndarray  # [depth] the candidate of a fixed piece there, or -1
    dep_all: np.ndarray  # [depth] the table of every candidate of the class (mode best)
    tab_ptr: np.ndarray  # candidate ranges of each key
    cand: np.ndarray  # [candidate] packed: the piece (group) and the colours later depths read


class DynamicTables(NamedTuple):
    """What the most-constrained-cell kernel (``run``, order mrv) reads, per cell."""

    fixed_n: int
    fixed_piece: np.ndarray
    fixed_rot: np.ndarray
    fixed_cols: np.ndarray
    nbr: np.ndarray  # [4 * cell + side] the neighbour, or -1
    cls_of: np.ndarray  # [cell] its border class
    tab_base: np.ndarray  # [class * 16 + known sides] the table of a cell's key
    tab_ptr: np.ndarray
    cand_piece: np.ndarray
    cand_rot: np.ndarray
    cand_col: np.ndarray
    n_col: int


class EdgeTables:
    """The candidate tables of one puzzle and, for a static order, what each depth looks up.

    Built once; read by the ``edge-backtrack`` kernels and by the beam, which
    never touch each other's search state."""

    @cached_property
    def labelled(self) -> int:
        """Boards per board found (the counting convention): the orderings of the merged copies.  Asked
        only once a board is found: on a board of a million pieces the product of the groups'
        factorials has millions of digits and takes seconds."""
        return EdgePuzzle.orderings(self.copies)

    def __init__(self, p: EdgePuzzle, order: str, cells: list[int] | None = None, merge: bool = False):
        self.p = p
        self.order = np.asarray(search_order(p, order) if cells is None else cells, np.int64)
        self.dynamic = order == "mrv"
        # merged identical pieces: the candidates name a group's lowest piece, ``avail`` counts its
        # copies left (every kernel), and ``copies`` turns a board back into pieces
        # (a board with spare pieces may leave copies out, so their orderings are no constant factor)
        self.copies = p.identical_groups() if merge and p.n_pieces == p.n_cells else None
        self.avail = np.ones(p.n_pieces, np.int64)
        if self.copies is not None:
            for rep, group in self.copies.items():
                self.avail[group] = 0
                self.avail[rep] = len(group)
        self.nbr = p.neighbours().ravel()
        self.cls_of = p.rims()
        if not self.dynamic and table_colours(p) > 256:  # before any table is built
            raise UsageError(
                f"static orders take at most 255 colours, this puzzle has {table_colours(p) - 1} (edge-backtrack "
                "with option order=mrv takes more, as far as its tables fit in memory; cpsat and sat have no such bound)"
            )
        (self.tab_base, self.tab_ptr, self.cand_piece, self.cand_rot, self.cand_col, self.n_col) = build_tables(
            p, self.copies is not None, None if self.dynamic else self._needed()
        )
        self.fixed_n = len(p.fixed)
        self.fixed_piece = np.array([f.piece for f in p.fixed] + [0], np.int64)
        self.fixed_rot = np.array([f.rotation for f in p.fixed] + [0], np.int64)
        self.fixed_cols = np.array([c for f in p.fixed for c in p.placed(f.piece, f.rotation)] + [0] * 4, np.int64)
        self.dep_base, self.dep_nk, self.dep_idx, self.dep_mul = self.static_lookup()
        if not self.dynamic:
            self._init_static()

    def _needed(self) -> set[int]:
        """The tables a static order reads: at each depth, its cell's class with the sides placed before it,
        and every subset of them (the beam looks a site up on the sides filled so far, or with one left
        out)."""
        depth_of = np.empty(self.p.n_cells, np.int64)
        depth_of[self.order] = np.arange(len(self.order))
        out = set()
        for k, cell in enumerate(self.order):
            K = 0
            for s in range(4):
                nb = self.nbr[4 * cell + s]
                if nb >= 0 and depth_of[nb] < k:
                    K |= 1 << s
            sub = K
            while True:  # every subset of K
                out.add(int(self.cls_of[cell]) * 16 + sub)
                if sub == 0:
                    break
                sub = (sub - 1) & K
        return out

    def _init_static(self) -> None:
        p, n = self.p, self.p.n_cells
        f0 = len(self.cand_piece)  # fixed placements go after the table candidates
        self.s_piece = np.concatenate([self.cand_piece, np.array([f.piece for f in p.fixed], np.int32)])
        self.s_rot = np.concatenate([self.cand_rot, np.array([f.rotation for f in p.fixed], np.int8)])
        self.s_col = np.concatenate(
            [self.cand_col, np.array([c for f in p.fixed for c in p.placed(f.piece, f.rotation)], np.int32)]
        )
        self.dep_fixed = np.full(n + 1, -1, np.int64)
        self.dep_fixed[: len(p.fixed)] = np.arange(f0, f0 + len(p.fixed))
        self.dep_nb = np.zeros(4 * (n + 1), np.int64)
        self.dep_side = np.zeros(4 * (n + 1), np.int64)
        for k in range(n):
            for j in range(int(self.dep_nk[k])):
                slot = int(self.dep_idx[4 * k + j])  # 4 * neighbour + its side facing us
                self.dep_nb[4 * k + j] = slot // 4
                self.dep_side[4 * k + j] = (slot % 4 + 2) % 4
        # packed candidates and, per depth, where the key's colours are (module docstring of run_static)
        col = self.s_col.reshape(-1, 4).astype(np.int64)
        self.cand = (
            (self.s_piece.astype(np.int64) << 32) | col[:, 0] | (col[:, 1] << 8) | (col[:, 2] << 16) | (col[:, 3] << 24)
        )
        depth_of = np.zeros(n, np.int64)
        depth_of[self.order] = np.arange(n)
        self.dep_at = depth_of[self.dep_nb]
        for k in range(n):  # pad the keys to two entries: pl_val[n] stays 0
            for j in range(int(self.dep_nk[k]), 2):
                self.dep_at[4 * k + j] = n
                self.dep_mul[4 * k + j] = 0
        self.dep_shift = 8 * ((self.dep_side + 2) % 4)
        self.dep_all = np.array([self.tab_base[self.cls_of[c] * 16] for c in self.order] + [0], np.int64)

    def shuffled(self, rng: np.random.Generator) -> EdgeTables:
        """A copy whose candidates for every key come in a random order (randomised value order);
        the tables' arrays are shared, only the candidate arrays are new."""
        t = copy.copy(self)
        n_tab = len(self.cand_piece)
        # tab_ptr never decreases and its ranges cover the candidates: a candidate's key range is
        # the number of entries at or below its index; sort by range, then at random
        bucket = np.searchsorted(self.tab_ptr, np.arange(n_tab), side="right")
        perm = np.lexsort((rng.random(n_tab), bucket))
        t.cand_piece, t.cand_rot = self.cand_piece[perm], self.cand_rot[perm]
        t.cand_col = self.cand_col.reshape(-1, 4)[perm].reshape(-1)
        if not self.dynamic:
            full = np.concatenate([perm, np.arange(n_tab, len(self.s_piece))])
            t.s_piece, t.s_rot, t.cand = self.s_piece[full], self.s_rot[full], self.cand[full]
            t.s_col = self.s_col.reshape(-1, 4)[full].reshape(-1)
        return t

    def static_arrays(self) -> StaticTables:
        """The arrays of a static order, as its kernels take them."""
        return StaticTables(self.dep_base, self.dep_nk, self.dep_at, self.dep_shift, self.dep_mul, self.dep_fixed,
                            self.dep_all, self.tab_ptr, self.cand)  # fmt: skip

    def dynamic_arrays(self) -> DynamicTables:
        """The arrays of the most-constrained-cell order, as its kernel takes them."""
        return DynamicTables(self.fixed_n, self.fixed_piece, self.fixed_rot, self.fixed_cols, self.nbr, self.cls_of,
                             self.tab_base, self.tab_ptr, self.cand_piece, self.cand_rot, self.cand_col, self.n_col)  # fmt: skip

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
