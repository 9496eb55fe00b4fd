"""`beam`: Selby and Riordan's beam search for edge matching ([Selby2001]; docs/references.md).

(Polyform and other XCC puzzles go to ``beam_xcc.py``, same options.)

A breadth-first beam over partial boards.  The sites are the cells of a
static search order (in a row scan the next cell is always the most
constrained one: two sides known).  At each level every state is expanded
by every candidate for its next cell, children with a dead site within
``lookahead`` cells are dropped, and the ``width`` best children by score are
kept.  When ``exhaust_at`` cells are left, each survivor, best first, is
handed to an exhaustive numba search (the end-game).

Score (``score=pairings``): the log of the number of ways the open edges of
the board and the edges of the pieces left can be paired colour by colour,
``sum_c log P(r_c, b_c) + log (r_c - b_c - 1)!!`` for r_c edges of colour c
left on pieces and b_c open edges of colour c on the board -- Owen's
expected completions up to a factor that is the same for every state of a
level.  A state needing more edges of a colour than are left is dead.
``score=none`` keeps children in generation order (a plain breadth-limited
search, for comparison).

``best`` mode (the Eternity II score): a child may mismatch one more join
than its parent when the slip array allows it at that depth (default: any
depth), each mismatch costing ``penalty`` in the score; a state with no
candidate takes any piece of the right class, so every run ends in a full
board with the border rule kept.  The run repeats with a wider beam while
time is left and reports the best board over time.

State arrays (one row a state): ``cands[i, d]`` the candidate placed at
depth d (an index into the candidates of ``edge_tables``), ``used[i, q]``,
``rem[i, c]`` colour-c edges left on unused pieces, ``need[i, c]`` open
colour-c edges on the board, ``mis[i]`` mismatched joins.  The frontier is
checkpointed packed by ``codec`` (10 bits a tile on Eternity II).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import njit

from puzzles.edge import EdgePlacement, EdgePuzzle
from puzzles.errors import UsageError
from puzzles.orders import ORDERS
from solving import Limits, Option, SolverBase, SolveResult

from . import checkpoint, codec, warmup
from .edge_tables import EdgeTables, slip_allowance, static_range
from .kernel import NO_SCORE


# ------------------------------------------------------------------ score
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
    return (lg[F] - lg[F - dF] + ldf[F - dF] + lg[R] - lg[R - dR] + lg[I] - lg[I - dI] + lg[I2] - lg[I2 - R2]
            + ldf[I2 - R2]) - penalty * bad


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
def _expand(k, s0, s1, phase, m0, gain, thr, made, bases, cands, used, rem, need, mis, hsh, twin, zu, zb, cell_cat, dep_cat, order_cls, dep_nk, dep_nbd, dep_side, dep_base, dep_mul,
            dep_fixed, dep_free, tab_base, tab_ptr, s_piece, s_col, n_col, lookahead, allow, best, penalty,
            use_score, force, lg, ldf, cut_margin, forecast, look_ptr, look_cell, out_parent, out_cand, out_mis,
            out_score, out_hash):
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
                            if _site_dead(look_cell[t], k, i, cands, used, dep_nk, dep_nbd, dep_side, tab_base,
                                          tab_ptr, order_cls, s_piece, s_col, n_col):
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
                            if _site_dead(kk, k, i, cands, used, dep_nk, dep_nbd, dep_side, tab_base, tab_ptr,
                                          order_cls, s_piece, s_col, n_col):
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
                        out_hash[m] = _child_hash(hsh[i], k, ci, cands[i], s_piece, s_col, dep_nk, dep_nbd,
                                                  dep_side, dep_free, zu, zb)
                    m += 1
                    made[i] += 1
                    if pas == 0 and sc - base_score + penalty * mis[i] > best_gain:
                        best_gain = sc - base_score + penalty * mis[i]
    return (m if m <= cap else -m), best_gain


@njit(cache=True, nogil=True)
def _children(k, sel_parent, sel_cand, sel_mis, cands, used, rem, need, hsh, zu, zb, cell_cat, dep_cat, n_col, s_piece,
              s_col, dep_nk, dep_nbd, dep_side, dep_free, n_cands, n_used, n_rem, n_need, n_mis, n_hsh):
    """Materialise the selected children into the new state arrays."""
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
def _endgame(k0, n, row, used_row, dep_nk, dep_nbd, dep_side, dep_base, dep_mul, dep_fixed, tab_ptr, s_piece,
             s_col, cur, end, budget):
    """Exhaustive search of one state from depth k0: fills ``row`` and returns
    (1, nodes) on a solution, (0, nodes) when there is none, (2, nodes) when
    the node budget ran out."""
    k = k0
    nodes = 0
    entering = True
    while True:
        if entering:
            if k == n:
                return 1, nodes
            cur[k], end[k] = static_range(k, row, dep_nbd, dep_nk, dep_side, dep_mul, dep_base, dep_fixed, tab_ptr,
                                          s_col)
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
                return 2, nodes
            k += 1
            entering = True
        else:
            k -= 1
            if k < k0:
                return 0, nodes
            used_row[s_piece[row[k]]] = False
            entering = False


PROBE_SHARE = 0.03  # budget schedule: a pass 8x wider measures again while it costs less than this of the time left
PARALLEL_MIN = 1024  # states a thread at least: narrower levels run on one thread
BEST_EVERY_S = 30.0
FRONTIER_EVERY_S = 60.0


def _window_shape(spec: str) -> tuple[int, int]:
    try:
        h, w = (int(x) for x in spec.lower().split("x"))
    except ValueError:
        raise UsageError(f"solver beam: option window: {spec!r} is not HxW (like 2x3)") from None
    if not (1 <= h <= 4 and 1 <= w <= 4 and h * w >= 2):
        raise UsageError(f"solver beam: option window: {spec!r}: each side 1..4, at least two cells")
    return h, w


@njit(cache=True)
def _per_parent(ranked, parent, cap, width, n_parents):
    """The first `width` of `ranked`, each parent's first `cap` children before any parent's next
    one; the rest fill what is left of the width in rank order (a strict cap kept one state a
    level from a single root)."""
    cnt = np.zeros(n_parents, np.int64)
    out = np.empty(min(width, ranked.shape[0]), np.int64)
    taken = np.zeros(ranked.shape[0], np.bool_)
    m = 0
    for t in range(ranked.shape[0]):
        if m == out.shape[0]:
            break
        i = ranked[t]
        if cnt[parent[i]] < cap:
            cnt[parent[i]] += 1
            out[m] = i
            taken[t] = True
            m += 1
    for t in range(ranked.shape[0]):
        if m == out.shape[0]:
            break
        if not taken[t]:
            out[m] = ranked[t]
            m += 1
    return out[:m]


def _take(parts, x, idx):
    """Array x of the children at indices idx of the parts laid end to end (``BeamRun._children_of``)."""
    if len(parts) == 1:
        return parts[0][x][idx]
    starts = np.cumsum([0] + [len(p[x]) for p in parts])
    which = np.searchsorted(starts, idx, side="right") - 1
    out = np.empty(len(idx), parts[0][x].dtype)
    for j, p in enumerate(parts):
        sel = which == j
        out[sel] = p[x][idx[sel] - starts[j]]
    return out


def _mismatches(p: EdgePuzzle, placements) -> int:
    """Mismatched joins between the placed cells of a partial board."""
    at = {pl.cell: p.placed(pl.piece, pl.rotation) for pl in placements}
    bad = 0
    for cell, cols in at.items():
        for side in (1, 2):
            nb = p.neighbour(cell, side)
            if nb in at and cols[side] != at[nb][(side + 2) % 4]:
                bad += 1
    return bad


def _level_model(a, b):
    """Per level, time = fixed + per * states, fitted through two passes' (took, expanded)."""
    (t1, s1), (t2, s2) = a, b
    ds = np.where(s2 - s1 > 0, s2 - s1, 1.0)
    per = np.where(s2 - s1 > 0, np.maximum(t2 - t1, 0.0) / ds, t2 / np.maximum(s2, 1.0))
    fixed = np.maximum(t1 - per * s1, 0.0)
    return fixed, per


