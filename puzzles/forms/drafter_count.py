"""Polydrafters and polydudes counted to 12 drafters, by Redelmeier's method in numba.

The canonical growth of `puzzles.forms.enumeration` keeps every free form of a level
in a Python set: fine to 8 drafters (17,705 forms), hopeless at 12 (millions).
Here a form is a set of *triangle states*: each unit triangle of the lattice
is empty, one of its six halves (a drafter) or full (two drafters; its three
splits are one shape).  Two states of neighbouring triangles are joined when
some small cell of one shares an edge with some small cell of the other, so a
polydrafter is a connected set of states, at most one a triangle, and
Redelmeier's enumeration of connected sets (each produced once, with no
memory of what was seen) counts the fixed forms; a state whose triangle is
taken is skipped, which loses nothing, since no valid set holds both.  A fixed
form is counted as free when it is the least of its twelve images, so each
free form is counted once.

Holes are found by Euler's formula on the closed cells (V - E + F = 1 - holes
for an edge-connected form), which agrees with the edge-connected complement
used elsewhere: a pocket reached from outside only through a corner is a hole
in both.

Cazenave's *polydudes* (the shapes of Eternity's pieces: Monckton's "sturdy"
pieces) are the polydrafters with no hole, no 30 degree corner, no 30 degree
notch (330 degree corner) and no weakly hanging drafter: a drafter alone in its
triangle must hold onto the rest by its whole hypotenuse.  Every one of
Eternity's 209 pieces passes all four.  With this rule the counts are the seed's
at 2, 3, 4, 5 and 7 drafters and a few more elsewhere (60 against 59 at 6,
52,857 against 52,630 at 12): the seed's rule removes a few more shapes, which
ones is not known here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import numpy as np
from numba import njit

from puzzles.errors import UsageError

MAX_DRAFTERS = 14
HALF_MASKS = tuple(sum(1 << ((s + d) % 6) for d in range(3)) for s in range(6))
MASKS = (*HALF_MASKS, 63)


@dataclass(frozen=True)
class DrafterCounts:
    """Free counts per size 1..n: all polydrafters, those with holes, and the polydudes."""

    free: tuple[int, ...]
    with_holes: tuple[int, ...]
    dudes: tuple[int, ...]
    fixed: tuple[int, ...]

    def as_dict(self, size: int) -> dict:
        """The counts of ``size`` drafters, for `eternity enumerate`."""
        i = size - 1
        return {
            "free": self.free[i],
            "with_holes": self.with_holes[i],
            "without_holes": self.free[i] - self.with_holes[i],
            "polydudes": self.dudes[i],
            "fixed": self.fixed[i],
        }


class Tables(NamedTuple):
    """The window's flat tables the numba search reads: triangles, small cells and their joins, symmetries."""

    tri_a: np.ndarray  # a triangle's lattice position (a, b) and type t (0 up, 1 down)
    tri_b: np.ndarray
    tri_t: np.ndarray
    nbr: np.ndarray  # a small cell's three neighbours (k - 1, far, k + 1), -1 outside the window
    side: np.ndarray  # the neighbour across the cell's piece of a triangle side
    corner: np.ndarray  # ids of the cell's three corners
    ncorner: int
    lattice_vertex: np.ndarray  # the id of the cell's 30 degree corner
    hyp: np.ndarray  # (type, half) -> the two ring positions on the half's hypotenuse
    weight: np.ndarray  # drafters of a state: 1 a half, 2 a whole triangle
    adj_start: np.ndarray  # the joins between states, as compressed rows
    adj: np.ndarray
    lin: np.ndarray  # the twelve symmetries: a linear map of the lattice,
    off: np.ndarray  # and per triangle type the image's anchor offset,
    ttype: np.ndarray  # type
    smap: np.ndarray  # and state map


def _anchor_cell(a: int, b: int, t: int) -> tuple[int, int, int]:
    # up triangle (a, b, 0): sector 0 at P(a, b); down (a, b, 1): sector 2 at P(a + 1, b)
    return (a, b, 0) if t == 0 else (a + 1, b, 2)


