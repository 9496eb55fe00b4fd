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
  ``puzzles.estimates.tilability``'s model).

Every state's numbers are rows of a JSON-lines file, written as each is done, so a killed
collection resumes where it stopped and nothing stored is lost.
"""

from __future__ import annotations

import json
import time
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from baseline.beam.options import OPTIONS
from baseline.beam.xcc import XCCBeamRun
from baseline.runtime.kernel import COUNT, DEEPEST, DONE, SOLUTION
from baseline.xcc.searches import PolySearch
from experiments.studies.endgame_stats import concordance, critical, excess_summary, fate_summary  # noqa: F401
from puzzles import catalog
from puzzles.errors import InputError, UsageError
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


def _polyform(puzzle: str):
    """The puzzle, loaded; one line for a name or file that is not a polyform puzzle of one piece size."""
    try:
        p = catalog.load(puzzle)
    except Exception as e:  # noqa: BLE001 - InputError and friends: one line
        raise UsageError(f"endgame: {e}") from None
    if getattr(p, "grid_name", None) is None:
        raise UsageError(f"endgame: {puzzle}: expected a polyform puzzle (e.g. eternity1)")
    if len({len(pc.cells) for pc in p.pieces}) != 1:
        raise UsageError(f"endgame: {puzzle}: the model needs pieces of one size")
    return p


def tables(puzzle: str, options: dict | None = None) -> Tables:
    """The beam's tables of ``puzzle`` with the beam's own numbering (the bitsets ``harvest`` wrote read the
    same under the same options)."""
    p = _polyform(puzzle)
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
    p = _polyform(puzzle)
    out.mkdir(parents=True, exist_ok=True)
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
    from puzzles.files.formats import atomic_write

    atomic_write(
        str(out / "harvest.json"), json.dumps({"puzzle": puzzle, "options": options, "stats": stats}, default=str)
    )
    return stats


def load_level(out: Path, left: int, tb: Tables | None = None) -> dict:
    """The frontier ``harvest`` wrote at ``left`` pieces left (with ``tb``: checked to be states of its board);
    a damaged file is an ``InputError`` naming it."""
    path = out / f"left{left}.npz"
    if not path.exists():
        have = sorted(int(f.stem[4:]) for f in out.glob("left*.npz"))
        raise UsageError(f"{path}: no states at {left} pieces left (the harvest has {have or 'none'})")
    try:
        with np.load(path) as z:
            got = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # truncated, not an archive, not numpy's
        raise InputError(
            str(path), None, f"not a harvest's frontier (damaged?): {str(e).splitlines()[0][:120]}"
        ) from None
    if "board" not in got:
        raise InputError(str(path), "board", "missing: not a harvest's frontier")
    return got if tb is None else check_level(tb, got, str(path))


def check_level(tb: Tables, level: dict, path: str) -> dict:
    """``level`` (``load_level``) with states of the board ``tb`` numbers: unsigned 64-bit bitsets, one row a
    state, as many words as the board's items take; ``InputError`` naming the file otherwise."""
    board = level["board"]
    want = tb.run.t.n_words
    if board.dtype != np.uint64 or board.ndim != 2 or board.shape[1] != want:
        raise InputError(
            path, "board", f"{board.dtype} {tuple(board.shape)}, not states of this board (uint64, (n, {want}))"
        )
    return level


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


def spread(n: int, limit: int | None) -> list[int]:
    """``limit`` indices of ``n`` states, evenly spread over them (a frontier is ranked: its first states
    are the beam's favourites, and a sample of only those would judge a score on them alone)."""
    if limit is None or limit >= n:
        return list(range(n))
    return sorted({int(round(x)) for x in np.linspace(0, n - 1, limit)})


def fates(
    tb: Tables,
    states: dict,
    left: int,
    path: Path,
    budget: int,
    recon: int = 2,
    progress=None,
    limit: int | None = None,
) -> Iterator[dict]:
    """Exhaust each state of one level (up to ``budget`` nodes; ``limit``: that many, spread over the
    frontier) and append its row to ``path``: outcome, nodes, the fewest pieces left the search reached,
    seconds.  Rows already there are kept."""
    done = _rows(path)
    s = _search(tb, recon, sites_only=False)
    with open(path, "a") as f:
        for i in spread(len(states["board"]), limit):
            board = states["board"][i]
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
    with open(path, "a") as f:
        for i in spread(len(states["board"]), limit):
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


