"""Counting n queens up to symmetry from their listed solutions: orbits by array comparisons against one
canonical key a solution.

    .venv/bin/python benchmarks/bench_distinct.py [--n 14]

``eternity solve queens-N --mode count --distinct`` lists every solution, then counts the distinct ones.
Measured here in one process: the listing (the exact-cover search, every solution verified), then
``puzzles.estimates.symmetry.queens_orbits`` (Burnside's lemma, all solutions at once) and the canonical keys it
replaced (``queens_key``: the least of each solution's eight images), on the same solutions.
"""

from __future__ import annotations

import argparse
import time

import solving
from puzzles import catalog
from puzzles.estimates.symmetry import queens_key, queens_orbits


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=14)
    a = ap.parse_args()
    p = catalog.load(f"queens-{a.n}")
    t0 = time.perf_counter()
    r, _ = solving.solve_verified(solving.get("backtrack"), p, "all", solving.Limits())
    t1 = time.perf_counter()
    orbits = queens_orbits(a.n, r.solutions)
    t2 = time.perf_counter()
    keys = len({queens_key(p, s) for s in r.solutions})
    t3 = time.perf_counter()
    assert orbits == keys
    print(f"queens-{a.n}: {len(r.solutions):,} solutions listed and verified in {t1 - t0:.1f} s")
    print(f"distinct {orbits:,}: orbits {t2 - t1:.2f} s, canonical keys {t3 - t2:.2f} s ({(t3 - t2) / (t2 - t1):.1f}x)")


if __name__ == "__main__":
    main()