def _planned_width(model, left: float) -> int:
    """The widest pass the time model fits into 92% of ``left`` seconds."""
    fixed, per = float(model[0].sum()), float(model[1].sum())
    return int((0.92 * left - fixed) / max(per, 1e-9))


class Frontier(NamedTuple):
    """The beam's states, one row each (module docstring: State arrays)."""

    cands: np.ndarray   # [i, d] the candidate placed at depth d
    used: np.ndarray    # [i, q] piece q is placed
    rem: np.ndarray     # [i, pool * n_col + c] colour-c edges left on unused pieces, per pool
    need: np.ndarray    # [i, pool * n_col + c] open colour-c edges on the board, per pool
    mis: np.ndarray     # [i] mismatched joins
    hash: np.ndarray    # [i] Zobrist hash of the placed pieces and the open edges
    score: np.ndarray   # [i] the state's score (higher is better)


# ------------------------------------------------------------------ solver
# options that apply to one kind of puzzle or one mode only (``Beam.check`` refuses them elsewhere)
POLY_ONLY = ("weights", "sites", "boundary", "covers", "touch", "every_site", "sweep", "probe_at", "probe_nodes")
EDGE_ONLY = ("threads", "score", "order")
BEST_ONLY = ("schedule", "max_width", "repair", "tail", "window", "jobs", "grow", "cut", "cut_states", "slips",
             "late_penalty", "late_at", "forecast", "penalty")


