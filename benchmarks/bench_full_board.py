"""Eternity's full board by the polyform beam, one process or over a local Dask cluster, with its memory.

    .venv/bin/python benchmarks/bench_full_board.py [--puzzle eternity1] [--seconds 3600] [--workers 2]
        [--opt K=V ...] [--log run.jsonl]

``--workers 0`` runs the one-process beam; otherwise one beam whose levels (and end game) a local cluster
of that many single-threaded workers expands (``experiments/cluster/beam_cluster.py``).  The beam's options are
the results page's (width 2,000, diversity, probes from 75 pieces left, the fitted 8-piece weights),
changed by ``--opt``.  Each level appends one JSON line to ``--log``: the level, states kept, children,
seconds, the tables' rejections, and the resident memory of the driver and of each worker, so the
frontier's memory a state is read off as the memory's growth over the states kept.  At the end: the
status, the deepest state, the widths run, and a tiling verified if one was found.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import solving  # noqa: E402
from puzzles import catalog  # noqa: E402
from puzzles.verify import verify  # noqa: E402

WEIGHTS = ROOT / "data" / "eternity1" / "tilability_weights_k8_first_320.json"
DEFAULTS = {"width": 2000, "per_parent": 1, "probe_at": 75, "probe_nodes": 250, "weights": str(WEIGHTS)}


def rss_gb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1e6
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", default="eternity1")
    ap.add_argument("--seconds", type=float, default=3600)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--opt", action="append", default=[])
    ap.add_argument("--log", default="full_board.jsonl")
    a = ap.parse_args()
    opts: dict = dict(DEFAULTS)
    for kv in a.opt:
        k, v = kv.split("=", 1)
        opts[k] = v
    beam = solving.get("beam", opts)  # parses and checks the options
    p = catalog.load(a.puzzle)
    log = open(a.log, "a")
    t0 = time.perf_counter()
    client = cluster = None
    if a.workers:
        from dask.distributed import Client

        from experiments.cluster.dask_cluster import local_cluster

        cluster = local_cluster(a.workers)
        client = Client(cluster)

    def workers_gb() -> list[float]:
        if client is None:
            return []
        got = client.run(rss_gb)
        return [round(v, 2) for v in got.values()]

    def progress(info: dict) -> None:
        row = {"t": round(time.perf_counter() - t0, 1), **info, "driver_gb": round(rss_gb(), 2)}
        if "level" in info:
            row["workers_gb"] = workers_gb()
        log.write(json.dumps(row) + "\n")
        log.flush()

    if client is None:
        res = beam.solve(p, mode="first", limits=solving.Limits(time_s=a.seconds), progress=progress)
    else:
        from experiments.cluster.beam_cluster import cluster_beam

        res = cluster_beam(p, opts, solving.Limits(time_s=a.seconds), client=client, progress=progress)
    s = res.stats
    out = {
        "puzzle": a.puzzle,
        "workers": a.workers,
        "options": {k: opts[k] for k in sorted(opts)},
        "status": res.status.value,
        "deepest": s.get("deepest"),
        "widths": s.get("widths"),
        "time_s": round(time.perf_counter() - t0, 1),
        "endgame_states": s.get("endgame_states"),
        "endgame_nodes": s.get("endgame_nodes"),
        "tables_rejected": s.get("tables_rejected", 0),
        "probe_dropped": s.get("probe_dropped", 0),
        "verified": bool(res.solutions) and verify(p, res.solutions[0]).valid,
    }
    log.write(json.dumps({"result": out}) + "\n")
    print(json.dumps(out, indent=1))
    if client is not None:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
