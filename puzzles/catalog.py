"""Built-in named puzzles, loaded from ``data/`` (provenance in data/SOURCES.md).

Names: ``eternity2`` (piece 139 fixed at I8), ``eternity2-free`` (no piece fixed), ``eternity2-hints`` (the five
official placements), ``eternity2-clue1`` .. ``-clue4``, ``owen-a``,
``brendan-WxH`` (Brendan Owen's set 1: W columns, H rows, as in his file
names), ``meta-10x10`` .. ``meta-16x16``, ``pentomino-6x10`` / ``5x12`` /
``4x15`` / ``3x20``, ``queens-N``, ``eternity1`` and its smaller regions
``eternity1-boat`` / ``-tortoise`` / ``-pram`` / ``-boomerang``, ``serenity``
(drafter grid, ``eternity1.py``); ``dominoes-RxC``, ``aztec-N`` and strips of
trominoes, tetrominoes and pentominoes in free supply (``tilings.py``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from puzzles.data import data_dir
from puzzles.errors import InputError
from puzzles.kinds import eternity1, tilings

if TYPE_CHECKING:
    from puzzles.kinds.edge import EdgePlacement, EdgePuzzle
    from puzzles.kinds.grids import Cell

# Loading imports the puzzle types and the file formats (numpy, pydantic) where it happens, so that
# naming and describing the built-ins (`eternity list`) stays fast.


PENTOMINOES = {
    "F": ((0, 1), (0, 2), (1, 0), (1, 1), (2, 1)),
    "I": ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)),
    "N": ((0, 1), (1, 1), (2, 1), (2, 0), (3, 0)),
    "P": ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),
    "T": ((0, 0), (0, 1), (0, 2), (1, 1), (2, 1)),
    "U": ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    "V": ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2)),
    "W": ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),
    "Y": ((0, 1), (1, 0), (1, 1), (2, 1), (3, 1)),
    "Z": ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2)),
}

PENTOMINO_BOXES = {"6x10": (6, 10), "5x12": (5, 12), "4x15": (4, 15), "3x20": (3, 20)}
CLUES = {1: "e2_clue1_6x6", 2: "e2_clue2_6x12", 3: "e2_clue3_6x6", 4: "e2_clue4_6x12"}
CLUE_SOLUTIONS = {
    1: "e2_clue1_solution_from_thesil.txt",
    2: "e2_clue2_solution_from_thesil.txt",
    3: "e2_clue3_solution_computed.txt",
    4: "e2_clue4_solution_computed.txt",
}
META = (10, 12, 14, 16)


def _lines(path: Path) -> list[list[int]]:
    from puzzles.files.formats import read_text

    return [[int(x) for x in ln.split()] for ln in read_text(path).splitlines() if ln.strip()]


def _brendan_sizes() -> list[tuple[int, int]]:
    out = []
    for f in sorted((data_dir() / "brendan_owen_set1").glob("pieces_*x*.txt")):
        w, h = re.match(r"pieces_(\d+)x(\d+)", f.stem).groups()  # type: ignore[union-attr]
        out.append((int(w), int(h)))
    return out


def names() -> list[str]:
    """Every built-in puzzle's name (``eternity list``), without loading any."""
    out = (
        ["eternity2", "eternity2-free", "eternity2-hints", "eternity2-corners-0"]
        + [f"eternity2-clue{k}" for k in CLUES]
        + ["owen-a"]
    )
    out += [f"meta-{n}x{n}" for n in META]
    out += [f"pentomino-{b}" for b in PENTOMINO_BOXES]
    out += [f"queens-{n}" for n in range(4, 13)]
    out += [f"rooks-{n}" for n in range(1, 9)]
    out += [f"officers-{n}" for n in (3, 4, 5, 6, 10)] + ["officers-4-diagonal", "officers-10-diagonal"]
    out += [f"latin-{n}-diagonal" for n in (4, 5, 6, 7)]
    out += ["magic-square-3", "magic-square-4", "magic-hexagon", "dudeney-hexagon", "court-cards"]
    out += [f"rooks3d-{r}" for r in range(1, 7)]
    out += [f"brendan-{w}x{h}" for w, h in _brendan_sizes()]
    out += eternity1.names()
    out += ["eternity1-hints6"]  # and eternity1-hintsK-sS
    out += tilings.EXAMPLES
    return out


