"""What a checked "unsatisfiable" costs: DRAT proofs of the atlas's unsolvable boards, written and checked.

    .venv/bin/python benchmarks/bench_certificates.py [--db docs/runs/atlas_unsat.sqlite] [--seconds 30]
                                                      [--solvers cadical kissat sat] [--rounds 2]

For each unsolvable board of the atlas (the instances of its store) that the engine refutes within the
limit without a proof, it runs the same CNF with and without its proof, interleaved (with, without, with, without, ... ``--rounds`` times), one
core: CaDiCaL and Kissat through ``external`` (the proof a file), python-sat's CaDiCaL through ``sat``
(the proof kept in memory).  Per engine, over the boards both runs answered: the solve time's ratio
with the proof to without (medians of the rounds), the proof's size, and the checker's time
(``encoders/drat.py``) against the solve's.  Prints a markdown table.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import solving
from puzzles.files.formats import puzzle_from_dict

ENGINES = {"cadical": ("external", {"cmd": "cadical"}), "kissat": ("external", {"cmd": "kissat"}), "sat": ("sat", {})}


def boards(db: str) -> list:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT name, puzzle FROM instances ORDER BY name").fetchall()
    con.close()
    return [(name, puzzle_from_dict(json.loads(text), name)) for name, text in rows]


def one(engine: str, certify: bool, p, seconds: float):
    name, opts = ENGINES[engine]
    res, _ = solving.solve_verified(
        solving.get(name, {**opts, "certify": certify}), p, "first", solving.Limits(time_s=seconds)
    )
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--db", default="docs/runs/atlas_unsat.sqlite")
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--solvers", nargs="+", default=list(ENGINES), choices=list(ENGINES))
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    print("| engine | boards | unsat, checked | solve with proof / without (median) | proof MB (median, max) "
          "| check s (median, max) | check / solve (median) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for engine in a.solvers:
        ratios, sizes, checks, shares, answered, checked = [], [], [], [], 0, 0
        for _, p in boards(a.db):
            with_, without = [], []
            last = None
            if one(engine, False, p, a.seconds).status != solving.Status.UNSAT:  # out of reach: not timed
                continue
            for _ in range(a.rounds):
                r = one(engine, True, p, a.seconds)
                with_.append(r.search_s if r.status == solving.Status.UNSAT else None)
                last = r if r.status == solving.Status.UNSAT else last
                q = one(engine, False, p, a.seconds)
                without.append(q.search_s if q.status == solving.Status.UNSAT else None)
            if last is None or None in with_ or None in without:
                continue
            answered += 1
            checked += last.evidence == solving.Evidence.CERTIFICATE
            ratios.append(statistics.median(with_) / max(statistics.median(without), 1e-6))
            sizes.append(last.stats["certificate_bytes"] / 2**20)
            checks.append(last.stats["certificate_s"])
            shares.append(last.stats["certificate_s"] / max(statistics.median(with_), 1e-6))
        if not answered:
            print(f"| {engine} | {len(boards(a.db))} | 0 | | | | |")
            continue
        print(
            f"| {engine} | {len(boards(a.db))} | {answered}, {checked} | {statistics.median(ratios):.2f} "
            f"| {statistics.median(sizes):.2f}, {max(sizes):.2f} | {statistics.median(checks):.3f}, {max(checks):.2f} "
            f"| {statistics.median(shares):.2f} |"
        )


if __name__ == "__main__":
    main()
