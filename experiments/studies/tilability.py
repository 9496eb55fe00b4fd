"""`eternity tilability`: collect excess-piece exhausts through the runner, fit Selby's weights.

The data are ordinary runner cells (an ``excess`` family, ``backtrack`` with
the ``poly`` engine in mode ``count``: the per-piece uses are kept natively,
no list of tilings), so a killed collection resumes, ``--executor dask``
spreads it, and every exhaust lands in SQLite with its tilings and how many of them use each piece.
The fit (``puzzles.estimates.tilability``) runs on all states; the split-half check
fits the even and the odd samples apart and compares the weights by rank
correlation; the held-out check fits on one half and scores the other
half's solutions against uniform weights.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import solving
from experiments.runner import run
from experiments.store import Store
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.estimates.tilability import State, fit, log_likelihood, rank_correlation, uniform_fit
from puzzles.files.formats import atomic_write


def config_text(
    puzzle: str, k: int, excess: int, samples: int, seed: int, time_limit: float, regions: str = "last"
) -> str:
    """The experiment config of a tilability fit: the excess-piece family and the exhausting solver."""
    stem = Path(puzzle).stem
    return f"""{MARK}: excess-piece exhausts for Selby's model
name = {json.dumps("tilability-" + stem)}
seed = {seed}
time_limit = {time_limit}

[[families]]
kind = "excess"
name = {json.dumps(f"{stem}-k{k}+{excess}" + ("" if regions == "last" else f"-{regions}"))}
puzzle = {json.dumps(puzzle)}
region_size = {k}
excess = {excess}
samples = {samples}
regions = "{regions}"

