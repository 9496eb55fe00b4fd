"""The searches `backtrack` picks among, behind one interface (``_Search``): Algorithm C on dancing links,
on bitsets, and Selby's poly engine; ``make_search`` chooses by the problem's size and kind."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from typing_extensions import override

from baseline.poly import engine as poly
from baseline.poly import tables as poly_tables
from baseline.runtime import checkpoint
from baseline.runtime.kernel import COUNT, DEEPEST, LEVEL, NODES, PHASE, new_state
from baseline.xcc import bitset, dlx
from puzzles.errors import UsageError
from puzzles.xcc import XCC

# the most clash-row memory (n_options^2 / 8 bytes) the auto engine spends on bitsets
BITSET_MAX_OPTIONS = 12_000


class _Search:
    """What both engines share: counters, the path, snapshots of a paused search."""

    engine = ""
    STATE: tuple[str, ...] = ()
    xcc: XCC

    def step(self, budget: int, stop_on_solution: bool, split_depth: int = -1) -> int:
        """Advance the search by at most ``budget`` nodes; a kernel's return code."""
        raise NotImplementedError

    def current_options(self) -> list[int]:
        """The options of the current path, level by level."""
        raise NotImplementedError

    def _start(self, depth: int, seed: int) -> None:
        """Counters at the root; MRV ties broken at random when ``seed`` >= 0."""
        self.prof = np.zeros(depth, np.int64)
        self.st = new_state()
        self.st[PHASE] = 2  # Algorithm C's step C2: enter level 0
        self.randomize = seed >= 0
        if self.randomize:
            dlx.seed_rng(seed)

    @property
    def nodes(self) -> int:
        return int(self.st[NODES])

    @property
    def count(self) -> int:
        return int(self.st[COUNT])

    def fingerprint(self, mode: str) -> str:
        xcc = self.xcc
        h = hashlib.sha256(
            xcc.opt_ptr.tobytes()
            + xcc.opt_items.tobytes()
            + xcc.opt_colors.tobytes()
            + f"{xcc.n_primary}/{mode}/{self.engine}".encode()
            + getattr(self, "allow", np.zeros(0, np.int8)).tobytes()
            + (b"static" if getattr(self, "static", False) else b"")
        )
        return h.hexdigest()[:16]

    def save(self, d: Path, mode: str, solutions: list[list[int]]) -> None:
        """Snapshot the paused search (its path and state) and the solutions found so far."""
        flat = np.array([k for s in solutions for k in s], np.int64)
        lens = np.array([len(s) for s in solutions], np.int64)
        checkpoint.save(
            d,
            "search",
            fingerprint=self.fingerprint(mode),
            sol_flat=flat,
            sol_lens=lens,
            **{k: getattr(self, k) for k in self.STATE},
        )

    def load(self, d: Path, mode: str) -> list[list[int]]:
        z = checkpoint.load(d, "search", self.fingerprint(mode))
        for k in self.STATE:
            a, v = getattr(self, k), z[k]
            if k == "st" and a.shape != v.shape:  # a snapshot from before the state had its BEST_MIS slot
                a[: len(v)] = v
            else:
                a[...] = v
        out, pos = [], 0
        for n in z["sol_lens"].tolist():
            out.append(z["sol_flat"][pos : pos + n].tolist())
            pos += n
        return out


class DLXSearch(_Search):
    """Dancing links: memory linear in the problem, for large problems."""

    engine = "dlx"
    STATE = ("UL", "DL", "COLOR", "LEN", "LL", "RL", "x", "chosen", "st", "prof")

    def __init__(self, xcc: XCC, seed: int = -1, allow: np.ndarray | None = None, static: bool = False):
        self.xcc = xcc
        # the branch rule (``dlx.run``): items allowed to branch on (empty: all), first in order or fewest options
        self.allow = np.zeros(0, np.int8) if allow is None else allow
        self.static = static
        (self.TOP, self.UL, self.DL, self.COLOR, self.LEN, self.OPT, self.LL, self.RL) = dlx.build_links(
            xcc.n_items, xcc.n_primary, xcc.opt_ptr, xcc.opt_items, xcc.opt_colors
        )
        depth = xcc.n_primary + 2
        self.x = np.zeros(depth, np.int32)
        self.chosen = np.zeros(depth, np.int32)
        self._start(depth, seed)

    @override
    def step(self, budget: int, stop_on_solution: bool, split_depth: int = -1) -> int:
        links = (self.TOP, self.UL, self.DL, self.COLOR, self.LEN, self.LL, self.RL)
        path = (self.x, self.chosen, self.st, self.prof)
        return dlx.run(*links, *path, budget, stop_on_solution, split_depth, self.randomize, self.allow, self.static)

    def current_options(self) -> list[int]:
        """Option indices of x[0..level-1] (a solution or a leaf of a split)."""
        return [int(self.OPT[self.x[k]]) for k in range(int(self.st[LEVEL]))]


