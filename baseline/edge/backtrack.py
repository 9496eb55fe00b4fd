"""`edge-backtrack`: the specialised edge-matching backtracker in numba.

The candidate tables (``baseline.edge.tables``) give, for a cell's border class and
the colours on its placed sides, the (piece, rotation) pairs that fit.  Three
kernels walk them: ``run_static`` (any static order, packed candidates),
``run_best`` (mode best: branch and bound under a slip array) and ``run``
(order ``mrv``: the cell with fewest candidates next).

Invariant: the cells at depths 0..k-1 hold pieces whose joins with each
other all match; ``cur[k]`` is the next candidate to try at depth k.
Rotations of a symmetric piece that show the same colours appear once
(the counting convention of docs/ARCHITECTURE.md, "Puzzles").  Identical
pieces (``identical=merge``, the default in modes first, count and best,
every order) are one candidate whose copies left are counted in
``avail``: without that the tree holds a copy of every subtree for each
order of the copies (generated 8x8 boards at the peak have 4 to 384 such
orders).  A count is multiplied back by the copies' permutations and a
board names each copy once (``EdgePuzzle.relabel``); mode all lists every
labelling, so it keeps the pieces apart.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from typing_extensions import override

from baseline.edge import generated_cache, generated_source, generated_tables
from baseline.edge.kernels import run, run_best, run_static
from baseline.edge.split import part_puzzle, prefix_cells, prefixes
from baseline.edge.tables import EdgeTables, slip_allowance
from baseline.runtime import warmup
from baseline.runtime.driver import Outcome, drive, luby
from baseline.runtime.kernel import BEST_MIS, COUNT, DEEPEST, NODES, SOLUTION, new_state
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed
from puzzles.kinds.grids import square_symmetries
from puzzles.kinds.orders import ORDERS, search_order
from puzzles.puzzle import EDGES
from puzzles.verify import verify
from solving import Limits, Option, Opts, SolverBase, SolveResult, Status, enumerated


class _Incumbent:
    """Mode best under a shared incumbent (``Limits.incumbent``): asked at the start and every
    ``EVERY_S`` seconds between the kernel's slices; a better score elsewhere lowers the bound this search
    prunes with, so it looks only for boards better than the best known anywhere."""

    EVERY_S = 0.5

    def __init__(self, ask, n_joins: int, st: np.ndarray):
        self.ask, self.n_joins = ask, n_joins
        self.told: int | None = None
        self.last = -1e9
        self.pull(st)

    def pull(self, st: np.ndarray) -> None:
        self.last = time.perf_counter()
        score = self.ask()
        if score is not None and (self.told is None or score > self.told):
            self.told = int(score)
            st[BEST_MIS] = min(int(st[BEST_MIS]), self.n_joins - self.told)

    def step(self, s, budget: int, collect: bool) -> int:
        if time.perf_counter() - self.last >= self.EVERY_S:
            self.pull(s.st)
        return s.step(budget, collect)


class EdgeBacktrackOptions(Opts):
    """The options of solver edge-backtrack (`eternity solvers NAME` lists them with their help)."""

    order = Option(str, "rowscan", "search order", ORDERS)
    slips = Option(
        str,
        "",
        "best mode: D1,D2,... the k-th mismatch allowed from depth D_k "
        "(default: anywhere, bounded by the best board so far)",
    )
    seed = Option(
        int, -1, "random value order and a random symmetry of the order, from this seed (-1: the tables' order)", lo=-1
    )
    restarts = Option(
        str,
        "none",
        "mode first: restart with a new random order after a node budget "
        "following the Luby sequence (none: one search)",
        ("none", "luby"),
    )
    unit = Option(int, 2_000_000, "restarts: placements of one Luby unit", lo=1)
    symmetry = Option(
        bool,
        False,
        "fix the first corner piece where the board's symmetry allows (Owen's corner fixing): on a square board "
        "at A1, the count times 4; on a rectangle at A1 or the top-right corner (one corner of each pair the "
        "half turn swaps), the sum times 2.  Modes first and count; bordered boards without fixed or spare pieces",
        modes=("first", "count"),
    )
    identical = Option(
        str,
        "merge",
        "identical pieces: one candidate per group, its copies counted "
        "(merge: the tree has no copies of a subtree; "
        "modes first, count, best) or each piece its own",
        ("merge", "distinct"),
    )
    kernel = Option(
        str,
        "generated",
        "static orders in modes first, count and all: a kernel generated for the board "
        "(baseline/edge/generated_source.py, compiled once and cached; with a seed, its random value order is "
        "a random numbering of the pieces) or the table-driven one (a seed shuffles each key's candidates); "
        f"auto: generated for boards of {generated_source.MIN_CELLS} cells or more, where its compilation "
        "(about 1.5 s, once for every board of its shape) can pay, tables below",
        ("auto", "generated", "tables"),
        modes=("first", "count", "all"),
    )
    unroll = Option(
        str,
        "auto",
        "the generated kernel: code written out per kind of depth (shape: boards of every size share it) "
        "or per depth (depth: about 15% faster, compiled per size and order); auto: depth for boards "
        "of 64 to 100 cells",
        ("auto", "shape", "depth"),
        modes=("first", "count", "all"),
    )
    candidates = Option(
        str,
        "auto",
        "the generated kernel: a key's candidates as bit masks of the pieces left (masks) or as lists "
        "whose used pieces are skipped (lists); auto: masks up to 64 pieces, lists above",
        ("auto", "masks", "lists"),
        modes=("first", "count", "all"),
    )
    profile = Option(bool, False, "count placements per depth (stats nodes_per_level); costs a little speed")
    split_depth = Option(
        int,
        0,
        "search only one part of a cut: the first N free cells of the row scan filled one way",
        lo=0,
        modes=("first", "count", "all", "best"),
    )
    part = Option(
        int,
        0,
        "with split_depth: which part (0..parts-1, in the order of baseline/edge/split.py)",
        lo=0,
        modes=("first", "count", "all", "best"),
    )


class EdgeBacktrack(SolverBase):
    """`edge-backtrack`: the table-driven edge-matching backtracker in numba (static orders, MRV, best mode)."""

    name = "edge-backtrack"
    NATIVE = True
    TAKES = frozenset({EDGES})
    MODES = ("first", "count", "all", "best")
    CAN_SPLIT = True
    Options = EdgeBacktrackOptions
    opts: EdgeBacktrackOptions

    @override
    def split_parts(self, puzzle, depth: int) -> int:
        return len(prefixes(puzzle, depth))

    @override
    def part_options(self, depth: int, part: int) -> dict:
        return {"split_depth": depth, "part": part}

    def part_children(self, puzzle, depth: int, part: int) -> list[int]:
        """The parts one cell deeper whose prefixes extend this part's (a part cut again); the prefixes
        are enumerated depth first, so they are one run of the deeper cut's numbering."""
        pre = prefixes(puzzle, depth)[part]
        deeper = prefixes(puzzle, depth + 1) if len(prefix_cells(puzzle, depth + 1)) > depth else []
        return [j for j, q in enumerate(deeper) if q[:depth] == pre]

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        if self.opts.slips and mode != "best":
            raise UsageError(
                f"solver edge-backtrack: option slips is for mode best (mismatches allowed), not mode {mode}"
            )
        if self.opts.slips:
            slip_allowance(self.opts.slips, puzzle.n_cells)  # its words and depths, before any work

    def warm(self, puzzle, mode: str) -> None:
        """The kernel of this order and mode: ``run`` (mrv), ``run_best`` or ``run_static``."""
        kernel = "mrv" if self.opts.order == "mrv" else ("best" if mode == "best" else "static")
        order = "mrv" if kernel == "mrv" else "rowscan"
        warmup.once(
            ("edge-backtrack", kernel),
            lambda: EdgeBacktrack({"order": order}).solve(
                warmup.tiny_edge(), mode="best" if kernel == "best" else "count"
            ),
        )

    def _by_symmetry(self, puzzle: EdgePuzzle, mode: str, limits: Limits, progress) -> SolveResult:
        """Owen's corner fixing: the first corner piece fixed on one corner of each orbit of the board's
        symmetry (a square's four turns: A1 alone; a rectangle's half turn: A1 and the top-right corner), each
        a search of its own, the count multiplied back (each solution has exactly one image with the piece
        there: no solution is its own image, the piece being on one corner)."""
        if (
            puzzle.fixed
            or puzzle.n_pieces != puzzle.n_cells
            or not puzzle.bordered
            or min(puzzle.rows, puzzle.cols) < 2
            or self.opts.split_depth
        ):
            raise UsageError(
                "solver edge-backtrack: symmetry=true needs a bordered board without fixed or spare pieces (and no "
                "split)"
            )
        corner = next((q for q in range(puzzle.n_pieces) if puzzle.piece_class(q) == "corner"), None)
        if corner is None:
            raise UsageError("solver edge-backtrack: symmetry=true needs a corner piece")
        square = puzzle.rows == puzzle.cols
        cells = [0] if square else [0, puzzle.cols - 1]
        options = {k: v for k, v in self.options.items() if k != "symmetry"}
        t0 = time.perf_counter()
        results = []
        for cell in cells:
            outside = puzzle.outside_sides(cell)
            turn = next(
                (r for r in range(4) if all((c == 0) == o for c, o in zip(puzzle.placed(corner, r), outside))), None
            )
            if turn is None:  # a corner piece that fits no corner: no solution anywhere
                continue
            sub = EdgePuzzle(puzzle.rows, puzzle.cols, puzzle.pieces, [Fixed(cell, corner, turn)], name=puzzle.name)
            left = None if limits.time_s is None else limits.time_s - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                results.append(SolveResult(Status.LIMIT, [], None, None, {"nodes": 0}))
                break
            res = EdgeBacktrack(options).solve(
                sub, mode=mode, limits=Limits(time_s=left, nodes=limits.nodes, solutions=limits.solutions),
                progress=progress,
            )  # fmt: skip
            results.append(res)
            if mode == "first" and res.status in (Status.SOLVED, Status.LIMIT):
                break
        mult = 4 if square else 2
        stats = {
            "time_s": sum(r.stats.get("time_s", 0.0) for r in results),
            "build_s": sum(r.stats.get("build_s", 0.0) for r in results),
            "nodes": sum(int(r.stats.get("nodes", 0)) for r in results),
            "symmetry": f"first corner piece fixed on {len(cells)} corner(s), count times {mult}",
            "order": self.opts.order,
        }
        found = [s for r in results for s in r.solutions]
        complete = len(results) == len(cells) and all(r.status in (Status.SOLVED, Status.UNSAT) for r in results)
        if mode == "first":
            complete = not found and complete
            return enumerated(mode, complete=complete, solutions=found[:1], count=None, stats=stats)
        count = sum(r.count or 0 for r in results) * mult
        return enumerated(mode, complete=complete, solutions=[], count=count, stats=stats)

    @override
    def solve(self, puzzle: EdgePuzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        o = self.opts
        limits = limits or Limits()
        restarts = o.restarts == "luby"
        if restarts and mode != "first":
            raise UsageError("solver edge-backtrack: restarts are for mode first (a count needs one whole search)")
        if (restarts or o.seed >= 0) and mode == "best":
            raise UsageError("solver edge-backtrack: mode best takes neither restarts nor a seed")
        if o.symmetry:
            return self._by_symmetry(puzzle, mode, limits, progress)
        if any(not puzzle.fits_border(f.cell, puzzle.placed(f.piece, f.rotation)) for f in puzzle.fixed):
            # the kernels check a fixed piece against its neighbours only: one that breaks the border rule
            # (a grey side inside, a colour on the rim) leaves no solution, said before any search
            why = "a fixed piece breaks the border rule"
            nothing: dict[str, Any] = {"time_s": 0.0, "build_s": 0.0, "nodes": 0}
            return SolveResult(Status.UNSAT, [], 0 if mode == "count" else None, None, nothing, why)
        puzzle = puzzle.dense_colours()  # tables sized by the colours there are, not by the largest label
        if o.split_depth:  # one part of a cut: the puzzle with its prefix fixed
            puzzle = part_puzzle(puzzle, o.split_depth, o.part)
        t0 = time.perf_counter()
        merge = o.identical == "merge" and mode != "all"  # mode all lists every labelling
        use_gen = generated_source.wanted(o.kernel, puzzle.n_cells) and o.order != "mrv" and mode != "best"
        seed = o.seed if o.seed >= 0 or not restarts else 0
        variants = _Variants(puzzle, o.order, seed, merge, relabel=use_gen)
        unroll = generated_source.pick_unroll(o.unroll, puzzle.n_cells, restarts)
        compile_s = 0.0

        def search() -> EdgeSearch:
            nonlocal compile_s
            t, perm = variants.next()
            s = EdgeSearch(t, profile=o.profile or not use_gen)
            if use_gen:
                compile_s += s.generate(unroll, perm, o.candidates)
            return s

        s = search()
        if mode == "best":
            if s.dynamic:
                raise UsageError("edge-backtrack: mode best needs a static order, not mrv")
            s.start_best(slip_allowance(o.slips, puzzle.n_cells))
        build_s = time.perf_counter() - t0
        shared = _Incumbent(limits.incumbent, puzzle.n_joins, s.st) if mode == "best" and limits.incumbent else None
        compile0 = compile_s  # kernels compiled for later restarts are build time too
        want = limits.wanted(mode)
        collect = mode in ("first", "all")
        solutions: list = []
        history: list = []

        def on_stop(code: int) -> bool:
            if code == SOLUTION and mode == "best":
                score = puzzle.n_joins - int(s.st[BEST_MIS])  # the board just found: better than any bound
                history.append((round(time.perf_counter() - t1, 3), score))
                if progress is not None:
                    progress({"best_score": score, "placements": int(s.st[NODES])})
                return False
            if code == SOLUTION:
                solutions.append(s.placements())
                return want is not None and len(solutions) >= want
            return True

        t1 = time.perf_counter()
        spent, runs = 0, 0
        while True:
            runs += 1
            budget = limits.nodes if limits.nodes is None else limits.nodes - spent
            if restarts:
                run_nodes = o.unit * luby(runs)
                budget = run_nodes if budget is None else min(budget, run_nodes)
            left = None if limits.time_s is None else limits.time_s - (time.perf_counter() - t1)
            outcome = drive(
                (lambda b: s.step(b, collect)) if shared is None else (lambda b: shared.step(s, b, collect)),
                lambda: int(s.st[NODES]),
                time_s=left,
                node_limit=budget,
                progress=progress,
                info=lambda: {
                    "placements": spent + int(s.st[NODES]),
                    "solutions": int(s.st[COUNT]) * s.t.labelled if s.st[COUNT] else 0,
                    "deepest": int(s.st[DEEPEST]),
                    "restarts": runs - 1,
                },
                on_stop=on_stop,
            )
            spent += int(s.st[NODES])
            out_of_time = limits.time_s is not None and time.perf_counter() - t1 >= limits.time_s
            out_of_nodes = limits.nodes is not None and spent >= limits.nodes
            if not restarts or outcome != "limit" or out_of_time or out_of_nodes:
                break
            deepest = int(s.st[DEEPEST])
            before = compile_s
            s = search()  # a new random value order (and symmetry of the order)
            t1 += compile_s - before  # a kernel compiled for it is build time, not search time
            s.st[DEEPEST] = deepest
        elapsed = time.perf_counter() - t1
        nodes = spent
        depth = int(np.max(np.nonzero(s.prof)[0])) + 1 if s.prof.any() else 0
        stats = {
            "time_s": elapsed,
            "build_s": build_s + compile_s - compile0,
            "nodes": nodes,
            "placements_per_s": nodes / elapsed if elapsed > 0 else 0.0,
            "order": o.order,
            "kernel": "generated" if s.gen is not None else ("mrv" if s.dynamic else "tables"),
            "deepest": int(s.st[DEEPEST]),
        }
        if s.profile:
            stats["nodes_per_level"] = s.prof[:depth].tolist()
        if s.gen is not None:
            stats["compile_s"] = compile_s  # in build_s: the kernel's compilation or cache load
        if restarts:
            stats["restarts"] = runs - 1
        complete = outcome == Outcome.DONE
        count = int(s.st[COUNT]) * s.t.labelled if s.st[COUNT] else 0
        if mode == "best":
            stats["history"] = history  # (seconds, score) each time the best board improved
            if shared is not None and shared.told:
                stats["incumbent"] = shared.told  # the best score known elsewhere, last asked
            allowed = int(slip_allowance(o.slips, puzzle.n_cells)[0])  # mismatches allowed from the start
            if int(s.st[COUNT]) == 0:  # finished: no board here (better than the incumbent, when there is one)
                if complete and o.slips:
                    # no board within the slips: every board breaks more joins than they allow, which says
                    # nothing about whether the puzzle has boards; the slips were a limit
                    stats["proven"] = True
                    stats["no_board_within_slips"] = True
                    return SolveResult(Status.LIMIT, [], None, None, stats)
                return SolveResult(Status.UNSAT if complete else Status.LIMIT, [], None, None, stats)
            board = s.placements(s.best_cand)
            # the board's own score: BEST_MIS may have been lowered since by a better incumbent from elsewhere
            score = puzzle.n_joins - len(verify(puzzle, board, allow_mismatch=True).mismatches)
            if not history or history[-1][1] != score:  # a perfect board ends the search without a report
                history.append((round(elapsed, 3), score))
            # the best board under the slips is proven when the search finished.  It is optimal without slips,
            # and with them when every better board (fewer mismatches) lies within what the slips allow from
            # the first piece on, so the finished search has refuted them all
            stats["proven"] = complete
            fewer = puzzle.n_joins - score - 1  # mismatches of the next better board
            # a better score told from elsewhere pruned this search above its own board: it proved nothing
            # between the two
            behind = shared is not None and shared.told is not None and shared.told > score
            optimal = score == puzzle.n_joins or (complete and not behind and (not o.slips or fewer <= allowed))
            return SolveResult(Status.SOLVED, [board], None, score, stats, optimal=optimal)
        return enumerated(
            mode,
            complete=complete,
            solutions=solutions,
            count=count if mode == "count" else None,
            stats=stats,
            wanted=want,
        )


class _Variants:
    """The tables of each run: the plain ones without a seed; with one, every run a random symmetry
    of the order (boards without fixed pieces) and a random value order."""

    def __init__(self, p: EdgePuzzle, order: str, seed: int, merge: bool = False, relabel: bool = False):
        self.p, self.order, self.merge, self.relabel = p, order, merge, relabel
        self.rng = np.random.default_rng(seed) if seed >= 0 else None
        self.built: dict[int, EdgeTables] = {}
        base = search_order(p, order)
        self.orders = [base]
        if self.rng is not None and not p.fixed and order != "mrv":
            R, C = p.rows, p.cols
            syms = (
                square_symmetries(R)[1:]
                if R == C
                else [lambda r, c: (R - 1 - r, C - 1 - c), lambda r, c: (r, C - 1 - c), lambda r, c: (R - 1 - r, c)]
            )
            for f in syms:
                self.orders.append([(lambda rc: rc[0] * C + rc[1])(f(*divmod(c, C))) for c in base])

    def next(self) -> tuple[EdgeTables, np.ndarray | None]:
        """The tables of the next run and, for the generated kernel (``relabel``), a random
        renumbering of the pieces: its bits are tried in piece order, so a random numbering is a
        random value order (the same priority of pieces in every key, where shuffled tables draw
        each key's order apart)."""
        k = 0 if self.rng is None else int(self.rng.integers(len(self.orders)))
        if k not in self.built:
            self.built[k] = EdgeTables(self.p, self.order, self.orders[k], self.merge)
        t = self.built[k]
        if self.rng is None:
            return t, None
        if self.relabel:
            return t, self.rng.permutation(len(t.avail))
        return t.shuffled(self.rng), None


class EdgeSearch:
    """The resumable state of one edge-matching search over its tables."""

    def __init__(self, tables: EdgeTables, profile: bool = True):
        t = self.t = tables
        self.profile = profile
        self.gen: tuple | None = None  # the generated kernel and its tables (generate)
        p = self.p = t.p
        n = p.n_cells
        self.order, self.dynamic = t.order, t.dynamic
        self.best = False  # mode best (start_best)
        self.bc = np.full(4 * n, -1, np.int64)
        self.cell_at = np.zeros(n + 1, np.int64)
        self.cur = np.zeros(n + 1, np.int64)
        self.end = np.zeros(n + 1, np.int64)
        self.pl_piece = np.zeros(n + 1, np.int64)
        self.pl_rot = np.zeros(n + 1, np.int64)
        self.avail = t.avail.copy()  # copies left of each piece (of each group when merged)
        self.pl_val = np.zeros(n + 1, np.int64)
        self.st = new_state()
        self.prof = np.zeros(n + 1, np.int64)

    def generate(self, unroll: str, perm: np.ndarray | None = None, candidates: str = "auto") -> float:
        """Search with the kernel generated for this board (``baseline.edge.generated``), its pieces
        renumbered by ``perm`` when given (a random value order); returns the seconds its
        compilation or cache load took in this process."""
        t = self.t
        shape, dep_shape, params = generated_source.shape_of(t, self.profile, unroll, candidates)
        gt = generated_tables.gen_tables(t, dep_shape, params, perm, shape.lists)
        if perm is not None:
            self.avail = np.zeros_like(self.avail)
            self.avail[perm] = t.avail
        n = self.p.n_cells
        self.am = generated_tables.avail_mask(self.avail, shape.words)
        self.ent = np.zeros(n + 1, np.int64)
        self.rem = np.zeros(n + 1, np.int64)

        def warm(kernel) -> None:  # the first call compiles (or loads the machine code): a search of no budget
            kernel(gt, self.avail.copy(), self.am.copy(), self.ent.copy(), self.rem.copy(), self.cur.copy(),
                   self.pl_val.copy(), new_state(), self.prof.copy(), 1, False)  # fmt: skip

        c = generated_cache.compiled(shape, warm)
        self.gen = (c.kernel, gt)
        return c.seconds

    def start_best(self, allow: np.ndarray) -> None:
        """Arrays of mode best (``run_best``)."""
        n = self.p.n_cells
        self.allow = allow
        self.pas = np.zeros(n + 1, np.int64)
        self.mis = np.zeros(n + 1, np.int64)
        self.best_cand = np.zeros(n + 1, np.int64)
        self.best = True

    def step(self, budget: int, stop_on_solution: bool) -> int:
        """Search at most ``budget`` placements; returns the kernel's state code (a solution, done, or the budget spent)."""
        t = self.t
        if self.best:
            return run_best(self.p.n_cells, t.static_arrays(), self.avail, self.cur, self.end, self.pas, self.mis,
                            self.pl_val, self.allow, self.best_cand, self.st, self.prof, budget)  # fmt: skip
        if self.gen is not None:
            kernel, gt = self.gen
            return kernel(gt, self.avail, self.am, self.ent, self.rem, self.cur, self.pl_val, self.st, self.prof,
                          budget, stop_on_solution)  # fmt: skip
        if not self.dynamic:
            return run_static(self.p.n_cells, t.static_arrays(), self.avail, self.cur, self.end, self.pl_val, self.st,
                              self.prof, budget, stop_on_solution)  # fmt: skip
        return run(self.order, t.dynamic_arrays(), self.bc, self.avail, self.cell_at, self.cur, self.end, self.pl_piece,
                   self.pl_rot, self.st, self.prof, budget, stop_on_solution)  # fmt: skip

    def placements(self, cands: np.ndarray | None = None) -> list[EdgePlacement]:
        """The board of the current path (or of the candidate indices ``cands``, one per depth)."""
        n, t = self.p.n_cells, self.t
        if not self.dynamic:
            c = self.cur - 1 if cands is None else cands
            if self.gen is not None and cands is None:
                c = self.gen[1].g_orig[c[:n]]
            board = [EdgePlacement(int(self.order[k]), int(t.s_piece[c[k]]), int(t.s_rot[c[k]])) for k in range(n)]
            return self.p.relabel(board, t.copies) if t.copies else board
        board = [EdgePlacement(int(self.cell_at[k]), int(self.pl_piece[k]), int(self.pl_rot[k])) for k in range(n)]
        return self.p.relabel(board, t.copies) if t.copies else board
