"""Figures of docs/results/tilability.md that compare fitted weights, printed from the weight files.

    .venv/bin/python benchmarks/tilability_figures.py agree [A.json B.json]
    .venv/bin/python benchmarks/tilability_figures.py outline PUZZLE WEIGHTS.json

``agree``: Spearman's rank correlation of two weight files of one puzzle over the pieces both
rank (default: Eternity's shipped 8- and 12-piece fits, the page's 0.885).  ``outline``: the rank
correlation of a fit's weights with minus each piece's outline length (the page's "the weights
rank the pieces by compactness"), for the weights `eternity tilability PUZZLE -o WEIGHTS.json`
writes.
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from pathlib import Path

import numpy as np

from puzzles import catalog
from puzzles.estimates.tilability import rank_correlation
from puzzles.files.weights_file import read_weights

DATA = Path(__file__).resolve().parent.parent / "data" / "eternity1"
SHIPPED = (DATA / "tilability_weights_k8_first_1280.json", DATA / "tilability_weights_k12_first_1280.json")


def outline_length(grid, cells) -> float:
    """The length of a piece's outline: its cells' edges that no other of its cells shares."""
    edges: Counter = Counter()
    for c in cells:
        p = grid.polygon(c)
        for i in range(len(p)):
            a, b = p[i], p[(i + 1) % len(p)]
            key = tuple(sorted(((round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6)))))
            edges[key] += 1
    return sum(math.dist(*e) for e, k in edges.items() if k == 1)


def agree(puzzle_name: str, a: Path, b: Path) -> float:
    """The rank correlation of two fits' weights over the pieces both fits saw (weights that differ from the prior)."""
    p = catalog.load(puzzle_name)
    wa, wb = read_weights(p, a), read_weights(p, b)
    names = [pc.name for pc in p.pieces]
    x = np.array([wa[n] for n in names])
    y = np.array([wb[n] for n in names])
    return rank_correlation(x, y)


def outline(puzzle_name: str, weights: Path) -> float:
    """The rank correlation of the weights with minus the pieces' outline lengths."""
    from puzzles.kinds.grids import get_grid

    p = catalog.load(puzzle_name)
    grid = get_grid(p.grid_name)
    w = read_weights(p, weights)
    x = np.array([w[pc.name] for pc in p.pieces])
    y = np.array([-outline_length(grid, pc.cells) for pc in p.pieces])
    return rank_correlation(x, y)


def main() -> None:
    """Parse the arguments and print the figure."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    s = sub.add_parser("agree", help="rank correlation of two weight files")
    s.add_argument("files", nargs="*", type=Path, help="two weight files (default: the shipped 8 and 12)")
    s.add_argument("--puzzle", default="eternity1")
    s = sub.add_parser("outline", help="rank correlation of weights with minus the outline length")
    s.add_argument("puzzle")
    s.add_argument("weights", type=Path)
    a = ap.parse_args()
    if a.what == "agree":
        files = a.files or list(SHIPPED)
        if len(files) != 2:
            ap.error("agree: two weight files, or none for the shipped pair")
        r = agree(a.puzzle, files[0], files[1])
        print(f"rank correlation of {files[0].name} and {files[1].name}: {r:.3f}")
    else:
        print(f"rank correlation of the weights with minus the outline length: {outline(a.puzzle, a.weights):.3f}")


if __name__ == "__main__":
    main()
