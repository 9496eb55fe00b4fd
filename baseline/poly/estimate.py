"""Knuth's estimate of the `poly` engine's exhaustive tree, by random probes.

Below the critical size only an exhaust finds the planted solution [Selby2001],
so the first question about a region is whether its exhaust fits in the time
there is.  Knuth (1975, "Estimating the efficiency of backtrack programs")
walks random paths from a state: where the search would branch d ways, the
path takes one of them at random, and the product of the d's met so far
weighs what it meets.  The mean over probes is an unbiased estimate of the
tree's node count and of its solution count; the spread of the probes says
how far to trust it (heavy tails: the mean creeps up as probes are added).
Where most nodes hide in rare deep branches a single path undercounts (the
boomerang: a tenth of its exhaust), so a probe can follow ``branches``
children of each node instead (Purdom 1978, partial backtracking).

The probes use the engine's own site choice, pocket check and node count
(a node is a placement tried), so the estimate is of the tree that
``backtrack --opt engine=poly`` searches -- from the empty region, or from a
beam state's bitset (``PolySearch.restart``).
"""

from __future__ import annotations

import math
import time
from typing import NamedTuple

import numpy as np
from numba import njit

from baseline.poly import engine as poly
from puzzles.errors import UsageError


class ProbeWork(NamedTuple):
    """A batch of probes' work arrays: the engine's counting buffers (``PolySearch`` lends them), and
    per level the drawn children and where each probe stands."""

    wit: np.ndarray
    later: np.ndarray
    stamp: np.ndarray
    stack: np.ndarray
    scratch: np.ndarray
    best_buf: np.ndarray
    cur: np.ndarray  # a node's options
    viable: np.ndarray  # those with a subtree
    kids: np.ndarray  # [level, i] the children drawn at a level
    nk: np.ndarray  # [level] how many
    ik: np.ndarray  # [level] the next one to visit
    wl: np.ndarray  # [level] the weight of the path down to it
    pl: np.ndarray  # [level] the first free site there


class ProbeOut(NamedTuple):
    """What a batch of probes reports: per probe its weighted nodes, solutions and depth; per level the
    weighted nodes summed over the batch."""

    nodes_out: np.ndarray
    sols_out: np.ndarray
    depth_out: np.ndarray
    level_sum: np.ndarray


@njit(cache=True)
def _children(p, board, pt, n_sites_look, wit, later, area, stamp, stack, scratch, best_buf, cur, viable):
    """The node at ``board``: (d, v, s) -- the options of its site (the engine's d, the nodes
    below it), how many of them have a subtree (written to ``viable``), and how many complete
    the board.  d is -1 when every site is covered already (a solution when the primary items are).

    Each option is looked at one level ahead: one that cuts off a dead pocket or leaves a
    site with no option is a leaf (counted, not entered), one that covers everything is
    a solution.  Still unbiased, and it keeps probes alive in the thin, deep trees of
    sub-critical regions, where most children die at once and plain probes almost never
    reach the depths that hold the nodes."""
    scan, nbr = pt.scan, pt.nbr
    ow_ptr = pt.ow_ptr
    ow_idx, ow_mask, tag, prim, os_ptr = pt.ow_idx, pt.ow_mask, pt.tag, pt.prim, pt.os_ptr
    os_idx = pt.os_idx
    n_scan = scan.shape[0]
    d = poly._choose(p, board, pt, wit, later, n_sites_look, False, scratch, best_buf)
    if d <= 0:
        return d, 0, 0
    for i in range(d):
        cur[i] = best_buf[i]
    v = 0
    n_sol = 0
    for i in range(d):
        o = cur[i]
        poly._place(o, board, ow_ptr, ow_idx, ow_mask, tag, True)
        if not (area > 0 and poly._pocket(o, board, os_ptr, os_idx, nbr, area, stamp, stack)):
            p2 = p
            while p2 < n_scan and poly._bit(board, scan[p2]):
                p2 += 1
            d2 = poly._choose(p2, board, pt, wit, later, n_sites_look, False, scratch, best_buf)
            if d2 > 0:
                viable[v] = o
                v += 1
            elif d2 < 0 and poly._covered(board, prim):
                n_sol += 1
        poly._place(o, board, ow_ptr, ow_idx, ow_mask, tag, False)
    return d, v, n_sol