def fate_rows(path: Path, left: int) -> dict[int, dict]:
    """The fates of one level's states, by index (``fates``' rows)."""
    return {r["index"]: r for r in _rows(path).values() if r["left"] == left}


def left_sum(tb: Tables, boards: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each state's sum of ``weights`` over the pieces it has not placed (its pieces' items not covered)."""
    bits = np.unpackbits(np.ascontiguousarray(boards).view(np.uint8), axis=1, bitorder="little")
    return (1 - bits[:, tb.n_sites : tb.n_sites + tb.n_pieces]).astype(float) @ weights


def old_score(pieces: np.ndarray, features: np.ndarray, boundary: float) -> np.ndarray:
    """The beam's own score of states, less its path terms: the weights of the pieces left (``pieces``),
    minus ``boundary`` a side of the outline (features column ``outline``)."""
    from baseline.poly.features import FEATURES

    return pieces - boundary * features[:, FEATURES.index("outline")]


def _weights(tb: Tables, path: str) -> np.ndarray:
    from puzzles.files.formats import read_weights_and_sizes

    table, _ = read_weights_and_sizes(tb.run.p, path)
    return np.array([table[pc.name] for pc in tb.run.p.pieces])


def excess_states(tb: Tables, out: Path, lefts: list[int], extra: int):
    """The finished excess-piece exhausts of ``lefts`` as the model's states, with their regions' features."""
    from baseline.poly.features import state_features
    from puzzles.estimates.tilability import State

    rows = [r for r in _rows(out / "excess.jsonl").values() if r["left"] in lefts and r["extra"] == extra]
    rows = [r for r in rows if r["outcome"] != "undecided"]
    rows.sort(key=lambda r: (r["left"], r["index"], r["seed"]))
    states, feats = [], []
    for left in sorted({r["left"] for r in rows}):
        lv = load_level(out, left, tb)
        mine = [r for r in rows if r["left"] == left]
        f = state_features(tb.run.t, lv["board"][[r["index"] for r in mine]])
        for r, fr in zip(mine, f):
            uses = {int(k): int(v) for k, v in r["uses"].items()}
            states.append(State(sorted(r["own"] + r["offered"]), left, int(r["tilings"]), uses))
            feats.append(fr)
    return states, np.array(feats)


def fit_score(tb: Tables, out: Path, lefts: list[int], extra: int, old_weights: str) -> dict:
    """Selby's score on the excess-piece exhausts: the weights alone, and with the region terms; each
    fitted on one half of the states and judged on the other (both ways), and fitted on all for the file."""
    from baseline.poly.features import FEATURES
    from puzzles.estimates.tilability import fit, fit_shaped, log_likelihood, rank_correlation, shaped_log_likelihood

    if len(lefts) != 1:
        raise UsageError("endgame fit: one size (--left N): the model's constant depends on the size")
    states, feats = excess_states(tb, out, lefts, extra)
    if len(states) < 10 or sum(1 for s in states if s.count) < 2:
        raise UsageError(
            f"endgame fit: {len(states)} finished exhausts, {sum(1 for s in states if s.count)} with tilings, at "
            f"{lefts[0]} left + {extra}: too few to fit (run `eternity endgame excess` first)"
        )
    n = tb.n_pieces
    halves = [np.arange(len(states))[0::2], np.arange(len(states))[1::2]]
    held, shaped_halves = {}, []
    for name, tr, te in (("a->b", halves[0], halves[1]), ("b->a", halves[1], halves[0])):
        s_tr, s_te = [states[i] for i in tr], [states[i] for i in te]
        plain = fit(s_tr, n)
        shaped = fit_shaped(s_tr, feats[tr], n)
        shaped_halves.append(shaped)
        held[name] = {
            "weights": log_likelihood(s_te, plain.weights, plain.m),
            "weights_and_region": shaped_log_likelihood(s_te, feats[te], shaped),
        }
    full = fit_shaped(states, feats, n)
    fa, fb = shaped_halves
    seen = np.zeros(n, bool)
    for s in states:
        seen[s.pieces] = True
    old = _weights(tb, old_weights)
    doc = {
        "format": "eternity/weights",
        "version": 1,
        "puzzle": "eternity1" if tb.n_pieces == 209 else str(tb.run.p.name),
        "region_size": lefts[0],
        "excess": extra,
        "states": len(states),
        "solutions": int(sum(s.count for s in states)),
        "m": full.m,
        "region_terms": {
            "features": list(FEATURES),
            "beta": full.beta.tolist(),
            "mean": full.mean.tolist(),
            "scale": full.scale.tolist(),
        },  # fmt: skip
        "weights": {pc.name: round(float(w), 6) for pc, w in zip(tb.run.p.pieces, full.weights)},
    }
    excess_rows = [r for r in _rows(out / "excess.jsonl").values() if r["left"] in lefts and r["extra"] == extra]
    return {
        "critical": critical(excess_rows),
        "states": len(states),
        "states_with_tilings": sum(1 for s in states if s.count),
        "tilings": int(sum(s.count for s in states)),
        "heldout_log_likelihood": held,
        "split_half_rank_correlation": rank_correlation(fa.weights[seen], fb.weights[seen]),
        "rank_correlation_with_old_weights": rank_correlation(full.weights[seen], old[seen]),
        "region_terms": dict(zip(FEATURES, np.round(full.beta, 4).tolist())),
        "document": doc,
    }


def read_score(tb: Tables, path: str):
    """A score ``fit`` wrote: (the weights of the pieces, a function of features giving the region term)."""
    try:
        doc = json.loads(Path(path).read_text())
        rt = doc.get("region_terms")
        w = np.array([float(doc["weights"][pc.name]) for pc in tb.run.p.pieces])
    except OSError as e:
        raise UsageError(f"{path}: cannot read the score: {e.strerror}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise UsageError(f"{path}: not a score written by `eternity endgame fit` ({type(e).__name__}: {e})") from None
    if not rt:
        return w, lambda f: np.zeros(len(f))
    beta, mean, scale = (np.array(rt[k]) for k in ("beta", "mean", "scale"))
    return w, lambda f: ((f - mean) / scale) @ beta


def evaluate(tb: Tables, out: Path, lefts: list[int], old_weights: str, score: str | None) -> dict:
    """At each level: how well today's score and the fitted one order the states whose fate an exhaust
    decided, by how deep the exhaust got (fewest pieces left; tiled is 0): Harrell's C of each."""
    old_w = _weights(tb, old_weights)
    boundary = float(tb.run.o.get("boundary", 0.1))
    new = read_score(tb, score) if score else None
    res = {}
    for left in lefts:
        idx, feats, pieces, gained = _level_data(tb, out, left, old_w)
        if len(idx) < 2:
            res[left] = {"decided": int(len(idx)), "note": "too few states decided (run `eternity endgame fates`)"}
            continue
        boards = load_level(out, left, tb)["board"]
        row: dict[str, object] = {"states": len(boards), "decided": int(len(idx)),
               "tiled": int((gained == left).sum()), "distinct_fates": int(len(np.unique(gained)))}  # fmt: skip
        row["old"], row["pairs"] = concordance(old_score(pieces, feats, boundary), gained)
        if new is not None:
            w, region = new
            mine = left_sum(tb, boards[idx], w)
            row["new"] = concordance(mine + region(feats), gained)[0]
            row["new_pieces_only"] = concordance(mine, gained)[0]
            row["new_region_only"] = concordance(region(feats), gained)[0]
        res[left] = row
    return res


