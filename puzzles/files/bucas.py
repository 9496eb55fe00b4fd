"""The e2.bucas.name board URL, read as a solution of an edge-matching board (``puzzles.kinds.edge.bucas_url`` writes it)."""

from __future__ import annotations

import re

from puzzles.errors import InputError
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle


def _bucas_colour(ch: str) -> int:
    return ord(ch) - ord("a") if ch.islower() else 26 + ord(ch) - ord("A")


def solution_from_bucas(puzzle: EdgePuzzle, text: str, source: str = "<url>") -> list:
    """A board shared as an e2.bucas.name URL (``board_edges``: four letters a cell, N E S W, row by row;
    ``aaaa`` an empty cell): each cell's colours matched to an unused piece of the puzzle and its turn.
    Pieces that look alike are taken in their order; a cell no unused piece fits is an error naming it."""
    m = re.search(r"board_w=(\d+).*?board_h=(\d+).*?board_edges=([a-zA-Z]*)", text, re.S)
    if m is None:
        raise InputError(source, "board_edges", "an e2.bucas.name URL needs board_w, board_h and board_edges")
    w, h, edges = int(m.group(1)), int(m.group(2)), m.group(3)
    if (h, w) != (puzzle.rows, puzzle.cols):
        raise InputError(source, "board_w", f"a {h}x{w} board, but the puzzle is {puzzle.rows}x{puzzle.cols}")
    if len(edges) != 4 * h * w:
        raise InputError(source, "board_edges", f"{len(edges)} letters, expected {4 * h * w} (four a cell)")
    looks: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for q in range(puzzle.n_pieces):
        for r in puzzle.distinct_rotations(q):
            looks.setdefault(tuple(int(c) for c in puzzle.placed(q, r)), []).append((q, r))
    used: set[int] = set()
    out = []
    for cell in range(h * w):
        word = edges[4 * cell : 4 * cell + 4]
        if word == "aaaa":
            continue
        colours = tuple(_bucas_colour(ch) for ch in word)
        fit = next(((q, r) for q, r in looks.get(colours, []) if q not in used), None)
        if fit is None:
            raise InputError(
                source, "board_edges", f"cell {puzzle.cell_name(cell)} shows {word}: no unused piece of the puzzle"
            )
        used.add(fit[0])
        out.append(EdgePlacement(cell, *fit))
    return out
