"""Selby's boundary tables: which small patches of free cells round a boundary site some pieces can fill.

Selby's beam checked "the boundary against large lookup tables to make sure it was plausibly
tilable".  Here a table belongs to a kind of cell (the grid's cells up to translation: the 12
cells round a vertex of the drafter grid, the one cell of the square grid).  Its window is the
first ``n_win`` cells met by a breadth-first walk from the cell in the plane, in the grid's own
neighbour order; its core is the first ``n_core`` of them.  The table has one bit for each of the
2**n_win patterns of free window cells: set when some placements of the puzzle's pieces (any piece,
any number of times, turned and flipped as the puzzle allows), pairwise disjoint in the window and
each lying on free window cells, cover every free core cell.  Cells beyond the window count as
free, so the test only relaxes the real question: a state whose window pattern reads 0 at a free
site has no tiling (a sound rejection), and a state that passes may still be dead.

The tables are built once a piece set, by a subset recursion over the patterns in numba: pattern F
is fillable when its first free core cell has a placement mask inside F whose removal leaves a
fillable pattern (a smaller number, filled in before F).  The placements come from the pieces laid
on a patch of the plane round one vertex, wide enough that every placement meeting a core cell lies
inside it.  ``holds`` reads a table for one site of a state: the site's window cells, translated to
the site, are looked up in the state's bitset (a cell outside the region counts as covered).
"""

from __future__ import annotations

import time
from collections import deque
from typing import NamedTuple

import numpy as np
from numba import njit

from baseline.poly.engine import _bit
from puzzles.errors import UsageError

MAX_WINDOW = 24  # cells of a window: 2**24 bits, 2 MB a kind of cell
DEFAULT_WINDOW = 16
DEFAULT_CORE = 4  # the site and its three neighbours on the drafter grid


class BoundaryTables(NamedTuple):
    """The tables of one puzzle's pieces on its region, read by the beam's kernels."""

    win: np.ndarray  # [site, w] the site's w-th window cell as a site, -1 when outside the region
    tid: np.ndarray  # [site] its table (its kind of cell)
    tab: np.ndarray  # [table, 2**n_win / 64] the fillable patterns' bits
    inv_ptr: np.ndarray  # [site] its range in inv_idx
    inv_idx: np.ndarray  # the sites whose windows hold it (the windows a placement there changes)
    n_core: int
    build_s: float
    masks: int  # distinct placement masks over all tables (their size drives the build)

    @property
    def nbytes(self) -> int:
        """The memory the tables hold, in bytes."""
        return int(self.win.nbytes + self.tid.nbytes + self.tab.nbytes + self.inv_ptr.nbytes + self.inv_idx.nbytes)

    def share_fillable(self) -> float:
        """The share of patterns of the tables marked fillable."""
        bits = np.unpackbits(self.tab.view(np.uint8)).sum()
        return float(bits) / (self.tab.size * 64)


def off(n_sites: int) -> BoundaryTables:
    """No tables: the kernels read a window of no cells and skip the check."""
    z = np.zeros(0, np.int64)
    return BoundaryTables(
        np.zeros((n_sites, 0), np.int64),
        np.zeros(n_sites, np.int64),
        np.zeros((1, 1), np.uint64),
        np.zeros(n_sites + 1, np.int64),
        z,
        0,
        0.0,
        0,
    )


def _kind(cell) -> tuple:
    return tuple(cell[2:])


def _window(grid, centre, n: int) -> list:
    """The first n cells of a breadth-first walk from ``centre``, neighbours in the grid's order."""
    seen, order, queue = {centre}, [centre], deque([centre])
    while queue and len(order) < n:
        c = queue.popleft()
        for nb in grid.neighbours(c):
            if nb not in seen:
                seen.add(nb)
                order.append(nb)
                queue.append(nb)
                if len(order) >= n:
                    break
    return order[:n]


def _radius(grid, cells) -> int:
    """The largest number of steps between two cells of a shape, walking inside it (at least the steps in
    the plane): a placement meeting a cell lies within this many steps of it."""
    cells = set(map(tuple, cells))
    best = 0
    for s in cells:
        dist = {s: 0}
        queue = deque([s])
        while queue:
            c = queue.popleft()
            for nb in grid.neighbours(c):
                if nb in cells and nb not in dist:
                    dist[nb] = dist[c] + 1
                    queue.append(nb)
        if len(dist) < len(cells):
            return len(cells)  # a disconnected piece: bound by its size
        best = max(best, max(dist.values()))
    return best


def _ball(grid, centres, r: int) -> set:
    """The cells within r steps of any of ``centres``."""
    dist = {c: 0 for c in centres}
    queue = deque(centres)
    while queue:
        c = queue.popleft()
        if dist[c] == r:
            continue
        for nb in grid.neighbours(c):
            if nb not in dist:
                dist[nb] = dist[c] + 1
                queue.append(nb)
    return set(dist)


def kinds_and_windows(puzzle, n_win: int):
    """Each kind of cell of the grid, a centre cell of that kind near the origin, and its window."""
    grid = puzzle.grid
    centres: list[tuple[int, ...]] = [(0, 0, k) for k in range(grid.types)] if grid.dims == 3 else [(0, 0)]
    return [(_kind(c), c, _window(grid, c, n_win)) for c in centres]


