"""Memoised Algorithm C (DXZ): the search that builds a diagram of all solutions.

Two partial covers that leave the same primary items uncovered and give the
same secondary items the same colours have the same completions, so the
search below remembers, for each such *state*, the diagram node of its
completions and never expands a state twice (DXZ: Nishino, Yasuda, Minato,
Nagata, AAAI 2017).  Where a problem's subproblems repeat (domino tilings,
long strips) the tree shrinks from the number of solutions to the number of
distinct states; where they do not (pentominoes in a box, queens) the memo is
overhead only, which is why ``backtrack`` uses it on request.

The search is the bitset engine's (``bitset.py``: live options one bit each,
clash rows, popcount MRV), so it chooses the same items and tries options
in the same order.  The state key is the uncovered primary items (``Ust``)
and a packed word array of the secondary items' states (``Sst``: 0 free, 1
taken without colour, colour + 1 coloured); choosing option ``o`` ORs its
precomputed mask ``SM[o]`` into ``Sst``, which is exact because a secondary
field is only ever set from 0 to one value (a clash row forbids any other).

The answer is a diagram in the ZDD's chain form (``zdd.py``): the node of a
state whose branch item has live options r1 < ... < rk is the chain
``node(rk, lo=node(r(k-1), ...), hi=completions after rk)``.  Dead states
are remembered too (node 0, the empty family).

The memo is a cache of fixed size: a state lives in one of a few slots from
its hash on, and when they are all taken the oldest is forgotten (an eviction
that loses only time: a forgotten state is searched again, and its diagram
nodes stay valid).  The diagram itself is the memory
that cannot be given back; when it is full the kernel stops with ``FULL``
and the solver says so in one line.
"""

from __future__ import annotations

import json
import time

import numpy as np
from numba import njit

from baseline.runtime.driver import Outcome, drive
from baseline.runtime.kernel import BUDGET, DONE, FINISHED, LEVEL, NODES, PHASE, new_state
from baseline.xcc import bitset
from baseline.xcc.bitset import fewest_options, is_empty, next_option
from baseline.xcc.zdd import Diagram, fingerprint
from puzzles.errors import UsageError
from puzzles.files import formats
from solving import Evidence, SolveResult, Status, accepted, enumerated

__all__ = ["BOT", "FULL", "TOP", "MemoSearch", "run", "secondary_masks", "solve_memo"]

FULL = 4  # return codes beside the kernel's: the diagram's node table is full (at its cap),
GROW = 5  # or the memo or the node table wants to double (below its cap): grow, then call again
BOT, TOP = 0, 1  # the diagram's terminals: the empty family and the family of the empty set

# slots of the memo state array ``ms``
RET = 0  # the node a finished level returns to its parent
N_NODES = 1  # diagram nodes in use (terminals included)
N_MEMO = 2  # memo entries in use
HITS = 3  # memo hits
EVICTIONS = 4  # states forgotten to make room for others
ROOT = 5  # the root's node once the search is done
MS_SLOTS = 6

_MIX = np.uint64(0x9E3779B97F4A7C15)