def describe(name: str) -> str:
    """One line on a built-in puzzle: what it is and where it comes from."""
    if name.startswith("brendan-"):
        w, h = name[8:].split("x")
        return f"Brendan Owen's set 1, {int(w)} columns (width) x {int(h)} rows (height); known solution"
    fixed = {
        "eternity2": "Eternity II, 16x16, piece 139 fixed at I8",
        "eternity2-free": "Eternity II, 16x16, no piece fixed (the solvers' speed benchmark)",
        "eternity2-hints": "Eternity II with all five official hint pieces fixed",
        "owen-a": "Puzzle A of Owen's model, 6x6, 160 solutions; known solution",
        "eternity1": "Eternity (1999): 209 pieces of 12 drafters in a dodecagon of 2,508 drafters",
        "eternity1-boat": "Eternity's smaller 'boat' region, 21 pieces",
        "eternity1-tortoise": "Eternity's smaller 'tortoise' region, 45 pieces",
        "eternity1-pram": "Eternity's smaller 'pram' region, 64 pieces",
        "eternity1-boomerang": "Eternity's smaller 'boomerang' region, 66 pieces (tortoise + boat)",
        "eternity1-hints6": "Eternity with six hint pieces placed at random legal places, as Monckton's first "
        "year's six (eternity1-hintsK-sS: K pieces, seed S; the board less their cells)",
        "serenity": "Serenity: 8 drafter pieces (tiles 214-221)",
    }
    if name in fixed:
        return fixed[name]
    if name.startswith("eternity2-corners-"):
        return (
            "Eternity II with the five hints and three random corners pinned, seed "
            f"{name[18:]} (any seed: eternity2-corners-S; the max-score benchmark's variants)"
        )
    if name.startswith("eternity2-clue"):
        return f"Eternity II clue puzzle {name[-1]}; known solution"
    if name.startswith("meta-"):
        return f"META 2010 benchmark, {name[5:]}"
    if re.fullmatch(r"(aztec|dominoes|trominoes|tetrominoes|pentominoes|hexominoes)-[0-9x]+", name):
        return tilings.describe(name)
    if name.startswith("pentomino-"):
        return f"the 12 pentominoes in a {name[10:]} box"
    if name.startswith("queens-"):
        return f"{name[7:]}-queens (any N works: queens-N)"
    if name.startswith("rooks-"):
        return f"{name[6:]} non-attacking rooks, {name[6:]}! solutions (any N works: rooks-N)"
    if name.startswith("magic-square-"):
        return f"a magic square of order {name[13:]}: 1..n^2, rows, columns and diagonals with one sum"
    if name == "court-cards":
        return "Euler's court cards: orthogonal diagonal Latin squares of order 4 (magic squares 4a + b + 1), unreduced"
    if name.startswith("rooks3d-"):
        return f"{name[8:]} rooks on each line of the 3x3x3 board, several a cell (seed 003; rooks3d-R, R <= 12)"
    if name == "magic-hexagon":
        return "Adams's magic hexagon: 1..19 in 19 hexagons, all 15 lines summing to 38"
    if name == "dudeney-hexagon":
        return "Dudeney's exercise: 1..19 in Adams's hexagon, its twelve lines of three summing to 23"
    if name.startswith("latin-"):
        return (
            f"a diagonal Latin square of order {name.split('-')[1]}: each symbol once in every row, column and both "
            "diagonals, first row fixed (any N works: latin-N-diagonal)"
        )
    if name.endswith("-diagonal"):
        return (
            f"a pair of orthogonal Latin squares of order {name.split('-')[1]}, both diagonal (a magic square "
            "of Graeco-Latin type), first rows fixed"
        )
    if name.startswith("officers-"):
        return (
            f"Euler's officers: a pair of orthogonal Latin squares of order {name[9:]}, first row and column "
            "fixed" + (" (none exists: Tarry 1900)" if name == "officers-6" else "")
        )
    return ""


def _e2_fixed(p: EdgePuzzle, which: str) -> None:
    from puzzles.files.formats import read_text
    from puzzles.kinds.edge import Fixed

    for ln in read_text(data_dir() / "eternity2" / "eternity2_hints.txt").splitlines():
        parts = ln.split()
        if not parts:
            continue
        cell, piece, rot = parts[0], int(parts[3]), int(parts[4])
        if which == "all" or cell == which:
            p.fixed.append(Fixed(p.parse_cell(cell), piece - 1, rot))


