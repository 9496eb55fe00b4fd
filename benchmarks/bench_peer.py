"""`edge-backtrack` side by side with a peer solver binary: placements per second and time to answer.

    ETERNITY_PEER=/path/to/solver .venv/bin/python benchmarks/bench_peer.py \\
        [--cases brendan-6x6:count,brendan-8x8:first:300000000] [--rounds 3]

The peer is riplatt's C++ edge-matching solver (github.com/riplatt/e2-puzzle-cpp-solver), built
from its public source by whoever runs this (``mkdir build && cd build && cmake .. && make solver``);
nothing of it is in this repository and the tests do not need it.  A case is
``PUZZLE:MODE[:PLACEMENTS]``: the puzzle is written in the peer's format (a line ``W H``, then one
piece a line, N E S W, 0 the rim), both solvers run it in mode first (peer ``-f``) or count (the
peer's default: every solution), interleaved, ``--rounds`` times each, and the script prints each
run and the ratios (ours over the peer's rate; the peer's time over ours).

What is counted.  Both count a placement made: a piece put on a cell where it fits the placed
neighbours; candidates looked at and refused are not counted.  The peer fills the board diagonally
and lets pieces with a rim side into inner cells, so on its own its tree is another tree (669 M
placements against our 69.3 M for the 260 boards of ``brendan-6x6``): its rate and ours are then
rates over different work, and the time to answer is what compares.  A *same-tree* run needs a
peer build with our row scan and rim rule (a local change made only for the measurement); the
script says "same tree" when both report the same placements of a search run to its end.

``PLACEMENTS``: a cap for runs that would not end (brendan-8x8, Eternity II): ours stops after that
many placements (``Limits(nodes=...)``) and the peer receives it as the environment variable
``PEER_MAX_PLACEMENTS``, which only a peer build that reads it obeys (an unmodified peer runs to
its end).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import solving
from puzzles import catalog


def peer_file(p, d: Path) -> Path:
    """The puzzle in the peer's text format."""
    f = d / f"{p.name}.txt"
    lines = [f"{p.cols} {p.rows}"] + [" ".join(str(int(c)) for c in row) for row in p.pieces]
    f.write_text("\n".join(lines) + "\n")
    return f


def run_peer(binary: str, f: Path, mode: str, cap: int | None) -> dict:
    env = dict(os.environ)
    if cap:
        env["PEER_MAX_PLACEMENTS"] = str(cap)
    args = [binary, str(f)] + (["-f"] if mode == "first" else [])
    t0 = time.perf_counter()
    out = subprocess.run(args, capture_output=True, text=True, env=env, check=False).stdout
    wall = time.perf_counter() - t0

    def num(label: str) -> float:
        m = re.search(rf"{label}:\s*([0-9.]+)", out)
        if not m:
            raise SystemExit(f"bench_peer: the peer's output has no '{label}:' line; is {binary} riplatt's solver?")
        return float(m.group(1))

    secs = num("Pure solve time") / 1000
    return {"placements": int(num("Placements tried")), "seconds": secs, "solutions": int(num("Solutions found")),
            "wall": wall}  # fmt: skip


def run_ours(p, mode: str, cap: int | None) -> dict:
    limits = solving.Limits(nodes=cap) if cap else None
    r = solving.get("edge-backtrack").solve(p, mode=mode, limits=limits)
    n = r.count if mode == "count" else len(r.solutions)
    return {"placements": r.stats["nodes"], "seconds": r.stats["time_s"], "solutions": n or 0,
            "build": r.stats["build_s"]}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="brendan-6x6:count")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    binary = os.environ.get("ETERNITY_PEER")
    if not binary or not Path(binary).is_file():
        print(
            "bench_peer: set ETERNITY_PEER to the peer's solver binary (see this script's docstring)", file=sys.stderr
        )
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for case in a.cases.split(","):
            name, mode, *rest = case.split(":")
            cap = int(rest[0]) if rest else None
            p = catalog.load(name)
            f = peer_file(p, Path(tmp))
            run_ours(p, mode, 1000)  # compile or load the kernel before any timing
            rates, times = [], []
            for rnd in range(a.rounds):
                ours = run_ours(p, mode, cap)
                peer = run_peer(binary, f, mode, cap)
                for who, r in (("ours", ours), ("peer", peer)):
                    print(f"{name} {mode} round {rnd + 1} {who}: {r['placements']:>13,} placements in "
                          f"{r['seconds']:.2f} s = {r['placements'] / r['seconds'] / 1e6:6.1f} M/s, "
                          f"{r['solutions']} solutions")  # fmt: skip
                rates.append((ours["placements"] / ours["seconds"]) / (peer["placements"] / peer["seconds"]))
                times.append(peer["seconds"] / ours["seconds"])
                if cap:
                    same = f"both capped at {cap:,} placements (the same tree only with a same-tree peer build)"
                else:
                    same = "same tree" if ours["placements"] == peer["placements"] else "different trees"
            print(f"{name} {mode}: rate ours/peer = {statistics.median(rates):.2f} "
                  f"(rounds {', '.join(f'{x:.2f}' for x in rates)}); time peer/ours = {statistics.median(times):.2f} "
                  f"(rounds {', '.join(f'{x:.2f}' for x in times)}); {same}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