[[solvers]]
name = "backtrack"
mode = "count"
options = {{ engine = "poly" }}
"""


MARK = "# written by `eternity tilability`"


def _check_side_config(cfg: Path, db: str) -> None:
    """The exhausts' config is written beside the database (DB.toml): a file there that this command did
    not write (an experiment's own config) is refused untouched, not replaced."""
    from puzzles.errors import UsageError

    if not cfg.exists():
        return
    try:
        with open(cfg, "rb") as f:
            ours = f.read(len(MARK)).decode("utf-8", "replace") == MARK
    except OSError:
        ours = False
    if not ours:
        raise UsageError(
            f"tilability: --db {db}: its config goes to {cfg}, which exists and was not written by eternity "
            "tilability; left untouched (choose another --db)"
        )


@dataclass
class Exhausts:
    """The complete exhausts of one design, read back from the store."""

    states: list[State]
    cut_short: int  # exhausts that did not finish (time limit, memory, error): left out
    distinct_regions: int | None  # among the complete ones (None: a store written before regions were recorded)


def collect(
    puzzle: str,
    k: int,
    excess: int,
    samples: int,
    seed: int,
    db: str,
    jobs: int | None = None,
    time_limit: float = 120.0,
    executor: str = "local",
    show_progress: bool = True,
    regions: str = "last",
) -> Exhausts:
    """Run (or resume) the exhausts and read them back as states over the puzzle's piece indices."""
    cfg = Path(db).with_suffix(".toml")
    _check_side_config(cfg, db)
    cfg.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(str(cfg), config_text(puzzle, k, excess, samples, seed, time_limit, regions))
    from puzzles.files.formats import InputError

    try:
        run(str(cfg), db, jobs=jobs, executor=executor, show_progress=show_progress)
    except InputError:
        if not Path(db).exists():  # nothing was stored: leave nothing behind
            cfg.unlink(missing_ok=True)
        raise
    return read_states(db, puzzle, k, excess, regions)


def read_states(db: str, puzzle: str, k: int, excess: int, regions: str = "last") -> Exhausts:
    """The complete exhausts of one design; those cut short (time limit, memory, error) are
    counted and left out, which under-counts the most tilable states."""
    base = catalog.load(puzzle)
    index = {pc.name: i for i, pc in enumerate(base.pieces)}
    store = Store(db, readonly=True)
    out, cut, seen = [], 0, set()
    try:
        for r in sorted(store.results(), key=lambda r: r["params"].get("sample", 0)):
            prm = r["params"]
            if (
                prm.get("base") != puzzle
                or prm.get("region_size") != k
                or prm.get("excess") != excess
                or prm.get("regions", "last") != regions
            ):
                continue
            if not solving.answered(r["status"]):
                cut += 1  # an exhaust cut short by its time limit is not a complete observation
                continue
            if r["status"] == "solved" and not r.get("detail"):
                continue  # solutions without their statistics
            seen.add(prm.get("region"))
            detail = json.loads(r["detail"]) if r.get("detail") else {}
            if isinstance(detail.get("piece_sets"), list):  # stores written before piece_uses: the sets
                sets = {tuple(sorted(index[n] for n in names)): int(m) for names, m in detail["piece_sets"]}
                out.append(State.from_sets(list(prm["pieces"]), k, sets))
            else:
                uses = {index[n]: int(m) for n, m in detail.get("piece_uses", {}).items()}
                out.append(State(list(prm["pieces"]), k, int(detail.get("tilings", 0)), uses))
    finally:
        store.close()
    return Exhausts(out, cut, None if None in seen else len(seen))


def too_few_regions(data: Exhausts) -> bool:
    """True when the states share so few regions that the two halves see the same ones: their
    agreement then repeats the sampler's choices (Eternity's tortoise: one region, its own three
    pieces, in all 400 samples) rather than measuring tilability."""
    return data.distinct_regions is not None and data.distinct_regions < len(data.states) / 2


def analyse(states: list[State], n_pieces: int, region_terms: bool = False) -> dict:
    """The fit on all states, the split-half agreement and the held-out comparison with uniform weights.

    ``region_terms``: one constant per state (the conditional likelihood of
    which pieces tile, ``puzzles.estimates.tilability.log_likelihood``); else one
    constant for all, and the held-out score also judges the predicted counts."""
    if len(states) < 2:
        raise UsageError("need at least two complete exhausts")
    full = fit(states, n_pieces, per_state=region_terms)
    halves = [states[0::2], states[1::2]]
    fa, fb = fit(halves[0], n_pieces, per_state=region_terms), fit(halves[1], n_pieces, per_state=region_terms)
    seen = np.zeros(n_pieces, bool)
    for s in states:
        seen[s.pieces] = True
    r = rank_correlation(fa.weights[seen], fb.weights[seen])
    held = {}
    for name, f, train, test in (("a->b", fa, halves[0], halves[1]), ("b->a", fb, halves[1], halves[0])):
        u = uniform_fit(train, n_pieces, per_state=region_terms)
        held[name] = {
            "fitted": log_likelihood(test, f.weights, f.m, region_terms),
            "uniform": log_likelihood(test, u.weights, u.m, region_terms),
        }
    return {
        "fit": full,
        "split_half_rank_correlation": r,
        "heldout_log_likelihood": held,
        "states": len(states),
        "solutions": full.solutions,
        "region_terms": region_terms,
        "states_with_solutions": sum(1 for s in states if s.count),
    }


def weights_document(
    puzzle: str,
    k: int,
    excess: int,
    samples: int,
    seed: int,
    res: dict,
    regions: str = "last",
    data: Exhausts | None = None,
) -> dict:
    """The weights file's document: the fitted weights, their errors and how they were fitted."""
    base = catalog.load(puzzle)
    f = res["fit"]
    return {
        "format": "eternity/weights",
        "version": 1,
        "puzzle": puzzle,
        "region_size": k,
        "excess": excess,
        "samples": samples,
        "seed": seed,
        "states": res["states"],
        "solutions": res["solutions"],
        "regions": regions,
        "region_terms": res["region_terms"],
        "states_with_solutions": res["states_with_solutions"],
        "m": f.m,
        "split_half_rank_correlation": res["split_half_rank_correlation"],
        "heldout_log_likelihood": res["heldout_log_likelihood"],
        "exhausts_cut_short": data.cut_short if data else None,
        "distinct_regions": data.distinct_regions if data else None,
        "weights": {pc.name: round(float(w), 6) for pc, w in zip(base.pieces, f.weights)},
    }


def plot_weights(doc: dict, output: str) -> None:
    """Plot the fitted weights, piece by piece with their intervals, into ``output``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = sorted(doc["weights"].items(), key=lambda kv: kv[1])
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(range(len(items)), [w for _, w in items], "o", ms=4)
    for rank in (0, len(items) - 1):
        ax.annotate(items[rank][0], (rank, items[rank][1]), textcoords="offset points", xytext=(5, 5))
    ax.set_xlabel("rank")
    ax.set_ylabel("log-weight l_i (tilability)")
    ax.set_title(
        f"{doc['puzzle']}: piece tilability from {doc['states']} exhausts "
        f"(split-half rank correlation {doc['split_half_rank_correlation']:.2f})"
    )
    ax.grid(alpha=0.3)
    fig.tight_layout()
    from puzzles.files.outputs import atomic_save

    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120))
    plt.close(fig)
