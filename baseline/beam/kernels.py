"""The beam's numba kernels for edge matching: the colour-pairing score, the expansion of a level,
the materialising of the kept children and the exhaustive end-game.

They read the run's constant arrays as one ``BeamTables`` and a level as a ``Frontier``
(``frontier.py``); the policy that calls them (widths, phases, threads) is ``run.py``'s.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from baseline.edge.tables import static_range
from baseline.runtime.kernel import NO_SCORE

# what ``_endgame`` returns (with its nodes): module-level integers are constants to numba
ENDGAME_NONE = 0  # the state has no completion
ENDGAME_SOLUTION = 1  # a completion, written into the row
ENDGAME_GAVE_UP = 2  # the node budget ran out first


class BeamTables(NamedTuple):
    """The run's constant arrays, as the kernels read them (``BeamRun.__init__`` derives them from the
    edge tables and the search order; module docstring of ``run.py``)."""

    twin: np.ndarray  # [q] the previous free piece identical to q, or -1
    zu: np.ndarray  # [q] Zobrist keys of the pieces
    zb: np.ndarray  # [4 * depth + side, colour] Zobrist keys of the open edges
    cell_cat: np.ndarray  # [4 * depth + side] the edge pool of the depth's own edge (0 frame, 1 rim inward, 2 inner)
    dep_cat: np.ndarray  # [4 * depth + side] the edge pool of the neighbour's edge it meets
    order_cls: np.ndarray  # [depth] the border class of the depth's cell
    dep_nk: np.ndarray  # [depth] known neighbours when the depth is filled
    dep_nbd: np.ndarray  # [4 * depth + j] the depth of the j-th known neighbour
    dep_side: np.ndarray  # [4 * depth + j] the side it lies on
    dep_base: np.ndarray  # [depth] the candidate table's base for the depth's key
    dep_mul: np.ndarray  # [4 * depth + j] the key's multiplier of that side's colour
    dep_fixed: np.ndarray  # [depth] the candidate of a fixed piece there, or -1
    dep_free: np.ndarray  # [4 * depth + side] that side faces a cell filled later
    tab_base: np.ndarray  # [class * 16 + known sides] the table of a site's key
    tab_ptr: np.ndarray  # candidate ranges of each key
    s_piece: np.ndarray  # [candidate] its piece
    s_col: np.ndarray  # [4 * candidate + side] its colours
    lg: np.ndarray  # log-factorials (``log_tables``)
    ldf: np.ndarray  # log double factorials
    look_ptr: np.ndarray  # [depth] the forecast's sites of each depth, in look_cell
    look_cell: np.ndarray
    allow: np.ndarray  # [depth] mismatches allowed from there (the slips)
    n_col: int


class Knobs(NamedTuple):
    """The run's constant choices, as the kernels read them."""

    lookahead: int  # cells ahead checked for a dead site
    best: bool  # mode best: mismatches allowed (by ``allow``), each costing the penalty
    use_score: bool  # score=pairings (else generation order)
    cut_margin: float  # the mismatch cut's margin (-1: no cut)
    forecast: float  # the forecast's charge, in penalties


class Children(NamedTuple):
    """One thread's out arrays of ``_expand``: a child a row."""

    parent: np.ndarray
    cand: np.ndarray
    mis: np.ndarray
    score: np.ndarray
    hash: np.ndarray


