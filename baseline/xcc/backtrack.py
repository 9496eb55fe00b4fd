"""`backtrack`: the generic exhaustive XCC solver (Algorithm C in numba).

Most constrained site first (the primary item with fewest options), every
way to cover it tried: no solution missed, none counted twice.  It is the
reference every other solver is checked against, and the end-game of the
beam search.  ``split`` cuts the search tree at a depth into independent
sub-problems whose counts add up to the whole.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
from typing_extensions import override

from baseline.poly import engine as poly
from baseline.poly.tables import DEFAULT_SWEEP
from baseline.runtime import warmup
from baseline.runtime.driver import Outcome, drive, luby
from baseline.runtime.kernel import BUDGET, DEEPEST, DONE, LEAF, MANY, NO_BOUND, SOLUTION
from baseline.xcc import memo
from baseline.xcc.searches import BRANCHES, ENGINES, PolySearch, _Search, make_search
from puzzles.errors import UsageError
from puzzles.files import outputs
from puzzles.files.outputs import atomic_write
from puzzles.xcc import XCC
from solving import Limits, Option, Opts, SolverBase, SolveResult, Status, enumerated

PICTURE_EVERY_S = 60.0  # with a checkpoint: the deepest partial solution drawn this often


class BacktrackOptions(Opts):
    """The options of solver backtrack (`eternity solvers NAME` lists them with their help)."""

    seed = Option(int, -1, "break MRV ties at random from this seed (-1: first item in order)", lo=-1)
    checkpoint = Option(str, "", "directory: snapshot the search path there every checkpoint_every seconds")
    resume = Option(str, "", "directory: continue the search snapshotted there")
    checkpoint_every = Option(float, 30.0, "seconds between snapshots", lo=0.1)
    engine = Option(
        str,
        "auto",
        "auto (bitset up to 12,000 options, else dlx), dlx or bitset: same tree, "
        "different speed; poly: Selby's site search over bitsets, no option "
        "counts (large polyform problems: Eternity)",
        ("auto", "dlx", "bitset", "poly"),
    )
    sites = Option(
        int,
        poly.DEFAULT_SITES,
        "engine poly: boundary sites counted to choose each node's site "
        "(0: all of them; fewer is faster a node, and the tree can grow 1000-fold)",
        lo=0,
    )
    sweep = Option(
        float,
        DEFAULT_SWEEP,
        "engine poly: the direction the boundary is scanned in, in degrees (90: rows from the top)",
        lo=-360.0,
        hi=360.0,
    )
    reconnoitre = Option(
        int,
        0,
        "engine poly: Selby's reconnoitre, branch on the site whose tree this many levels down (1 or 2) has "
        "the fewest leaves, among the recon_sites sites with the fewest options (0: the fewest options)",
        lo=0,
        hi=2,
    )
    recon_sites = Option(
        int, poly.DEFAULT_RECON_SITES, "reconnoitre: the sites with the fewest options it looks below", lo=1
    )
    branch = Option(
        str,
        "mrv",
        "engine dlx: the item each node branches on: mrv (fewest options, site or piece), site or piece "
        "(the fewest options among the sites, or among the pieces), site-order or piece-order (the first "
        "open one in order); edge and polyform puzzles",
        tuple(BRANCHES),
    )
    split_depth = Option(int, 0, "with part: cut the search tree at this depth (see split)", lo=0)
    part = Option(int, -1, "solve only this sub-problem (0-based) of the split; the parts' counts add up", lo=-1)
    restarts = Option(
        str,
        "none",
        "mode first: restart with new random tie-breaks (seed, seed+1, ...) after a "
        "node budget following the Luby sequence",
        ("none", "luby"),
    )
    unit = Option(int, 100_000, "restarts: nodes of one Luby unit", lo=1)
    memo = Option(
        bool,
        False,
        "memoise the search on the uncovered items and the secondary colours (DXZ) "
        "and build the diagram of all solutions: counts where sub-problems repeat "
        "(domino tilings, strips) at a fraction of the nodes; mode sample always does",
    )
    memo_mb = Option(
        float,
        1024.0,
        "memo: megabytes for the memo (a quarter, a cache that evicts) and the "
        "diagram (the rest; a diagram that outgrows it is a clear error)",
        lo=16.0,
        hi=1_048_576.0,
    )
    diagram = Option(str, "", "memo: write the diagram of all solutions to this file (.npz, versioned)")
    from_diagram = Option(str, "", "memo: read the diagram from this file (written by diagram=) instead of searching")


class Backtrack(SolverBase):
    """`backtrack`: Knuth's Algorithm C in numba, the exhaustive reference for every puzzle."""

    name = "backtrack"
    NATIVE = True
    CAN_SPLIT = True
    Options = BacktrackOptions
    opts: BacktrackOptions
    MODES = ("first", "count", "all", "sample")

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        o = self.opts
        memo = o.memo or mode == "sample" or o.diagram or o.from_diagram
        if memo:
            clash = [k for k in ("checkpoint", "resume", "part") if o.get(k) not in ("", -1)]
            clash += [
                k
                for k, v in (("split_depth", 0), ("restarts", "none"), ("engine", "auto"), ("branch", "mrv"))
                if o.get(k) != v
            ]
            if clash:
                raise UsageError(
                    f"solver backtrack: option {clash[0]} does not go with the memoised search "
                    "(memo=true, the diagram options or mode sample)"
                )
            if o.diagram:
                outputs.check(o.diagram, "option diagram")
                if o.from_diagram and os.path.realpath(o.diagram) == os.path.realpath(o.from_diagram):
                    raise UsageError("solver backtrack: options diagram and from_diagram name one file")
            machine = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
            if o.memo_mb > machine:
                raise UsageError(
                    f"solver backtrack: memo_mb={o.memo_mb:g} is more than this machine's memory ({machine:,.0f} MB)"
                )

    def warm(self, puzzle, mode: str) -> None:
        """Both engines' kernels (the engine is chosen from the size of the XCC, known only after the build)."""

        def run() -> None:
            xcc = warmup.tiny_xcc_puzzle().to_xcc()
            for engine in ENGINES:
                count_xcc(xcc, engine)
            random_prefix(xcc, 2, 1)

        warmup.once("backtrack", run)

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        o = self.opts
        if (o.checkpoint or o.resume) and o.seed >= 0:
            raise UsageError("solver backtrack: checkpoints need the deterministic order (seed -1)")
        limits = limits or Limits()
        if o.restarts == "luby" and (mode != "first" or o.checkpoint or o.resume or o.branch != "mrv"):
            raise UsageError("solver backtrack: restarts are for mode first, without checkpoints, branch mrv")
        t0 = time.perf_counter()
        xcc = whole = puzzle.to_xcc()
        if o.memo or mode == "sample" or o.diagram or o.from_diagram:
            return memo.solve_memo(
                xcc,
                mode,
                limits,
                progress,
                time.perf_counter() - t0,
                memo_mb=o.memo_mb,
                seed=max(o.seed, 0),
                save=o.diagram,
                load=o.from_diagram,
                puzzle=puzzle,
            )
        prefix: list[int] = []
        if o.part >= 0 or o.split_depth > 0:
            xcc, prefix = part_of(whole, o.split_depth, o.part)
        if o.restarts == "luby":
            res = self._restarting(xcc, limits, progress, time.perf_counter() - t0, _grid(puzzle))
            if prefix:
                res.solutions = [[whole.decode[k] for k in prefix] + sol for sol in res.solutions]
            return res
        search = make_search(
            xcc,
            o.seed,
            "dlx" if o.branch != "mrv" and o.engine == "auto" else o.engine,
            _grid(puzzle),
            o.sites,
            o.sweep,
            o.reconnoitre,
            o.recon_sites,
            o.branch,
            n_sites(puzzle, whole) if o.branch != "mrv" else 0,
        )
        found: list[list[int]] = []
        if o.resume:
            found = search.load(Path(o.resume), mode)
        build_s = time.perf_counter() - t0
        ck = Path(o.checkpoint) if o.checkpoint else None
        res = solve_xcc(
            search, mode, limits, progress, build_s, ck, o.checkpoint_every, found, _picture(puzzle, xcc, prefix, whole)
        )
        if "tag_uses" in res.stats and puzzle.grid_name is not None:
            res.stats["piece_uses"] = piece_uses_of(puzzle, xcc, res.stats.pop("tag_uses"))
        if prefix:  # a part's solutions complete with the placements of its prefix
            res.solutions = [[whole.decode[k] for k in prefix] + sol for sol in res.solutions]
        return res

    def _restarting(self, xcc: XCC, limits: Limits, progress, build_s: float, grid: str | None) -> SolveResult:
        """Mode first with randomised restarts [GSK2000]: run r breaks ties at random from seed + r
        and stops after unit * luby(r) nodes; a run that finishes its tree has answered."""
        o = self.opts
        t1 = time.perf_counter()
        spent, run = 0, 0
        while True:
            run += 1
            left = None if limits.time_s is None else limits.time_s - (time.perf_counter() - t1)
            budget = o.unit * luby(run)
            if limits.nodes is not None:
                budget = min(budget, limits.nodes - spent)
            if (left is not None and left <= 0) or budget <= 0:
                break
            search = make_search(
                xcc, max(o.seed, 0) + run, o.engine, grid, o.sites, o.sweep, o.reconnoitre, o.recon_sites
            )
            res = solve_xcc(search, "first", Limits(time_s=left, nodes=budget), progress, build_s)
            spent += int(res.stats.get("nodes") or 0)
            if res.status != Status.LIMIT:
                res.stats.update(nodes=spent, restarts=run - 1, time_s=time.perf_counter() - t1)
                return res
        return SolveResult(
            Status.LIMIT,
            [],
            None,
            None,
            {"nodes": spent, "restarts": run - 1, "build_s": build_s, "time_s": time.perf_counter() - t1},
        )

    @override
    def split_parts(self, puzzle, depth: int) -> int:
        return len(split(puzzle.to_xcc(), depth))

    @override
    def part_options(self, depth: int, part: int) -> dict:
        return {"split_depth": depth, "part": part}