@njit(cache=True)
def _probe_batch(n_probes, start, board, pt, n_sites_look, pw, area, branches, visit_cap, out):
    """``n_probes`` probes from the bitset ``start``: each one's weighted node total, its weighted
    solutions, its depth, and the weighted nodes per level.

    A probe follows ``branches`` children of a node, drawn at random without replacement
    from those with a subtree, each weighted by their number over the drawn ones (Purdom's
    partial backtracking; 1 is Knuth's single path), while it has visited fewer than
    ``visit_cap`` nodes, then one: a count fixed before each draw keeps the mean unbiased."""
    nodes_out, sols_out, depth_out, level_sum = out
    wit, later, stamp, stack, scratch, best_buf, cur, viable, kids, nk, ik, wl, pl = pw
    scan = pt.scan
    ow_ptr = pt.ow_ptr
    ow_idx, ow_mask, tag, prim = pt.ow_idx, pt.ow_mask, pt.tag, pt.prim
    n_scan = scan.shape[0]
    top = level_sum.shape[0]
    for k in range(n_probes):
        board[:] = start
        wit[:, :] = -1
        total = 0.0
        sols = 0.0
        deepest = 0
        visited = 0
        lv = 0
        wl[0] = 1.0
        pl[0] = 0
        phase = 0  # 0 enter the node at lv, 1 enter its next drawn child, 2 back up to its parent
        while True:
            if phase == 0:
                p = pl[lv]
                while p < n_scan and poly._bit(board, scan[p]):
                    p += 1
                d, v, n_sol = _children(p, board, pt, n_sites_look, wit, later, area, stamp, stack, scratch, best_buf,
                                        cur, viable)
                visited += 1
                deepest = max(deepest, lv)
                w = wl[lv]
                if d < 0:  # only at the start: every site covered already
                    if poly._covered(board, prim):
                        sols += w
                    phase = 2
                    continue
                total += w * d
                level_sum[min(lv, top - 1)] += w * d
                sols += w * n_sol
                if v == 0 or lv + 1 >= kids.shape[0]:
                    phase = 2
                    continue
                m = min(branches if visited < visit_cap else 1, v)
                for i in range(m):  # m of the v drawn without replacement
                    j = np.random.randint(i, v)
                    viable[i], viable[j] = viable[j], viable[i]
                    kids[lv, i] = viable[i]
                nk[lv] = m
                ik[lv] = 0
                wl[lv + 1] = w * v / m
                pl[lv + 1] = p
                phase = 1
            if phase == 1:
                if ik[lv] < nk[lv]:
                    poly._place(kids[lv, ik[lv]], board, ow_ptr, ow_idx, ow_mask, tag, True)
                    ik[lv] += 1
                    lv += 1
                    phase = 0
                else:
                    phase = 2
            if phase == 2:
                if lv == 0:
                    break
                lv -= 1
                poly._place(kids[lv, ik[lv] - 1], board, ow_ptr, ow_idx, ow_mask, tag, False)
                phase = 1
        nodes_out[k] = total
        sols_out[k] = sols
        depth_out[k] = deepest