class BitsetSearch(_Search):
    """Live options as one bitset per level: the faster engine on small problems."""

    engine = "bitset"
    STATE = ("Lst", "Ust", "item", "pos", "st", "prof")

    def __init__(self, xcc: XCC, seed: int = -1):
        self.xcc = xcc
        self.M, self.CONF, self.PI, self.lo, self.hi = bitset.build(
            xcc.n_items, xcc.n_primary, xcc.opt_ptr, xcc.opt_items, xcc.opt_colors
        )
        depth = xcc.n_primary + 2
        self.Lst = np.zeros((depth, self.M.shape[1]), np.uint64)
        self.Ust = np.zeros((depth, self.PI.shape[1]), np.uint64)
        bitset.start(self.Lst, self.Ust, xcc.n_options, xcc.n_primary)
        self.item = np.zeros(depth, np.int64)
        self.pos = np.zeros(depth, np.int64)
        self._start(depth, seed)

    @override
    def step(self, budget: int, stop_on_solution: bool, split_depth: int = -1) -> int:
        problem = (self.M, self.CONF, self.PI, self.lo, self.hi)
        path = (self.Lst, self.Ust, self.item, self.pos, self.st, self.prof)
        return bitset.run(*problem, *path, budget, stop_on_solution, split_depth, self.randomize)

    @override
    def current_options(self) -> list[int]:
        return [int(k) - 1 for k in self.pos[: int(self.st[LEVEL])]]


