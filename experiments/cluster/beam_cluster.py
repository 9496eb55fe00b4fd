"""One polyform beam whose levels are expanded by the workers of a Dask cluster.

Selby's beam is one search, not a set of independent parts: every level ranks all the children of the
whole frontier together.  What splits is the expansion, which is where the time goes (choosing each
state's site, making and checking and scoring its children, and with the lookahead their descendants):
the frontier is cut into contiguous pieces, each worker expands its piece with the same kernels
(``XCCBeamRun.expand``), and the pieces' children, joined in order, are exactly the arrays one process
would have made.  Ranking, the width cut, the kept boards and the checkpoints stay in the driver, so the
levels over any number of workers are the one-process beam's with the same width and seed
(``tests/test_search.py``).  Selby's end game goes out too: the survivors, best first, in pieces that the
workers exhaust at once; the tiling taken is the first survivor's in order that tiles, as in one process
(a later piece's tiling waits for the pieces before it).

Each worker builds the puzzle's tables once (the full Eternity board: 28 s) and keeps them for the
run's later levels.  A frontier too small to be worth the round trip is expanded by the driver.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from experiments.cluster.dask_cluster import connect
from solving import Limits, SolveResult

SMALL_FRONTIER = 64  # states: below this the driver expands the level itself
PARTS_PER_WORKER = 2  # pieces of a level per worker: a slow piece leaves less of the others idle

_RUNS: dict[str, Any] = {}  # on a worker: the XCC beam runs it has built, by puzzle and options


def _run_for(key: str, puzzle, options: dict):
    from baseline.beam.xcc import XCCBeamRun

    run = _RUNS.get(key)
    if run is None:
        _RUNS.clear()  # one puzzle at a time: the full board's tables take gigabytes
        run = _RUNS[key] = XCCBeamRun(puzzle, options)
    return run


def expand_part(key: str, puzzle, options: dict, board, first, score, hsh):
    """A worker's share of a level: the children of these states (``XCCBeamRun.expand``)."""
    return _run_for(key, puzzle, options).expand(board, first, score, hsh)


def exhaust_part(key: str, puzzle, options: dict, boards, chosen, seconds: float | None):
    """A worker's share of the end game: exhaust these survivors in order (``XCCBeamRun._endgame``) until one
    tiles or ``seconds`` pass; (the tiling or None, the exhausts' tallies)."""
    run = _run_for(key, puzzle, options)
    deadline = None if seconds is None else time.perf_counter() + seconds
    stats = {"endgame_states": 0, "endgame_nodes": 0, "endgame_gave_up": 0}
    for b, c in zip(boards, chosen):
        if deadline is not None and time.perf_counter() >= deadline:
            break
        sol = run._endgame(c, stats, deadline, b)
        if sol is not None:
            return sol, stats
    return None, stats


def _tally(stats: dict, part: dict) -> None:
    """A piece's tallies into the run's: counts add up, the deepest state is the deepest of any piece."""
    for k, v in part.items():
        stats[k] = max(stats.get(k, 0), v) if k.endswith("deepest") else stats.get(k, 0) + v


def probe_part(key: str, puzzle, options: dict, boards, ok, seconds: float | None):
    """A worker's share of a level's probes (``XCCBeamRun.probe_states``): (ok, the first tiling met as
    (state, options) or None, the probes' tallies)."""
    run = _run_for(key, puzzle, options)
    deadline = None if seconds is None else time.perf_counter() + seconds
    stats: dict[str, int] = {}
    ok = ok.copy()
    found = run.probe_states(boards, ok, stats, deadline)
    return ok, found, stats


def cluster_probes(client, key: str, puzzle_future, options: dict, n_workers: int):
    """A probe map for ``XCCBeamRun``: the states cut into one piece a worker; the verdicts joined in order,
    and the first state in order whose probe meets a tiling, as in one process."""

    def probes(run, boards, ok, stats, deadline):
        n = len(boards)
        if n < 2 * n_workers:
            return run.probe_states(boards, ok, stats, deadline)
        cuts = np.linspace(0, n, n_workers + 1).astype(np.int64)
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        futures = [
            client.submit(probe_part, key, puzzle_future, options, boards[a:b], ok[a:b], left, pure=False)
            for a, b in zip(cuts[:-1], cuts[1:])
        ]
        first = None
        for a, (part_ok, found, part) in zip(cuts[:-1], client.gather(futures)):
            _tally(stats, part)
            if first is not None:
                continue  # after a tiling, as in one process: the later states do not matter
            ok[a : a + len(part_ok)] = part_ok
            if found is not None:
                first = (a + found[0], found[1])
        return first

    return probes


