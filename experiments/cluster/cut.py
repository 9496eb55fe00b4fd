"""The cut of one search into parts, on paper: how evenly a cut spreads over many workers.

The distributed search (``experiments/cluster/search.py``) cuts the row scan at a depth into parts (every
legal filling of its first free cells) and hands them out.  Here each part's subtree is sized by
Knuth's estimate (``baseline.edge.probe``), the parts go to workers largest first (each to the
least loaded worker: LPT), and the balance is the most loaded worker's work against the mean.
*Re-cutting* splits every part larger than a quarter of a worker's mean load into its children (the next
free cell filled every legal way), again and again, as a search that cuts big subtrees again
while it runs would; the balance is then taken over the finer parts.  The time to exhaust is the
estimated tree over the workers at a given rate per core."""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, replace

from baseline.edge.probe import Prober
from baseline.edge.split import prefix_cells, prefixes
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed

RECUT_SHARE = 0.25  # a part above this share of a worker's mean load is cut again


@dataclass
class CutReport:
    """What a cut of a count into parts predicts: the parts, their balance over the workers, and the hours."""

    workers: int
    depth: int  # the first cut's depth
    parts: int  # parts after re-cutting (the first cut's when not re-cut)
    first_parts: int
    total: float  # estimated placements of the whole tree (the parts' sum)
    balance: float  # the most loaded worker over the mean, the first cut as it is
    balance_recut: float  # the same after re-cutting
    largest_share: float  # the largest part of the first cut over the mean load
    hours: float  # estimated hours to exhaust on ``workers`` cores at ``rate`` placements a second each


def lpt(sizes: list[float], workers: int) -> float:
    """Largest first, each to the least loaded worker: the largest load over the mean."""
    loads = [0.0] * workers
    heapq.heapify(loads)
    for s in sorted(sizes, reverse=True):
        heapq.heapreplace(loads, loads[0] + s)
    mean = sum(loads) / workers
    return max(loads) / mean if mean > 0 else math.inf


def _children(p: EdgePuzzle, prefix: tuple[EdgePlacement, ...]) -> list[tuple[EdgePlacement, ...]]:
    """The prefix extended by the next free cell of the row scan, every legal way."""
    q = replace(p, fixed=list(p.fixed) + [Fixed(pl.cell, pl.piece, pl.rotation) for pl in prefix])
    if not prefix_cells(q, 1):
        return []
    return [prefix + ext for ext in prefixes(q, 1)]


def simulate(
    p: EdgePuzzle, workers: list[int], rate: float, probes: int = 200, share: float = RECUT_SHARE, progress=None
) -> list[CutReport]:
    """The cut of the row scan for each worker count (``cut_depth``'s rule: the shallowest depth with
    8 parts a worker), sized by Knuth's estimate, as it is and re-cut (parts above ``share`` of a
    worker's mean load)."""
    from experiments.cluster.search import PARTS_PER_WORKER

    prober = Prober(p)
    sized: dict[tuple, float] = {}

    def size(pre: tuple) -> float:
        if pre not in sized:
            sized[pre] = prober.estimate(pre, probes)
        return sized[pre]

    out = []
    for w in workers:
        depth, parts = 1, prefixes(p, 1)
        while len(parts) < PARTS_PER_WORKER * w and depth < p.n_cells:
            depth += 1
            parts = prefixes(p, depth)
        t0 = time.perf_counter()
        first = [size(pre) for pre in parts]
        total = sum(first)
        mean = total / w
        # re-cut: the parts above RECUT_SHARE of the mean load, into their children, until none is
        work = list(zip(first, parts))
        heap = [(-s, i) for i, (s, _) in enumerate(work)]
        heapq.heapify(heap)
        final: list[float] = []
        pending = {i: pre for i, (_, pre) in enumerate(work)}
        nxt = len(work)
        while heap:
            neg, i = heapq.heappop(heap)
            pre = pending.pop(i)
            kids = _children(p, pre) if -neg > share * mean else []
            if not kids:
                final.append(-neg)
                continue
            for kid in kids:
                heapq.heappush(heap, (-size(kid), nxt))
                pending[nxt] = kid
                nxt += 1
        if progress:
            progress(
                f"{w} workers: {len(parts)} parts at depth {depth}, {len(final)} re-cut, {time.perf_counter() - t0:.0f} s"
            )
        out.append(
            CutReport(
                workers=w,
                depth=depth,
                parts=len(final),
                first_parts=len(parts),
                total=total,
                balance=lpt(first, w),
                balance_recut=lpt(final, w),
                largest_share=max(first) / mean if mean else math.inf,
                hours=total / (rate * w) / 3600,
            )
        )
    return out