class PolySearch(_Search):
    """Selby's site search over bitsets, no option counts kept (``poly.py``): for large polyform problems."""

    engine = "poly"
    STATE = ("board", "first", "base", "cnt", "pos", "chosen", "cbuf", "uses", "wit", "deep", "stamp", "st", "prof")

    def __init__(
        self,
        xcc: XCC,
        seed: int = -1,
        grid: str | None = None,
        sites: int = poly.DEFAULT_SITES,
        sweep: float = poly_tables.DEFAULT_SWEEP,
        pockets: bool = True,
        tables: poly_tables.PolyTables | None = None,
        recon: int = 0,
        recon_sites: int = poly.DEFAULT_RECON_SITES,
    ):
        self.xcc = xcc
        self.a = a = tables if tables is not None else poly_tables.build(xcc, grid, sweep)
        self.sites = sites
        if recon not in (0, 1, 2) or recon_sites < 1:
            raise UsageError(f"engine poly: reconnoitre depth is 0, 1 or 2 (not {recon}), over 1 site or more")
        self.recon, self.recon_sites = recon, recon_sites
        self.r_site = np.zeros(max(1, a.n_sites), np.int64)
        self.r_cnt = np.zeros(max(1, a.n_sites), np.int64)
        self.r_buf = np.zeros((3, max(1, a.max_col)), np.int64)
        # the deepest path: the sites over the fewest sites an option covers (its piece item is not a site:
        # counting it, a region of 16 hexominoes with spare pieces was given room for 15 and overran it)
        per = np.diff(a.os_ptr.astype(np.int64))
        depth = (a.n_sites // max(1, int(per.min())) if xcc.n_options else 0) + 2
        self.board = np.zeros(a.n_words, np.uint64)
        self.first = np.zeros(depth + 1, np.int64)
        self.base = np.zeros(depth + 2, np.int64)
        self.cnt = np.zeros(depth + 1, np.int64)
        self.pos = np.zeros(depth + 1, np.int64)
        self.chosen = np.zeros(depth + 1, np.int64)
        self.cbuf = np.zeros(max(1, depth * a.max_col), np.int64)
        self.scratch = np.zeros(max(1, a.max_col), np.int64)
        self.best_buf = np.zeros(max(1, a.max_col), np.int64)
        self.uses = np.zeros(xcc.n_items, np.int64)
        self.wit = np.full((max(1, a.n_sites), 3), -1, np.int64)  # options that fitted at each site
        self.later = np.zeros(max(1, a.n_sites), np.int64)
        self.deep = np.zeros(depth + 1, np.int64)  # the deepest path so far
        self.pockets = pockets
        self.stamp = np.zeros(max(1, a.n_sites) + 1, np.int64)  # pocket floods (last slot: the tag counter)
        self.stack = np.zeros(max(1, a.n_sites), np.int64)
        self._start(depth, -1)
        self.randomize = seed >= 0
        if self.randomize:
            poly.seed_rng(seed)

    def restart(self, board: np.ndarray) -> None:
        """A new search from a partly covered board (the engine's own item bitset, as the
        polyform beam keeps its states): the beam's end-game exhausts each survivor this way,
        with no sub-problem to build."""
        self.board[:] = board
        depth = len(self.prof)
        self._start(depth, -1)
        self.wit[:] = -1
        self.uses[:] = 0

    @override
    def step(self, budget: int, stop_on_solution: bool, split_depth: int = -1) -> int:
        a = self.a
        work = poly.PolyWork(
            self.board, self.first, self.base, self.cnt, self.pos, self.chosen, self.cbuf, self.scratch,
            self.best_buf, self.uses, self.wit, self.later, self.deep, self.stamp, self.stack, self.r_site,
            self.r_cnt, self.r_buf,
        )  # fmt: skip
        area = a.area if self.pockets else 0
        return poly.run(a, self.sites, work, area, self.st, self.prof, budget, stop_on_solution, split_depth,
                        self.randomize, self.recon, self.recon_sites)  # fmt: skip

    @override
    def current_options(self) -> list[int]:
        return [int(o) for o in self.chosen[: int(self.st[LEVEL])]]

    def deepest_options(self) -> list[int]:
        """The options of the deepest partial solution met so far."""
        return [int(o) for o in self.deep[: int(self.st[DEEPEST])]]

    def tag_uses(self) -> dict[int, int]:
        """{item (input numbering): solutions whose options carry it as their tag (the piece)}."""
        nz = np.nonzero(self.uses)[0]
        return {int(self.a.old_of[i]): int(self.uses[i]) for i in nz}


ENGINES = {"dlx": DLXSearch, "bitset": BitsetSearch, "poly": PolySearch}


def make_search(
    xcc: XCC,
    seed: int = -1,
    engine: str = "auto",
    grid: str | None = None,
    sites: int = poly.DEFAULT_SITES,
    sweep: float = poly_tables.DEFAULT_SWEEP,
    recon: int = 0,
    recon_sites: int = poly.DEFAULT_RECON_SITES,
    branch: str = "mrv",
    n_sites: int = 0,
) -> _Search:
    """The search engine for ``xcc``: bitsets when the clash rows are small, else dancing links;
    ``poly`` (asked for by name) for large polyform problems, given their ``grid``.

    ``dlx`` and ``bitset`` visit the same tree in the same order, so counts,
    nodes and the first solution do not depend on which of them runs;
    ``poly`` chooses its sites its own way (same counts, other nodes)."""
    if engine == "auto":
        engine = "bitset" if 0 < xcc.n_options <= BITSET_MAX_OPTIONS else "dlx"
    if engine not in ENGINES:
        raise UsageError(f"solver backtrack: engine must be auto, dlx, bitset or poly, not {engine!r}")
    if recon and engine != "poly":
        raise UsageError(f"solver backtrack: reconnoitre needs engine poly (not {engine})")
    if engine == "poly":
        if branch != "mrv":
            raise UsageError(f"solver backtrack: branch={branch} needs engine dlx (engine poly branches on sites)")
        return PolySearch(xcc, seed, grid, sites, sweep, recon=recon, recon_sites=recon_sites)
    if branch != "mrv":
        if engine == "bitset":
            raise UsageError(f"solver backtrack: branch={branch} needs engine dlx or auto (not bitset)")
        return DLXSearch(xcc, seed, *branch_rule(xcc, branch, n_sites))
    return ENGINES[engine](xcc, seed)


# the branch rules: which open items a node may branch on, and how it picks among them
BRANCHES = {
    "mrv": "the item with fewest options, site or piece (Knuth's rule)",
    "site": "the site (cell) with fewest options: Selby's most constrained site",
    "piece": "the piece with fewest placements left: the most constrained piece",
    "site-order": "the first open site in the cells' order (rows from the top): a static site order",
    "piece-order": "the first piece not placed, in the pieces' order: a static piece order",
}


def branch_rule(xcc: XCC, branch: str, n_sites: int) -> tuple[np.ndarray, bool]:
    """``dlx.run``'s (allow, static) for a branch rule; the first ``n_sites`` items are the sites, the
    primary items after them the pieces."""
    if branch not in BRANCHES:
        raise UsageError(f"solver backtrack: branch must be one of {', '.join(BRANCHES)}, not {branch!r}")
    allow = np.zeros(xcc.n_items + 1, np.int8)  # dlx numbers items from 1
    if branch.startswith("site"):
        allow[1 : n_sites + 1] = 1
    else:
        if xcc.n_primary <= n_sites:
            raise UsageError(
                f"solver backtrack: branch={branch} needs every piece used (no spare pieces: the pieces are not "
                "items to cover)"
            )
        allow[n_sites + 1 : xcc.n_primary + 1] = 1
    return allow, branch.endswith("-order")
