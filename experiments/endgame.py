"""Eternity's end game measured on the beam's own states: their fates, their shapes, Selby's excess-piece data.

Selby and Riordan fitted their score on exhausts of regions of 24 pieces' area with about 90 pieces on
offer, drawn from real searches, and steered the beam's last levels by it [Selby2001].  This module
makes those data from the polyform beam (``baseline.beam.xcc``):

- ``harvest``: one beam run that writes its frontier (item bitsets and the options chosen) at every
  level from ``from_left`` pieces left down, one ``.npz`` a level (``left<N>.npz``);
- ``fates``: each state exhausted by the poly engine (with Selby's reconnoitre) up to a node budget:
  tiled, dead, or undecided, and how deep the search got;
- ``excess``: the region a state leaves, offered its own pieces and ``excess`` more drawn from those
  placed, exhausted in count mode: how many tilings, and how many use each piece (the observation of
  ``puzzles.tilability``'s model).

Every state's numbers are rows of a JSON-lines file, written as each is done, so a killed
collection resumes where it stopped and nothing stored is lost.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from baseline.beam.options import OPTIONS
from baseline.beam.xcc import XCCBeamRun
from baseline.runtime.kernel import COUNT, DEEPEST, DONE, SOLUTION
from baseline.xcc.searches import PolySearch
from puzzles import catalog
from puzzles.errors import UsageError
from solving import Limits

CHUNK = 20_000  # nodes between two looks at the clock


def beam_options(**over) -> dict:
    """The polyform beam's options: its defaults, then ``over``."""
    o = {k: v.default for k, v in OPTIONS.items()}
    o.update(over)
    return o


@dataclass
class Tables:
    """The full board's beam run (for its tables and numbering) and the pieces' items."""

    run: XCCBeamRun
    n_pieces: int

    @property
    def n_sites(self) -> int:
        """The cells of the board: the first items of a state's bitset."""
        return self.run.t.n_sites

    def placed(self, board: np.ndarray) -> np.ndarray:
        """The indices of the pieces a state has placed (their items' bits)."""
        bits = np.unpackbits(board.view(np.uint8), bitorder="little")
        return np.nonzero(bits[self.n_sites : self.n_sites + self.n_pieces])[0]


def tables(puzzle: str, options: dict | None = None) -> Tables:
    """The beam's tables of ``puzzle`` with the beam's own numbering (the bitsets ``harvest`` wrote read the
    same under the same options)."""
    p = catalog.load(puzzle)
    if p.grid_name is None:
        raise UsageError(f"{puzzle}: the end game's data need a polyform puzzle")
    run = XCCBeamRun(p, beam_options(**(options or {})))
    if run.t.n_sites + len(p.pieces) > run.xcc.n_items or any(
        not n.startswith("c") for n in run.xcc.item_names[: run.t.n_sites]
    ):
        raise UsageError(f"{puzzle}: its items are not the board's cells then one a piece")
    return Tables(run, len(p.pieces))


def harvest(
    puzzle: str,
    out: Path,
    from_left: int,
    seconds: float,
    options: dict,
    progress: Callable[[dict], None] | None = None,
) -> dict:
    """Run the beam and write its frontier at each level with at most ``from_left`` pieces left to
    ``out/left<N>.npz`` (board bitsets, first free sites, options chosen, scores); returns the run's stats."""
    out.mkdir(parents=True, exist_ok=True)
    p = catalog.load(puzzle)
    run = XCCBeamRun(p, beam_options(**options))

    def observe(level, n_left, chosen, par, opt, sc, board, first, score) -> None:
        n = int(round(n_left))
        if progress is not None:
            progress({"level": level, "pieces_left": n, "frontier": len(board), "children": len(par)})
        if n <= from_left:
            tmp = out / f".left{n}.tmp.npz"
            np.savez_compressed(tmp, board=board, first=first, chosen=chosen, score=score, level=level)
            tmp.replace(out / f"left{n}.npz")

    run.observe = observe
    r = run.solve(Limits(time_s=seconds), None)
    stats = {k: v for k, v in r.stats.items() if k != "levels"}
    stats["status"] = r.status.value
    stats["message"] = r.message
    (out / "harvest.json").write_text(json.dumps({"puzzle": puzzle, "options": options, "stats": stats}, default=str))
    return stats


def load_level(out: Path, left: int) -> dict:
    """The frontier ``harvest`` wrote at ``left`` pieces left."""
    path = out / f"left{left}.npz"
    if not path.exists():
        have = sorted(int(f.stem[4:]) for f in out.glob("left*.npz"))
        raise UsageError(f"{path}: no states at {left} pieces left (the harvest has {have or 'none'})")
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


def _rows(path: Path) -> dict:
    """The rows a JSON-lines file holds, by key (a torn last line, from a kill, is left out)."""
    got = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            got[row["key"]] = row
    return got


def _search(tb: Tables, recon: int, sites_only: bool) -> PolySearch:
    """A poly search on the board's tables; ``sites_only``: a tiling covers the cells, pieces may be left over."""
    t = tb.run.t
    if sites_only:
        prim = np.zeros_like(t.prim)
        for s in range(t.n_sites):
            prim[s >> 6] |= np.uint64(1) << np.uint64(s & 63)
        t = t._replace(prim=prim)
    return PolySearch(tb.run.xcc, tables=t, recon=recon)