def placement_masks(puzzle, windows, n_core: int) -> list[list[np.ndarray]]:
    """For each window, for each core cell, the distinct window masks of the placements covering it."""
    from dataclasses import replace

    grid = puzzle.grid
    reach = max(_radius(grid, p.cells) for p in puzzle.pieces)
    cores = [w[q] for _, _, w in windows for q in range(min(n_core, len(w)))]
    patch = _ball(grid, cores, reach + 1)
    pieces = [p._replace(count=1) for p in puzzle.pieces]
    on_patch = replace(puzzle, region=sorted(patch), pieces=pieces, fixed=[])
    table = on_patch.placements()
    cells = table.cells
    flat = table.flat
    at = {c: i for i, c in enumerate(cells)}
    lens = np.diff(table.ptr)
    owner = np.repeat(np.arange(len(lens)), lens)  # the placement each entry of ``flat`` belongs to
    out = []
    for _, _, w in windows:
        pos = np.full(len(cells), -1, np.int64)
        for b, c in enumerate(w):
            pos[at[c]] = b
        bits = np.where(pos >= 0, np.left_shift(np.int64(1), np.maximum(pos, 0)), 0)
        per_opt = np.zeros(len(lens), np.int64)
        np.bitwise_or.at(per_opt, owner, bits[flat])
        per_core = []
        for q in range(min(n_core, len(w))):
            m = per_opt[(per_opt >> q) & 1 == 1]
            per_core.append(np.unique(m))
        out.append(per_core)
    return out


@njit(cache=True)
def _fill(m_ptr, masks, n_win, n_core, out):
    """out: the bit of each pattern F of the window's free cells, set when F's free core cells can be
    covered by disjoint masks inside F (``m_ptr``: each core cell's range of masks)."""
    n = 1 << n_win
    for f in range(n):
        q = -1
        for c in range(n_core):
            if (f >> c) & 1:
                q = c
                break
        ok = False
        if q < 0:
            ok = True
        else:
            for e in range(m_ptr[q], m_ptr[q + 1]):
                m = masks[e]
                if m & ~f:
                    continue
                g = f & ~m
                if (out[g >> 6] >> np.uint64(g & 63)) & np.uint64(1):
                    ok = True
                    break
        if ok:
            out[f >> 6] |= np.uint64(1) << np.uint64(f & 63)


def build(puzzle, site_cells: list, n_win: int = DEFAULT_WINDOW, n_core: int = DEFAULT_CORE) -> BoundaryTables:
    """The tables of ``puzzle``'s pieces, and each site's window (``site_cells``: the cell of each site, in
    the kernels' site order)."""
    if not 1 <= n_core <= n_win <= MAX_WINDOW:
        raise UsageError(f"boundary tables: need 1 <= core ({n_core}) <= window ({n_win}) <= {MAX_WINDOW}")
    t0 = time.perf_counter()
    windows = kinds_and_windows(puzzle, n_win)
    masks = placement_masks(puzzle, windows, n_core)
    words = max(1, (1 << n_win) // 64)
    tab = np.zeros((len(windows), words), np.uint64)
    n_masks = 0
    for t, per_core in enumerate(masks):
        m_ptr = np.concatenate([[0], np.cumsum([len(m) for m in per_core])]).astype(np.int64)
        flat = np.concatenate(per_core).astype(np.int64) if per_core else np.zeros(0, np.int64)
        n_masks += len(flat)
        _fill(m_ptr, flat, n_win, len(per_core), tab[t])
    kind_of = {k: t for t, (k, _, _) in enumerate(windows)}
    index = {tuple(c): s for s, c in enumerate(site_cells)}
    win = np.full((len(site_cells), n_win), -1, np.int64)
    tid = np.zeros(len(site_cells), np.int64)
    rel = [[(c[0] - centre[0], c[1] - centre[1]) + tuple(c[2:]) for c in w] for _, centre, w in windows]
    for s, cell in enumerate(site_cells):
        t = kind_of[_kind(cell)]
        tid[s] = t
        for b, (di, dj, *rest) in enumerate(rel[t]):
            win[s, b] = index.get((cell[0] + di, cell[1] + dj, *rest), -1)
    holder = win.reshape(-1)
    keep = holder >= 0
    owner = np.repeat(np.arange(len(site_cells)), n_win)[keep]
    order = np.argsort(holder[keep], kind="stable")
    inv_idx = owner[order].astype(np.int64)
    inv_ptr = np.concatenate([[0], np.cumsum(np.bincount(holder[keep], minlength=len(site_cells)))]).astype(np.int64)
    return BoundaryTables(win, tid, tab, inv_ptr, inv_idx, n_core, time.perf_counter() - t0, n_masks)


@njit(cache=True, inline="always")
def pattern(board, y, win):
    """The free cells of site y's window in ``board``, as the bits of a pattern."""
    f = 0
    for b in range(win.shape[1]):
        x = win[y, b]
        if x >= 0 and not _bit(board, x):
            f |= 1 << b
    return f


@njit(cache=True, inline="always")
def holds(board, y, win, tid, tab):
    """True when the table of site y allows the free cells of its window in ``board``."""
    if win.shape[1] == 0:
        return True
    f = pattern(board, y, win)
    return (tab[tid[y], f >> 6] >> np.uint64(f & 63)) & np.uint64(1) == np.uint64(1)


@njit(cache=True)
def placed_holds(board, o, os_ptr, os_idx, win, tid, tab, inv_ptr, inv_idx):
    """True when every window holding a cell of option o (just placed in ``board``) still reads
    fillable at its free centre."""
    for r in range(os_ptr[o], os_ptr[o + 1]):
        x = os_idx[r]
        for e in range(inv_ptr[x], inv_ptr[x + 1]):
            y = inv_idx[e]
            if not _bit(board, y) and not holds(board, y, win, tid, tab):
                return False
    return True