@lru_cache(maxsize=4)
def _tables(n: int):
    """Window, adjacency and symmetry tables for forms of up to ``n`` drafters (built once per size)."""
    from puzzles.kinds.grids import DrafterGrid

    g = DrafterGrid()
    a0, a1, b0, b1 = -n - 3, n + 3, -2, n + 3
    na = a1 - a0 + 1
    ntri = (b1 - b0 + 1) * na * 2

    def tid(a: int, b: int, t: int) -> int:
        if not (a0 <= a <= a1 and b0 <= b <= b1):
            return -1
        return ((b - b0) * na + (a - a0)) * 2 + t

    tri_a = np.zeros(ntri, np.int64)
    tri_b = np.zeros(ntri, np.int64)
    tri_t = np.zeros(ntri, np.int64)
    where: dict[tuple[int, ...], tuple[int, int]] = {}  # small cell -> (triangle, ring position)
    rings = {}
    for b in range(b0, b1 + 1):
        for a in range(a0, a1 + 1):
            for t in (0, 1):
                i = tid(a, b, t)
                tri_a[i], tri_b[i], tri_t[i] = a, b, t
                ring = g.ring(_anchor_cell(a, b, t))
                rings[i] = ring
                for p, c in enumerate(ring):
                    where[c] = (i, p)
    ncell = ntri * 6
    nbr = np.full((ncell, 3), -1, np.int64)  # (k - 1, far, k + 1) neighbours, -1 outside the window
    side = np.full(ncell, -1, np.int64)  # the neighbour across the cell's piece of a triangle side
    corner = np.zeros((ncell, 3), np.int64)  # ids of the cell's three corners
    corner_ids: dict[tuple[float, float], int] = {}
    lattice_vertex = np.zeros(ncell, np.int64)  # the id of its 30 degree corner
    for c, (i, p) in where.items():
        cid = i * 6 + p
        for q, nb in enumerate(g.neighbours(c)):
            w = where.get(nb)
            if w is not None:
                nbr[cid, q] = w[0] * 6 + w[1]
                if w[0] != i:
                    side[cid] = w[0] * 6 + w[1]
        for q, (x, y) in enumerate(g.polygon(c)):
            key = (round(x * 12), round(y * 12 / 1.7320508075688772))  # exact on this grid
            corner[cid, q] = corner_ids.setdefault(key, len(corner_ids))
        lattice_vertex[cid] = corner[cid, 0]
    # the two cells of a half that lie on its hypotenuse (their side edges are collinear)
    hyp = np.zeros((2, 6, 2), np.int64)
    for t in (0, 1):
        i = tid(0, 0, t)
        ring = rings[i]
        for s in range(6):
            pos = [(s + d) % 6 for d in range(3)]
            dirs = []
            for p in pos:
                c = ring[p]
                k = c[2]
                ray = k if k % 2 == 0 else k + 1
                dirs.append(ray % 6)  # the side's direction, mod 180 degrees
            pair = [p for p, d in zip(pos, dirs) if dirs.count(d) == 2]
            hyp[t, s] = pair
    # states and their joins
    nv = ntri * 7
    weight = np.array([1, 1, 1, 1, 1, 1, 2] * ntri, np.int64)
    adj_lists: list[list[int]] = [[] for _ in range(nv)]
    for i in range(ntri):
        nb_tris = sorted({int(side[i * 6 + p]) // 6 for p in range(6) if side[i * 6 + p] >= 0})
        for s in range(7):
            mine = [i * 6 + p for p in range(6) if MASKS[s] >> p & 1]
            for j in nb_tris:
                for s2 in range(7):
                    theirs = {j * 6 + p for p in range(6) if MASKS[s2] >> p & 1}
                    if any(int(side[c]) in theirs for c in mine):
                        adj_lists[i * 7 + s].append(j * 7 + s2)
    adj_start = np.zeros(nv + 1, np.int64)
    for v in range(nv):
        adj_start[v + 1] = adj_start[v] + len(adj_lists[v])
    adj = np.array([u for lst in adj_lists for u in lst], np.int64)
    # the twelve symmetries: a linear map of the lattice, and per triangle type the image's
    # type, anchor offset and state map
    lin = np.zeros((12, 2, 2), np.int64)
    off = np.zeros((12, 2, 2), np.int64)
    ttype = np.zeros((12, 2), np.int64)
    smap = np.zeros((12, 2, 7), np.int64)
    for gi, tf in enumerate(g.transforms):
        for col, unit in enumerate(((1, 0, 0), (0, 1, 0))):
            im = tf(unit)
            o = tf((0, 0, 0))
            lin[gi, 0, col], lin[gi, 1, col] = im[0] - o[0], im[1] - o[1]
        for t in (0, 1):
            ring = g.ring(_anchor_cell(0, 0, t))
            images = [tf(c) for c in ring]
            owners = {where[c][0] for c in images}
            assert len(owners) == 1
            j = owners.pop()
            ttype[gi, t] = tri_t[j]
            off[gi, t] = (tri_a[j], tri_b[j])
            pmap = [where[c][1] for c in images]
            for s in range(7):
                m = sum(1 << pmap[p] for p in range(6) if MASKS[s] >> p & 1)
                smap[gi, t, s] = MASKS.index(m)
    tables = Tables(
        tri_a, tri_b, tri_t, nbr, side, corner, len(corner_ids), lattice_vertex, hyp, weight, adj_start, adj,
        lin, off, ttype, smap,
    )  # fmt: skip
    return (a0, b0, na), tables


@njit(cache=True)
def _is_canonical(m, vs, t_, codes, img):
    """True when the form is the least of its twelve images (each normalised by translation)."""
    tri_a, tri_b, tri_t, lin, off, ttype, smap = t_.tri_a, t_.tri_b, t_.tri_t, t_.lin, t_.off, t_.ttype, t_.smap
    for gi in range(12):
        for e in range(m):
            v = vs[e]
            tr = v // 7
            s = v % 7
            a, b, t = tri_a[tr], tri_b[tr], tri_t[tr]
            na = lin[gi, 0, 0] * a + lin[gi, 0, 1] * b + off[gi, t, 0]
            nb = lin[gi, 1, 0] * a + lin[gi, 1, 1] * b + off[gi, t, 1]
            img[e, 0] = nb
            img[e, 1] = na
            img[e, 2] = ttype[gi, t] * 8 + smap[gi, t, s]
        bm = img[0, 0]
        am = img[0, 1]
        tm = img[0, 2] // 8
        for e in range(1, m):
            if img[e, 0] < bm or (img[e, 0] == bm and (img[e, 1] < am or (img[e, 1] == am and img[e, 2] // 8 < tm))):
                bm, am, tm = img[e, 0], img[e, 1], img[e, 2] // 8
        for e in range(m):
            codes[gi, e] = ((img[e, 0] - bm) * 64 + (img[e, 1] - am + 32)) * 16 + img[e, 2]
        # insertion sort
        for x in range(1, m):
            key = codes[gi, x]
            y = x - 1
            while y >= 0 and codes[gi, y] > key:
                codes[gi, y + 1] = codes[gi, y]
                y -= 1
            codes[gi, y + 1] = key
        if gi > 0:
            for e in range(m):
                if codes[gi, e] != codes[0, e]:
                    if codes[gi, e] < codes[0, e]:
                        return False
                    break
    return True


@njit(cache=True)
def _run(n, origin, t_, fixed, free, holed, dudes):
    """Redelmeier's enumeration from the triangle ``origin``: fixed, free, holed and polydude counts by size."""
    tri_a, tri_t, nbr, side, corner = t_.tri_a, t_.tri_t, t_.nbr, t_.side, t_.corner
    lattice_vertex, hyp, weight, adj_start, adj = t_.lattice_vertex, t_.hyp, t_.weight, t_.adj_start, t_.adj
    ncorner = t_.ncorner
    nv = tri_a.shape[0] * 7
    ncell = tri_a.shape[0] * 6
    marked = np.zeros(nv, np.bool_)
    used = np.zeros(tri_a.shape[0], np.bool_)
    incell = np.zeros(ncell, np.bool_)
    seen_corner = np.zeros(ncorner, np.int64)
    vcount = np.zeros(ncorner, np.int64)
    stamp = 0
    cap = 64 * n * 24
    U = np.zeros(cap, np.int64)
    fi = np.zeros(n + 2, np.int64)
    fend = np.zeros(n + 2, np.int64)
    fnew = np.zeros(n + 2, np.int64)
    vs = np.zeros(n + 2, np.int64)
    codes = np.zeros((12, n + 2), np.int64)
    img = np.zeros((n + 2, 3), np.int64)
    cells = np.zeros(6 * n + 12, np.int64)
    for s in range(7):
        U[s] = origin * 7 + s
        marked[origin * 7 + s] = True
    fi[0] = 0
    fend[0] = 7
    d = 0
    w = 0
    while d >= 0:
        if fi[d] >= fend[d]:
            d -= 1
            if d >= 0:
                v = vs[d]
                for x in range(fend[d], fend[d] + fnew[d]):
                    marked[U[x]] = False
                used[v // 7] = False
                w -= weight[v]
                fi[d] += 1
            continue
        v = U[fi[d]]
        if used[v // 7] or w + weight[v] > n:
            fi[d] += 1
            continue
        used[v // 7] = True
        w += weight[v]
        vs[d] = v
        m = d + 1
        fixed[w] += 1
        if _is_canonical(m, vs, t_, codes, img):
            free[w] += 1
            # the form's cells
            nc = 0
            for e in range(m):
                tr = vs[e] // 7
                s = vs[e] % 7
                for p in range(6):
                    inside = s == 6 or (p - s) % 6 < 3
                    if inside:
                        c = tr * 6 + p
                        incell[c] = True
                        cells[nc] = c
                        nc += 1
            # Euler: V - E + F with E = 3F - shared edges
            stamp += 1
            nvert = 0
            shared = 0
            for x in range(nc):
                c = cells[x]
                for q in range(3):
                    k = corner[c, q]
                    if seen_corner[k] != stamp:
                        seen_corner[k] = stamp
                        nvert += 1
                    o = nbr[c, q]
                    if o >= 0 and incell[o]:
                        shared += 1
            edges = 3 * nc - shared // 2
            chi = nvert - edges + nc
            has_hole = chi != 1
            if has_hole:
                holed[w] += 1
            else:
                ok = True
                # no 30 degree corner: a cell with neither sector neighbour at its vertex
                for x in range(nc):
                    c = cells[x]
                    if not incell[nbr[c, 0]] and not incell[nbr[c, 2]]:
                        ok = False
                        break
                # no weakly hanging drafter: a lone half holds on by its whole hypotenuse
                if ok:
                    for e in range(m):
                        s = vs[e] % 7
                        if s == 6:
                            continue
                        tr = vs[e] // 7
                        t = tri_t[tr]
                        c1 = side[tr * 6 + hyp[t, s, 0]]
                        c2 = side[tr * 6 + hyp[t, s, 1]]
                        if c1 < 0 or c2 < 0 or not incell[c1] or not incell[c2]:
                            ok = False
                            break
                # no 30 degree notch: a lattice vertex with 11 of its 12 sectors
                if ok:
                    for x in range(nc):
                        vcount[lattice_vertex[cells[x]]] += 1
                    for x in range(nc):
                        if vcount[lattice_vertex[cells[x]]] == 11:
                            ok = False
                    for x in range(nc):
                        vcount[lattice_vertex[cells[x]]] = 0
                if ok:
                    dudes[w] += 1
            for x in range(nc):
                incell[cells[x]] = False
        # the new untried states
        k = 0
        for x in range(adj_start[v], adj_start[v + 1]):
            u = adj[x]
            if u // 7 > origin and not marked[u]:
                marked[u] = True
                U[fend[d] + k] = u
                k += 1
        fnew[d] = k
        fi[d + 1] = fi[d] + 1
        fend[d + 1] = fend[d] + k
        d += 1
    return 0


def count_drafters(n: int) -> DrafterCounts:
    """Free polydrafters (with and without holes) and polydudes of 1..``n`` drafters."""
    if not 1 <= n <= MAX_DRAFTERS:
        raise UsageError(f"drafter count: size {n}: expected 1 to {MAX_DRAFTERS}")
    (a0, b0, na), tables = _tables(n)
    fixed = np.zeros(n + 1, np.int64)
    free = np.zeros(n + 1, np.int64)
    holed = np.zeros(n + 1, np.int64)
    dudes = np.zeros(n + 1, np.int64)
    for t in (0, 1):
        origin = ((0 - b0) * na + (0 - a0)) * 2 + t
        _run(n, origin, tables, fixed, free, holed, dudes)
    return DrafterCounts(
        free=tuple(int(x) for x in free[1:]),
        with_holes=tuple(int(x) for x in holed[1:]),
        dudes=tuple(int(x) for x in dudes[1:]),
        fixed=tuple(int(x) for x in fixed[1:]),
    )


def polydude_faults(cells) -> list[str]:
    """Why a drafter-grid shape is not a polydude (empty when it is one): the rule, cell by cell."""
    from puzzles.forms.enumeration import has_hole
    from puzzles.kinds.grids import DrafterGrid
    from puzzles.kinds.partition import has_30_degree_corner

    g = DrafterGrid()
    fs = set(map(tuple, cells))
    faults = []
    if has_hole(g, fs):
        faults.append("a hole")
    if has_30_degree_corner(g, fs):
        faults.append("a 30 degree corner")
    if any(sum((i, j, k) in fs for k in range(12)) == 11 for i, j, _ in fs):
        faults.append("a 30 degree notch")
    seen: set = set()
    for c in sorted(fs):
        if c in seen:
            continue
        ring = g.ring(c)
        mine = [x for x in ring if x in fs]
        seen.update(mine)
        if len(mine) == 6:
            continue
        # a lone drafter: its two cells on the hypotenuse (collinear side edges) must both be held
        sides: dict[int, list] = {}
        for x in mine:
            k = x[2]
            sides.setdefault((k if k % 2 == 0 else k + 1) % 6, []).append(x)
        hyp = next(v for v in sides.values() if len(v) == 2)
        held = all(any(nb in fs and nb not in ring for nb in g.neighbours(x)) for x in hyp)
        if not held:
            faults.append("a weakly hanging drafter")
            break
    return faults


def is_polydude(cells) -> bool:
    """True for the shapes of Eternity's pieces: see `polydude_faults`."""
    return not polydude_faults(cells)