def _e2_corners(seed: int, name: str):
    """The max-score benchmark variant: the five hints and three of the four corner
    cells pinned to corner pieces, both drawn from ``seed`` (the public study of
    Eternity II solvers scores its solvers on variants of this kind)."""
    import numpy as np

    from puzzles.kinds.edge import EdgePuzzle, Fixed

    p = _load("eternity2-hints")
    p = EdgePuzzle(p.rows, p.cols, p.pieces.copy(), list(p.fixed), name=name)
    rng = np.random.default_rng([0xE2C0, seed])
    corner_pieces = [q for q in range(p.n_pieces) if int(np.sum(p.pieces[q] == 0)) == 2]
    cells = [0, p.cols - 1, p.n_cells - p.cols, p.n_cells - 1]
    chosen = rng.choice(4, 3, replace=False)
    pieces = rng.permutation(corner_pieces)[:3]
    for ci, q in zip(chosen, pieces):
        cell = cells[int(ci)]
        outs = p.outside_sides(cell)
        rot = next(r for r in range(4) if all((p.placed(int(q), r)[s] == 0) == outs[s] for s in range(4)))
        p.fixed.append(Fixed(cell, int(q), rot))
    return p


def _queens(m: re.Match, name: str):
    from puzzles.kinds.queens import QueensPuzzle

    n = int(m.group(2))
    return QueensPuzzle(n, name=name, piece=m.group(1)[:-1]) if 1 <= n <= 64 else None


def _magic(kind: str, lo: int, hi: int):
    def build(m: re.Match, name: str):
        from puzzles.kinds.magic import MagicPuzzle

        n = int(m.group(1))
        return MagicPuzzle(kind, n, name=name) if lo <= n <= hi else None

    return build


def _hexagon(m: re.Match, name: str):
    from puzzles.kinds.magic import MagicPuzzle

    return MagicPuzzle("hexagon", 3, "magic" if name == "magic-hexagon" else "dudeney", name=name)


def _latin(squares: int, reduced: bool, lo: int):
    def build(m: re.Match, name: str):
        from puzzles.kinds.latin import LatinPuzzle

        n = int(m.group(1)) if m.groups() else 4
        diagonal = squares == 1 or bool(m.groups() and m.group(2)) or name == "court-cards"
        return LatinPuzzle(n, squares=squares, diagonal=diagonal, reduced=reduced, name=name) if lo <= n <= 32 else None

    return build


def _eternity2(m: re.Match, name: str):
    from puzzles.files.file_input import read_text
    from puzzles.files.piece_text import parse_piece_text

    p = parse_piece_text("16 16\n" + read_text(data_dir() / "eternity2" / "eternity2_pieces.txt"), name=name)
    if name != "eternity2-free":
        _e2_fixed(p, "I8" if name == "eternity2" else "all")
    return p


def _clue(m: re.Match, name: str):
    from puzzles.files.file_input import read_text
    from puzzles.files.piece_text import parse_piece_text

    return parse_piece_text(read_text(data_dir() / "eternity2_clues" / f"{CLUES[int(m.group(1))]}.txt"), name=name)


def _owen_a(m: re.Match, name: str):
    from puzzles.files.file_input import read_text
    from puzzles.files.piece_text import parse_piece_text

    f = data_dir() / "owen_model_test_puzzles" / "puzzleA_6x6_decoded_from_jwortmann_docs_image.txt"
    return parse_piece_text(read_text(f), name=name)


def _brendan(m: re.Match, name: str):
    import numpy as np

    from puzzles.kinds.edge import EdgePuzzle

    w, h = int(m.group(1)), int(m.group(2))
    f = data_dir() / "brendan_owen_set1" / f"pieces_{w:02d}x{h:02d}.txt"
    if not f.exists():
        return None
    rows = _lines(f)
    return EdgePuzzle(rows=h, cols=w, pieces=np.array(rows[1:], np.int64), name=f"brendan-{w}x{h}")


def _meta(m: re.Match, name: str):
    import numpy as np

    from puzzles.kinds.edge import EdgePuzzle

    n = int(m.group(1))
    if n not in META:
        return None
    rows = _lines(data_dir() / "meta2010" / f"jwortmann_meta_{n}x{n}.txt")
    # stored B L T R; ours is N E S W = T R B L
    return EdgePuzzle(rows=n, cols=n, pieces=np.array([[t, r, b, l] for b, l, t, r in rows], np.int64), name=name)


def _pentomino(m: re.Match, name: str):
    from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

    if m.group(1) not in PENTOMINO_BOXES:
        return None
    h, w = PENTOMINO_BOXES[m.group(1)]
    region: list[Cell] = [(r, c) for r in range(h) for c in range(w)]
    return PolyformPuzzle("square", region, [PolyPiece(k, v) for k, v in PENTOMINOES.items()], mirror=True, name=name)