def _exhaust(s: PolySearch, board: np.ndarray, budget: int, stop_on_solution: bool) -> tuple[str, int, int, float]:
    """(outcome, nodes, deepest, seconds) of one search restarted from ``board``: ``tiled``, ``dead``
    (exhausted) or ``undecided`` (the budget spent)."""
    t0 = time.perf_counter()
    s.restart(board)
    code = -1
    while s.nodes < budget:
        code = s.step(min(CHUNK, budget - s.nodes), stop_on_solution)
        if code in (DONE, SOLUTION):
            break
    outcome = "tiled" if code == SOLUTION else "dead" if code == DONE else "undecided"
    if code == DONE and not stop_on_solution and int(s.st[COUNT]) > 0:
        outcome = "tiled"
    return outcome, int(s.nodes), int(s.st[DEEPEST]), time.perf_counter() - t0


def fates(
    tb: Tables, states: dict, left: int, path: Path, budget: int, recon: int = 2, progress=None
) -> Iterator[dict]:
    """Exhaust each state of one level (up to ``budget`` nodes) and append its row to ``path``:
    outcome, nodes, the fewest pieces left the search reached, seconds.  Rows already there are kept."""
    done = _rows(path)
    s = _search(tb, recon, sites_only=False)
    with open(path, "a") as f:
        for i, board in enumerate(states["board"]):
            key = f"{left}/{i}"
            if key in done:
                yield done[key]
                continue
            outcome, nodes, deep, secs = _exhaust(s, board, budget, True)
            row = {"key": key, "left": left, "index": i, "outcome": outcome, "nodes": nodes,
                   "fewest_left": left - deep, "seconds": round(secs, 4), "budget": budget, "recon": recon}  # fmt: skip
            f.write(json.dumps(row) + "\n")
            f.flush()
            if progress is not None:
                progress(row)
            yield row


def excess(
    tb: Tables,
    states: dict,
    left: int,
    path: Path,
    extra: int,
    budget: int,
    seed: int = 0,
    recon: int = 2,
    limit: int | None = None,
    progress=None,
) -> Iterator[dict]:
    """Selby's excess-piece exhausts of one level's states: each state's free region, offered its own
    ``left`` pieces and ``extra`` more drawn (seeded, per state) from those it placed, counted to the end
    (up to ``budget`` nodes): tilings, and how many use each piece.  Rows already in ``path`` are kept."""
    done = _rows(path)
    s = _search(tb, recon, sites_only=True)
    n = len(states["board"]) if limit is None else min(limit, len(states["board"]))
    with open(path, "a") as f:
        for i in range(n):
            key = f"{left}+{extra}/{i}/{seed}"
            if key in done:
                yield done[key]
                continue
            board = states["board"][i].copy()
            placed = tb.placed(board)
            if len(placed) < extra:
                raise UsageError(f"{left} pieces left: {len(placed)} placed, fewer than the {extra} extra asked for")
            rng = np.random.default_rng([seed, left, i])
            offered = np.sort(rng.choice(placed, size=extra, replace=False))
            for j in offered:  # the extra pieces' items uncovered: on offer again, their cells stay covered
                b = tb.n_sites + int(j)
                board[b >> 6] &= ~(np.uint64(1) << np.uint64(b & 63))
            own = sorted(set(range(tb.n_pieces)) - set(placed.tolist()))
            outcome, nodes, _, secs = _exhaust(s, board, budget, False)
            uses = {str(int(k) - tb.n_sites): int(v) for k, v in s.tag_uses().items()} if outcome != "undecided" else {}
            row = {"key": key, "left": left, "index": i, "seed": seed, "extra": extra, "outcome": outcome,
                   "tilings": int(s.st[COUNT]), "nodes": nodes, "seconds": round(secs, 4), "budget": budget,
                   "own": own, "offered": offered.tolist(), "uses": uses}  # fmt: skip
            f.write(json.dumps(row) + "\n")
            f.flush()
            if progress is not None:
                progress(row)
            yield row


def concordance(score: np.ndarray, fate: np.ndarray) -> tuple[float, int]:
    """(the fraction of pairs of states with different fates that ``score`` orders as their fates are
    ordered, ties in score counting half; the number of such pairs).  Harrell's C: 0.5 is chance."""
    score, fate = np.asarray(score, float), np.asarray(fate, float)
    ds = np.sign(score[:, None] - score[None, :])
    df = np.sign(fate[:, None] - fate[None, :])
    upper = np.triu(np.ones_like(df, bool), 1) & (df != 0)
    n = int(upper.sum())
    if n == 0:
        return float("nan"), 0
    agree = (ds == df)[upper].sum() + 0.5 * (ds == 0)[upper].sum()
    return float(agree / n), n


def fate_rows(path: Path, left: int) -> dict[int, dict]:
    """The fates of one level's states, by index (``fates``' rows)."""
    return {r["index"]: r for r in _rows(path).values() if r["left"] == left}


def old_score(tb: Tables, board: np.ndarray, weights: np.ndarray, features: np.ndarray, boundary: float) -> np.ndarray:
    """The beam's own score of states, less its path terms: the weights of the pieces left, minus
    ``boundary`` a side of the outline (features column ``outline``)."""
    from baseline.poly.features import FEATURES

    left = np.array([np.setdiff1d(np.arange(tb.n_pieces), tb.placed(b)) for b in board], dtype=object)
    return np.array([weights[ix].sum() for ix in left]) - boundary * features[:, FEATURES.index("outline")]
