"""Closed tape languages alone, on the three-card machines the simulation and backward reasoning leave.

    .venv/bin/python benchmarks/bench_tape_language.py [--steps 1000]

Every three-card machine is run ``--steps`` steps (cycle and translation tests on); those still
undecided and not refuted by backward reasoning (the bouncers and the counters) are handed to
``encoders.tape_language.find`` alone, without the n-gram and repeated-word deciders.  Prints how many
it decides, the time, and the automata's sizes (left states, right states).
"""

import argparse
import time
from collections import Counter

import numpy as np

from baseline.games import beaver
from encoders import tape_language


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=1000)
    a = ap.parse_args()
    total = beaver.machines(3)
    out = np.zeros((total, 3), np.int64)
    beaver._survey(3, 0, total, a.steps, out)
    tr = np.zeros((3, 2, 3), np.int64)
    left = []
    for m in np.nonzero(out[:, 0] == beaver.UNDECIDED)[0]:
        beaver._decode(int(m), 3, tr)
        if not beaver.backward_refutes(tr):
            left.append(int(m))
    t0 = time.perf_counter()
    sizes: Counter = Counter()
    for m in left:
        beaver._decode(m, 3, tr)
        lang = tape_language.find(tr.copy())
        if lang is not None:
            sizes[(len(lang.delta), len(lang.right[0]))] += 1
    dt = time.perf_counter() - t0
    print(
        f"{len(left):,} machines left by the run and backward reasoning; closed tape languages decide "
        f"{sum(sizes.values()):,} in {dt:.1f} s"
    )
    for (n, m), k in sorted(sizes.items()):
        print(f"  {n} left, {m} right states: {k:,}")


if __name__ == "__main__":
    main()
