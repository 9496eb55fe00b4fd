"""The shape of a polyform state's free region, as numbers a score can weigh: Selby's "nice boundary".

Selby and Riordan scored a state by its pieces' tilability and by its region's shape [Selby2001]; a
region that is fragmented, spiky, or has sites that few placements still cover is worse than a
convex one of the same area.  The beam's own score sees one shape term (the outline's length);
these are the rest, read from the poly engine's item bitset of a state (``baseline.poly.tables``):

- ``outline``: free-cell sides facing a covered cell or the board's edge;
- ``tight_2``, ``tight_3``: free cells with two or three such sides (spikes and slots, where a
  piece must fit a narrow opening);
- ``sites_0`` .. ``sites_8``: free cells with no fitting placement (a dead state), one, two, three
  or four, five to eight (the sites that take few pieces);
- ``log_options``: the mean over free cells of log(1 + fitting placements, at most ``CAP``);
- ``components``: the free region's connected parts.

Counting a site's placements is the engine's own count (``engine._count``), so the features agree
with what the search will meet.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from baseline.poly.engine import _bit, _count
from baseline.poly.tables import PolyTables

FEATURES = (
    "outline",
    "tight_2",
    "tight_3",
    "sites_0",
    "sites_1",
    "sites_2",
    "sites_3_4",
    "sites_5_8",
    "log_options",
    "components",
)
CAP = 32  # placements counted at a site, at most: beyond it a site is simply easy


@njit(cache=True)
def _features(boards, n_sites, nbr, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
              cap, scratch, stamp, stack, out):  # fmt: skip
    deg = nbr.shape[1]
    for i in range(boards.shape[0]):
        b = boards[i]
        outline = 0
        t2 = 0
        t3 = 0
        hist = np.zeros(5, np.int64)
        z = 0
        logsum = 0.0
        free = 0
        for s in range(n_sites):
            if _bit(b, s):
                continue
            free += 1
            blocked = 0
            for d in range(deg):
                y = nbr[s, d]
                if y == -1 or (y >= 0 and _bit(b, y)):
                    blocked += 1
            outline += blocked
            if blocked == 2:
                t2 += 1
            elif blocked >= 3:
                t3 += 1
            k = _count(s, cap, b, sg_ptr, s_near, c_info, g_ptr, g_tag, e_opt, e_lmask, ow_ptr, ow_idx, ow_mask,
                       scratch)  # fmt: skip
            if k == 0:
                z += 1
            elif k == 1:
                hist[0] += 1
            elif k == 2:
                hist[1] += 1
            elif k <= 4:
                hist[2] += 1
            elif k <= 8:
                hist[3] += 1
            logsum += np.log(1.0 + k)
        # connected parts of the free region (a flood from each free cell not yet reached)
        for s in range(n_sites):
            stamp[s] = 0
        parts = 0
        for s in range(n_sites):
            if _bit(b, s) or stamp[s]:
                continue
            parts += 1
            stamp[s] = 1
            stack[0] = s
            top = 1
            while top > 0:
                top -= 1
                u = stack[top]
                for d in range(deg):
                    v = nbr[u, d]
                    if v >= 0 and not _bit(b, v) and not stamp[v]:
                        stamp[v] = 1
                        stack[top] = v
                        top += 1
        out[i, 0] = outline
        out[i, 1] = t2
        out[i, 2] = t3
        out[i, 3] = z
        out[i, 4] = hist[0]
        out[i, 5] = hist[1]
        out[i, 6] = hist[2]
        out[i, 7] = hist[3]
        out[i, 8] = logsum / free if free else 0.0
        out[i, 9] = parts


def state_features(t: PolyTables, boards: np.ndarray, cap: int = CAP) -> np.ndarray:
    """One row of ``FEATURES`` for each state (its item bitset, a row of ``boards``)."""
    boards = np.ascontiguousarray(np.atleast_2d(boards), np.uint64)
    out = np.zeros((len(boards), len(FEATURES)))
    if t.nbr.shape[1] == 0:
        raise ValueError("shape features need a polyform puzzle's geometry (a grid)")
    scratch = np.zeros(max(1, t.max_col), np.int64)
    stamp = np.zeros(t.n_sites + 1, np.int64)
    stack = np.zeros(t.n_sites + 1, np.int64)
    _features(boards, t.n_sites, t.nbr, t.sg_ptr, t.s_near, t.c_info, t.g_ptr, t.g_tag, t.e_opt, t.e_lmask,
              t.ow_ptr, t.ow_idx, t.ow_mask, cap, scratch, stamp, stack, out)  # fmt: skip
    return out