def _picture(puzzle, xcc: XCC, prefix: list[int], whole: XCC):
    """options of ``xcc`` -> an SVG of the partial solution (a part's prefix included)."""

    def draw(options: list[int]) -> str:
        from puzzles.files.render import render

        return render(puzzle, [whole.decode[k] for k in prefix] + [xcc.decode[k] for k in options])

    return draw


def n_sites(puzzle, xcc: XCC) -> int:
    """The items of ``xcc`` that are sites (cells): they come first, the pieces after them."""
    if getattr(puzzle, "kind", "") == "edge":
        return puzzle.n_cells
    if getattr(puzzle, "kind", "") == "polyform":
        return xcc.n_items - len(puzzle.copy_names())
    raise UsageError(
        f"solver backtrack: option branch needs an edge or polyform puzzle (sites and pieces), not {puzzle.kind}"
    )


def _grid(puzzle) -> str | None:
    """The grid of a polyform puzzle (the poly engine's geometry), else None."""
    return puzzle.grid_name


def piece_uses_of(puzzle, xcc: XCC, tag_uses: dict[int, int]) -> dict[str, int]:
    """The poly engine's per-tag counts as {piece name: solutions that use it} (copies summed)."""
    copy_piece = {n: puzzle.pieces[i].name for i, _, n in puzzle.copy_names()}
    out: dict[str, int] = {}
    for item, k in tag_uses.items():
        name = copy_piece.get(xcc.item_names[item])
        if name is not None:
            out[name] = out.get(name, 0) + k
    return dict(sorted(out.items()))