def _level_data(tb: Tables, out: Path, left: int, old_w: np.ndarray, decided_only: bool = True):
    """One level's states with fates: (indices, features, the pieces-left sum of today's weights, depth gained)."""
    from baseline.poly.features import FEATURES, state_features

    lv = load_level(out, left, tb)
    fr = fate_rows(out / "fates.jsonl", left)
    idx = np.array(sorted(i for i, r in fr.items() if r["outcome"] != "undecided" or not decided_only), np.int64)
    boards = lv["board"][idx]
    feats = state_features(tb.run.t, boards) if len(idx) else np.zeros((0, len(FEATURES)))
    pieces = left_sum(tb, boards, old_w)
    gained = np.array([left - fr[i]["fewest_left"] for i in idx], float)
    return idx, feats, pieces, gained


def fit_fates(tb: Tables, out: Path, lefts: list[int], old_weights: str, ridge: float = 1.0) -> dict:
    """A score fitted on the fates themselves, with Selby's terms: today's weight of each piece left (one
    scale for them all), the region's features, and the size (an intercept a level).  Least squares of the
    pieces an exhaust could still place (depth gained), on the states whose exhaust finished; judged by
    Harrell's C on the other half of each level (fitted on the even states, judged on the odd, and back),
    beside today's score on the same states."""
    from baseline.poly.features import FEATURES

    old_w = _weights(tb, old_weights)
    boundary = float(tb.run.o.get("boundary", 0.1))
    data = {left: _level_data(tb, out, left, old_w) for left in lefts}
    for left, (idx, *_) in data.items():
        if len(idx) < 20:
            raise UsageError(
                f"endgame fit-fates: {len(idx)} states decided at {left} left: run `eternity endgame fates`"
            )
    n_f = len(FEATURES)

    def design(parts, mean=None, scale=None):
        x = np.concatenate([np.column_stack([p[2], p[1]]) for p in parts])
        mean = x.mean(axis=0) if mean is None else mean
        scale = x.std(axis=0) if scale is None else scale
        scale = np.where(scale == 0, 1.0, scale)
        z = (x - mean) / scale
        lv = np.zeros((len(x), len(parts)))
        at = 0
        for j, p in enumerate(parts):
            lv[at : at + len(p[0]), j] = 1.0
            at += len(p[0])
        return np.column_stack([z, lv]), mean, scale

    def solve(parts):
        x, mean, scale = design(parts)
        y = np.concatenate([p[3] for p in parts])
        reg = np.diag([ridge] * (1 + n_f) + [0.0] * len(parts))
        coef = np.linalg.solve(x.T @ x + reg, x.T @ y)
        return coef, mean, scale

    def half(p, h):
        sel = np.arange(len(p[0]))[h::2]
        return tuple(a[sel] for a in p)

    levels: dict[int, dict[str, list[float]]] = {left: {"old": [], "new": []} for left in lefts}
    for h in (0, 1):
        coef, mean, scale = solve([half(data[left], h) for left in lefts])
        for left in lefts:
            test = half(data[left], 1 - h)
            z = (np.column_stack([test[2], test[1]]) - mean) / scale
            new = z @ coef[: 1 + n_f]
            old = old_score(test[2], test[1], boundary)
            levels[left]["old"].append(concordance(old, test[3])[0])
            levels[left]["new"].append(concordance(new, test[3])[0])
    coef, mean, scale = solve([data[left] for left in lefts])
    a = coef[0] / scale[0]  # the pieces' sum on its own scale: each piece's weight times a
    beta = coef[1 : 1 + n_f]
    doc = {
        "format": "eternity/weights",
        "version": 1,
        "puzzle": str(tb.run.p.name),
        "fitted_on": "fates",
        "levels": lefts,
        "states": int(sum(len(d[0]) for d in data.values())),
        "m": 0.0,
        "region_terms": {
            "features": list(FEATURES),
            "beta": beta.tolist(),
            "mean": mean[1:].tolist(),
            "scale": scale[1:].tolist(),
        },  # fmt: skip
        "sizes_intercept": {str(left): float(c) for left, c in zip(lefts, coef[1 + n_f :])},
        "weights": {pc.name: round(float(a * w), 6) for pc, w in zip(tb.run.p.pieces, old_w)},
    }
    summary = {
        str(left): {
            "decided": int(len(data[left][0])),
            "old": round(float(np.mean(v["old"])), 4),
            "new": round(float(np.mean(v["new"])), 4),
        }
        for left, v in levels.items()
    }
    return {
        "heldout_concordance": summary,
        "pieces_scale": float(a),
        "region_terms": dict(zip(FEATURES, np.round(beta, 4).tolist())),
        "document": doc,
    }
