"""`beam`: Selby and Riordan's beam search for edge matching ([Selby2001]; docs/ARCHITECTURE.md, References).

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


@njit(cache=True)
def _expand(k, n_states, cands, used, rem, need, mis, hsh, twin, zu, zb, cell_cat, dep_cat, order_cls, dep_nk, dep_nbd, dep_side, dep_base, dep_mul,
            dep_fixed, dep_free, tab_base, tab_ptr, s_piece, s_col, n_col, lookahead, allow, best, penalty,
            use_score, force, lg, ldf, out_parent, out_cand, out_mis, out_score, out_hash):
    """All children of the states at depth k: (parent, candidate, mismatches,
    score) into the out arrays; returns the number written, or -1 when the
    out arrays are too small."""
    cap = out_parent.shape[0]
    m = 0
    n = cands.shape[1]
    demand = np.empty(4, np.int64)
    dcat = np.empty(4, np.int64)
    touched = np.empty(8, np.int64)
    for i in range(n_states):
        nk = dep_nk[k]
        for j in range(nk):
            d = dep_nbd[4 * k + j]
            demand[j] = s_col[4 * cands[i, d] + ((dep_side[4 * k + j] + 2) & 3)]
            dcat[j] = dep_cat[4 * d + ((dep_side[4 * k + j] + 2) & 3)]
        base_score = 0.0
        if use_score:
            for c in range(1, n_col):
                base_score += _term(rem[i], need[i], c, n_col, best, penalty, lg, ldf)
        produced = 0
        # passes: 0 exact matches, 1 one more mismatch, 2 anything of the class (best mode, no child yet)
        for pas in range(3):
            if pas == 1 and not (best and mis[i] < allow[k]):
                continue
            if pas == 2 and not (best and produced == 0):
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
                            before = _term(rem[i], need[i], c, n_col, best, penalty, lg, ldf)
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
                            lo2, hi2 = tab_ptr[b0 + key], tab_ptr[b0 + key + 1]
                            ok = False
                            for c2 in range(lo2, hi2):
                                if not used[i, s_piece[c2]]:
                                    ok = True
                                    break
                            if not ok:
                                dead = True
                                break
                        used[i, q] = False
                        if dead:
                            continue
                    if m >= cap:
                        return -1
                    out_parent[m] = i
                    out_cand[m] = ci
                    out_mis[m] = mis[i] + mm
                    out_score[m] = sc
                    out_hash[m] = _child_hash(hsh[i], k, ci, cands[i], s_piece, s_col, dep_nk, dep_nbd, dep_side,
                                              dep_free, zu, zb)
                    m += 1
                    produced += 1
    return m


@njit(cache=True)
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
        "score": Option(str, "pairings", "child score: colour pairings (Owen-style) or none", ("pairings", "none")),
        "order": Option(str, "auto", "the static order of the sites (auto: scan along the shorter side)",
                        ("auto",) + tuple(o for o in ORDERS if o != "mrv")),
        "seed": Option(int, 0, "tie-break noise seed: the same seed gives the same run", lo=0),
        "slips": Option(str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k (default: anywhere)"),
        "penalty": Option(float, -1.0, "best mode: score cost of a mismatched join (-1: log of the colour count)", lo=-1.0),
        "endgame_nodes": Option(int, 50_000_000, "node budget of one end-game exhaust", lo=1),
        "checkpoint": Option(str, "", "directory: write the frontier there at every level"),
        "resume": Option(str, "", "directory: continue from the frontier written there"),
        "weights": Option(str, "", "polyforms: JSON file of per-piece log-weights (eternity tilability)"),
        "sites": Option(int, 4, "polyforms: the first N free sites in reading order; the most constrained is filled", lo=1, hi=64),
        "boundary": Option(float, 0.1, "polyforms: score cost of a free-cell edge facing a filled cell or the outside", lo=0.0),
        "covers": Option(float, 1.0, "polyforms: score weight of log(fewest options of the next sites)", lo=0.0),
        "sweep": Option(float, 90.0, "polyforms: the direction (degrees) the sites are filled from: 90 = top rows first", lo=-360.0, hi=360.0),
    }

    def check(self, puzzle, mode: str) -> None:
        """One name, two searches: the edge beam, and the XCC beam (``beam_xcc``) for
        everything else, which has mode first only and no checkpoints yet."""
        super().check(puzzle, mode)
        if puzzle.kind != "edge":
            if mode != "first":
                raise UsageError(f"solver beam: mode {mode!r} is for edge matching; {puzzle.kind} puzzles have "
                                 "mode first")
            if self.options["checkpoint"] or self.options["resume"]:
                raise UsageError("solver beam: checkpoints are for edge matching only (not yet for polyforms)")

    def warm(self, puzzle, mode: str) -> None:
        """The edge beam's kernels (scores, expansion, end-game) or the XCC beam's and Algorithm C."""
        if puzzle.kind == "edge":
            warmup.once(("beam", mode), lambda: Beam({"width": 4}).solve(warmup.tiny_edge(), mode=mode))
        else:
            warmup.once(("beam", "xcc"), lambda: Beam({"width": 4}).solve(warmup.tiny_xcc_puzzle(), mode="first"))

    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        if puzzle.kind != "edge":
            from .beam_xcc import XCCBeamRun

            return XCCBeamRun(puzzle, self.options).solve(limits, progress)
        run = BeamRun(puzzle, self.options, best=(mode == "best"))
        return run.solve(limits, progress)


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
        self.n_col = int(tables.n_col)
        self.allow = slip_allowance(o["slips"], n)
        colours = {int(c) for c in np.unique(p.pieces) if c > 0}
        self.penalty = o["penalty"] if o["penalty"] >= 0 else math.log(max(2, len(colours)))
        if not best:
            self.penalty = 0.0
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
        self.stats = {"levels": [], "endgame_states": 0, "endgame_nodes": 0, "endgame_gave_up": 0}

    # -------------------------------------------------------------- states
    # A frontier (``Frontier``) holds one row a state.
    def root(self):
        p, n = self.p, self.n
        nc = self.n_col
        rem = np.zeros((1, 3 * nc), np.int64)
        for q in range(p.n_pieces):
            greys = tuple(int(c) == 0 for c in p.pieces[q]) if p.bordered else (False,) * 4
            for s, c in enumerate(p.pieces[q]):
                if c > 0:
                    cat = 2 if not any(greys) else (0 if greys[(s + 1) % 4] or greys[(s + 3) % 4] else 1)
                    rem[0, cat * nc + int(c)] += 1
        return Frontier(np.zeros((1, n), np.int64), np.zeros((1, p.n_pieces), np.bool_), rem,
                        np.zeros((1, 3 * nc), np.int64), np.zeros(1, np.int64), np.zeros(1, np.uint64), np.zeros(1))

    def _materialise(self, k, states, sp, sc, sm):
        tables, Wn = self.tables, len(sp)
        new = (np.empty((Wn, self.n), np.int64), np.empty((Wn, self.p.n_pieces), np.bool_),
               np.empty((Wn, 3 * self.n_col), np.int64), np.empty((Wn, 3 * self.n_col), np.int64),
               np.empty(Wn, np.int64),
               np.empty(Wn, np.uint64))
        _children(k, sp, sc, sm, states.cands, states.used, states.rem, states.need, states.hash, self.zu, self.zb,
                  self.cell_cat, self.dep_cat, self.n_col,
                  tables.s_piece, tables.s_col, tables.dep_nk, self.dep_nbd, tables.dep_side, self.dep_free, *new)
        return new

    def rebuild(self, k: int, cands: np.ndarray, mis: np.ndarray, score: np.ndarray):
        """A frontier from its placements alone (resume): replay them level by level."""
        W = cands.shape[0]
        states = Frontier(*(np.repeat(a, W, axis=0) for a in self.root()))
        for d in range(k):
            states = Frontier(*self._materialise(d, states, np.arange(W), cands[:, d].copy(), mis), score)
        return states

    def expand(self, k, states, width, rng, force=False):
        cands, used, rem, need, mis, hsh, _ = states
        tables = self.tables
        W = cands.shape[0]
        cap = max(1024, W * 16)
        while True:
            out_parent = np.empty(cap, np.int64)
            out_cand = np.empty(cap, np.int64)
            out_mis = np.empty(cap, np.int64)
            out_score = np.empty(cap, np.float64)
            out_hash = np.empty(cap, np.uint64)
            m = _expand(k, W, cands, used, rem, need, mis, hsh, self.twin, self.zu, self.zb, self.cell_cat,
                        self.dep_cat, self.order_cls,
                        tables.dep_nk, self.dep_nbd, tables.dep_side, tables.dep_base, tables.dep_mul, tables.dep_fixed, self.dep_free,
                        tables.tab_base, tables.tab_ptr, tables.s_piece, tables.s_col, self.n_col, self.o["lookahead"], self.allow,
                        self.best, self.penalty, self.o["score"] == "pairings", force, self.lg, self.ldf, out_parent, out_cand, out_mis,
                        out_score, out_hash)
            if m >= 0:
                break
            cap *= 4
        if m == 0:
            if self.best and not force:  # best mode always ends in a full board: break the slips this once
                self.stats["forced_levels"] = self.stats.get("forced_levels", 0) + 1
                return self.expand(k, states, width, rng, force=True)
            return None, 0
        score = out_score[:m]
        if self.o["score"] == "pairings":
            score = score + rng.random(m) * 1e-9  # seeded tie-break
            ranked = np.argsort(-score, kind="stable")
        else:
            ranked = np.arange(m)
        # one child per hash (the best scored): equal hashes have the same future
        _, first = np.unique(out_hash[:m][ranked], return_index=True)
        keep = ranked[np.sort(first)][:width]
        sp, sc, sm = out_parent[:m][keep], out_cand[:m][keep], out_mis[:m][keep]
        return Frontier(*self._materialise(k, states, sp, sc, sm), score[keep]), m

    def placements(self, row) -> list[EdgePlacement]:
        tables = self.tables
        return [EdgePlacement(int(self.order[k]), int(tables.s_piece[row[k]]), int(tables.s_rot[row[k]]))
                for k in range(self.n)]

    # -------------------------------------------------------------- checkpoints
    def fingerprint(self) -> str:
        keep = {k: v for k, v in self.o.items() if k not in ("checkpoint", "resume", "endgame_nodes")}
        h = hashlib.sha256(self.p.pieces.tobytes() + json.dumps([self.p.rows, self.p.cols, keep, self.best],
                                                                sort_keys=True).encode())
        return h.hexdigest()[:16]

    def save(self, d: Path, k: int, width: int, states) -> None:
        cands, mis, score = states.cands, states.mis, states.score
        pieces = self.tables.s_piece[cands[:, :k]]
        rots = self.tables.s_rot[cands[:, :k]]
        packed = codec.pack(pieces, rots, self.p.n_pieces)
        checkpoint.save(d, "frontier", packed=packed, mis=mis, score=score, level=k, width=width,
                        fingerprint=self.fingerprint(), bits_per_tile=codec.bits_per_tile(self.p.n_pieces))

    def load(self, d: Path):
        z = checkpoint.load(d, "frontier", self.fingerprint())
        k = int(z["level"])
        pieces, rots = codec.unpack(z["packed"], k, self.p.n_pieces)
        cands = np.zeros((pieces.shape[0], self.n), np.int64)
        cands[:, :k] = self.lut[pieces, rots]
        return k, int(z["width"]), self.rebuild(k, cands, z["mis"].astype(np.int64), z["score"].astype(np.float64))

    # -------------------------------------------------------------- the run
    def solve(self, limits: Limits, progress) -> SolveResult:
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else t0 + limits.time_s
        o = self.o
        best_board, best_mis, history = None, None, []
        widths = [o["width"]]
        if self.best:  # anytime: narrow first, wider while time is left
            widths = sorted({max(1, min(o["width"], w)) for w in (16, 256, 4096)} | {o["width"]})
        status = "dead"
        for wi, width in enumerate(widths):
            res = self._one_run(width, deadline, progress, t0, resume=(wi == 0))
            if res is None:
                status = "limit"
                break
            kind, row, mis = res
            if kind == "solution":
                return self._result("solved", [self.placements(row)], None, t0, history)
            if kind == "board" and (best_mis is None or mis < best_mis):
                best_board, best_mis = row, mis
                history.append((round(time.perf_counter() - t0, 3), self.p.n_joins - mis))
                if progress:
                    progress({"score": self.p.n_joins - mis, "width": width})
            if kind == "limit":
                status = "limit"
                break
            if deadline is not None and time.perf_counter() >= deadline:
                status = "limit"
                break
        if self.best and best_board is not None:
            return self._result("solved", [self.placements(best_board)], self.p.n_joins - best_mis, t0, history)
        # a dead beam proves nothing (the search is incomplete): the width was the limit
        return self._result("limit", [], None, t0, history,
                            "the beam died out: no survivor completed (beam search is incomplete; try a wider beam)"
                            if status == "dead" else "")

    def _result(self, status, sols, score, t0, history, message=""):
        self.stats.update(time_s=time.perf_counter() - t0, score_history=history, order=self.o["order"])
        self.stats["nodes"] = sum(lv["children"] for lv in self.stats["levels"]) + self.stats["endgame_nodes"]
        return SolveResult(status, sols, None, score, self.stats, message)

    def _one_run(self, width, deadline, progress, t0, resume):
        o, n = self.o, self.n
        rng_base = o["seed"]
        ck = Path(o["checkpoint"]) if o["checkpoint"] else None
        k = 0
        states = self.root()
        if resume and o["resume"]:
            k, width, states = self.load(Path(o["resume"]))
        exhaust = not self.best and o["exhaust_at"] > 0
        greedy = False
        while k < n:
            if exhaust and n - k <= o["exhaust_at"]:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                if not self.best:
                    return ("limit", None, None)
                greedy = True  # out of time: finish the best state alone
            tl = time.perf_counter()
            rng = np.random.default_rng([rng_base, k, width])
            new, m = self.expand(k, states, 1 if greedy else width, rng)
            if new is None:
                return ("dead", None, None)
            states = new
            k += 1
            dt = time.perf_counter() - tl
            lv = {"level": k, "kept": int(len(states.cands)), "children": int(m), "best": float(states.score.max()),
                  "worst": float(states.score.min()), "time_s": dt}
            self.stats["levels"].append(lv)
            if ck is not None:
                self.save(ck, k, width, states)
            if progress:
                done = len(self.stats["levels"])
                rate = m / dt if dt > 0 else 0.0
                left = (n - (o["exhaust_at"] if exhaust else 0)) - k
                el = time.perf_counter() - t0
                progress({"level": k, "kept": lv["kept"], "best_score": round(lv["best"], 2),
                          "worst_score": round(lv["worst"], 2), "states_per_s": round(rate),
                          "eta_s": round(el / done * left, 1) if done else None})
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