def solve_xcc(
    search: _Search,
    mode: str,
    limits: Limits,
    progress,
    build_s: float,
    ck: Path | None = None,
    every: float = 30.0,
    found: list[list[int]] | None = None,
    picture=None,
) -> SolveResult:
    """Run a search (either engine) to the end or a limit and package the answer.

    With ``ck`` the paused search is snapshotted there every ``every``
    seconds (between node-budget chunks) and once more at the end; ``found``
    are the option lists of solutions found before a resume.  ``picture``
    (options -> SVG text), with ``ck``: the deepest partial solution is drawn
    to ``ck/deepest.svg`` every PICTURE_EVERY_S seconds (engines that track it)."""
    xcc = search.xcc
    want = limits.wanted(mode)
    collect = mode in ("first", "all")
    raw: list[list[int]] = list(found or [])
    last_save = [time.perf_counter()]

    def on_stop(code: int) -> bool:
        if code == SOLUTION:
            raw.append(search.current_options())
            return want is not None and len(raw) >= want
        return True

    last_picture = [time.perf_counter()]

    def draw() -> None:
        if picture is not None and ck is not None and hasattr(search, "deepest_options"):
            atomic_write(str(ck / "deepest.svg"), picture(search.deepest_options()))
            last_picture[0] = time.perf_counter()

    def step(b: int) -> int:
        code = search.step(b, collect)
        if ck is not None and code == BUDGET and time.perf_counter() - last_save[0] >= every:
            search.save(ck, mode, raw)
            last_save[0] = time.perf_counter()
        if code == BUDGET and time.perf_counter() - last_picture[0] >= PICTURE_EVERY_S:
            draw()
        return code

    t0 = time.perf_counter()
    outcome = Outcome.DONE if want is not None and len(raw) >= want else None
    outcome = outcome or drive(
        step,
        lambda: search.nodes,
        time_s=limits.time_s,
        node_limit=limits.nodes,
        progress=progress,
        info=lambda: {"nodes": search.nodes, "solutions": search.count, "deepest": int(search.st[DEEPEST])},
        on_stop=on_stop,
    )
    if ck is not None:
        search.save(ck, mode, raw)
        draw()
    solutions = [[xcc.decode[k] for k in s] for s in raw]
    elapsed = time.perf_counter() - t0
    depth = int(np.max(np.nonzero(search.prof)[0])) + 1 if search.prof.any() else 0
    stats = {
        "time_s": elapsed,
        "build_s": build_s,
        "nodes": search.nodes,
        "nodes_per_s": search.nodes / elapsed if elapsed > 0 else 0.0,
        "options": xcc.n_options,
        "items": xcc.n_items,
        "nodes_per_level": search.prof[:depth].tolist(),
        "deepest": int(search.st[DEEPEST]),
    }
    if isinstance(search, PolySearch):
        stats["tag_uses"] = search.tag_uses()
    return enumerated(
        mode,
        complete=outcome == Outcome.DONE,
        solutions=solutions,
        count=search.count if mode == "count" else None,
        stats=stats,
        wanted=want,
    )


