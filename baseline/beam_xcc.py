"""Selby's beam search on exact-cover puzzles (polyforms, Eternity 1999).

The edge-matching beam (``beam.py``) works on cells with colour tables; this
one works on any uncoloured XCC problem whose primary items include the
sites to fill (for polyforms the cells of the region, in reading order).
A state is the set of items covered.  At each level the site of a state is
the most constrained of the first ``sites`` uncovered sites in reading order
(the fewest options that still fit); every option covering it makes a child.
A child is dead when one of the next ``lookahead`` sites has no option left,
or when it cuts off a pocket of free cells whose area no set of pieces can
fill (a small free component that is not a multiple of the piece area).

Score (Selby's "good pieces left and a nice boundary"):
``sum of l_i over the pieces left - boundary * (free-cell edges facing
covered cells or the outside) + covers * log(fewest options of the next
sites)``.  The weights l_i come from ``weights`` (a JSON file written by
``eternity tilability``), otherwise they are all 0.  Children with the same
covered set (the same future) are merged by a Zobrist hash.

When about ``exhaust_at`` pieces are left, each survivor, best first, is
exhausted on the sub-problem by ``backtrack``'s search: the ``poly`` engine
for polyforms (Selby's site search over bitsets), Algorithm C otherwise.
A run that ends without a solution is repeated four times wider (three
runs at most) while time is left.

With ``checkpoint`` the frontier (covered items, scores, hashes, chosen
options) is written there at most every FRONTIER_EVERY_S seconds (every
level when it is small), with ``best.svg``, the best state's partial board,
at most every minute; ``resume`` goes on from the level it was written at.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from pathlib import Path

import numpy as np
from numba import njit

from puzzles.formats import InputError
from puzzles.xcc import option_entries
from solving import Limits, SolveResult

from . import checkpoint
from .backtrack import make_search
from .kernel import DONE, MANY, SOLUTION

FRONTIER_EVERY_S = 60.0     # a wide frontier is written at most this often (a kill loses at most this)
SMALL_FRONTIER = 2_000_000  # states x items up to which the frontier is written every level
PICTURE_EVERY_S = 60.0      # best.svg, the best state's partial board


@njit(cache=True)
def _fits(o, cov, opt_ptr, opt_items):
    for q in range(opt_ptr[o], opt_ptr[o + 1]):
        if cov[opt_items[q]]:
            return False
    return True


@njit(cache=True)
def _site_covers(s, cov, item_ptr, item_opts, opt_ptr, opt_items, cap):
    """How many options still fit at item s (counting stops at cap)."""
    n = 0
    for q in range(item_ptr[s], item_ptr[s + 1]):
        if _fits(item_opts[q], cov, opt_ptr, opt_items):
            n += 1
            if n >= cap:
                return n
    return n


@njit(cache=True)
def _pick_site(cov, order, start, n_sites_look, item_ptr, item_opts, opt_ptr, opt_items):
    """(position in order of the first free site, the chosen site) -- fewest covers among the first few."""
    best, best_n, first, seen = -1, MANY, -1, 0
    for p in range(start, len(order)):
        s = order[p]
        if cov[s]:
            continue
        if first < 0:
            first = p
        n = _site_covers(s, cov, item_ptr, item_opts, opt_ptr, opt_items, best_n)
        if n < best_n:
            best, best_n = s, n
        seen += 1
        if seen >= n_sites_look or best_n <= 1:
            break
    return first, best


@njit(cache=True)
def _expand(cov, first, n_states, order, item_ptr, item_opts, opt_ptr, opt_items, opt_hash, opt_weight,
            nbr, n_cells, area, score, hsh, n_sites_look, lookahead, w_boundary, w_covers, fill,
            out_parent, out_opt, out_score, out_hash, stamp, stack):
    """Children of every state (or, when fill is False, only their number)."""
    m = 0
    tag = 0
    stamp[:] = 0
    for i in range(n_states):
        c = cov[i]
        f, s = _pick_site(c, order, first[i], n_sites_look, item_ptr, item_opts, opt_ptr, opt_items)
        if s < 0:
            continue
        for q in range(item_ptr[s], item_ptr[s + 1]):
            o = item_opts[q]
            if not _fits(o, c, opt_ptr, opt_items):
                continue
            if not fill:
                m += 1
                continue
            a, b = opt_ptr[o], opt_ptr[o + 1]
            for r in range(a, b):
                c[opt_items[r]] = True
            sc = score[i] + opt_weight[o]
            ok = True
            # boundary change and pockets, over the cells of the placed option
            if n_cells > 0:
                delta = 0
                tag += 1
                base = tag  # floods of this child get tags base, base+1, ...
                for r in range(a, b):
                    x = opt_items[r]
                    if x >= n_cells:
                        continue
                    for d in range(nbr.shape[1]):
                        y = nbr[x, d]
                        if y == -2:
                            continue
                        if y == -1:
                            delta -= 1
                        elif not c[y]:
                            delta += 1
                            if area > 0 and ok and stamp[y] < base:
                                # bounded flood: a small pocket must be a multiple of the piece area;
                                # meeting an earlier flood of this child means the big component
                                tag += 1
                                stamp[y] = tag
                                stack[0] = y
                                top, size, big = 1, 0, False
                                while top > 0 and not big:
                                    top -= 1
                                    u = stack[top]
                                    size += 1
                                    if size > 3 * area:
                                        big = True
                                        break
                                    for e in range(nbr.shape[1]):
                                        v = nbr[u, e]
                                        if v >= 0 and not c[v]:
                                            if stamp[v] == tag:
                                                continue
                                            if stamp[v] >= base:
                                                big = True
                                                break
                                            stamp[v] = tag
                                            stack[top] = v
                                            top += 1
                                if not big and size % area != 0:
                                    ok = False
                        else:
                            inside = False
                            for r2 in range(a, b):
                                if opt_items[r2] == y:
                                    inside = True
                                    break
                            if not inside:
                                delta -= 1
                sc -= w_boundary * delta
            # lookahead: the next free sites must still have a cover
            if ok and lookahead > 0:
                seen = 0
                fewest = MANY
                for p in range(f, len(order)):
                    t = order[p]
                    if c[t]:
                        continue
                    k = _site_covers(t, c, item_ptr, item_opts, opt_ptr, opt_items, 64)
                    if k == 0:
                        ok = False
                        break
                    if k < fewest:
                        fewest = k
                    seen += 1
                    if seen >= lookahead:
                        break
                if ok and seen > 0:
                    sc += w_covers * math.log(fewest)
            for r in range(a, b):
                c[opt_items[r]] = False
            if ok:
                out_parent[m] = i
                out_opt[m] = o
                out_score[m] = sc
                out_hash[m] = hsh[i] ^ opt_hash[o]
                m += 1
    return m


class XCCBeamRun:
    """The tables and the frontier of one beam search on an XCC puzzle."""

    def __init__(self, puzzle, options: dict):
        self.p = puzzle
        self.o = options
        t0 = time.perf_counter()
        xcc = puzzle.to_xcc()
        if xcc.opt_colors.any():
            raise ValueError("beam: coloured XCC problems are not supported (polyform and queens puzzles are)")
        self.xcc = xcc
        n_items = xcc.n_items
        self.opt_ptr = xcc.opt_ptr.astype(np.int64)
        self.opt_items = xcc.opt_items.astype(np.int64)
        counts = np.bincount(self.opt_items, minlength=n_items)
        self.item_ptr = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        owner = np.repeat(np.arange(xcc.n_options), np.diff(self.opt_ptr))
        self.item_opts = owner[np.argsort(self.opt_items, kind="stable")].astype(np.int64)
        rng = np.random.default_rng(12345)
        zob = rng.integers(1, 2**63 - 1, size=n_items, dtype=np.int64).astype(np.uint64)
        self.opt_hash = np.bitwise_xor.reduceat(zob[self.opt_items], self.opt_ptr[:-1]) if xcc.n_options else zob[:0]
        self._geometry()
        self.opt_weight = self._weights(options.get("weights", ""))
        self.build_s = time.perf_counter() - t0

    def _geometry(self):
        p, xcc = self.p, self.xcc
        if p.kind == "polyform":
            grid = p.grid
            cells = sorted(map(tuple, p.region))
            index = {c: i for i, c in enumerate(cells)}
            deg = max(len(grid.neighbours(c)) for c in cells)
            nbr = np.full((len(cells), deg), -2, np.int64)
            for i, c in enumerate(cells):
                for d, nb in enumerate(grid.neighbours(c)):
                    nbr[i, d] = index.get(nb, -1)
            cen = [grid.centroid(c) for c in cells]
            th = math.radians(self.o.get("sweep", 90.0))  # 90: rows from the top, each left to right
            ux, uy = math.cos(th), math.sin(th)
            self.order = np.array(sorted(range(len(cells)), key=lambda i: (
                -round(cen[i][0] * ux + cen[i][1] * uy, 6), round(cen[i][0] * uy - cen[i][1] * ux, 6))), np.int64)
            self.nbr, self.n_cells = nbr, len(cells)
            sizes = {len(pc.cells) for pc in p.pieces}
            self.area = sizes.pop() if len(sizes) == 1 else 0
            self.sites_per_piece = float(np.mean([len(pc.cells) for pc in p.pieces]))
        else:  # no geometry: every primary item is a site, in item order
            self.order = np.arange(xcc.n_primary, dtype=np.int64)
            self.nbr, self.n_cells, self.area = np.zeros((0, 1), np.int64), 0, 0
            # primary items an option covers, on average
            prim = np.add.reduceat((self.opt_items < xcc.n_primary).astype(np.int64), self.opt_ptr[:-1])
            self.sites_per_piece = float(max(1.0, prim.mean())) if len(prim) else 1.0

    def _weights(self, path: str) -> np.ndarray:
        """Per-option score change: minus the log-weight of the piece it uses."""
        w = np.zeros(self.xcc.n_options)
        if not path:
            return w
        if self.p.kind != "polyform":
            raise ValueError("beam: weights apply to polyform puzzles")
        try:
            data = json.loads(Path(path).read_text())
            table = {str(k): float(v) for k, v in data["weights"].items()}
        except FileNotFoundError:
            raise InputError(path, None, "no such weights file") from None
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise InputError(path, "weights", f"expected {{\"weights\": {{piece name: log-weight}}}} ({e})") from None
        names = [pc.name for pc in self.p.pieces]
        missing = [n for n in names if n not in table]
        if missing:
            raise InputError(path, "weights", f"no weight for piece {missing[0]!r} ({len(missing)} missing)")
        per_piece = np.array([table[n] for n in names])
        for k, pl in enumerate(self.xcc.decode):
            w[k] = -per_piece[pl.piece]
        return w

    def pieces_left(self, cov_row) -> float:
        free = int(np.count_nonzero(~cov_row[self.order]))
        return free / self.sites_per_piece

    def solve(self, limits: Limits, progress) -> SolveResult:
        """Beam runs, each four times wider than the last (at most three), until one solves."""
        t0 = time.perf_counter()
        deadline = t0 + limits.time_s if limits.time_s else None
        stats = {"build_s": self.build_s, "levels": [], "endgame_states": 0, "endgame_nodes": 0,
                 "endgame_gave_up": 0, "widths": []}
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
        keep = {k: v for k, v in self.o.items() if k not in ("checkpoint", "resume", "endgame_nodes", "jobs", "_job")}
        h = hashlib.sha256(self.xcc.opt_ptr.tobytes() + self.xcc.opt_items.tobytes()
                           + json.dumps(keep, sort_keys=True, default=str).encode())
        return h.hexdigest()[:16]

    def _save(self, k, width, run, cov, score, hsh, first, chosen) -> None:
        checkpoint.save(Path(self.o["checkpoint"]), "frontier", cov=np.packbits(cov, axis=1), n_items=cov.shape[1],
                        score=score, hsh=hsh, first=first, chosen=chosen, level=k, width=width, run=run,
                        fingerprint=self.fingerprint())

    def _load(self) -> dict:
        z = checkpoint.load(Path(self.o["resume"]), "frontier", self.fingerprint())
        z["cov"] = np.unpackbits(z["cov"], axis=1, count=int(z["n_items"])).astype(np.bool_)
        return z

    def _picture(self, chosen_row) -> None:
        from puzzles.outputs import atomic_write
        from puzzles.render import render

        atomic_write(str(Path(self.o["checkpoint"]) / "best.svg"),
                     render(self.p, [self.xcc.decode[int(q)] for q in chosen_row]))

    def _one_run(self, width, deadline, progress, stats, run=0, resumed=None):
        o = self.o
        t0 = time.perf_counter()
        n_items = self.xcc.n_items
        ea = o["exhaust_at"]
        exhaust_at = min(30, max(1, round(len(self.order) / self.sites_per_piece / 4))) if ea < 0 else ea
        cov = np.zeros((1, n_items), np.bool_)
        score = np.zeros(1)
        hsh = np.zeros(1, np.uint64)
        first = np.zeros(1, np.int64)
        chosen = np.zeros((1, 0), np.int64)
        k = 0
        if resumed is not None:
            cov, score, hsh = resumed["cov"], resumed["score"], resumed["hsh"]
            first, chosen, k = resumed["first"], resumed["chosen"], int(resumed["level"])
        ck = bool(o.get("checkpoint"))
        last_save = last_picture = time.perf_counter()
        stamp = np.zeros(max(1, self.n_cells), np.int64)
        stack = np.zeros(max(1, self.n_cells), np.int64)
        args = (self.order, self.item_ptr, self.item_opts, self.opt_ptr, self.opt_items, self.opt_hash, self.opt_weight,
                self.nbr, self.n_cells, self.area)
        while self.pieces_left(cov[0]) > exhaust_at + 1e-9:
            if deadline is not None and time.perf_counter() >= deadline:
                return "limit", [], "time limit during the beam"
            tl = time.perf_counter()
            n = len(score)
            m = _expand(cov, first, n, *args, score, hsh, o["sites"], o["lookahead"], o["boundary"], o["covers"],
                        False, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0), np.zeros(0, np.uint64),
                        stamp, stack)
            par = np.zeros(m, np.int64)
            opt = np.zeros(m, np.int64)
            sc = np.zeros(m)
            hs = np.zeros(m, np.uint64)
            m = _expand(cov, first, n, *args, score, hsh, o["sites"], o["lookahead"], o["boundary"], o["covers"],
                        True, par, opt, sc, hs, stamp, stack)
            if m == 0:
                stats["levels"].append({"level": k + 1, "kept": 0, "children": 0})
                return "limit", [], f"every state died at level {k + 1} (width {width}): widen the beam"
            par, opt, sc, hs = par[:m], opt[:m], sc[:m], hs[:m]
            noise = np.random.default_rng([o["seed"], k]).random(m) * 1e-9
            idx = np.lexsort((noise, -sc))
            _, firsts = np.unique(hs[idx], return_index=True)
            keep = idx[np.sort(firsts)][:width]
            new_cov = cov[par[keep]].copy()
            rows, at = option_entries(self.opt_ptr, opt[keep])
            new_cov[rows, self.opt_items[at]] = True
            chosen = np.concatenate([chosen[par[keep]], opt[keep][:, None]], axis=1)
            cov, score, hsh = new_cov, sc[keep], hs[keep]
            free = ~cov[:, self.order]
            first = np.where(free.any(axis=1), free.argmax(axis=1), len(self.order)).astype(np.int64)
            k += 1
            now = time.perf_counter()
            if ck and (cov.size <= SMALL_FRONTIER or now - last_save >= FRONTIER_EVERY_S):
                self._save(k, width, run, cov, score, hsh, first, chosen)
                last_save = now
            if ck and (k == 1 or now - last_picture >= PICTURE_EVERY_S):
                self._picture(chosen[int(np.argmax(score))])
                last_picture = now
            dt = time.perf_counter() - tl
            lv = {"width": width, "level": k, "kept": int(len(keep)), "children": int(m), "best": float(score.max()),
                  "worst": float(score.min()), "time_s": dt}
            stats["levels"].append(lv)
            if progress:
                left = self.pieces_left(cov[0]) - exhaust_at
                el = time.perf_counter() - t0
                progress({"level": k, "kept": lv["kept"], "best_score": round(lv["best"], 2),
                          "worst_score": round(lv["worst"], 2), "states_per_s": round(m / dt if dt > 0 else 0),
                          "eta_s": round(el / k * left, 1)})
        if ck:  # the survivors, as the end-game starts
            self._save(k, width, run, cov, score, hsh, first, chosen)
            self._picture(chosen[int(np.argmax(score))])
        # the end-game: exhaust each survivor, best first
        for j in range(len(score)):
            if deadline is not None and time.perf_counter() >= deadline:
                return "limit", [], "time limit in the end-game"
            sol = self._endgame(chosen[j], stats)
            if sol is not None:
                return "solved", [sol], ""
        return "limit", [], f"no survivor of the beam (width {width}) completes: widen the beam"

    def _endgame(self, prefix, stats):
        xcc = self.xcc
        sub, _ = xcc.restrict(prefix)
        # polyforms: the poly engine (Selby's site search over bitsets), far faster on Eternity's pieces
        poly_grid = self.p.grid_name if self.p.kind == "polyform" else None
        search = make_search(sub, engine="poly", grid=poly_grid) if poly_grid else make_search(sub)
        code = search.step(self.o["endgame_nodes"], True)
        stats["endgame_states"] += 1
        stats["endgame_nodes"] += search.nodes
        if code == SOLUTION:
            return [xcc.decode[q] for q in prefix] + [sub.decode[q] for q in search.current_options()]
        if code != DONE:
            stats["endgame_gave_up"] += 1
        return None

    def _result(self, status, sols, stats, t0, message=""):
        stats["time_s"] = time.perf_counter() - t0
        stats["nodes"] = sum(lv["children"] for lv in stats["levels"]) + stats["endgame_nodes"]
        stats["deepest"] = max((lv["level"] for lv in stats["levels"]), default=0)
        return SolveResult(status, sols, None, None, stats, message)

