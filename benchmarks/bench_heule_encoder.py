"""Heule's encodings against his own encoder: the same sizes on every board, and the build time of each.

    HEULE_REPO=/path/to/edge-matching .venv/bin/python benchmarks/bench_heule_encoder.py \\
        [--seeds 1,2,3] [--sizes 6:3:4,8:4:5] [--build-board eternity2-free]

The peer is the encoder of Heule's public edge-matching repository (github.com/marijnheule/edge-matching):
``encoder/em-encode.c``, built by its makefile into twelve binaries (``em-encode-plain``, ``-amo``, ``-fbc``,
``-all``, each also ``-aux`` and ``-knf``), and ``generator/generator.c``.  Whoever runs this builds them from
the public source (``cd encoder && make``; ``cd generator && make``); nothing of them is in this repository and
the tests do not need them.

Sizes.  For each of his boards (``benchmarks/em_*.txt``) and each board his generator makes for ``--sizes``
(``SIZE:BORDER:CENTER``) and ``--seeds``, each of the twelve variants: the largest variable and the number of
clause (and ``k``) lines his encoder writes, against ``encoders.heule.heule_cnf``'s ``n_vars`` and
``n_constraints``.  (His ``p cnf`` header is not the count: it states ten times the variables.)  The script
prints every difference and ends with the number of comparisons that agreed.

Build time.  On ``--build-board`` (a 16x16 board by default), each variant built by his encoder (its text
written to /dev/null) and by ours (the clause lists in memory), one run each, interleaved; the ratio is ours
over his.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from encoders.heule import HIS_NAMES, heule_cnf
from puzzles import catalog
from puzzles.files import formats


def his_counts(binary: Path, board: Path) -> tuple[int, int]:
    """(largest variable, clause lines) of his encoder's output for ``board``."""
    out = subprocess.run([str(binary), str(board)], capture_output=True, text=True).stdout
    top = lines = 0
    for line in out.splitlines():
        if not line or line[0] in "pc":
            continue
        words = line.split()
        lits = words[2:-1] if words[0] == "k" else words[:-1]
        lines += 1
        top = max([top, *(abs(int(x)) for x in lits)])
    return top, lines


def boards(repo: Path, sizes: list[str], seeds: list[int], tmp: Path) -> list[Path]:
    """His eight boards and those his generator makes."""
    out = sorted((repo / "benchmarks").glob("em_*.txt"))
    gen = repo / "generator" / "generator"
    for spec in sizes:
        size, border, center = spec.split(":")
        for seed in seeds:
            f = tmp / f"gen_{size}_{border}_{center}_s{seed}.txt"
            f.write_text(
                subprocess.run([str(gen), size, border, center, str(seed)], capture_output=True, text=True).stdout
            )
            out.append(f)
    return out


def main() -> int:
    """Compare sizes on every board, then time the builds on one; prints the comparison and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--sizes", default="6:3:4,8:4:5,10:5:6")
    ap.add_argument("--build-board", default="eternity2-free")
    a = ap.parse_args()
    repo = Path(os.environ.get("HEULE_REPO", ""))
    if not (repo / "encoder" / "em-encode-plain").exists():
        print("set HEULE_REPO to a copy of his edge-matching repository with encoder/ and generator/ built (make)")
        return 2
    agree = total = 0
    with tempfile.TemporaryDirectory() as d:
        for board in boards(repo, a.sizes.split(","), [int(s) for s in a.seeds.split(",")], Path(d)):
            p = formats.read_puzzle(board)
            for (variant, amo), his in HIS_NAMES.items():
                theirs = his_counts(repo / "encoder" / f"em-encode-{his}", board)
                enc = heule_cnf(p, variant, amo)
                ours = (enc.n_vars, enc.n_constraints)
                total += 1
                agree += ours == theirs
                if ours != theirs:
                    print(f"DIFF {board.name} {his}: ours {ours} his {theirs}")
        print(f"sizes: {agree}/{total} comparisons agree (largest variable and clause lines)")
        p = catalog.load(a.build_board)
        f = Path(d) / "build.txt"
        formats.write_puzzle(p, f, "heule")
        print(f"build time on {a.build_board} ({p.rows}x{p.cols}), one run each:")
        print(f"{'variant':<10} {'his_s':>8} {'ours_s':>8} {'ratio':>6}")
        for (variant, amo), his in HIS_NAMES.items():
            t = time.perf_counter()
            with open(os.devnull, "w") as null:
                subprocess.run([str(repo / "encoder" / f"em-encode-{his}"), str(f)], stdout=null)
            his_s = time.perf_counter() - t
            t = time.perf_counter()
            heule_cnf(p, variant, amo)
            ours_s = time.perf_counter() - t
            print(f"{his:<10} {his_s:>8.2f} {ours_s:>8.2f} {ours_s / his_s:>6.2f}")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