def split(xcc: XCC, depth: int) -> list[list[int]]:
    """Cut the search tree at ``depth``: the option prefixes of its leaves.

    Every solution extends exactly one prefix (solutions shallower than
    ``depth`` are prefixes themselves), so the counts of
    ``xcc.restrict(prefix)`` add up to the count of ``xcc``.
    """
    search = make_search(xcc)
    parts: list[list[int]] = []
    while True:
        code = search.step(NO_BOUND, True, depth)
        if code == DONE:
            return parts
        parts.append(search.current_options())


def part_of(xcc: XCC, depth: int, part: int) -> tuple[XCC, list[int]]:
    """Sub-problem ``part`` of ``split(xcc, depth)``, and its prefix (options of ``xcc``).

    The parts' counts add up to the count of ``xcc`` (the runner's
    ``split_depth`` fans a count out this way)."""
    if depth < 1 or part < 0:
        raise UsageError("solver backtrack: split_depth (at least 1) and part (at least 0) go together")
    parts = split(xcc, depth)
    if part >= len(parts):
        raise UsageError(f"solver backtrack: part {part} of a split into {len(parts)} parts")
    return xcc.restrict(parts[part])[0], parts[part]


def random_prefix(xcc: XCC, depth: int, seed: int, node_cap: int = 5000) -> list[int] | None:
    """The first partial solution of ``depth`` options a randomised Algorithm C
    reaches (options shuffled, MRV ties broken at random), or None when
    ``node_cap`` nodes find none.  Selby's states came from real searches:
    the tilability sampler cuts its regions this way (``puzzles.estimates.tilability``).
    (Forcing a random first option to vary the regions more was tried: on
    Eternity's pieces almost every such start is dead within 5,000 nodes.)"""
    rng = np.random.default_rng(seed)
    order = rng.permutation(xcc.n_options)
    search = make_search(xcc.reorder(order), int(rng.integers(MANY)))
    if search.step(node_cap, True, depth) != LEAF:
        return None
    return [int(order[k]) for k in search.current_options()]


def count_xcc(xcc: XCC, engine: str = "auto") -> int:
    """The exact number of solutions of an XCC problem (no limits)."""
    search = make_search(xcc, engine=engine)
    while search.step(NO_BOUND, False) != DONE:
        pass
    return search.count