def secondary_masks(n_items: int, n_primary: int, opt_ptr, opt_items, opt_colors) -> np.ndarray:
    """``SM[o]``: the packed secondary fields option ``o`` sets (options x words, uint64).

    Each secondary item has a field of ``b`` bits, enough for the largest colour + 1."""
    n_opt = len(opt_ptr) - 1
    n_sec = n_items - n_primary
    top = int(opt_colors.max()) if len(opt_colors) else 0
    b = max(1, (top + 1).bit_length())
    per = 64 // b
    words = max(1, -(-n_sec // per)) if n_sec else 1
    sm = np.zeros((max(n_opt, 1), words), np.uint64)
    owner = np.repeat(np.arange(n_opt), np.diff(np.asarray(opt_ptr, np.int64)).astype(np.int64))
    items = np.asarray(opt_items, np.int64)
    sec = items >= n_primary
    if sec.any():
        s = items[sec] - n_primary
        val = np.where(opt_colors[sec] == 0, 1, opt_colors[sec].astype(np.int64) + 1).astype(np.uint64)
        shift = ((s % per) * b).astype(np.uint64)
        np.bitwise_or.at(sm, (owner[sec], s // per), np.left_shift(val, shift))
    return sm


@njit(cache=True, inline="always")
def _hash(Ust, Sst, l):
    h = np.uint64(0xCBF29CE484222325)
    for w in range(Ust.shape[1]):
        h = (h ^ Ust[l, w]) * _MIX
        h ^= h >> np.uint64(29)
    for w in range(Sst.shape[1]):
        h = (h ^ Sst[l, w]) * _MIX
        h ^= h >> np.uint64(29)
    return h


PROBES = 8  # slots a state may sit in, from its hash on: a lookup never looks further


@njit(cache=True)
def _find(tab, Ust, Sst, l, h):
    """The memo slot of the state at level l: its own when it is remembered (its last word, the
    node + 1, is not 0), else a slot to remember it in: an empty one among its PROBES slots, or
    ``-1 - first slot`` when they all hold other states (one of them is then forgotten).
    A slot is one row of ``tab``: the key's words, then the node + 1, so a probe reads one line."""
    WI = Ust.shape[1]
    K = tab.shape[1] - 1
    mask = tab.shape[0] - 1
    s0 = np.int64(h & np.uint64(mask))
    for p in range(PROBES):
        s = (s0 + p) & mask
        if tab[s, K] == 0:
            return s
        same = True
        for w in range(WI):
            if tab[s, w] != Ust[l, w]:
                same = False
                break
        if same:
            for w in range(Sst.shape[1]):
                if tab[s, WI + w] != Sst[l, w]:
                    same = False
                    break
        if same:
            return s
    return -1 - s0


@njit(cache=True)
def _remember(tab, ms, Ust, Sst, l, h, node):
    """Store the state at level l (hash h) -> node, over the first of its slots when they are full."""
    K = tab.shape[1] - 1
    s = _find(tab, Ust, Sst, l, h)
    if s < 0:
        s = -1 - s
        tab[s, K] = 0
        ms[N_MEMO] -= 1
        ms[EVICTIONS] += 1
    if tab[s, K] == 0:
        ms[N_MEMO] += 1
        WI = Ust.shape[1]
        for w in range(WI):
            tab[s, w] = Ust[l, w]
        for w in range(Sst.shape[1]):
            tab[s, WI + w] = Sst[l, w]
    tab[s, K] = np.uint64(node + 1)


@njit(cache=True)
def run(prob, path, store, st, ms, budget, memo_cap, node_cap):
    """Advance the memoised search by at most ``budget`` nodes (options tried).

    Returns BUDGET (call again), DONE (``ms[ROOT]`` is the diagram's root),
    GROW (the memo is half full, or the node table full, and below its cap
    ``memo_cap`` / ``node_cap``: double it and call again) or FULL (the node
    table is full at its cap).  The tables start small and grow, so a small
    search touches little memory.
    ``prob``: the bitset problem (M, CONF, PI, SM, lo, hi: ``bitset.build``); ``path``: the search's
    per-level arrays; ``store``: the memo table and the diagram's nodes.
    ``st`` as the other kernels ([0] level, [1] pc: 2 enter level, 5 try the
    next option, 8 return ``ms[RET]`` to the parent; [2] nodes)."""
    tab, lab, zlo, zhi = store
    Lst, Ust, Sst, item, pos, opt, chain, hsh = path
    M, CONF, PI, SM, lo, hi = prob
    W = Lst.shape[1]
    WI = Ust.shape[1]
    WS = Sst.shape[1]
    K = tab.shape[1] - 1
    cap_nodes = lab.shape[0]
    l = st[LEVEL]
    pc = st[PHASE]
    spent = 0
    zero = np.uint64(0)
    while True:
        if pc == 2:
            if is_empty(Ust, l):
                ms[RET] = TOP
                pc = 8
                continue
            if ms[N_MEMO] * 2 >= tab.shape[0] and tab.shape[0] < memo_cap:
                st[LEVEL] = l
                st[PHASE] = pc
                st[NODES] += spent
                return GROW
            h = _hash(Ust, Sst, l)
            hsh[l] = h
            s = _find(tab, Ust, Sst, l, h)
            if s >= 0 and tab[s, K] != zero:
                ms[HITS] += 1
                ms[RET] = np.int64(tab[s, K]) - 1
                pc = 8
                continue
            bi = fewest_options(Lst, Ust, M, lo, hi, l, False)
            if next_option(Lst, M, hi, l, bi, 0) < 0:  # an item no live option covers: a dead state
                _remember(tab, ms, Ust, Sst, l, hsh[l], BOT)
                ms[RET] = BOT
                pc = 8
                continue
            item[l] = bi
            pos[l] = 0
            chain[l] = BOT
            pc = 5
        elif pc == 5:
            i = item[l]
            found = next_option(Lst, M, hi, l, i, pos[l])
            if found < 0:
                _remember(tab, ms, Ust, Sst, l, hsh[l], chain[l])
                ms[RET] = chain[l]
                pc = 8
                continue
            pos[l] = found + 1
            opt[l] = found
            spent += 1
            for w in range(W):
                Lst[l + 1, w] = Lst[l, w] & ~CONF[found, w]
            for w in range(WI):
                Ust[l + 1, w] = Ust[l, w] & ~PI[found, w]
            for w in range(WS):
                Sst[l + 1, w] = Sst[l, w] | SM[found, w]
            l += 1
            pc = 2
            if spent >= budget:
                st[LEVEL] = l
                st[PHASE] = pc
                st[NODES] += spent
                return BUDGET
        else:
            if l == 0:
                ms[ROOT] = ms[RET]
                st[LEVEL] = 0
                st[PHASE] = FINISHED
                st[NODES] += spent
                return DONE
            l -= 1
            r = ms[RET]
            if r != BOT:
                n = ms[N_NODES]
                if n >= cap_nodes:  # resumable: this return is made again once there is room
                    st[LEVEL] = l + 1
                    st[PHASE] = 8
                    st[NODES] += spent
                    return GROW if cap_nodes < node_cap else FULL
                lab[n] = opt[l]
                zlo[n] = chain[l]
                zhi[n] = r
                ms[N_NODES] = n + 1
                chain[l] = n
            pc = 5
    return DONE


@njit(cache=True)
def rehash(tab, new):
    """Move every remembered state into the doubled memo ``new`` (within PROBES slots of its hash);
    returns how many found room."""
    K = new.shape[1] - 1
    mask = new.shape[0] - 1
    moved = 0
    for s in range(tab.shape[0]):
        if tab[s, K] == 0:
            continue
        h = np.uint64(0xCBF29CE484222325)
        for w in range(K):
            h = (h ^ tab[s, w]) * _MIX
            h ^= h >> np.uint64(29)
        t0 = np.int64(h & np.uint64(mask))
        for p in range(PROBES):
            t = (t0 + p) & mask
            if new[t, K] == 0:
                for w in range(K + 1):
                    new[t, w] = tab[s, w]
                moved += 1
                break
    return moved


def narrow_order(xcc) -> np.ndarray:
    """A new number for each item: the primary items in reverse Cuthill-McKee order of the graph
    that joins two items when an option holds both (the secondary items keep theirs).

    The search branches on the first item of fewest options, so on ties the item order decides
    where the partial cover grows.  In a narrow order (small bandwidth) it grows as one front,
    and the states it meets, the uncovered items, are few: a 4 x 60 strip of dominoes has a
    front of 4 cells across the strip instead of 60 along it (its rows in input order)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    n = xcc.n_primary
    new = np.arange(xcc.n_items, dtype=np.int64)
    if n < 3:
        return new
    ptr = np.asarray(xcc.opt_ptr, np.int64)
    items = np.asarray(xcc.opt_items, np.int64)
    owner = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    prim = items < n
    # each option's primary items joined in a path (enough for the graph's bandwidth order)
    a, o = items[prim][:-1], owner[prim][:-1]
    b, o2 = items[prim][1:], owner[prim][1:]
    same = o == o2
    g = coo_matrix((np.ones(int(same.sum())), (a[same], b[same])), shape=(n, n)).tocsr()
    g = g + g.T
    order = reverse_cuthill_mckee(g, symmetric_mode=True)
    new[order] = np.arange(n)
    return new


class MemoSearch:
    """The memoised search over one XCC, resumable between node budgets like the other engines.

    ``memo_mb`` bounds the memory of the memo and of the diagram together: a
    quarter goes to the memo (a cache that evicts once it is that big), the
    rest to the diagram's nodes (20 bytes each).  Both start small and double
    as they fill."""

    def __init__(self, xcc, memo_mb: float = 1024.0):
        self.xcc = xcc
        items = narrow_order(xcc)[np.asarray(xcc.opt_items, np.int64)].astype(np.int32)
        self.M, self.CONF, self.PI, self.lo, self.hi = bitset.build(xcc.n_items, xcc.n_primary, xcc.opt_ptr, items,
                                                                    xcc.opt_colors)
        self.SM = secondary_masks(xcc.n_items, xcc.n_primary, xcc.opt_ptr, xcc.opt_items, xcc.opt_colors)
        depth = xcc.n_primary + 2
        self.Lst = np.zeros((depth, self.M.shape[1]), np.uint64)
        self.Ust = np.zeros((depth, self.PI.shape[1]), np.uint64)
        self.Sst = np.zeros((depth, self.SM.shape[1]), np.uint64)
        bitset.start(self.Lst, self.Ust, xcc.n_options, xcc.n_primary)
        self.item = np.zeros(depth, np.int64)
        self.pos = np.zeros(depth, np.int64)
        self.opt = np.zeros(depth, np.int64)
        self.chain = np.zeros(depth, np.int64)
        budget = int(memo_mb * 2**20)
        key_words = self.Ust.shape[1] + self.Sst.shape[1]
        slot = 8 * (key_words + 1)
        self.memo_cap = 1 << max(10, int(np.log2(max(1, budget // 4 // slot))))
        self.node_cap = max(1024, (budget - self.memo_cap * slot) // 20)
        cap = min(self.memo_cap, 1 << 12)
        self.tab = np.zeros((cap, key_words + 1), np.uint64)
        self.hsh = np.zeros(depth, np.uint64)
        n_nodes = min(self.node_cap, 1 << 12)
        self.lab = np.zeros(n_nodes, np.int32)
        self.zlo = np.zeros(n_nodes, np.int64)
        self.zhi = np.zeros(n_nodes, np.int64)
        self.lab[:2] = -1
        self.st = new_state()
        self.st[PHASE] = 2
        self.ms = np.zeros(MS_SLOTS, np.int64)
        self.ms[N_NODES] = 2

    @property
    def nodes(self) -> int:
        """Search nodes so far."""
        return int(self.st[NODES])

    @property
    def diagram_nodes(self) -> int:
        """Nodes of the diagram of solutions built so far."""
        return int(self.ms[N_NODES])

    def stats(self) -> dict:
        """What the search measured, for the result's stats."""
        ms = self.ms
        return {
            "diagram_nodes": int(ms[N_NODES]),
            "memo_entries": int(ms[N_MEMO]),
            "memo_hits": int(ms[HITS]),
            "memo_evictions": int(ms[EVICTIONS]),
            "memo_slots": len(self.tab),
            "diagram_capacity": len(self.lab),
        }

    def step(self, budget: int) -> int:
        """Search at most ``budget`` nodes; returns the kernel's state code."""
        while True:
            problem = (self.M, self.CONF, self.PI, self.SM, self.lo, self.hi)
            path = (self.Lst, self.Ust, self.Sst, self.item, self.pos, self.opt, self.chain, self.hsh)
            store = (self.tab, self.lab, self.zlo, self.zhi)  # these grow: taken afresh each call
            code = run(problem, path, store, self.st, self.ms, budget, self.memo_cap, self.node_cap)
            if code != GROW:
                return code
            self._grow()

    def _grow(self) -> None:
        """Double the memo when it is half full, or the node table when it is full (each up to its cap)."""
        if self.ms[N_MEMO] * 2 >= len(self.tab) and len(self.tab) < self.memo_cap:
            new = np.zeros((2 * len(self.tab), self.tab.shape[1]), np.uint64)
            moved = rehash(self.tab, new)
            self.ms[EVICTIONS] += int(self.ms[N_MEMO]) - moved
            self.ms[N_MEMO] = moved
            self.tab = new
        if self.ms[N_NODES] >= len(self.lab) and len(self.lab) < self.node_cap:
            n = min(self.node_cap, 2 * len(self.lab))
            for name in ("lab", "zlo", "zhi"):
                a = getattr(self, name)
                b = np.zeros(n, a.dtype)
                b[: len(a)] = a
                setattr(self, name, b)

    def diagram(self):
        """The finished search's diagram (``zdd.Diagram``), trimmed to the nodes in use."""
        n = int(self.ms[N_NODES])
        return Diagram(self.lab[:n].copy(), self.zlo[:n].copy(), self.zhi[:n].copy(), int(self.ms[ROOT]),
                       self.xcc.n_options)


def solve_memo(
    xcc,
    mode: str,
    limits,
    progress,
    build_s: float,
    *,
    memo_mb: float = 1024.0,
    seed: int = 0,
    save: str = "",
    load: str = "",
    puzzle=None,
):
    """Modes count, all, first and sample through the diagram of all solutions.

    The diagram comes from the memoised search, or from ``load`` (a saved one
    of the same XCC); ``save`` writes it.  Mode sample draws
    ``limits.solutions`` solutions uniformly at random (seeded)."""
    t0 = time.perf_counter()
    stats: dict = {"build_s": build_s, "options": xcc.n_options, "items": xcc.n_items}
    diagram: Diagram | None
    if load:
        diagram = Diagram.load(load, fingerprint(xcc))
        complete, nodes = True, 0
    else:
        search = MemoSearch(xcc, memo_mb)
        code = [BUDGET]

        def step(b: int) -> int:
            code[0] = search.step(b)
            return code[0]

        outcome = drive(step, lambda: search.nodes, time_s=limits.time_s, node_limit=limits.nodes, progress=progress,
                        info=lambda: {"nodes": search.nodes, **search.stats()}, on_stop=lambda c: True)
        stats.update(search.stats())
        nodes = search.nodes
        if code[0] == FULL:
            raise UsageError(
                f"solver backtrack: the diagram of all solutions outgrew memo_mb={memo_mb:g} "
                f"({search.diagram_nodes:,} nodes after {nodes:,} search nodes); "
                "raise option memo_mb or count without memo"
            )
        complete = outcome == Outcome.DONE
        diagram = search.diagram() if complete else None
    stats["nodes"] = nodes
    if not complete:
        stats["time_s"] = time.perf_counter() - t0
        return SolveResult(Status.LIMIT, [], None, None, stats)
    assert diagram is not None  # complete: loaded, or made by the finished search
    if save:
        diagram.save(save, fingerprint(xcc))
    stats["diagram_nodes"] = len(diagram)
    total = diagram.count()
    evidence = Evidence.FILE.value if load else Evidence.DIAGRAM.value
    if mode == "sample":
        # drawn in chunks, the time limit looked at between them, with the time the verifier will take over
        # every draw counted in (it checks each one after): a sample cut short is a limit with its draws
        wanted, deadline = limits.solutions or 1, None if limits.time_s is None else t0 + limits.time_s
        solutions: list = []
        chunk, per_check = 0, 0.0
        while len(solutions) < wanted and (deadline is None or time.perf_counter() + per_check * len(solutions) < deadline):
            n = min(SAMPLE_CHUNK, wanted - len(solutions))
            draws = diagram.sample(n, seed if chunk == 0 else derived(seed, chunk))
            solutions += [[xcc.decode[k] for k in s] for s in draws]
            if chunk == 0 and deadline is not None and draws and puzzle is not None:
                few = solutions[:50]
                formats.solution_to_dict(puzzle, few[0])  # its first call imports and builds: not timed
                t = time.perf_counter()
                for s in few:  # timed only: solve_verified checks every draw afterwards, and a command writes it
                    accepted(puzzle, s, "sample")
                    json.dumps(formats.solution_to_dict(puzzle, s)["placements"])
                per_check = (time.perf_counter() - t) / len(few)
            chunk += 1
            if not draws:
                break
        stats["time_s"] = time.perf_counter() - t0
        stats["solutions_in_diagram"] = total
        stats["count_evidence"] = evidence  # the count beside the draws: the diagram's, not the verified draws'
        if total and len(solutions) < wanted:
            stats["drawn"] = len(solutions)
            return SolveResult(Status.LIMIT, solutions, None, None, stats, f"{len(solutions)} of {wanted} drawn")
        status = Status.SOLVED if total else Status.UNSAT
        res = SolveResult(status, solutions, total, None, stats)
        res.evidence = None if total else evidence
        return res
    want = limits.wanted(mode)
    raw = list(diagram.solutions(want)) if mode in ("first", "all") else []
    stats["time_s"] = time.perf_counter() - t0
    res = enumerated(mode, complete=True, solutions=[[xcc.decode[k] for k in s] for s in raw],
                     count=total if mode == "count" else (None if mode == "first" else total), stats=stats, wanted=want)
    if mode == "count" or not raw:  # a count, or no solution: what the diagram says
        res.evidence = evidence
    return res


SAMPLE_CHUNK = 2_000  # draws between two looks at the clock


def derived(seed: int, chunk: int) -> int:
    """The seed of a later chunk of draws (the first chunk keeps ``seed``: a small sample is as it was)."""
    return (seed * 1_000_003 + chunk * 7_919) & 0x7FFFFFFF