class Beam(SolverBase):
    """`beam`: Selby's beam search with an exhaustive end-game (edge matching)."""

    name = "beam"
    KINDS = ("edge", "polyform", "queens")
    MODES = ("first", "best")
    OPTIONS = {
        "width": Option(int, 10_000, "states kept per level", lo=1, hi=10_000_000),
        "lookahead": Option(int, 2, "cells ahead checked for a dead site (first mode)", lo=0, hi=64),
        "exhaust_at": Option(int, -1, "cells left when the end-game exhausts each survivor "
                                      "(-1: a quarter of the board, at most 30, as Selby)", lo=-1),
        "schedule": Option(str, "auto", "best mode: widths from the time budget (budget), or 16, 256, 4096, width "
                                        "(widen); auto: budget when there is a time limit", ("auto", "budget", "widen")),
        "max_width": Option(int, 0, "best mode, budget schedule: the widest pass (0: no cap)", lo=0),
        "repair": Option(float, 0.3, "best mode with a time limit: the share of the time given to the repair "
                                     "phase after the beam (large-neighbourhood search, baseline/repair.py)", lo=0.0, hi=1.0),
        "tail": Option(int, 6, "best mode, repair: tail passes re-run the beam over the last 2..N rows of the "
                               "best board (0: none)", lo=0, hi=64),
        "window": Option(str, "3x3", "best mode, repair: the window re-solved exactly around a mismatch (HxW)"),
        "jobs": Option(int, 1, "best mode: independent runs (seeds seed, seed+1, ...) in parallel processes; "
                               "the best board wins", lo=1, hi=64),
        "threads": Option(int, 1, "states expanded by this many threads of one run (numba, no GIL); the run's "
                                  "boards are the same for any number", lo=1, hi=256),
        "per_parent": Option(int, 0, "diversity: each state's best N children are kept before any state's next "
                                       "one, the rest fill the width (0: plain ranking)", lo=0),
        "grow": Option(float, 0.0, "best mode, budget schedule: a pass ahead of its time model widens, up to "
                                   "GROW times its planned width (1: never; 0: 4 when repair=0, where no phase "
                                   "after the beam would use the time, else 1)", lo=0.0, hi=16.0),
        "cut": Option(float, 0.0, "best mode: make a state's mismatch children only when they could reach the "
                                  "beam: its score plus the level's best exact gain plus CUT, less a penalty, against "
                                  "the width-th exact child (-1: make them all)", lo=-1.0),
        "cut_states": Option(float, 0.0, "best mode, with the cut: on a level with fewer exact children than the "
                                         "cut's rank, only the states with the best bounds make mismatch children, "
                                         "this many times the places left (0: all states)", lo=0.0),
        "score": Option(str, "pairings", "child score: colour pairings (Owen-style) or none", ("pairings", "none")),
        "order": Option(str, "auto", "the static order of the sites (auto: scan along the shorter side)",
                        ("auto",) + tuple(o for o in ORDERS if o != "mrv")),
        "seed": Option(int, 0, "tie-break noise seed: the same seed gives the same run", lo=0),
        "slips": Option(str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k (default: anywhere)"),
        "late_penalty": Option(float, -1.0, "best mode: the mismatch penalty in the last LATE_AT cells (-1: "
                                            "the penalty throughout)", lo=-1.0),
        "late_at": Option(int, 80, "best mode: cells left when late_penalty takes over", lo=0),
        "forecast": Option(float, 0.0, "best mode: a child is charged FORECAST x penalty for each later site with "
                                       "two or more known sides that no unused piece fits (0: off)", lo=0.0),
        "penalty": Option(float, -1.0, "best mode: score cost of a mismatched join (-1: log of the colour count)", lo=-1.0),
        "endgame_nodes": Option(int, 50_000_000, "node budget of one end-game exhaust", lo=1),
        "checkpoint": Option(str, "", "directory: write the frontier there at every level"),
        "resume": Option(str, "", "directory: continue from the frontier written there"),
        "weights": Option(str, "", "polyforms: JSON file of per-piece log-weights (eternity tilability)"),
        "sites": Option(int, 4, "polyforms: the first N free sites in reading order; the most constrained is filled", lo=1, hi=64),
        "boundary": Option(float, 0.1, "polyforms: score cost of a free-cell edge facing a filled cell or the outside", lo=0.0),
        "covers": Option(float, 1.0, "polyforms: score weight of log(fewest options of the next sites)", lo=0.0),
        "touch": Option(bool, True, "polyforms: a child is dead when a free site next to its new piece has no "
                                "fitting option left (false: only the lookahead sites are checked)"),
        "every_site": Option(bool, False, "polyforms: a kept state must have a fitting option at every free site "
                                          "of the board (not only near its new piece)"),
        "sweep": Option(float, 90.0, "polyforms: the direction (degrees) the sites are filled from: 90 = top rows first", lo=-360.0, hi=360.0),
        "probe_at": Option(int, 0, "polyforms: from this many pieces left, each kept state is first searched for "
                                   "probe_nodes nodes and dropped when that proves it has no tiling (0: off)", lo=0),
        "probe_nodes": Option(int, 200, "polyforms: node budget of one probe (probe_at)", lo=1),
    }

    def check(self, puzzle, mode: str) -> None:
        """One name, two searches: the edge beam, and the XCC beam (``beam_xcc``) for
        everything else, which has mode first only."""
        super().check(puzzle, mode)
        _window_shape(self.options["window"])
        if puzzle.kind != "edge":
            if mode != "first":
                raise UsageError(f"solver beam: mode {mode!r} is for edge matching; {puzzle.kind} puzzles have "
                                 "mode first")
        given = getattr(self, "given", frozenset())
        for opt in sorted(given):  # an option that does not apply is refused, never ignored
            if opt in POLY_ONLY and puzzle.kind == "edge":
                raise UsageError(f"solver beam: option {opt} is for polyform (XCC) puzzles, not edge matching")
            if opt in EDGE_ONLY and puzzle.kind != "edge":
                raise UsageError(f"solver beam: option {opt} is for edge matching, not {puzzle.kind} puzzles")
            if opt in BEST_ONLY and mode != "best":
                raise UsageError(f"solver beam: option {opt} is for mode best, not mode {mode}")

    def warm(self, puzzle, mode: str) -> None:
        """The edge beam's kernels (scores, expansion, end-game) or the XCC beam's and Algorithm C."""
        if puzzle.kind == "edge":
            warmup.once(("beam", mode), lambda: Beam({"width": 4}).solve(warmup.tiny_edge(), mode=mode))
            if mode == "best":
                warmup.once(("beam", "repair"), _warm_repair)
        else:
            warmup.once(("beam", "xcc"), lambda: Beam({"width": 4}).solve(warmup.tiny_xcc_puzzle(), mode="first"))

    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        if puzzle.kind != "edge":
            from .beam_xcc import XCCBeamRun

            return XCCBeamRun(puzzle, self.options).solve(limits, progress)
        if mode == "best" and self.options["jobs"] > 1:
            res = _parallel_best(puzzle, self.options, limits, progress)
        else:
            res = BeamRun(puzzle, self.options, best=(mode == "best")).solve(limits, progress)
        if mode == "best" and res.best_score is not None:  # the beam proves nothing, unless the board is perfect
            res.optimal = res.best_score == puzzle.n_joins
        return res


def _warm_repair() -> None:
    """Load the repair kernels: a few steps on a scrambled 5x5 board."""
    from puzzles.generate import edge_puzzle

    from .repair import Repair

    p, sol = edge_puzzle(5, 5, 2, 4, 3)
    rep = Repair(p, 0, (3, 3))
    pc, rt = rep.board(sol)
    rt[6], rt[12] = (rt[6] + 1) % 4, (rt[12] + 1) % 4  # two inner pieces turned: mismatches to repair
    rep.run(rep.placements(pc, rt), time.perf_counter() + 0.05)


def available_memory() -> int | None:
    """Bytes the machine can still give (``MemAvailable``), or None where that is not known."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _parallel_best(p: EdgePuzzle, options: dict, limits: Limits, progress) -> SolveResult:
    """``jobs`` independent best-mode runs (seeds seed .. seed+jobs-1) in forked processes, each to
    the time limit; the best board wins.  Each job checkpoints its own best board (``best<i>.npz``);
    a resume starts every job from the best of them."""
    from solving.race import race

    t0 = time.perf_counter()
    o = dict(options)

    def job_of(i):
        def job(stop):
            run = BeamRun(p, {**o, "seed": o["seed"] + i, "_job": i, "jobs": 1, "_share": o["jobs"]}, best=True)
            # each job's progress lines, marked with its number (written from its own process)
            tell = None if progress is None else (lambda info: progress({"job": i, **info}))
            r = run.solve(limits, tell)
            if r.status == "error":
                raise RuntimeError(r.message)
            return ([tuple(x) for x in r.solutions[0]] if r.solutions else None, r.best_score, r.stats)
        return job

    deadline = None if limits.time_s is None else time.monotonic() + limits.time_s + 2.0
    outs = race([job_of(i) for i in range(o["jobs"])], settles=lambda r: False, deadline=deadline)
    done = [x for x in outs if x.result is not None and x.result[0] is not None]
    if not done:
        errors = "; ".join(x.error for x in outs if x.error) or "no job returned a board"
        return SolveResult("error", [], None, None, {"time_s": time.perf_counter() - t0}, errors)
    win = max(done, key=lambda x: x.result[1])
    pl, score, stats = win.result
    scores = {x.index: (x.result[1] if x.result else x.error) for x in outs}
    stats = {**stats, "jobs": o["jobs"], "job_scores": [scores.get(i) for i in range(o["jobs"])],
             "winner": win.index, "time_s": time.perf_counter() - t0}
    if progress:
        progress({"score": score})
    return SolveResult("solved", [[EdgePlacement(*x) for x in pl]], None, score, stats,
                       f"best of {o['jobs']} jobs: job {win.index}")


class BeamRun:
    """Tables, options and the frontier of one beam search."""

    def __init__(self, p: EdgePuzzle, o: dict, best: bool):
        o = dict(o)
        if o["order"] == "auto":  # the shorter boundary: fewer open edges, sharper scores
            o["order"] = "colscan" if p.cols > p.rows else "rowscan"
        if o["exhaust_at"] < 0:
            o["exhaust_at"] = min(30, p.n_cells // 4)
        self.p, self.o, self.best = p, o, best
        tables = EdgeTables(p, o["order"])
        self.tables = tables
        n = p.n_cells
        self.n = n
        self.order = tables.order
        depth_of = np.empty(n, np.int64)
        depth_of[self.order] = np.arange(n)
        self.dep_nbd = np.zeros(4 * (n + 1), np.int64)
        for k in range(n):
            for j in range(int(tables.dep_nk[k])):
                self.dep_nbd[4 * k + j] = depth_of[tables.dep_nb[4 * k + j]]
        # dep_free[4k + s]: side s of the depth-k cell faces a cell filled later (an open edge until then)
        self.dep_free = np.zeros(4 * (n + 1), np.bool_)
        for k, cell in enumerate(self.order):
            for s in range(4):
                nb = p.neighbour(int(cell), s)
                self.dep_free[4 * k + s] = nb >= 0 and depth_of[nb] > k
        # edge pools (see _term): 0 frame, 1 a rim piece's inward edge, 2 an inner piece's edge
        out = [p.outside_sides(c) if p.bordered else (False,) * 4 for c in range(n)]

        def own_cat(outs, s):
            if not any(outs):
                return 2
            return 0 if outs[(s + 1) % 4] or outs[(s + 3) % 4] else 1

        self.cell_cat = np.full(4 * (n + 1), 2, np.int64)
        self.dep_cat = np.full(4 * (n + 1), 2, np.int64)
        for k, cell in enumerate(self.order):
            cell = int(cell)
            for s in range(4):
                self.cell_cat[4 * k + s] = own_cat(out[cell], s)
                nb = p.neighbour(cell, s)
                if nb >= 0 and any(out[nb]):
                    self.dep_cat[4 * k + s] = 0 if any(out[cell]) else 1
        self.order_cls = np.append(tables.cls_of[self.order], 0).astype(np.int64)
        # the forecast's sites at depth k: later sites with two or more sides known by then
        looks: list[list[int]] = [[] for _ in range(n)]
        for kk in range(n if o["forecast"] > 0 else 0):
            known = sorted(int(self.dep_nbd[4 * kk + j]) for j in range(int(tables.dep_nk[kk])))
            if tables.dep_fixed[kk] < 0 and len(known) >= 2:
                for k in range(known[1], kk):  # from its second known side until it is filled
                    looks[k].append(kk)
        self.look_ptr = np.concatenate([[0], np.cumsum([len(x) for x in looks])]).astype(np.int64)
        self.look_cell = np.array([kk for x in looks for kk in x] + [0], np.int64)
        self.n_col = int(tables.n_col)
        self.allow = slip_allowance(o["slips"], n)
        colours = {int(c) for c in np.unique(p.pieces) if c > 0}
        self.penalty = o["penalty"] if o["penalty"] >= 0 else math.log(max(2, len(colours)))
        if not best:
            self.penalty = 0.0
        # pen[k]: the penalty of the children made at depth k (late_penalty in the last late_at cells)
        self.pen = np.full(n + 1, self.penalty)
        if best and o["late_penalty"] >= 0 and o["late_at"] > 0:
            self.pen[max(0, n - o["late_at"]):] = o["late_penalty"]
        # (piece, rotation) -> a candidate index with those colours (for the codec)
        lut = np.full((p.n_pieces, 4), -1, np.int64)
        for ci in range(len(tables.s_piece) - 1, -1, -1):
            lut[tables.s_piece[ci], tables.s_rot[ci]] = ci
        self.lut = lut
        # twin[q]: the previous free piece identical to q (same colours up to rotation), or -1
        fixed = {f.piece for f in p.fixed}
        self.twin = np.full(p.n_pieces, -1, np.int64)
        last: dict = {}
        for q in range(p.n_pieces):
            if q in fixed:
                continue
            key = min(tuple(int(x) for x in p.placed(q, r)) for r in range(4))
            self.twin[q] = last.get(key, -1)
            last[key] = q
        zr = np.random.default_rng(0x5E1B7)
        self.zu = zr.integers(0, 2**63, p.n_pieces, dtype=np.int64).astype(np.uint64)
        self.zb = zr.integers(0, 2**63, (4 * n, self.n_col), dtype=np.int64).astype(np.uint64)
        self.lg, self.ldf = log_tables(4 * p.n_pieces + 8)
        # the narrowest integers that hold a state's numbers: a row of Eternity II is 1.1 KB, not 3.4
        self.cdt = np.int16 if len(tables.s_piece) < 2**15 else np.int32
        self.s_piece16 = tables.s_piece.astype(np.int16 if p.n_pieces < 2**15 else np.int32)
        self.s_rot8 = tables.s_rot.astype(np.int8)
        self.rdt = np.int16 if 4 * p.n_pieces + 8 < 2**15 else np.int32
        self.stats = {"levels": [], "endgame_states": 0, "endgame_nodes": 0, "endgame_gave_up": 0}

    # -------------------------------------------------------------- states
    # A frontier (``Frontier``) holds one row a state.
    def root(self):
        p, n = self.p, self.n
        nc = self.n_col
        rem = np.zeros((1, 3 * nc), self.rdt)
        for q in range(p.n_pieces):
            greys = tuple(int(c) == 0 for c in p.pieces[q]) if p.bordered else (False,) * 4
            for s, c in enumerate(p.pieces[q]):
                if c > 0:
                    cat = 2 if not any(greys) else (0 if greys[(s + 1) % 4] or greys[(s + 3) % 4] else 1)
                    rem[0, cat * nc + int(c)] += 1
        return Frontier(np.zeros((1, n), self.cdt), np.zeros((1, p.n_pieces), np.bool_), rem,
                        np.zeros((1, 3 * nc), self.rdt), np.zeros(1, np.int64), np.zeros(1, np.uint64), np.zeros(1))

    def _materialise(self, k, states, sp, sc, sm):
        tables, Wn = self.tables, len(sp)
        new = (np.empty((Wn, self.n), self.cdt), np.empty((Wn, self.p.n_pieces), np.bool_),
               np.empty((Wn, 3 * self.n_col), self.rdt), np.empty((Wn, 3 * self.n_col), self.rdt),
               np.empty(Wn, np.int64),
               np.empty(Wn, np.uint64))
        T, bounds = self._ranges(Wn)

        def run(j):
            a, b = bounds[j], bounds[j + 1]
            _children(k, sp[a:b], sc[a:b], sm[a:b], states.cands, states.used, states.rem, states.need, states.hash,
                      self.zu, self.zb, self.cell_cat, self.dep_cat, self.n_col, tables.s_piece, tables.s_col,
                      tables.dep_nk, self.dep_nbd, tables.dep_side, self.dep_free, *(x[a:b] for x in new))

        self._map(run, T)
        return new

    def rebuild(self, k: int, cands: np.ndarray, mis: np.ndarray, score: np.ndarray):
        """A frontier from its placements alone (resume): replay them level by level."""
        W = cands.shape[0]
        states = Frontier(*(np.repeat(a, W, axis=0) for a in self.root()))
        for d in range(k):
            states = Frontier(*self._materialise(d, states, np.arange(W), cands[:, d].copy(), mis), score)
        return states

    def _cut_rank(self, width: int) -> int:
        """The rank of the exact child that bounds the mismatch children (0: no bound); a quarter
        more than the width, as duplicates leave the beam."""
        return 0 if self.o["cut"] < 0 else width + width // 4 + 64

    def _ranges(self, n_states: int) -> tuple[int, np.ndarray]:
        """(T, bounds): a level of n_states cut into T ranges, one a thread: ``threads``, but one
        for narrow levels, where starting threads costs more than it saves."""
        T = max(1, min(self.o["threads"], n_states // PARALLEL_MIN))
        return T, np.linspace(0, n_states, T + 1).astype(np.int64)

    def _map(self, fn, n: int) -> list:
        """fn(0..n-1), on the run's threads when n > 1 (the kernels release the GIL)."""
        if n == 1:
            return [fn(0)]
        if getattr(self, "_pool", None) is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=self.o["threads"], thread_name_prefix="beam")
        return list(self._pool.map(fn, range(n)))

    def _children_of(self, k, states, width, force):
        """Every child of the level, as parts (consecutive runs of the children, in order), each
        (parent, candidate, mismatches, score, hash) arrays of the same length: parts, not one
        array, as a copy of a wide level's children took gigabytes.  The states are cut into one
        range a thread; with the mismatch cut, all ranges make their exact children first
        (phase 0), then the threshold is taken over all of them and each range makes its
        mismatch children (phase 1)."""
        cands, used, rem, need, mis, hsh, _ = states
        tables = self.tables
        W = cands.shape[0]
        T, bounds = self._ranges(W)
        if T > 1:
            self.stats["threaded_levels"] = self.stats.get("threaded_levels", 0) + 1
        cut_rank = self._cut_rank(width)
        split = cut_rank > 0 and self.best and self.o["score"] == "pairings"
        cap = max(1024, (W // T + 1) * 16)
        while True:
            made, bases = np.zeros(W, np.int64), np.zeros(W)
            outs = [(np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64),
                     np.empty(cap, np.float64), np.empty(cap, np.uint64)) for _ in range(T)]

            def run(j, phase, m0, gain, thr, made=made, bases=bases, outs=outs):
                return _expand(k, bounds[j], bounds[j + 1], phase, m0, gain, thr, made, bases,
                               cands, used, rem, need, mis, hsh, self.twin, self.zu, self.zb, self.cell_cat,
                               self.dep_cat, self.order_cls, tables.dep_nk, self.dep_nbd, tables.dep_side,
                               tables.dep_base, tables.dep_mul, tables.dep_fixed, self.dep_free, tables.tab_base,
                               tables.tab_ptr, tables.s_piece, tables.s_col, self.n_col, self.o["lookahead"],
                               self.allow, self.best, self.pen[k], self.o["score"] == "pairings", force, self.lg,
                               self.ldf, self.o["cut"], self.o["forecast"], self.look_ptr, self.look_cell, *outs[j])

            res = self._map(lambda j: run(j, 0 if split else 2, 0, 0.0, -1e300), T)
            if split and all(r[0] >= 0 for r in res):
                ms = [r[0] for r in res]
                total, thr = sum(ms), -1e300
                gain = max(r[1] for r in res)
                if total >= cut_rank:
                    exact = np.concatenate([outs[j][3][:ms[j]] for j in range(T)]) if T > 1 else outs[0][3][:ms[0]]
                    thr = float(np.partition(exact, total - cut_rank)[total - cut_rank])
                elif self.o["cut_states"] > 0 and gain > -1e299:
                    # too few exact children to bound by: only the states with the best bounds (the
                    # kernel's test) make mismatch children, cut_states times as many as places are left
                    take = int(self.o["cut_states"] * (cut_rank - total)) + 1
                    if take < W:
                        bound = bases + gain + self.o["cut"] - self.pen[k] * (mis + 1)
                        thr = float(np.partition(bound, W - take)[W - take])
                res = self._map(lambda j, ms=ms, gain=gain, thr=thr: run(j, 1, ms[j], gain, thr), T)
            if all(r[0] >= 0 for r in res):
                break
            # the kernel counted the children it had no room for: the next try has room for them
            cap = max(2 * cap, int(1.25 * max(-r[0] for r in res if r[0] < 0)) + 1024)
        if T == 1:
            return [tuple(a[:res[0][0]] for a in outs[0])]
        # the order of one thread: every range's phase-0 children, then every range's phase-1 ones
        # (so the seeded tie-breaks, and the run, do not depend on the number of threads)
        mid = ms if split else [r[0] for r in res]
        return [tuple(a[0:mid[j]] for a in outs[j]) for j in range(T)] + \
               [tuple(a[mid[j]:res[j][0]] for a in outs[j]) for j in range(T)]

    def expand(self, k, states, width, rng, force=False):
        parts = self._children_of(k, states, width, force)
        m = sum(len(p[0]) for p in parts)
        if m == 0:
            if self.best and not force:  # best mode always ends in a full board: break the slips this once
                self.stats["forced_levels"] = self.stats.get("forced_levels", 0) + 1
                return self.expand(k, states, width, rng, force=True)
            return None, 0
        pool = 2 * width + 64  # children worth sorting: the beam keeps `width`, some are duplicates
        if self.o["score"] == "pairings":
            # seeded tie-break, then negated for the ascending partition; in place, as a wide level
            # has tens of millions of children
            neg = rng.random(m)
            neg *= -1e-9
            at = 0
            for p in parts:
                neg[at:at + len(p[3])] -= p[3]
                at += len(p[3])
        while True:
            if self.o["score"] == "pairings":
                if m > pool:  # a partial sort: only the best `pool` children are ranked
                    top = np.argpartition(neg, pool)[:pool]
                    ranked = top[np.argsort(neg[top], kind="stable")]
                else:
                    ranked = np.argsort(neg, kind="stable")
            else:
                ranked = np.arange(min(m, pool))
            # one child per hash (the best scored): equal hashes have the same future
            _, first = np.unique(_take(parts, 4, ranked), return_index=True)
            if len(first) >= width or len(ranked) >= m:
                break
            pool *= 4  # too many duplicates among the best: rank more of them
        keep = ranked[np.sort(first)]
        if self.o["per_parent"] > 0:  # diversity: no parent fills the beam with its own children
            keep = _per_parent(keep, _take(parts, 0, np.arange(m)), self.o["per_parent"], width, len(states.cands))
        keep = keep[:width]
        sp, sc, sm = _take(parts, 0, keep), _take(parts, 1, keep), _take(parts, 2, keep)
        score = -neg[keep] if self.o["score"] == "pairings" else _take(parts, 3, keep)
        return Frontier(*self._materialise(k, states, sp, sc, sm), score), m

    def placements(self, row) -> list[EdgePlacement]:
        tables = self.tables
        return [EdgePlacement(int(self.order[k]), int(tables.s_piece[row[k]]), int(tables.s_rot[row[k]]))
                for k in range(self.n)]

    # -------------------------------------------------------------- checkpoints
    def fingerprint(self) -> str:
        keep = {k: v for k, v in self.o.items()
                if k not in ("checkpoint", "resume", "endgame_nodes", "repair", "window", "jobs", "_job", "_share", "tail",
                             "threads")}
        for name, off in (("forecast", 0.0), ("late_penalty", -1.0), ("late_at", 80)):
            if keep.get(name) == off:
                keep.pop(name, None)  # checkpoints written before these options existed still resume
        h = hashlib.sha256(self.p.pieces.tobytes() + json.dumps([self.p.rows, self.p.cols, keep, self.best],
                                                                sort_keys=True).encode())
        return h.hexdigest()[:16]

    def _frontier_name(self) -> str:
        """The frontier checkpoint's name: one a job."""
        return f"frontier{self.o.get('_job', '')}"

    def save(self, d: Path, k: int, width: int, states) -> None:
        cands, mis, score = states.cands, states.mis, states.score
        pieces = self.s_piece16[cands[:, :k]]  # narrow: a million states' copies stay small
        rots = self.s_rot8[cands[:, :k]]
        packed = codec.pack(pieces, rots, self.p.n_pieces)
        checkpoint.save(d, self._frontier_name(), packed=packed, mis=mis, score=score, level=k, width=width,
                        fingerprint=self.fingerprint(), bits_per_tile=codec.bits_per_tile(self.p.n_pieces))

    def load(self, d: Path):
        z = checkpoint.load(d, self._frontier_name(), self.fingerprint())
        k = int(z["level"])
        pieces, rots = codec.unpack(z["packed"], k, self.p.n_pieces)
        cands = np.zeros((pieces.shape[0], self.n), self.cdt)
        cands[:, :k] = self.lut[pieces, rots]
        return k, int(z["width"]), self.rebuild(k, cands, z["mis"].astype(np.int64), z["score"].astype(np.float64))

    # -------------------------------------------------------------- the run
    def solve(self, limits: Limits, progress) -> SolveResult:
        """The run; in mode best, Ctrl-C ends it with the best board so far (``stats["interrupted"]``),
        which the caller writes before it exits, instead of losing it."""
        self._t0 = time.perf_counter()
        self.best_pl = None
        try:
            return self._solve(limits, progress)
        except KeyboardInterrupt:
            if not self.best or self.best_pl is None:
                raise
            self._save_best(force=True)
            res = self._result("solved", [self.best_pl], self.best_score, self._t0, self.history,
                               "interrupted: the best board so far")
            res.stats["interrupted"] = True
            return res

    def _solve(self, limits: Limits, progress) -> SolveResult:
        t0 = self._t0
        deadline = None if limits.time_s is None else t0 + limits.time_s
        o = self.o
        self.history = []
        budget = self.best and deadline is not None and o["schedule"] != "widen"
        if o["schedule"] == "budget" and deadline is None:
            raise UsageError("solver beam: schedule=budget needs a time limit")
        repairing = self.best and deadline is not None and o["repair"] > 0
        beam_deadline = deadline
        if repairing:
            beam_deadline = t0 + (1.0 - o["repair"]) * (deadline - t0)
        self.best_pl, self.best_score = None, None  # the best board as placements (repair works on these)
        resumed = self._load_best() if self.best and o["resume"] else None
        if resumed is not None:  # a best board was checkpointed: go on from it
            status = "board"
            self._better(resumed[0], resumed[1], t0, progress, save=False)
            self.stats["resumed_score"] = resumed[1]
            cut_width = self._frontier_width() if budget else None
            if cut_width is not None:
                # killed during a pass: that pass goes on from its frontier (a time model from two
                # narrow passes lets it shrink to meet the deadline), then the repair phase; a
                # narrow pass cut short (a probe) gives way to the schedule again
                self._calibrate(t0, beam_deadline)
                if cut_width >= _planned_width(self._model, beam_deadline - time.perf_counter()) / 2:
                    self.stats["resumed_pass"] = cut_width
                    status = self._pass(cut_width, beam_deadline, progress, t0, resume=True, profile=self._model)
                else:
                    status = self._budget_passes(t0, beam_deadline, progress)
            elif repairing and o["tail"] > 0:
                self._calibrate(t0, deadline)
        elif budget:
            status = self._budget_passes(t0, beam_deadline, progress)
        else:
            widths = [o["width"]]
            if self.best:  # anytime: narrow first, wider while time is left
                widths = sorted({max(1, min(o["width"], w)) for w in (16, 256, 4096)} | {o["width"]})
            status = "dead"
            for wi, width in enumerate(widths):
                status = self._pass(width, beam_deadline, progress, t0, resume=(wi == 0))
                if status in ("solution", "limit", "perfect"):
                    break
        if status == "solution":
            return self._result("solved", [self.placements(self.solution)], None, t0, self.history)
        if self.best and self.best_pl is not None:
            if repairing and time.perf_counter() < deadline and self.best_score < self.p.n_joins:
                self._repair(t0, deadline, progress)
            self._save_best(force=True)
            return self._result("solved", [self.best_pl], self.best_score, t0, self.history)
        # a dead beam proves nothing (the search is incomplete): the width was the limit
        return self._result("limit", [], None, t0, self.history,
                            "the beam died out: no survivor completed (beam search is incomplete; try a wider beam)"
                            if status == "dead" else "")

    def _frontier_width(self) -> int | None:
        """The width of the pass whose frontier the resume directory holds, when that pass was cut
        short (its level is below the board's end) and was written under these options; else None."""
        f = Path(self.o["resume"]) / f"{self._frontier_name()}.npz"
        try:
            with np.load(f) as z:
                if str(z["fingerprint"]) != self.fingerprint() or int(z["level"]) >= self.n:
                    return None
                return int(z["width"])
        except (OSError, KeyError, ValueError):
            return None

    def _calibrate(self, t0, deadline) -> None:
        """The time model for tail passes after a resume: two narrow passes from the root, which
        neither read nor write checkpoints."""
        saved, self.o = self.o, {**self.o, "resume": "", "checkpoint": ""}
        try:
            runs = []
            for w in (32, 256):
                self._pass(w, deadline, None, t0, resume=False)
                runs.append(self._profile)
        finally:
            self.o = saved
        self._model = _level_model(*runs)

    def _pass(self, width, deadline, progress, t0, resume, profile=None):
        """One beam pass; returns "solution", "board", "dead" or "limit" and keeps the best board."""
        res = self._one_run(width, deadline, progress, t0, resume, profile)
        if res is None:
            return "limit"
        kind, row, mis = res
        if kind == "solution":
            self.solution = row
        if kind == "board":
            self._better(self.placements(row), self.p.n_joins - mis, t0, progress, width=width)
            if self.o["checkpoint"]:  # the pass is over: its board is kept, its frontier is not needed
                self._save_best(force=True)
                (Path(self.o["checkpoint"]) / f"{self._frontier_name()}.npz").unlink(missing_ok=True)
            if mis == 0:
                return "perfect"  # nothing left to improve
        if kind == "board" and deadline is not None and time.perf_counter() >= deadline:
            return "limit"
        return kind

    # -------------------------------------------------------------- best boards
    def _better(self, placements, score, t0, progress, width=None, save=True) -> None:
        """A board from the beam or the repair: kept (and checkpointed) when it beats the best."""
        if self.best_score is not None and score <= self.best_score:
            return
        self.best_pl, self.best_score = placements, score
        self.history.append((round(time.perf_counter() - t0, 3), score))
        if progress:
            progress({"score": score, **({"width": width} if width else {})})
        if save:
            self._save_best()

    def _save_best(self, force=False) -> None:
        """The best board into the checkpoint directory, at most every ``BEST_EVERY_S`` (a kill loses
        less than that): ``best.npz`` to resume from, ``best.svg`` with its mismatches in red and
        ``best.url`` for the e2.bucas.name viewer."""
        ck = self.o["checkpoint"]
        now = time.perf_counter()
        if not ck or self.best_pl is None or (not force and now - getattr(self, "_saved_at", -1e9) < BEST_EVERY_S):
            return
        if getattr(self, "_saved_score", None) == self.best_score:
            return
        from puzzles.formats import bucas_url
        from puzzles.outputs import atomic_write
        from puzzles.render import render_edge

        d = Path(ck)
        pl = np.array([(q.cell, q.piece, q.rotation) for q in self.best_pl], np.int64)
        checkpoint.save(d, f"best{self.o.get('_job', '')}", placements=pl, score=self.best_score,
                        fingerprint=self.puzzle_fingerprint())
        atomic_write(d / f"best{self.o.get('_job', '')}.svg", render_edge(self.p, self.best_pl))
        atomic_write(d / f"best{self.o.get('_job', '')}.url", bucas_url(self.p, self.best_pl) + "\n")
        self._saved_at, self._saved_score = now, self.best_score

    def puzzle_fingerprint(self) -> str:
        """Best boards resume under any options: only the puzzle must be the same."""
        fixed = sorted(tuple(f) for f in self.p.fixed)
        return hashlib.sha256(self.p.pieces.tobytes() + json.dumps([self.p.rows, self.p.cols, fixed]).encode()
                              ).hexdigest()[:16]

    def _load_best(self):
        """The best checkpointed board in the resume directory (any job's), or None."""
        d = Path(self.o["resume"])
        found = None
        for f in sorted(d.glob("best*.npz")):
            z = checkpoint.load(d, f.stem, self.puzzle_fingerprint())
            pl = [EdgePlacement(int(c), int(q), int(r)) for c, q, r in z["placements"]]
            if found is None or int(z["score"]) > found[1]:
                found = (pl, int(z["score"]))
        if found is None and not any(d.glob("frontier*.npz")):
            raise ValueError(f"resume: {d}: no snapshot there")
        return found

    def _repair(self, t0, deadline, progress) -> None:
        """The repair phase: tail passes (the beam again over the last rows of the best board,
        wider, since fewer levels are left) alternating with large-neighbourhood steps
        (``repair.Repair``) on the best board, until the deadline."""
        from .repair import Repair

        rep = Repair(self.p, self.o["seed"], _window_shape(self.o["window"]))
        start, total = self.best_score, deadline - time.perf_counter()
        tails = {"passes": 0, "better": 0}
        rng = np.random.default_rng([self.o["seed"], 0x7A11])

        def better(pl, score):
            self._better(pl, score, t0, progress)

        salt = 0
        while time.perf_counter() < deadline and self.best_score < self.p.n_joins:
            salt += 1
            if getattr(self, "_model", None) is not None and self.o["tail"] > 0:
                rows = int(rng.integers(2, self.o["tail"] + 1))
                slice_s = min(max(2.0, total / 6), deadline - time.perf_counter())
                before = self.best_score
                self._tail_pass(rows * min(self.p.cols, self.p.rows), slice_s, t0, progress, salt)
                tails["passes"] += 1
                tails["better"] += int(self.best_score > before)
            lns_s = min(max(1.0, total / 12), deadline - time.perf_counter())
            if lns_s > 0:
                rep.run(self.best_pl, time.perf_counter() + lns_s, better)
        self.stats["repair"] = {**rep.stats, "tail_passes": tails["passes"], "tail_better": tails["better"],
                                "from": start, "to": self.best_score}

    def _tail_pass(self, cells: int, seconds: float, t0, progress, salt) -> None:
        """The beam from the best board's first n - cells placements, as wide as ``seconds`` allow."""
        n = self.n
        k0 = max(1, n - cells)
        fixed, per = self._model
        width = int((0.9 * seconds - float(fixed[k0:].sum())) / max(float(per[k0:].sum()), 1e-9))
        if width < 2:
            return
        at = {pl.cell: pl for pl in self.best_pl}
        row = np.zeros((1, n), np.int64)
        for d in range(k0):
            pl = at[int(self.order[d])]
            row[0, d] = self.lut[pl.piece, pl.rotation]
        prefix = self.placements(np.concatenate([row[0, :k0], np.zeros(n - k0, np.int64)]))[:k0]
        mis = np.array([_mismatches(self.p, prefix)], np.int64)
        states = self.rebuild(k0, row, mis, np.zeros(1))
        deadline = time.perf_counter() + seconds
        res = self._one_run(width, deadline, None, t0, False, self._model, start_at=(k0, states), salt=salt)
        if res is not None and res[0] == "board":
            self._better(self.placements(res[1]), self.p.n_joins - res[2], t0, progress, width=width)

    def memory_width(self) -> int:
        """The widest pass the memory left holds, shared among ``jobs`` runs.  A state costs about
        5.5 times its frontier row (two frontiers, the children, the sort, the checkpoint's copies):
        measured 13.4 GB at width 700,000 on Eternity II with int64 rows, where two such jobs on
        24 GB met the out-of-memory killer, and 2.1 GB at width 300,000 with the int16 rows (1.1 KB,
        6.9 KB a state by this rule)."""
        avail = available_memory()
        if avail is None:
            return 1 << 40
        row = (np.dtype(self.cdt).itemsize * self.n + self.p.n_pieces + 6 * np.dtype(self.rdt).itemsize * self.n_col
               + 24)
        per_state = 5.5 * row + 1024
        return max(256, int(0.8 * avail / (per_state * self.o.get("_share", 1))))

    def _budget_passes(self, t0, deadline, progress):
        """Best mode with a time limit: two narrow passes (32 and 256 states) measure what a
        level costs, a fixed part plus a part per state; each further pass is as wide as the
        time left allows (and shrinks its width on the way when it falls behind), so the passes
        started finish and the budget is used.  With a long budget, passes 8x wider measure
        again first, while one costs under ``PROBE_SHARE`` of the time left (an hour: 2,048 and
        16,384 states; a minute: none)."""
        o = self.o
        cap = self._cap = min(o["max_width"] or 1 << 40, self.memory_width())  # grow stays within it too
        width, model, status, runs = min(32, cap), None, "dead", []
        while True:
            tp = time.perf_counter()
            status = self._pass(width, deadline, progress, t0, resume=not runs, profile=model)
            self.stats.setdefault("passes", []).append((width, round(time.perf_counter() - tp, 2)))
            if status in ("solution", "limit", "perfect"):
                return status
            runs.append(self._profile)
            left = deadline - time.perf_counter()
            if len(runs) == 1:
                nxt = min(256, cap)
            else:
                model = self._model = _level_model(runs[-2], runs[-1])
                fixed, per = model[0].sum(), model[1].sum()
                nxt = min(cap, _planned_width(model, left))
                probe = 8 * width
                if probe < nxt and fixed + per * probe < PROBE_SHARE * left:
                    # a long budget: measure again, wider, so that the model is fitted where the
                    # cut prunes as in the wide pass and where the threads run (not below PARALLEL_MIN)
                    nxt = probe
            if nxt < 2 * width:  # a pass not twice as wide would not find a better board often enough
                return status
            width = nxt

    def _result(self, status, sols, score, t0, history, message=""):
        self.stats.update(time_s=time.perf_counter() - t0, score_history=history, order=self.o["order"])
        self.stats["nodes"] = sum(lv["children"] for lv in self.stats["levels"]) + self.stats["endgame_nodes"]
        return SolveResult(status, sols, None, score, self.stats, message)

    def _one_run(self, width, deadline, progress, t0, resume, profile=None, start_at=None, salt=0):
        """One pass from the root (or from a checkpointed frontier, or from ``start_at`` =
        (depth, frontier): a tail pass, which writes no frontier checkpoint)."""
        o, n = self.o, self.n
        rng_base = o["seed"] + 7919 * salt
        ck = Path(o["checkpoint"]) if o["checkpoint"] and start_at is None else None
        k = 0
        states = self.root()
        if start_at is not None:
            k, states = start_at
        elif resume and o["resume"]:
            k, width, states = self.load(Path(o["resume"]))
        exhaust = not self.best and o["exhaust_at"] > 0
        greedy = False
        # per level: seconds taken and states expanded (the next pass plans with them)
        took, expanded = np.zeros(n), np.zeros(n)
        start = time.perf_counter()
        spent_pred = 0.0
        planned = width
        grow = o["grow"] or (4.0 if o["repair"] == 0 else 1.0)
        last_ck = time.perf_counter()
        k_first = k
        while k < n:
            if exhaust and n - k <= o["exhaust_at"]:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                if not self.best:
                    return ("limit", None, None)
                greedy = True  # out of time: finish the best state alone
            if profile is not None and deadline is not None:
                # behind plan? shrink the width so that the rest of the pass fits before the deadline
                fixed, per = profile
                now = time.perf_counter()
                # the model's error so far in this pass, once there is enough of it to judge
                ratio = (now - start) / spent_pred if spent_pred > 1.0 else 1.0
                ratio = min(max(ratio, 0.5), 2.0)
                rest = (float(fixed[k:].sum()) + float(per[k:].sum()) * planned) * ratio
                width = planned
                if float(per[k:].sum()) > 0:
                    fit = ((deadline - now) / ratio - float(fixed[k:].sum())) / float(per[k:].sum())
                    if rest > deadline - now:
                        width = max(1, min(planned, int(fit)))
                        self.stats["shrunk"] = self.stats.get("shrunk", 0) + 1
                    elif grow > 1.0 and spent_pred > 1.0 and fit > 1.1 * planned:
                        # ahead of the model (the narrow passes that fitted it cost more per state,
                        # e.g. with ``cut``): widen, at most ``grow`` times the planned width
                        width = int(min(fit * 0.95, grow * planned, getattr(self, "_cap", 1 << 40)))
                        self.stats["grown"] = self.stats.get("grown", 0) + 1
                spent_pred += float(fixed[k] + per[k] * len(states.cands))
            tl = time.perf_counter()
            rng = np.random.default_rng([rng_base, k, width])
            new, m = self.expand(k, states, 1 if greedy else width, rng)
            if new is None:
                return ("dead", None, None)
            dt = time.perf_counter() - tl
            took[k], expanded[k] = dt, len(states.cands)
            states = new
            k += 1
            lv = {"level": k, "kept": int(len(states.cands)), "children": int(m), "best": float(states.score.max()),
                  "worst": float(states.score.min()), "time_s": dt}
            self.stats["levels"].append(lv)
            # a small frontier is written at every level; a wide one (Eternity II for an hour: hundreds
            # of MB) at most every FRONTIER_EVERY_S, so a kill loses at most that much of the pass
            if ck is not None and (len(states.cands) * k <= 2_000_000
                                   or time.perf_counter() - last_ck >= FRONTIER_EVERY_S):
                self.save(ck, k, width, states)
                last_ck = time.perf_counter()
            if progress:
                done = k - k_first  # levels of this pass: its own pace gives the time to its end
                rate = m / dt if dt > 0 else 0.0
                left = (n - (o["exhaust_at"] if exhaust else 0)) - k
                el = time.perf_counter() - start
                progress({"level": k, "width": width, "kept": lv["kept"], "best_score": round(lv["best"], 2),
                          "worst_score": round(lv["worst"], 2), "states_per_s": round(rate),
                          "eta_s": round(el / done * left, 1) if done else None})
        self._profile = (took, expanded)
        if k >= n:
            mis = states.mis
            i = int(np.argmin(mis)) if self.best else 0
            if not self.best:
                return ("solution", states.cands[i], 0)
            return ("board", states.cands[i], int(mis[i]))
        # the end-game: every survivor, best first
        tables = self.tables
        cur = np.zeros(n + 1, np.int64)
        end = np.zeros(n + 1, np.int64)
        for i in range(len(states.cands)):
            if deadline is not None and time.perf_counter() >= deadline:
                return ("limit", None, None)
            row = states.cands[i].copy()
            used = states.used[i].copy()
            code, nodes = _endgame(k, n, row, used, tables.dep_nk, self.dep_nbd, tables.dep_side, tables.dep_base, tables.dep_mul,
                                   tables.dep_fixed, tables.tab_ptr, tables.s_piece, tables.s_col, cur, end, o["endgame_nodes"])
            self.stats["endgame_states"] += 1
            self.stats["endgame_nodes"] += int(nodes)
            if code == 1:
                return ("solution", row, 0)
            if code == 2:
                self.stats["endgame_gave_up"] += 1
        return ("dead", None, None)
