"""Selby's beam search on exact-cover puzzles (polyforms, Eternity 1999).

The edge-matching beam (``run.py``) works on cells with colour tables; this
one works on any uncoloured XCC problem whose primary items include the
sites to fill (for polyforms the cells of the region, in reading order).
A state is the set of items covered, as a bitset over the ``poly`` engine's
tables (``baseline.poly.tables.build``: sites grouped by piece).  At each level the site of a state is
the most constrained of the first ``sites`` uncovered sites in reading order
(the fewest options that still fit); every option covering it makes a child.
A child is dead when one of the next ``lookahead`` sites has no option left,
when (``touch``) a free site next to its new piece has none, or when it
cuts off a pocket of free cells whose area no set of pieces can fill (a
small free component that is not a multiple of the piece area).

Score (Selby's "good pieces left and a nice boundary"):
``sum of l_i over the pieces left - boundary * (free-cell edges facing
covered cells or the outside) + covers * log(fewest options of the next
sites)``.  The weights l_i come from ``weights`` (a JSON file written by
``eternity tilability``), otherwise they are all 0.  Children with the same
covered set (the same future) are merged by a Zobrist hash.

When about ``exhaust_at`` pieces are left, each survivor, best first, is
exhausted: for polyforms one ``poly`` search (Selby's site search over
bitsets) restarted from the survivor's bitset, otherwise Algorithm C on the
sub-problem.
With ``probe_at``, once that few pieces are left, each state the beam would
keep is first searched by that engine for ``probe_nodes`` nodes: a state the
probe exhausts without a tiling is dropped (it was dead, though no site near
its last pieces showed it), and a tiling the probe meets is the answer.
A run that ends without a solution is repeated four times wider (three
runs at most) while time is left.

With ``checkpoint`` the frontier (item bitsets, scores, hashes, chosen
options) is written there at most every FRONTIER_EVERY_S seconds (every
level when it is small), with ``best.svg``, the best state's partial board,
at most every minute (the deepest board of the solve: a wider rerun replaces it only once it
gets deeper); ``resume`` goes on from the level it was written at.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from baseline.beam.frontier import _per_parent
from baseline.beam.options import OPTIONS
from baseline.beam.xcc_kernels import _alive, _children, _expand, _sites
from baseline.poly import boundary
from baseline.poly import tables as poly_tables
from baseline.runtime import checkpoint
from baseline.runtime.kernel import BUDGET, DEEPEST, DONE, SOLUTION
from baseline.xcc.searches import PolySearch, make_search
from puzzles.errors import UsageError
from puzzles.files.formats import read_weights_and_sizes
from solving import Limits, SolveResult
from solving.options import fingerprint_options

FRONTIER_EVERY_S = 60.0  # a wide frontier is written at most this often (a kill loses at most this)
SMALL_FRONTIER = 2_000_000  # bytes of state bitsets up to which the frontier is written every level
PICTURE_EVERY_S = 60.0  # best.svg, the best state's partial board
ENDGAME_CHUNK = 200_000  # end-game nodes between two looks at the clock


class XCCBeamRun:
    """The tables and the frontier of one beam search on an XCC puzzle."""

    def __init__(self, puzzle, options: dict, expander=None):
        """``expander``: a level's expansion done elsewhere (a cluster), answering as ``expand``."""
        self.p = puzzle
        self.o = options
        t0 = time.perf_counter()
        xcc = puzzle.to_xcc()
        if xcc.opt_colors.any():
            raise UsageError("beam: coloured XCC problems are not supported (polyform and queens puzzles are)")
        self.xcc = xcc
        n_items = xcc.n_items
        opt_ptr = xcc.opt_ptr.astype(np.int64)
        opt_items = xcc.opt_items.astype(np.int64)
        rng = np.random.default_rng(12345)
        zob = rng.integers(1, 2**63 - 1, size=n_items, dtype=np.int64).astype(np.uint64)
        self.opt_hash = np.bitwise_xor.reduceat(zob[opt_items], opt_ptr[:-1]) if xcc.n_options else zob[:0]
        # the poly engine's tables: a state is a bitset over the items, a site's options are grouped by piece
        poly_grid = puzzle.grid_name  # None: no geometry
        self.t = poly_tables.build(xcc, grid=poly_grid, sweep=self.o["sweep"])
        self.opt_sites = np.diff(self.t.os_ptr)
        if poly_grid is not None:
            self.sites_per_piece = float(np.mean([len(pc.cells) for pc in puzzle.pieces]))
        else:  # no geometry: every primary item is a site, in item order
            self.sites_per_piece = float(max(1.0, self.opt_sites.mean())) if len(self.opt_sites) else 1.0
        self.expander = expander
        self.opt_weight = self._weights(options.get("weights", ""))
        # called after each level's expansion with (level, pieces left, chosen, parent, option, score, the
        # frontier's boards, first free sites and scores): how the fit of size-dependent weights and the end
        # game's data watch the beam's own states (experiments/studies/size_weights.py, experiments/studies/endgame.py)
        self.observe: Callable[..., None] | None = None
        self._exhauster = None  # the end-game's poly search, made at its first survivor (or probe)
        self._probe_solution = None  # a tiling a probe found (``_probe``)
        self._drawn = 0  # the level of the board in best.svg
        self._scratch = None  # the kernels' work arrays (``_work``)
        # the end game over a cluster: (run, boards, chosen, stats, deadline, progress) -> a tiling or None
        self.endgame_map = None
        # the probes over a cluster: (run, boards, ok, stats, deadline) -> as probe_states
        self.probe_map = None
        self.bt = self._tables()
        self.region = self._read_region_score(options["region_score"]) if options.get("region_score") else None
        self.build_s = time.perf_counter() - t0

    def _tables(self) -> boundary.BoundaryTables:
        """Selby's boundary tables (``tables`` window cells, ``tables_core`` of them to cover), or none."""
        n_win = self.o.get("tables", 0)
        if not n_win:
            return boundary.off(self.t.n_sites)
        if self.p.grid_name is None:
            raise UsageError("beam: boundary tables (tables=N) apply to polyform puzzles")
        names = self.xcc.item_names
        cells = [poly_tables.cell_of(names[int(self.t.old_of[s])]) for s in range(self.t.n_sites)]
        return boundary.build(self.p, cells, n_win, min(self.o["tables_core"], n_win))

    def _weights(self, path: str) -> np.ndarray:
        """Per-option score change: minus the log-weight of the piece it uses.  A file with a size schedule
        (``sizes``) sets the base weights ``opt_l`` and the schedule; ``_resize`` then picks each level's."""
        w = np.zeros(self.xcc.n_options)
        self.piece_l = np.zeros(len(getattr(self.p, "pieces", ())))  # the base log-weight of each piece
        self.opt_l = np.zeros(self.xcc.n_options)  # and of each option's piece
        self.size_map: dict[int, tuple[float, float]] | None = None
        self._size_key: int | None = None
        if not path:
            return w
        if self.p.grid_name is None:
            raise UsageError("beam: weights apply to polyform puzzles")
        table, self.size_map = read_weights_and_sizes(self.p, path)
        self.piece_l = np.array([table[pc.name] for pc in self.p.pieces])
        piece = getattr(self.xcc.decode, "piece", None)  # a placement table: its piece column
        if piece is not None:
            self.opt_l[:] = self.piece_l[piece]
        else:
            for k, pl in enumerate(self.xcc.decode):
                self.opt_l[k] = self.piece_l[pl.piece]
        if self.size_map is not None and self.expander is not None:
            raise UsageError(
                f"beam: {path} has weights that depend on the pieces left; the beam over a cluster takes one weight "
                "set (a file without 'sizes')"
            )
        w[:] = -self.opt_l
        return w

    def _resize(self, chosen: np.ndarray, score: np.ndarray, ahead: int = 1) -> np.ndarray:
        """Size-dependent weights: before a level, the weights of its children's size (the schedule's nearest
        size to the pieces they leave) become the options' score changes, and the frontier's scores are
        re-based on them (each state's pieces placed so far re-weighed), so every child of the level is
        scored by one weight set.  Returns the frontier's scores.  ``ahead=0`` takes the frontier's own size
        (a resumed frontier: the weights its scores were made with)."""
        if self.size_map is None:
            return score
        n = round(self.pieces_left(chosen[0])) - ahead
        key = min(self.size_map, key=lambda s: (abs(s - n), s))
        if key == self._size_key:
            return score
        a, b = self.size_map[key]
        new = -(a * self.opt_l + b * self.opt_l**2)
        if self._size_key is not None and chosen.shape[1]:
            score = score + (new[chosen] - self.opt_weight[chosen]).sum(axis=1)
        self.opt_weight, self._size_key = new, key
        return score

    def pieces_left(self, chosen_row) -> float:
        """Pieces' worth of free sites left after the options of ``chosen_row``."""
        free = self.t.n_sites - int(self.opt_sites[chosen_row].sum())
        return free / self.sites_per_piece

    def _work(self):
        """The kernels' scratch arrays, made once a run (a level's expansion reuses them)."""
        if self._scratch is None:
            t = self.t
            n_sites, width = t.n_sites, max(64, t.max_col)
            near = np.zeros(max(1, int(self.opt_sites.max(initial=1)) * max(1, t.nbr.shape[1])), np.int64)
            small = (np.zeros(n_sites + 1, np.int64), np.zeros(max(1, n_sites), np.int64), np.zeros(width, np.int64))
            boards = tuple(np.zeros(t.n_words, np.uint64) for _ in range(3))
            lists = tuple(np.zeros(width, np.int64) for _ in range(3))
            # stamp, stack, scratch, opts, near, child; then the lookahead's boards and option lists
            self._scratch = (*small, lists[0], near, boards[0], (boards[1], boards[2], lists[1], lists[2]))
        return self._scratch

    def expand(self, board, first, score, hsh):
        """One level: each state's site and its live children, scored (``xcc_kernels._expand``).

        Returns (parent, option, score, hash, tally, seconds choosing the sites); ``tally[0]`` counts
        the children only the boundary tables rejected.  The children come in the order of their
        parents, so the children of a frontier cut in pieces and expanded piece by piece (the Dask
        beam) are these same arrays, joined."""
        t, o = self.t, self.o
        tl = time.perf_counter()
        n = len(score)
        stamp, stack, scratch, opts, near, child, below = self._work()
        site = np.zeros(n, np.int64)
        n_fit = np.zeros(n, np.int64)
        m = _sites(board, first, n, t, o["sites"], scratch, site, n_fit)
        t_sites = time.perf_counter() - tl
        par = np.zeros(m, np.int64)
        opt = np.zeros(m, np.int64)
        sc = np.zeros(m)
        hs = np.zeros(m, np.uint64)
        tally = np.zeros(2, np.int64)
        knobs = (o["lookahead"], o["touch"], o["boundary"], o["covers"], o["sites"])
        work = (stamp, stack, scratch, opts, near, child, below)
        bt = (self.bt.win, self.bt.tid, self.bt.tab, self.bt.inv_ptr, self.bt.inv_idx)
        m = _expand(
            board, first, site, n, t, self.opt_hash, self.opt_weight, score, hsh, knobs, bt, (par, opt, sc, hs), work,
            o["look"], tally,
        )  # fmt: skip
        return par[:m], opt[:m], sc[:m], hs[:m], tally, t_sites

    def child_boards(self, board, first, par, opt):
        """The boards (and first free sites) of the children (``par``, ``opt``) of the states ``board``."""
        t = self.t
        out = np.zeros((len(par), t.n_words), np.uint64)
        out_first = np.zeros(len(par), np.int64)
        _children(board, first, par, opt, t.scan, t.ow_ptr, t.ow_idx, t.ow_mask, t.tag, out, out_first)
        return out, out_first

    def solve(self, limits: Limits, progress) -> SolveResult:
        """Beam runs, each four times wider than the last (at most three), until one solves."""
        t0 = time.perf_counter()
        deadline = t0 + limits.time_s if limits.time_s else None
        stats: dict[str, Any] = {
            "build_s": self.build_s,
            "levels": [],
            "endgame_states": 0,
            "endgame_nodes": 0,
            "endgame_gave_up": 0,
            "widths": [],
        }
        width = self.o["width"]
        resumed = self._load() if self.o.get("resume") else None
        runs = 0
        if resumed is not None:
            width, runs = int(resumed["width"]), int(resumed["run"])
        while runs < 3:
            stats["widths"].append(width)
            status, sols, msg = self._one_run(width, deadline, progress, stats, runs, resumed)
            resumed = None
            if status == "solved" or (deadline is not None and time.perf_counter() >= deadline):
                break
            width *= 4
            runs += 1
        return self._result(status, sols, stats, t0, msg)

    # -------------------------------------------------------------- checkpoints
    def fingerprint(self) -> str:
        """What a checkpoint of this search must match to be resumed: the puzzle and the options that shape the search."""
        keep = fingerprint_options(OPTIONS, self.o)
        keep["_state"] = "bitset"  # the frontier's rows are the poly engine's item bitsets
        h = hashlib.sha256(
            self.xcc.opt_ptr.tobytes()
            + self.xcc.opt_items.tobytes()
            + json.dumps(keep, sort_keys=True, default=str).encode()
        )
        return h.hexdigest()[:16]

    def _save(self, k, width, run, board, score, hsh, first, chosen, endgame_next=0) -> None:
        """The frontier; in the end-game also the next survivor to exhaust (those before it failed)."""
        checkpoint.save(
            Path(self.o["checkpoint"]),
            "frontier",
            board=board,
            score=score,
            hsh=hsh,
            first=first,
            chosen=chosen,
            level=k,
            width=width,
            run=run,
            endgame_next=endgame_next,
            fingerprint=self.fingerprint(),
        )

    def _load(self) -> dict:
        return checkpoint.load(Path(self.o["resume"]), "frontier", self.fingerprint())

    def _picture(self, chosen_row) -> None:
        from puzzles.files.outputs import atomic_write
        from puzzles.files.render import render

        atomic_write(
            str(Path(self.o["checkpoint"]) / "best.svg"), render(self.p, [self.xcc.decode[int(q)] for q in chosen_row])
        )

    def _one_run(self, width, deadline, progress, stats, run=0, resumed=None):
        o, t = self.o, self.t
        t0 = time.perf_counter()
        ea = o["exhaust_at"]
        exhaust_at = min(30, max(1, round(t.n_sites / self.sites_per_piece / 4))) if ea < 0 else ea
        board = np.zeros((1, t.n_words), np.uint64)
        score = np.zeros(1)
        hsh = np.zeros(1, np.uint64)
        first = np.zeros(1, np.int64)
        chosen = np.zeros((1, 0), np.int64)
        k, start = 0, 0
        if resumed is not None:
            board, score, hsh = resumed["board"], resumed["score"], resumed["hsh"]
            first, chosen, k = resumed["first"], resumed["chosen"], int(resumed["level"])
            start = int(resumed.get("endgame_next", 0))
            self._size_key = None
            score = self._resize(chosen, score, ahead=0)  # the weights the stored scores were made with
        ck = bool(o.get("checkpoint"))
        last_save = last_picture = time.perf_counter()
        scratch = self._work()[2]
        while self.pieces_left(chosen[0]) > exhaust_at + 1e-9:
            if deadline is not None and time.perf_counter() >= deadline:
                return "limit", [], "time limit during the beam"
            tl = time.perf_counter()
            score = self._resize(chosen, score)
            par, opt, sc, hs, tally, t_sites = (self.expander or self.expand)(board, first, score, hsh)
            m = len(par)
            if self.observe is not None:
                self.observe(k, self.pieces_left(chosen[0]), chosen, par, opt, sc, board, first, score)
            t_expand = time.perf_counter() - tl - t_sites
            stats["tables_rejected"] = stats.get("tables_rejected", 0) + int(tally[0])
            stats["tables_rejected_below"] = stats.get("tables_rejected_below", 0) + int(tally[1])
            if m == 0:
                stats["levels"].append({"level": k + 1, "kept": 0, "children": 0})
                return "limit", [], f"every state died at level {k + 1} (width {width}): widen the beam"
            noise = np.random.default_rng([o["seed"], k]).random(m) * 1e-9
            idx = np.lexsort((noise, -sc))
            _, firsts = np.unique(hs[idx], return_index=True)
            ranked = idx[np.sort(firsts)]
            if self.region is not None and self.pieces_left(chosen[0]) - 1 <= o["region_at"]:
                ranked = self._rerank(ranked, width, board, first, par, opt, chosen, stats)
            if o.get("per_parent", 0) > 0:  # diversity: each state's best per_parent children first, then the rest
                ranked = _per_parent(ranked, par, o["per_parent"], len(ranked), len(score))
            probing = 0 < o.get("probe_at", 0) and self.pieces_left(chosen[0]) - 1 <= o["probe_at"]
            if o.get("every_site") or probing:  # the best `width` children that pass the checks asked for
                keep, new_board, new_first = self._checked_children(
                    ranked, width, board, first, par, opt, chosen, scratch, stats, probing, deadline
                )
                if self._probe_solution is not None:
                    return "solved", [self._probe_solution], ""
            else:
                keep = ranked[:width]
                new_board = np.zeros((len(keep), t.n_words), np.uint64)
                new_first = np.zeros(len(keep), np.int64)
                _children(
                    board,
                    first,
                    par[keep],
                    opt[keep],
                    t.scan,
                    t.ow_ptr,
                    t.ow_idx,
                    t.ow_mask,
                    t.tag,
                    new_board,
                    new_first,
                )
            if len(keep) == 0:
                stats["levels"].append({"level": k + 1, "kept": 0, "children": int(m)})
                return "limit", [], f"every state died at level {k + 1} (width {width}): widen the beam"
            chosen = np.concatenate([chosen[par[keep]], opt[keep][:, None]], axis=1)
            board, first, score, hsh = new_board, new_first, sc[keep], hs[keep]
            k += 1
            now = time.perf_counter()
            if ck and (board.size * 8 <= SMALL_FRONTIER or now - last_save >= FRONTIER_EVERY_S):
                self._save(k, width, run, board, score, hsh, first, chosen)
                last_save = now
            # the picture is the deepest board of the whole solve: a wider rerun replaces it once it gets deeper
            if ck and k > self._drawn and (self._drawn == 0 or now - last_picture >= PICTURE_EVERY_S):
                self._picture(chosen[int(np.argmax(score))])
                self._drawn, last_picture = k, now
            dt = time.perf_counter() - tl
            lv = {
                "width": width,
                "level": k,
                "kept": int(len(keep)),
                "children": int(m),
                "best": float(score.max()),
                "worst": float(score.min()),
                "time_s": dt,
                "sites_s": t_sites,
                "expand_s": t_expand,
                "tables_rejected": int(tally[0]),
                # the frontier kept (bitsets, options chosen, scores, hashes, first free sites) and the level's
                # children (parent, option, score, hash): the beam's memory besides the tables
                "frontier_bytes": int(board.nbytes + chosen.nbytes + score.nbytes + hsh.nbytes + first.nbytes),
                "children_bytes": int(m * 32),
            }
            stats["levels"].append(lv)
            if progress:
                left = self.pieces_left(chosen[0]) - exhaust_at
                el = time.perf_counter() - t0
                progress(
                    {
                        "level": k,
                        "kept": lv["kept"],
                        "best_score": round(lv["best"], 2),
                        "worst_score": round(lv["worst"], 2),
                        "states_per_s": round(m / dt if dt > 0 else 0),
                        "eta_s": round(el / k * left, 1),
                    }
                )
        if ck and start == 0:  # the survivors, as the end-game starts
            self._save(k, width, run, board, score, hsh, first, chosen)
            if k >= self._drawn:
                self._picture(chosen[int(np.argmax(score))])
                self._drawn = k
        # the end-game: exhaust each survivor, best first (a resume goes on from the next one)
        if self.endgame_map is not None and start < len(score):  # the survivors spread over a cluster
            sol = self.endgame_map(self, board[start:], chosen[start:], stats, deadline, progress)
            if sol is not None:
                return "solved", [sol], ""
            if deadline is not None and time.perf_counter() >= deadline:
                return "limit", [], "time limit in the end-game"
            return "limit", [], f"no survivor of the beam (width {width}) completes: widen the beam"
        last_save = last_told = time.perf_counter()
        for j in range(start, len(score)):
            if progress and time.perf_counter() - last_told >= 1.0:
                progress({"endgame_state": j + 1, "of": len(score), "nodes": stats["endgame_nodes"]})
                last_told = time.perf_counter()
            if deadline is not None and time.perf_counter() >= deadline:
                return "limit", [], "time limit in the end-game"
            sol = self._endgame(chosen[j], stats, deadline, board[j])
            if sol is not None:
                return "solved", [sol], ""
            if ck and time.perf_counter() - last_save >= FRONTIER_EVERY_S:
                self._save(k, width, run, board, score, hsh, first, chosen, endgame_next=j + 1)
                last_save = time.perf_counter()
        return "limit", [], f"no survivor of the beam (width {width}) completes: widen the beam"

    def _read_region_score(self, path: str):
        """(the score's per-option piece weights, its region terms) from a file ``eternity endgame fit`` wrote."""
        from baseline.poly.features import FEATURES

        try:
            doc = json.loads(Path(path).read_text())
            rt = doc["region_terms"]
            if list(rt["features"]) != list(FEATURES):
                raise ValueError(f"its features {rt['features']} are not this build's {list(FEATURES)}")
            piece_l = np.array([float(doc["weights"][pc.name]) for pc in self.p.pieces])
            beta, mean, scale = (np.asarray(rt[k], float) for k in ("beta", "mean", "scale"))
        except OSError as e:
            raise UsageError(f"beam: region_score {path}: {e.strerror}") from None
        except (ValueError, KeyError, TypeError) as e:
            raise UsageError(f"beam: region_score {path}: not a score with region terms ({e})") from None
        piece = self.xcc.decode.piece
        return piece_l[piece], (beta, mean, scale)

    def _rerank(self, ranked, width, board, first, par, opt, chosen, stats):
        """The best ``region_pool`` x ``width`` of the ``ranked`` children ranked again by the region score
        (the weights of the pieces left plus the region terms of the child's free region); the rest follow."""
        from baseline.poly.features import state_features

        opt_l, (beta, mean, scale) = self.region
        pool = ranked[: self.o["region_pool"] * width]
        nb = np.zeros((len(pool), self.t.n_words), np.uint64)
        nf = np.zeros(len(pool), np.int64)
        t = self.t
        _children(board, first, par[pool], opt[pool], t.scan, t.ow_ptr, t.ow_idx, t.ow_mask, t.tag, nb, nf)
        placed = (opt_l[chosen[par[pool]]].sum(axis=1) if chosen.shape[1] else 0.0) + opt_l[opt[pool]]
        new = -placed + ((state_features(t, nb) - mean) / scale) @ beta
        stats["region_ranked"] = stats.get("region_ranked", 0) + len(pool)
        return np.concatenate([pool[np.argsort(-new, kind="stable")], ranked[len(pool) :]])

    def _checked_children(self, ranked, width, board, first, par, opt, chosen, scratch, stats, probing, deadline):
        """(kept, boards, first free sites) of the best ``width`` of the ``ranked`` children that pass
        the checks asked for, built and checked a width at a time, best first: ``every_site`` (no
        free site left uncoverable) and, when ``probing``, a probe (``_probe``)."""
        t = self.t
        keep, boards, firsts = [], [], []
        at = kept = 0
        while at < len(ranked) and kept < width:
            part = ranked[at : at + width - kept]
            at += len(part)
            nb = np.zeros((len(part), t.n_words), np.uint64)
            nf = np.zeros(len(part), np.int64)
            _children(board, first, par[part], opt[part], t.scan, t.ow_ptr, t.ow_idx, t.ow_mask, t.tag, nb, nf)
            ok = np.ones(len(part), np.bool_)
            if self.o.get("every_site"):
                _alive(nb, nf, len(part), t, scratch, ok)
                stats["every_site_dropped"] = stats.get("every_site_dropped", 0) + int(len(part) - ok.sum())
            if probing:
                self._probe(
                    nb, ok, lambda i, part=part: [*chosen[par[part[i]]].tolist(), int(opt[part[i]])], stats, deadline
                )
            keep.append(part[ok])
            boards.append(nb[ok])
            firsts.append(nf[ok])
            kept += int(ok.sum())
            if self._probe_solution is not None:
                break
        return np.concatenate(keep)[:width], np.concatenate(boards)[:width], np.concatenate(firsts)[:width]

    def _probe(self, boards, ok, prefix_of, stats, deadline):
        """Search each state still ``ok`` for up to ``probe_nodes`` nodes (the end-game's engine,
        restarted from its bitset) and clear ``ok`` where the search ends without a tiling: the
        state is dead, though no site near its last pieces shows it yet. A tiling found on the way
        (state i's options ``prefix_of(i)`` and the search's) is kept in ``_probe_solution``. Past
        the deadline the rest are kept unprobed."""
        if self.probe_map is not None:  # the states spread over a cluster
            found = self.probe_map(self, boards, ok, stats, deadline)
        else:
            found = self.probe_states(boards, ok, stats, deadline)
        if found is not None:
            i, tail = found
            self._probe_solution = [self.xcc.decode[q] for q in prefix_of(i) + tail]

    def probe_states(self, boards, ok, stats, deadline):
        """``_probe``'s searches, in order: clears ``ok`` for the states exhausted; (i, the search's options)
        for the first state whose search meets a tiling, else None."""
        if self._exhauster is None:
            self._exhauster = PolySearch(self.xcc, tables=self.t, recon=self.o["reconnoitre"])
        s = self._exhauster
        for i in np.nonzero(ok)[0]:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            s.restart(boards[i])
            code = s.step(self.o["probe_nodes"], True)
            stats["probe_states"] = stats.get("probe_states", 0) + 1
            stats["probe_nodes"] = stats.get("probe_nodes", 0) + s.nodes
            if code == SOLUTION:
                return int(i), s.current_options()
            if code == DONE:
                ok[i] = False
                stats["probe_dropped"] = stats.get("probe_dropped", 0) + 1
        return None

    def _endgame(self, prefix, stats, deadline=None, board=None):
        """Exhaust one survivor (up to ``endgame_nodes`` nodes, and not past the deadline).

        Polyforms: the poly engine on the beam's own tables, restarted from the survivor's
        bitset (no sub-problem built: that cost 0.15 s a survivor on the pram, more than most
        exhausts).  Otherwise the sub-problem left by ``prefix``, by Algorithm C."""
        xcc = self.xcc
        if self.p.grid_name is not None and board is not None:
            if self._exhauster is None:
                self._exhauster = PolySearch(xcc, tables=self.t, recon=self.o["reconnoitre"])
            search, sub = self._exhauster, xcc
            search.restart(board)
        else:
            sub, _ = xcc.restrict(prefix)
            search = make_search(sub)
        stats["endgame_states"] += 1
        code = BUDGET
        while code == BUDGET and search.nodes < self.o["endgame_nodes"]:
            if deadline is not None and time.perf_counter() >= deadline:
                break
            code = search.step(min(ENDGAME_CHUNK, self.o["endgame_nodes"] - search.nodes), True)
        stats["endgame_nodes"] += search.nodes
        stats["endgame_deepest"] = max(stats.get("endgame_deepest", 0), len(prefix) + int(search.st[DEEPEST]))
        if code == SOLUTION:
            return [xcc.decode[q] for q in prefix] + [sub.decode[q] for q in search.current_options()]
        if code != DONE:
            stats["endgame_gave_up"] += 1
        return None

    def _result(self, status, sols, stats, t0, message=""):
        stats["time_s"] = time.perf_counter() - t0
        stats["nodes"] = sum(lv["children"] for lv in stats["levels"]) + stats["endgame_nodes"]
        # pieces placed: the beam's last level, or deeper in an end-game exhaust
        stats["deepest"] = max(
            max((lv["level"] for lv in stats["levels"] if lv["kept"]), default=0), stats.get("endgame_deepest", 0)
        )
        return SolveResult(status, sols, None, None, stats, message)