def estimate_tree(
    search,
    probes: int = 2000,
    seed: int = 0,
    board: np.ndarray | None = None,
    time_s: float | None = None,
    progress=None,
    branches: int = 1,
    visit_cap: int = 10_000,
) -> dict:
    """Knuth's estimate of ``search``'s exhaustive tree (a ``PolySearch``), from the empty
    region or from ``board`` (the engine's item bitset, as the polyform beam keeps its states).

    Stops after ``probes`` probes or ``time_s`` seconds, whichever is first (at least one
    batch).  Returns the mean nodes and solutions, their standard errors, log10 of the
    nodes, the probes' depths and the estimated nodes per level.  ``branches`` > 1 follows that
    many children of each node (up to ``visit_cap`` nodes a probe): dearer probes, which
    see more of the rare deep branches that hold the nodes of heavy-tailed trees."""
    if branches < 1 or visit_cap < 1:
        raise UsageError("estimate: branches and the visit cap must be at least 1")
    a = search.a
    start = (board if board is not None else np.zeros(a.n_words, np.uint64)).astype(np.uint64)
    depth = len(search.prof) + 1
    level_sum = np.zeros(depth, np.float64)
    cur = np.zeros(max(1, a.max_col), np.int64)  # a node's options, while its children are looked at
    viable = np.zeros(max(1, a.max_col), np.int64)
    kids = np.zeros((depth, branches), np.int64)  # per level: the drawn children, how many, the next one
    nk, ik = np.zeros(depth, np.int64), np.zeros(depth, np.int64)
    wl, pl = np.zeros(depth + 1), np.zeros(depth + 1, np.int64)  # per level: the weight, the first free site
    nodes, sols, depths = [], [], []
    poly.seed_rng(seed)
    t0 = time.perf_counter()
    done = 0
    node_sum = 0.0  # for the progress line
    batch = 4
    while done < probes:
        n = min(batch, probes - done)
        nodes_out, sols_out = np.zeros(n), np.zeros(n)
        depth_out = np.zeros(n, np.int64)
        work = ProbeWork(
            search.wit, search.later, search.stamp, search.stack, search.scratch, search.best_buf, cur, viable,
            kids, nk, ik, wl, pl,
        )  # fmt: skip
        out = ProbeOut(nodes_out, sols_out, depth_out, level_sum)
        area = a.area if search.pockets else 0
        _probe_batch(n, start, search.board, a, search.sites, work, area, branches, visit_cap, out)
        nodes.append(nodes_out)
        sols.append(sols_out)
        depths.append(depth_out)
        done += n
        node_sum += float(nodes_out.sum())
        el = time.perf_counter() - t0
        batch = int(max(1, min(4096, 2 * batch, done / max(el, 1e-3))))  # about a second a batch
        if progress is not None:
            m = node_sum / done
            progress(probes=done, log10_nodes=round(math.log10(m), 2) if m > 0 else None, seconds=round(el, 1))
        if time_s is not None and el >= time_s:
            break
    search.board[:] = start  # the engine's own board: leave it as it was asked for
    nodes_a, sols_a, depth_a = np.concatenate(nodes), np.concatenate(sols), np.concatenate(depths)
    n = len(nodes_a)
    mean = float(nodes_a.mean())  # placements tried, as the engine counts its nodes (the root is none)
    se = float(nodes_a.std(ddof=1) / math.sqrt(n)) if n > 1 else None  # None: one probe has no spread
    smean = float(sols_a.mean())
    sse = float(sols_a.std(ddof=1) / math.sqrt(n)) if n > 1 else None
    per_level = level_sum / n
    last = int(np.nonzero(per_level)[0].max()) + 1 if per_level.any() else 0
    return {
        "probes": n,
        "seconds": round(time.perf_counter() - t0, 3),
        "nodes": mean,
        "nodes_stderr": se,
        "log10_nodes": math.log10(mean) if mean > 0 else None,
        "solutions": smean,
        "solutions_stderr": sse,
        "probes_reaching_a_solution": int((sols_a > 0).sum()),
        "depth_max": int(depth_a.max()),
        "depth_mean": round(float(depth_a.mean()), 2),
        "log10_nodes_per_level": [round(math.log10(v), 3) if v > 0 else None for v in per_level[:last]],
    }