def log_tables(n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """``lg[x] = log x!`` and ``ldf[x] = log (x - 1)!!`` (the ways to pair x edges among
    themselves) for x = 0..n_max: the score's logs are table look-ups, not lgamma calls."""
    x = np.arange(n_max + 1, dtype=np.float64)
    lg = np.array([math.lgamma(v + 1.0) for v in x])
    ldf = np.array([math.lgamma(v + 1.0) - 0.5 * v * math.log(2.0) - math.lgamma(0.5 * v + 1.0) for v in x])
    return lg, ldf


@njit(cache=True)
def _term(rem, need, c, n_col, best, penalty, lg, ldf):
    """Colour-consistent pairings of colour c, in three pools: frame edges
    (along the rim, pairing among themselves), rim pieces' inward edges
    (pairing with inner pieces' edges) and inner pieces' edges.  Open edges
    on the board each demand one pool.  A demand nothing can meet is dead,
    or in best mode costs ``penalty`` (a mismatch to come)."""
    F, R, I = rem[c], rem[n_col + c], rem[2 * n_col + c]
    dF, dR, dI = need[c], need[n_col + c], need[2 * n_col + c]
    bad = 0
    if dF > F:
        bad += dF - F
        dF = F
    if dR > R:
        bad += dR - R
        dR = R
    if dI > I:
        bad += dI - I
        dI = I
    I2 = I - dI
    R2 = R - dR
    if R2 > I2:
        bad += R2 - I2
        R2 = I2
    if bad > 0 and not best:
        return NO_SCORE
    # log P(n, k) = lg[n] - lg[n - k]
    return (
        lg[F] - lg[F - dF] + ldf[F - dF] + lg[R] - lg[R - dR] + lg[I] - lg[I - dI] + lg[I2] - lg[I2 - R2] + ldf[I2 - R2]
    ) - penalty * bad


# ------------------------------------------------------------------ expansion
@njit(cache=True, inline="always")
def _child_hash(h, k, ci, cands_i, s_piece, s_col, dep_nk, dep_nbd, dep_side, dep_free, zu, zb):
    """Zobrist hash of a child: the pieces used and the colours of the open
    edges.  Children with equal hashes have the same future; one is kept."""
    h ^= zu[s_piece[ci]]
    for j in range(dep_nk[k]):
        d = dep_nbd[4 * k + j]
        side = (dep_side[4 * k + j] + 2) & 3
        h ^= zb[4 * d + side, s_col[4 * cands_i[d] + side]]
    for s in range(4):
        if dep_free[4 * k + s]:
            h ^= zb[4 * k + s, s_col[4 * ci + s]]
    return h


@njit(cache=True, nogil=True, inline="always")
def _site_dead(kk, k, i, cands, used, dep_nk, dep_nbd, dep_side, tab_base, tab_ptr, order_cls, s_piece, s_col, n_col):
    """No unused piece fits the depth-kk site on the sides state i has filled up to depth k."""
    K = 0
    key = 0
    mul = 1
    for j in range(dep_nk[kk]):
        d = dep_nbd[4 * kk + j]
        if d <= k:
            K |= 1 << dep_side[4 * kk + j]
            key += s_col[4 * cands[i, d] + ((dep_side[4 * kk + j] + 2) & 3)] * mul
            mul *= n_col
    b0 = tab_base[order_cls[kk] * 16 + K]
    for c2 in range(tab_ptr[b0 + key], tab_ptr[b0 + key + 1]):
        if not used[i, s_piece[c2]]:
            return False
    return True


@njit(cache=True, nogil=True)
def _expand(k, s0, s1, phase, m0, gain, thr, made, bases, st, tb, kn, penalty, force, out):
    """The children of states s0..s1-1 at depth k: (parent, candidate, mismatches, score, hash)
    into the out arrays from index m0; returns (the index after the last written, or minus the
    room that was needed when the out arrays were too small; the best gain of an exact child).
    Threads may run disjoint state ranges at once (no GIL), each with its own out arrays.

    Best mode makes most children with one more mismatch (95% on Eternity II), and few of them
    survive.  The caller may split the work (``BeamRun.expand``, the mismatch cut): phase 0
    makes only the exact children of every state; phase 1 then makes a state's mismatch
    children only when its base score, plus ``gain`` (the best gain an exact child showed at
    this level, any range) and ``cut_margin``, less one more penalty, reaches ``thr`` (the
    ``cut_rank``-th best exact child's score).  Below that they could not enter a beam of about
    that width.  Phase 2 makes every child at once.  ``made[i]`` counts state i's children over
    the phases, ``bases[i]`` keeps its base score from phase 0.

    ``forecast`` (best mode): a child is charged ``forecast x penalty`` for each later site with
    two or more known sides (``look_cell[look_ptr[k]:look_ptr[k + 1]]``) that no unused piece fits
    exactly once it is placed: a mismatch to come.  The sites beside a fixed piece are where the
    row scan meets three known sides, and where best mode piles up its mismatches."""
    cands, used, rem, need, mis, hsh = st.cands, st.used, st.rem, st.need, st.mis, st.hash
    # the run's tables, by the names the loop uses (a tuple unpacked in field order costs nothing)
    (twin, zu, zb, cell_cat, dep_cat, order_cls, dep_nk, dep_nbd, dep_side, dep_base, dep_mul, dep_fixed, dep_free,
     tab_base, tab_ptr, s_piece, s_col, lg, ldf, look_ptr, look_cell, allow, n_col) = tb  # fmt: skip
    lookahead, best, use_score, cut_margin, forecast = kn
    out_parent, out_cand, out_mis, out_score, out_hash = out
    cap = out_parent.shape[0]
    m = m0
    n = cands.shape[1]
    demand = np.empty(4, np.int64)
    dcat = np.empty(4, np.int64)
    touched = np.empty(8, np.int64)
    tc = np.zeros(n_col)  # the state's score term of each colour
    best_gain = -1e300  # the best (child score - parent base + penalty * parent mismatches) of an exact child
    split = phase != 2
    for i in range(s0, s1):
        if phase == 1 and bases[i] + gain + cut_margin - penalty * (mis[i] + 1) < thr:
            continue  # no mismatch child of this state could enter the beam
        nk = dep_nk[k]
        for j in range(nk):
            d = dep_nbd[4 * k + j]
            demand[j] = s_col[4 * cands[i, d] + ((dep_side[4 * k + j] + 2) & 3)]
            dcat[j] = dep_cat[4 * d + ((dep_side[4 * k + j] + 2) & 3)]
        base_score = 0.0
        if use_score:
            for c in range(1, n_col):
                tc[c] = _term(rem[i], need[i], c, n_col, best, penalty, lg, ldf)
                base_score += tc[c]
        bases[i] = base_score
        # passes: 0 exact matches, 1 one more mismatch, 2 anything of the class (best mode, no child yet)
        for pas in range(3):
            if split and (pas == 0) != (phase == 0):
                continue  # split: exact children in phase 0, the others in phase 1
            if pas == 1 and not (best and mis[i] < allow[k]):
                continue
            if pas == 2 and not (best and made[i] == 0):
                continue
            f = dep_fixed[k]
            n_drop = nk if pas == 1 else 1
            for drop in range(n_drop):
                if f >= 0:
                    if drop > 0:
                        break
                    lo, hi = f, f + 1
                elif pas == 0:
                    key = 0
                    for j in range(nk):
                        key += demand[j] * dep_mul[4 * k + j]
                    lo, hi = tab_ptr[dep_base[k] + key], tab_ptr[dep_base[k] + key + 1]
                else:  # pass 1: the table without the dropped side; pass 2: the whole class (K = 0)
                    K = 0
                    key = 0
                    mul = 1
                    if pas == 1:
                        for j in range(nk):
                            if j != drop:
                                K |= 1 << dep_side[4 * k + j]
                                key += demand[j] * mul
                                mul *= n_col
                    b0 = tab_base[order_cls[k] * 16 + K]
                    lo, hi = tab_ptr[b0 + key], tab_ptr[b0 + key + 1]
                for ci in range(lo, hi):
                    q = s_piece[ci]
                    if used[i, q]:
                        continue
                    if twin[q] >= 0 and not used[i, twin[q]]:
                        continue  # identical pieces go down in number order: no duplicate boards
                    mm = 0
                    for j in range(nk):
                        if s_col[4 * ci + dep_side[4 * k + j]] != demand[j]:
                            mm += 1
                    if pas == 0 and mm > 0:
                        continue  # a fixed piece that does not fit
                    if pas == 2 and not force and mis[i] + mm > allow[k]:
                        continue  # the slip array forbids it (unless the whole level would die)
                    if pas == 1 and (mm != 1 or (f < 0 and s_col[4 * ci + dep_side[4 * k + drop]] == demand[drop])):
                        continue  # exactly the dropped side mismatches: each child once
                    if not best and mm > 0:
                        continue
                    # score of the child: update the colour terms it touches
                    sc = 0.0
                    if use_score:
                        # only the colours of the piece's sides and of the demands change
                        nt = 0
                        for s in range(4):
                            c = s_col[4 * ci + s]
                            if c > 0:
                                touched[nt] = c
                                nt += 1
                        for j in range(nk):
                            if demand[j] > 0:
                                touched[nt] = demand[j]
                                nt += 1
                        sc = base_score
                        for t in range(nt):
                            c = touched[t]
                            dup = False
                            for u in range(t):
                                if touched[u] == c:
                                    dup = True
                            if dup:
                                continue
                            before = tc[c]
                            for s in range(4):  # apply the child's change to colour c ...
                                if s_col[4 * ci + s] == c:
                                    rem[i, cell_cat[4 * k + s] * n_col + c] -= 1
                                    if dep_free[4 * k + s]:
                                        need[i, dep_cat[4 * k + s] * n_col + c] += 1
                            for j in range(nk):
                                if demand[j] == c:
                                    need[i, dcat[j] * n_col + c] -= 1
                            sc += _term(rem[i], need[i], c, n_col, best, penalty, lg, ldf) - before
                            for s in range(4):  # ... and undo it
                                if s_col[4 * ci + s] == c:
                                    rem[i, cell_cat[4 * k + s] * n_col + c] += 1
                                    if dep_free[4 * k + s]:
                                        need[i, dep_cat[4 * k + s] * n_col + c] -= 1
                            for j in range(nk):
                                if demand[j] == c:
                                    need[i, dcat[j] * n_col + c] += 1
                        sc -= penalty * (mis[i] + mm)
                        if sc < -1e200:
                            continue  # more open edges of a colour than edges left: dead
                    if best and forecast > 0.0 and look_ptr[k + 1] > look_ptr[k]:
                        used[i, q] = True
                        cands[i, k] = ci
                        n_dead = 0
                        for t in range(look_ptr[k], look_ptr[k + 1]):
                            if _site_dead(look_cell[t], k, i, cands, used, dep_nk, dep_nbd, dep_side, tab_base, tab_ptr,
                                          order_cls, s_piece, s_col, n_col):
                                n_dead += 1
                        used[i, q] = False
                        sc -= forecast * penalty * n_dead
                    # lookahead: the next cells must keep a candidate (exact mode)
                    if not best and lookahead > 0:
                        used[i, q] = True
                        cands[i, k] = ci
                        dead = False
                        for dd in range(1, lookahead + 1):
                            kk = k + dd
                            if kk >= n:
                                break
                            if dep_fixed[kk] >= 0:
                                continue
                            if _site_dead(kk, k, i, cands, used, dep_nk, dep_nbd, dep_side, tab_base, tab_ptr, order_cls,
                                          s_piece, s_col, n_col):
                                dead = True
                                break
                        used[i, q] = False
                        if dead:
                            continue
                    if m < cap:  # past the end: only counted, so the caller knows the room to give
                        out_parent[m] = i
                        out_cand[m] = ci
                        out_mis[m] = mis[i] + mm
                        out_score[m] = sc
                        out_hash[m] = _child_hash(hsh[i], k, ci, cands[i], s_piece, s_col, dep_nk, dep_nbd, dep_side,
                                                  dep_free, zu, zb)
                    m += 1
                    made[i] += 1
                    if pas == 0 and sc - base_score + penalty * mis[i] > best_gain:
                        best_gain = sc - base_score + penalty * mis[i]
    return (m if m <= cap else -m), best_gain


@njit(cache=True, nogil=True)
def _children(k, sel_parent, sel_cand, sel_mis, st, tb, new):
    """Materialise the selected children into the new state arrays."""
    cands, used, rem, need, hsh = st.cands, st.used, st.rem, st.need, st.hash
    zu, zb, cell_cat, dep_cat, n_col, s_piece, s_col = (
        tb.zu,
        tb.zb,
        tb.cell_cat,
        tb.dep_cat,
        tb.n_col,
        tb.s_piece,
        tb.s_col,
    )
    dep_nk, dep_nbd, dep_side, dep_free = tb.dep_nk, tb.dep_nbd, tb.dep_side, tb.dep_free
    n_cands, n_used, n_rem, n_need, n_mis, n_hsh = new
    for t in range(sel_parent.shape[0]):
        i = sel_parent[t]
        ci = sel_cand[t]
        n_cands[t, :] = cands[i, :]
        n_cands[t, k] = ci
        n_used[t, :] = used[i, :]
        n_used[t, s_piece[ci]] = True
        n_rem[t, :] = rem[i, :]
        n_need[t, :] = need[i, :]
        for s in range(4):
            c = s_col[4 * ci + s]
            if c > 0:
                n_rem[t, cell_cat[4 * k + s] * n_col + c] -= 1
                if dep_free[4 * k + s]:
                    n_need[t, dep_cat[4 * k + s] * n_col + c] += 1
        for j in range(dep_nk[k]):
            d = dep_nbd[4 * k + j]
            side = (dep_side[4 * k + j] + 2) & 3
            c = s_col[4 * cands[i, d] + side]
            if c > 0:
                n_need[t, dep_cat[4 * d + side] * n_col + c] -= 1
        n_mis[t] = sel_mis[t]
        n_hsh[t] = _child_hash(hsh[i], k, ci, cands[i], s_piece, s_col, dep_nk, dep_nbd, dep_side, dep_free, zu, zb)


@njit(cache=True)
def _endgame(k0, n, row, used_row, tb, cur, end, budget):
    """Exhaustive search of one state from depth k0: fills ``row`` and returns
    (1, nodes) on a solution, (0, nodes) when there is none, (2, nodes) when
    the node budget ran out."""
    dep_nk, dep_nbd, dep_side, dep_base, dep_mul = tb.dep_nk, tb.dep_nbd, tb.dep_side, tb.dep_base, tb.dep_mul
    dep_fixed, tab_ptr, s_piece, s_col = tb.dep_fixed, tb.tab_ptr, tb.s_piece, tb.s_col
    k = k0
    nodes = 0
    entering = True
    while True:
        if entering:
            if k == n:
                return ENDGAME_SOLUTION, nodes
            cur[k], end[k] = static_range(k, row, dep_nbd, dep_nk, dep_side, dep_mul, dep_base, dep_fixed, tab_ptr, s_col)
        i = cur[k]
        e = end[k]
        while i < e and used_row[s_piece[i]]:
            i += 1
        if i < e:
            cur[k] = i + 1
            used_row[s_piece[i]] = True
            row[k] = i
            nodes += 1
            if nodes >= budget:
                return ENDGAME_GAVE_UP, nodes
            k += 1
            entering = True
        else:
            k -= 1
            if k < k0:
                return ENDGAME_NONE, nodes
            used_row[s_piece[row[k]]] = False
            entering = False
