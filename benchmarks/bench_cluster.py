"""One search across a local Dask cluster: placements a second with 1 and with 2 workers, side by side.

The same count (``edge-backtrack``, a generated board) is cut into parts and run on a local cluster of
one single-threaded worker, then of two, round after round (interleaved), each on a fresh cluster;
every worker first loads the kernel the parts use (``warm``), as a long-running cluster would have.
The clusters keep Dask's housekeeping quiet (``experiments.cluster.dask_cluster``) as the product's do;
``--dask-defaults`` runs them with Dask's own intervals instead.
The rate is the search's placements over the time from the cut to the last part (the cluster's
start is not counted), as ``eternity solve --executor dask`` reports it.  The count is checked
against the one-process count.

    python benchmarks/bench_cluster.py                       # 7x7, 3 frame and 7 inner colours, seed 1
    python benchmarks/bench_cluster.py --board 7x7:3:7:2 --rounds 3 --recut 4
    python benchmarks/bench_cluster.py --housekeeping --rounds 3    # two workers: quiet against Dask's own
"""

from __future__ import annotations

import argparse
import statistics
import time

import solving
from experiments.cluster.dask_cluster import local_cluster
from experiments.cluster.search import distributed_solve
from puzzles.make import generate


def warm(board: tuple) -> int:
    """On a worker: load the kernel of the board's parts (one tiny part of the cut, its count discarded)."""
    p, _ = generate.edge_puzzle(*board)
    s = solving.get("edge-backtrack")
    solving.get("edge-backtrack", s.part_options(3, 0)).solve(p, mode="count", limits=solving.Limits(time_s=5))
    return 0


def one(p, board: tuple, workers: int, recut: float, depth: int | None, quiet: bool = True) -> dict:
    from dask.distributed import Client, LocalCluster

    with (local_cluster(workers) if quiet else LocalCluster(n_workers=workers, threads_per_worker=1,
                                                             processes=True, dashboard_address=None)) as cluster:  # fmt: skip
        with Client(cluster) as client:
            client.run(warm, board)
            t0 = time.perf_counter()
            res = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                                    recut_s=recut or None, depth=depth)  # fmt: skip
            wall = time.perf_counter() - t0
    return {"count": res.count, "rate": res.stats["placements_per_s"], "wall": wall, "parts": res.stats["parts"],
            "depth": res.stats["depth"]}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="7x7:3:7:1", help="ROWSxCOLS:FRAME:INNER:SEED of a generated board")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--recut", type=float, default=60.0, help="seconds after which a part is cut again (0: never)")
    ap.add_argument("--depth", type=int, default=None, help="the cut's depth (default: 8 parts a worker)")
    ap.add_argument("--dask-defaults", action="store_true",
                    help="Dask's own housekeeping intervals, not the quiet ones the product uses")  # fmt: skip
    ap.add_argument("--housekeeping", action="store_true",
                    help="two workers with Dask's own housekeeping against the quiet one, interleaved, instead")  # fmt: skip
    a = ap.parse_args()
    size, frame, inner, seed = a.board.split(":")
    rows, cols = map(int, size.split("x"))
    board = (rows, cols, int(frame), int(inner), int(seed))
    p, _ = generate.edge_puzzle(*board)
    local = solving.get("edge-backtrack").solve(p, mode="count")
    print(f"{a.board}: {local.count} solutions, {local.stats['nodes']:,} placements, "
          f"{local.stats['placements_per_s'] / 1e6:.1f} M/s in one process")  # fmt: skip
    if a.housekeeping:
        return compare_housekeeping(p, board, local.count, a)
    rates: dict[int, list[float]] = {1: [], 2: []}
    for r in range(a.rounds):
        for w in (1, 2):
            got = one(p, board, w, a.recut, a.depth, quiet=not a.dask_defaults)
            assert got["count"] == local.count, (got["count"], local.count)
            rates[w].append(got["rate"])
            print(f"round {r + 1}, {w} worker{'s' if w > 1 else ''}: {got['rate'] / 1e6:.1f} M placements/s, "
                  f"{got['wall']:.1f} s, {got['parts']} parts at depth {got['depth']}")  # fmt: skip
    ratios = [b / a for a, b in zip(rates[1], rates[2])]
    print(
        f"2 workers / 1 worker: median {statistics.median(ratios):.2f}x (rounds: "
        + ", ".join(f"{x:.2f}" for x in ratios)
        + ")"
    )


def compare_housekeeping(p, board: tuple, count: int, a) -> None:
    """Two workers with Dask's own housekeeping and with the quiet one, round after round."""
    rates: dict[bool, list[float]] = {False: [], True: []}
    for r in range(a.rounds):
        for quiet in (False, True):
            got = one(p, board, 2, a.recut, a.depth, quiet=quiet)
            assert got["count"] == count, (got["count"], count)
            rates[quiet].append(got["rate"])
            print(f"round {r + 1}, 2 workers, {'quiet' if quiet else 'Dask defaults'}: {got['rate'] / 1e6:.1f} M "
                  f"placements/s, {got['parts']} parts at depth {got['depth']}")  # fmt: skip
    ratios = [b / a for a, b in zip(rates[False], rates[True])]
    print(f"quiet / Dask defaults: median {statistics.median(ratios):.2f}x (rounds: "
          + ", ".join(f"{x:.2f}" for x in ratios) + ")")  # fmt: skip


if __name__ == "__main__":
    main()
