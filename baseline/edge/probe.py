"""Knuth's estimate of the size of an edge-matching subtree: random descents from a prefix.

A descent from depth k counts the candidates c_k that fit and are left, goes down one of them at
random, and stops at a dead end or a full board; ``1 + c_k + c_k c_(k+1) + ...`` is an unbiased
estimate of the placements below the prefix (Knuth 1975).  The distributed search's cut
(``experiments/cluster/search.py``) sizes its parts with it: which parts to cut again, and how the work
spreads over many workers.  Same tables and tree as the table kernel (``kernels.run_static``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from baseline.edge.tables import EdgeTables
from puzzles.kinds.edge import EdgePlacement


@njit(cache=True)
def _descents(n, tb, avail, pl_val, start, probes, seed, buf):
    """The mean of ``probes`` descents' estimates from depth ``start`` (``pl_val[:start]`` placed)."""
    dep_base, dep_nk, dep_at, dep_shift, dep_mul = tb.dep_base, tb.dep_nk, tb.dep_at, tb.dep_shift, tb.dep_mul
    dep_fixed, tab_ptr, cand = tb.dep_fixed, tb.tab_ptr, tb.cand
    np.random.seed(seed)
    total = 0.0
    placed = np.zeros(n + 1, np.int64)
    for _ in range(probes):
        est = 1.0
        weight = 1.0
        k = start
        while k < n:
            f = dep_fixed[k]
            if f >= 0:
                i, e = f, f + 1
                for j in range(dep_nk[k]):
                    a = 4 * k + j
                    if (pl_val[dep_at[a]] >> dep_shift[a]) & 255 != (cand[f] >> ((dep_shift[a] + 16) & 31)) & 255:
                        e = f
            else:
                key = dep_base[k]
                for j in range(dep_nk[k]):
                    a = 4 * k + j
                    key += ((pl_val[dep_at[a]] >> dep_shift[a]) & 255) * dep_mul[a]
                i, e = tab_ptr[key], tab_ptr[key + 1]
            c = 0
            for x in range(i, e):
                if avail[cand[x] >> 32] > 0:
                    buf[c] = x
                    c += 1
            if c == 0:
                break
            weight *= c
            est += weight
            v = cand[buf[np.random.randint(c)]]
            avail[v >> 32] -= 1
            pl_val[k] = v
            placed[k] = 1
            k += 1
        for d in range(start, k):  # undo the descent
            if placed[d]:
                avail[pl_val[d] >> 32] += 1
                placed[d] = 0
        total += est
    return total / probes


class Prober:
    """Estimates of the subtrees under prefixes of the row scan of one puzzle (pieces told apart,
    as the cut tells them apart)."""

    def __init__(self, p, seed: int = 0):
        self.p = p
        self.t = EdgeTables(p, "rowscan")
        self.depth_of = {int(c): k for k, c in enumerate(self.t.order)}
        self.seed = seed
        self.buf = np.zeros(max(1, len(self.t.cand)), np.int64)

    def estimate(self, prefix: tuple[EdgePlacement, ...], probes: int) -> float:
        """Knuth's estimate of the placements under ``prefix`` (placements on the first free cells of
        the row scan), the prefix's own placements not counted."""
        t, n = self.t, self.p.n_cells
        avail = t.avail.copy()
        pl_val = np.zeros(n + 1, np.int64)
        start = 0
        for pl in sorted(prefix, key=lambda pl: self.depth_of[pl.cell]):
            k = self.depth_of[pl.cell]
            while start < k:  # fixed cells before the prefix cell: their one candidate
                pl_val[start] = t.cand[t.dep_fixed[start]]
                avail[pl_val[start] >> 32] -= 1
                start += 1
            hit = np.nonzero((t.s_piece == pl.piece) & (t.s_rot == pl.rotation))[0]
            v = int(t.cand[hit[0]])
            avail[v >> 32] -= 1
            pl_val[k] = v
            start = k + 1
        self.seed += 1
        return float(_descents(n, t.static_arrays(), avail, pl_val, start, probes, self.seed, self.buf)) - 1.0