# Every built-in name, by the first pattern that matches it in full, and the builder that makes its puzzle
# (None from a builder: a name of the right shape with no puzzle, such as queens-0).  One table, read once per
# name: a load goes from here to the builder to the model, and the file readers it uses never call back.
BUILDERS: list[tuple[re.Pattern, Callable[[re.Match, str], Any]]] = [
    (re.compile(r"(queens|rooks)-(\d+)"), _queens),
    (re.compile(r"magic-square-(\d+)"), _magic("square", 1, 12)),
    (re.compile(r"rooks3d-(\d+)"), _magic("rooks3d", 1, 12)),
    (re.compile(r"court-cards"), _latin(2, False, 4)),
    (re.compile(r"magic-hexagon|dudeney-hexagon"), _hexagon),
    (re.compile(r"latin-(\d+)-diagonal"), _latin(1, True, 1)),
    (re.compile(r"officers-(\d+)(-diagonal)?"), _latin(2, True, 2)),
    (re.compile(r"eternity2|eternity2-hints|eternity2-free"), _eternity2),
    (re.compile(r"eternity2-corners-(\d{1,6})"), lambda m, name: _e2_corners(int(m.group(1)), name)),
    (re.compile(r"eternity2-clue([1-4])"), _clue),
    (re.compile(r"owen-a"), _owen_a),
    (re.compile(r"brendan-0*(\d+)x0*(\d+)"), _brendan),
    (re.compile(r"meta-(\d+)x\1"), _meta),
    (re.compile(r"pentomino-(\d+x\d+)"), _pentomino),
]


@cache
def _load(name: str):
    """The built-in puzzle ``name``, or None: the tilings' names, then the table, then Eternity's regions."""
    tiling = tilings.load(name)
    if tiling is not None:
        return tiling
    for pattern, build in BUILDERS:
        m = pattern.fullmatch(name)
        if m:
            return build(m, name)
    if name in eternity1.names() or eternity1.HINTED.fullmatch(name):
        return eternity1.puzzle(name)
    return None


def is_builtin(name: str) -> bool:
    """Whether ``name`` is a built-in puzzle."""
    return _load(name) is not None


def shadows(path: str) -> bool:
    """Whether a file written at ``path`` would shadow a built-in puzzle: ``load`` reads a file before a
    built-in name, so ``prove -o eternity2-clue1`` would make the name mean the proof from then on."""
    if os.sep in path or "." in path or not path:
        return False
    if path in eternity1.names():  # named, not built (its tables take seconds)
        return True
    try:
        return _load(path) is not None
    except (InputError, ValueError, KeyError):
        return False


def load_builtin(name: str):
    """The built-in puzzle ``name`` (``KeyError`` when there is none)."""
    p = _load(name)
    if p is None:
        raise KeyError(name)
    return p


def load(spec: str):
    """A puzzle by built-in name or file path (InputError if neither)."""
    try:
        exists = Path(spec).exists()
    except OSError as e:  # a name too long for the file system, say
        raise InputError(spec, None, f"cannot read ({e.strerror})") from None
    except ValueError:  # a NUL byte in the name
        raise InputError(spec, None, "not a file name") from None
    if exists:
        from puzzles.files.formats import read_puzzle

        return read_puzzle(spec)
    p = _load(spec)
    if p is not None:
        return p
    raise InputError(spec, None, "no such file or built-in puzzle (see `eternity list`)")


def known_solution(name: str) -> list[EdgePlacement] | None:
    """The solution shipped with a built-in puzzle, or None."""
    from puzzles.kinds.edge import EdgePlacement

    p = _load(name)
    if p is None:
        return None
    d = data_dir()
    m = re.fullmatch(r"eternity2-clue([1-4])", name)
    if m:
        out = []
        for r, c, piece, rot in _lines(d / "eternity2_clues" / "solutions" / CLUE_SOLUTIONS[int(m.group(1))]):
            out.append(EdgePlacement((r - 1) * p.cols + (c - 1), piece - 1, rot))
        return out
    if name == "owen-a":
        return [EdgePlacement(i, i, 0) for i in range(p.n_cells)]
    if (d / "classics" / f"{name}_solution.json").exists():  # computed here: data/SOURCES.md, classics
        from puzzles.files.formats import read_solution

        return read_solution(p, d / "classics" / f"{name}_solution.json")
    if name.startswith("brendan-"):
        f = d / "brendan_owen_set1" / f"solutions_{p.cols:02d}x{p.rows:02d}.txt"
        rows = _lines(f)[1:]
        return [EdgePlacement((p.rows - 1 - y) * p.cols + x, i, r) for i, (x, y, r) in enumerate(rows)]
    return None