ENDGAME_PARTS_PER_WORKER = 8  # survivors go out in this many pieces a worker, best first


def cluster_endgame(client, key: str, puzzle_future, options: dict, n_workers: int):
    """An end-game map for ``XCCBeamRun``: the survivors cut into pieces, best first, exhausted by the workers;
    the tiling of the first piece in order that has one is taken, and the pieces after it are cancelled."""

    def endgame(run, boards, chosen, stats, deadline, progress):
        from dask.distributed import as_completed

        n = len(boards)
        cuts = np.linspace(0, n, min(n, n_workers * ENDGAME_PARTS_PER_WORKER) + 1).astype(np.int64)
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        futures = [
            client.submit(exhaust_part, key, puzzle_future, options, boards[a:b], chosen[a:b], left, pure=False)
            for a, b in zip(cuts[:-1], cuts[1:])
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        found: dict[int, Any] = {}  # piece -> its tiling
        finished = set()
        try:
            for fut in as_completed(futures):
                if fut.status == "cancelled":
                    continue
                i = index[fut.key]
                sol, part = fut.result()
                _tally(stats, part)
                finished.add(i)
                if sol is not None:
                    found[i] = sol
                    for later in futures[i + 1 :]:
                        later.cancel()  # a later piece's tiling would not be taken
                if progress:
                    progress({"endgame_parts": len(finished), "of": len(futures), "nodes": stats["endgame_nodes"]})
                if found:
                    first = min(found)  # the one-process beam's tiling: the first survivor in order that tiles
                    if all(j in finished for j in range(first)):
                        return found[first]
        finally:
            client.cancel(futures)
        return None

    return endgame


class ClusterLevels:
    """A level expander for ``XCCBeamRun``: the frontier cut into pieces, one Dask task each."""

    def __init__(self, client, puzzle, options: dict, local):
        from puzzles.files.formats import puzzle_hash

        self.client = client
        self.local = local  # the driver's own expansion, for small frontiers
        self.key = f"{puzzle_hash(puzzle)}:{sorted(options.items())!r}"
        self.puzzle = client.scatter(puzzle, broadcast=True)
        self.options = options
        self.n_workers = max(1, len(client.scheduler_info().get("workers", {})))
        self.levels_split = 0

    def __call__(self, board, first, score, hsh):
        """Expand one level on the cluster's workers, as ``XCCBeamRun.expand`` does in one process."""
        n = len(score)
        if n < SMALL_FRONTIER or self.n_workers == 1 and n < 4 * SMALL_FRONTIER:
            return self.local(board, first, score, hsh)
        cuts = np.linspace(0, n, min(n, self.n_workers * PARTS_PER_WORKER) + 1).astype(np.int64)
        futures = [
            self.client.submit(
                expand_part,
                self.key,
                self.puzzle,
                self.options,
                board[a:b],
                first[a:b],
                score[a:b],
                hsh[a:b],
                pure=False,
            )  # fmt: skip
            for a, b in zip(cuts[:-1], cuts[1:])
        ]
        parts = self.client.gather(futures)
        self.levels_split += 1
        par = np.concatenate([p[0] + a for p, a in zip(parts, cuts[:-1])])
        opt, sc, hs = (np.concatenate([p[i] for p in parts]) for i in (1, 2, 3))
        tally = np.sum([p[4] for p in parts], axis=0)
        return par, opt, sc, hs, tally, max(p[5] for p in parts)


def cluster_beam(
    puzzle, options: dict, limits: Limits, *, scheduler=None, workers: int = 2, progress=None, client=None
) -> SolveResult:
    """The XCC beam on ``puzzle`` with its levels expanded over a cluster (a local one of ``workers`` processes
    unless ``scheduler`` or ``client`` is given)."""
    import solving

    solver = solving.get("beam", options)
    solver.check(puzzle, "first")
    own = client is None
    cluster = None
    if own:
        client, cluster = connect(scheduler, workers)
    try:
        from baseline.beam.xcc import XCCBeamRun

        t0 = time.perf_counter()
        run = XCCBeamRun(puzzle, solver.options)
        levels = ClusterLevels(client, puzzle, solver.options, run.expand)
        run.expander = levels
        run.probe_map = cluster_probes(client, levels.key, levels.puzzle, solver.options, levels.n_workers)
        run.endgame_map = cluster_endgame(client, levels.key, levels.puzzle, solver.options, levels.n_workers)
        rest = None if limits.time_s is None else max(0.0, limits.time_s - (time.perf_counter() - t0))
        res = run.solve(Limits(time_s=rest), progress)
        res.stats["workers"] = levels.n_workers
        res.stats["levels_split"] = levels.levels_split
        return res
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
