"""Reading and writing puzzle and solution files (docs/ARCHITECTURE.md, "Files").

JSON files are versioned and validated with pydantic; every problem becomes
an ``InputError`` whose one-line message names the file, the field and what
is wrong.  Also read: community piece lists (``N E S W`` or ``id N E S W``
lines, optionally after a ``rows cols`` header).  Also written, and read as
a solution of an edge-matching board: the e2.bucas.name board URL.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, conint, conlist, field_validator

from .edge import EdgePlacement, EdgePuzzle, Fixed, parse_cell_name
from .errors import InputError
from .grids import GRIDS
from .latin import LatinPlacement, LatinPuzzle
from .magic import MagicPlacement, MagicPuzzle
from .outputs import atomic_write
from .polyform import PolyformPuzzle, PolyPiece, PolyPlacement
from .queens import QueenPlacement, QueensPuzzle
from .ranges import MAX_SIDE


# --------------------------------------------------------------------- models
class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class FixedModel(_Strict):
    cell: str
    piece: conint(ge=1)  # type: ignore[valid-type]
    rotation: conint(ge=0, le=3)  # type: ignore[valid-type]

    @field_validator("cell")
    @classmethod
    def _cell(cls, v: str) -> str:
        parse_cell_name(v)
        return v


MAX_COLOUR = 2000  # an edge colour (Eternity II has 22; the generators make at most 2 x 1000)
MAX_COORD = 100_000  # a polyform coordinate, either sign
MAX_REGION = 1_000_000  # cells of a polyform region
MAX_COPIES = 100_000  # copies of one polyform piece
Coord = conint(ge=-MAX_COORD, le=MAX_COORD)


class EdgeModel(_Strict):
    format: Literal["eternity/edge"]
    version: Literal[1]
    name: str = ""
    rows: conint(ge=1, le=MAX_SIDE)  # type: ignore[valid-type]
    cols: conint(ge=1, le=MAX_SIDE)  # type: ignore[valid-type]
    pieces: list[conlist(conint(ge=0, le=MAX_COLOUR), min_length=4, max_length=4)]  # type: ignore[valid-type]
    fixed: list[FixedModel] = []


class PolyPieceModel(_Strict):
    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.+\-]+$")
    cells: list[conlist(Coord, min_length=2, max_length=3)] = Field(min_length=1, max_length=10_000)  # type: ignore[valid-type]
    count: conint(ge=0, le=MAX_COPIES) = 1  # type: ignore[valid-type]  # 0: any number (a free supply)


class RegionModel(_Strict):
    cells: list[conlist(Coord, min_length=2, max_length=3)] = Field(min_length=1, max_length=MAX_REGION)  # type: ignore[valid-type]


class PolyformModel(_Strict):
    format: Literal["eternity/polyform"]
    version: Literal[1]
    name: str = ""
    grid: str
    region: RegionModel
    pieces: list[PolyPieceModel] = Field(min_length=1)
    mirror: bool = True


class QueensModel(_Strict):
    format: Literal["eternity/queens"]
    version: Literal[1]
    name: str = ""
    n: conint(ge=1, le=64)  # type: ignore[valid-type]
    piece: Literal["queen", "rook"] = "queen"


class LatinModel(_Strict):
    format: Literal["eternity/latin"]
    version: Literal[1]
    name: str = ""
    n: conint(ge=1, le=32)  # type: ignore[valid-type]
    squares: Literal[1, 2] = 2
    diagonal: bool = False
    reduced: bool = True


class MagicModel(_Strict):
    format: Literal["eternity/magic"]
    version: Literal[1]
    name: str = ""
    shape: Literal["square", "hexagon", "rooks3d"] = "square"
    n: conint(ge=1, le=12) = 4  # type: ignore[valid-type]  # rooks3d: the rooks on a line
    rule: Literal["magic", "dudeney"] = "magic"


PuzzleModel = Annotated[
    EdgeModel | PolyformModel | QueensModel | LatinModel | MagicModel, Field(discriminator="format")
]


class EdgePlacementModel(_Strict):
    cell: str
    piece: conint(ge=1)  # type: ignore[valid-type]
    rotation: conint(ge=0, le=3)  # type: ignore[valid-type]


class PolyPlacementModel(_Strict):
    piece: str
    copy_: conint(ge=1) = Field(default=1, alias="copy")  # type: ignore[valid-type]
    cells: list[conlist(int, min_length=2, max_length=3)] = Field(min_length=1)  # type: ignore[valid-type]


class LatinPlacementModel(_Strict):
    row: conint(ge=0)  # type: ignore[valid-type]
    col: conint(ge=0)  # type: ignore[valid-type]
    a: conint(ge=0)  # type: ignore[valid-type]
    b: conint(ge=-1) = -1  # type: ignore[valid-type]


class MagicPlacementModel(_Strict):
    cell: conint(ge=0)  # type: ignore[valid-type]
    value: conint(ge=0)  # type: ignore[valid-type]


class QueenPlacementModel(_Strict):
    row: conint(ge=0)  # type: ignore[valid-type]
    col: conint(ge=0)  # type: ignore[valid-type]


class SolutionModel(_Strict):
    format: Literal["eternity/solution"]
    version: Literal[1]
    puzzle: str | None = None
    placements: list[dict[str, Any]]


# ------------------------------------------------------------------- helpers
def puzzle_hash(puzzle) -> str:
    """sha256 of the canonical puzzle (the name does not count)."""
    blob = json.dumps(puzzle.canonical(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


_TAGS = ("edge", "polyform", "builtin", "files", "excess")  # discriminator values pydantic puts in a location
_INTERNAL = re.compile(
    r"^(function-|list\[|dict\[|json-or-python\[|constrained-|int$|float$|str$|bool$|"
    r"is-instance\[|tagged-union\[|union\[|nullable\[|model\[)"
)


def _loc(err) -> str:
    """The field an error is about, as the file names it: pydantic's union and tag steps left out."""
    out: list[str] = []
    for i, x in enumerate(err.get("loc", ())):
        s = str(x)
        if _INTERNAL.match(s) or (i == 0 and s.startswith("eternity/")):
            continue
        if s in _TAGS and out and out[-1].isdigit():  # families.0.edge.rows: the family's kind tag
            continue
        out.append(s)
    return ".".join(out) or "(top level)"


def problem_words(err: Mapping[str, Any]) -> str:
    """A validator's complaint in the file's terms: pydantic's "Value error, " and "Input " left out."""
    msg = str(err.get("msg", "invalid")).replace("\n", " ").removeprefix("Value error, ")
    msg = re.sub(r"^(Input|List|String|Dictionary|Tuple|Set|Value) should", "should", msg)
    return msg.replace(" after validation", "")


def _validation(source: str, exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    msg = problem_words(err)
    n = len(exc.errors()) - 1
    more = f" (and {n} more problem{'s' if n > 1 else ''})" if n else ""
    return InputError(source, _loc(err), msg + more)


MAX_FILE_BYTES = 64 * 2**20  # no puzzle, solution or config comes near: a larger input is refused, not read


def refuse_special(path: str | os.PathLike) -> None:
    """A named pipe or a socket is refused before it is opened (opening a FIFO waits for a writer)."""
    import stat

    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return  # the open that follows names the problem
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        raise InputError(str(path), None, "is a named pipe or a socket, not a file")


def read_text(path: str | os.PathLike) -> str:
    """A text file (UTF-8, with or without a byte-order mark, or UTF-16 with one), read up to
    MAX_FILE_BYTES: /dev/zero or a huge file is refused, not read without end."""
    p = Path(path)
    refuse_special(p)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise InputError(
                str(path), None, f"larger than {MAX_FILE_BYTES // 2**20} MB: not a file this program reads"
            )
    except FileNotFoundError:
        raise InputError(str(path), None, "no such file") from None
    except IsADirectoryError:
        raise InputError(str(path), None, "is a directory, not a file") from None
    except OSError as e:
        raise InputError(str(path), None, f"cannot read ({e.strerror})") from None
    try:
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            text = data.decode("utf-16")
        else:
            text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(str(path), None, "not a text file (bytes that are not UTF-8)") from None
    refuse_long_numbers(str(path), text)
    return text


MAX_DIGITS = 4300  # digits of one number an input may hold: Python's own cap on reading one, kept for inputs
_LONG_NUMBER = re.compile(r"\d{" + str(MAX_DIGITS + 1) + "}")


def refuse_long_numbers(source: str, text: str) -> None:
    """Refuse a number longer than MAX_DIGITS before anything parses it: reading one takes time
    quadratic in its digits, and no field of any input needs a tenth of them."""
    if _LONG_NUMBER.search(text):
        raise InputError(source, None, f"holds a number of more than {MAX_DIGITS} digits")


def whole_numbers() -> None:
    """Let exact integers of any size be written: a count of a board of many identical pieces runs to
    tens of thousands of digits, and counts are stored, tabled and printed exactly.  Python caps the
    digits of int-to-text conversions in both directions; an entry point lifts the cap once, and the
    inputs keep theirs through ``refuse_long_numbers``."""
    sys.set_int_max_str_digits(0)


def shown_int(n: int, digits: int = 40) -> str:
    """An integer for a person: exact up to ``digits`` digits, else its leading digits, power of ten
    and length (JSON output keeps it exact)."""
    if abs(n) < 10**digits:
        return str(n)
    lg = math.log10(abs(n))
    mant = 10 ** (lg - math.floor(lg))
    return f"{'-' if n < 0 else ''}{mant:.4f}e+{math.floor(lg)} ({math.floor(lg) + 1:,} digits)"


def _json(source: str, text: str) -> Any:
    if not text.strip():
        raise InputError(source, None, "empty file")
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(source, None, "JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        what = e.msg.removesuffix(" at")  # "Unterminated string starting at", "Expecting value", ...
        raise InputError(
            source, f"line {e.lineno} column {e.colno}", f"invalid JSON: {what[0].lower() + what[1:]} here"
        ) from None


# ------------------------------------------------------------------- puzzles
def puzzle_from_dict(data: Any, source: str = "<puzzle>"):
    if not isinstance(data, dict):
        raise InputError(source, None, "expected a JSON object at the top level")
    fmt = data.get("format")
    known = ("eternity/edge", "eternity/polyform", "eternity/queens", "eternity/latin", "eternity/magic")
    if fmt not in known:
        raise InputError(source, "format", f"unknown format {fmt!r} (expected one of {', '.join(known)})")
    if "version" in data and data["version"] != 1:
        raise InputError(source, "version", f"unsupported version {data['version']!r} (this program reads version 1)")
    from pydantic import TypeAdapter

    try:
        model = TypeAdapter(PuzzleModel).validate_python(data)
    except ValidationError as e:
        raise _validation(source, e) from None
    if isinstance(model, EdgeModel):
        return _edge_from_model(model, source)
    if isinstance(model, PolyformModel):
        return _poly_from_model(model, source)
    if isinstance(model, LatinModel):
        return LatinPuzzle(model.n, model.squares, model.diagonal, model.reduced, model.name)
    if isinstance(model, MagicModel):
        try:
            return MagicPuzzle(model.shape, model.n, model.rule, model.name)
        except ValueError as e:
            raise InputError(source, "rule", str(e)) from None
    return QueensPuzzle(n=model.n, name=model.name, piece=model.piece)


def _edge_from_model(m: EdgeModel, source: str) -> EdgePuzzle:
    cells = m.rows * m.cols
    if len(m.pieces) < cells:
        raise InputError(source, "pieces", f"{len(m.pieces)} pieces cannot fill {m.rows}x{m.cols} = {cells} cells")
    p = EdgePuzzle(rows=m.rows, cols=m.cols, pieces=np.asarray(m.pieces, np.int64), name=m.name)
    seen_cells, seen_pieces = set(), set()
    for i, f in enumerate(m.fixed):
        try:
            cell = p.parse_cell(f.cell)
        except ValueError as e:
            raise InputError(source, f"fixed.{i}.cell", str(e)) from None
        if f.piece > len(m.pieces):
            raise InputError(source, f"fixed.{i}.piece", f"no piece {f.piece} (there are {len(m.pieces)})")
        if cell in seen_cells:
            raise InputError(source, f"fixed.{i}.cell", f"cell {f.cell} is fixed twice")
        if f.piece in seen_pieces:
            raise InputError(source, f"fixed.{i}.piece", f"piece {f.piece} is fixed twice")
        seen_cells.add(cell)
        seen_pieces.add(f.piece)
        p.fixed.append(Fixed(cell, f.piece - 1, f.rotation))
    return p


def _poly_from_model(m: PolyformModel, source: str) -> PolyformPuzzle:
    if m.grid not in GRIDS:
        raise InputError(source, "grid", f"unknown grid {m.grid!r} (known: {', '.join(sorted(GRIDS))})")
    grid = GRIDS[m.grid]
    region = [tuple(c) for c in m.region.cells]
    bad = next((why for why in map(grid.check_cell, region) if why), None)
    if bad:
        raise InputError(source, "region.cells", bad)
    if len(set(region)) != len(region):
        dup = next(c for c in region if region.count(c) > 1)
        raise InputError(source, "region.cells", f"duplicate cell {list(dup)}")
    pieces, names = [], set()
    for i, pc in enumerate(m.pieces):
        cells = [tuple(c) for c in pc.cells]
        bad = next((why for why in map(grid.check_cell, cells) if why), None)
        if bad:
            raise InputError(source, f"pieces.{i}.cells", bad)
        if len(set(cells)) != len(cells):
            raise InputError(source, f"pieces.{i}.cells", "duplicate cell in piece")
        if pc.name in names:
            raise InputError(source, f"pieces.{i}.name", f"duplicate piece name {pc.name!r}")
        names.add(pc.name)
        pieces.append(PolyPiece(pc.name, tuple(cells), pc.count))
    puzzle = PolyformPuzzle(grid_name=m.grid, region=region, pieces=pieces, mirror=m.mirror, name=m.name)
    if puzzle.piece_area < len(region):
        raise InputError(
            source, "pieces", f"piece area {puzzle.piece_area} cannot cover the {len(region)} region cells"
        )
    return puzzle


def puzzle_to_dict(p) -> dict:
    if isinstance(p, EdgePuzzle):
        return {
            "format": "eternity/edge",
            "version": 1,
            "name": p.name,
            "rows": p.rows,
            "cols": p.cols,
            "pieces": p.pieces.tolist(),
            "fixed": [{"cell": p.cell_name(f.cell), "piece": f.piece + 1, "rotation": f.rotation} for f in p.fixed],
        }
    if isinstance(p, PolyformPuzzle):
        return {
            "format": "eternity/polyform",
            "version": 1,
            "name": p.name,
            "grid": p.grid_name,
            "region": {"cells": [list(c) for c in p.region]},
            "pieces": [{"name": pc.name, "cells": [list(c) for c in pc.cells], "count": pc.count} for pc in p.pieces],
            "mirror": p.mirror,
        }
    if isinstance(p, QueensPuzzle):
        return {
            "format": "eternity/queens",
            "version": 1,
            "name": p.name,
            "n": p.n,
            **({"piece": p.piece} if p.piece != "queen" else {}),
        }
    if isinstance(p, LatinPuzzle):
        return {
            "format": "eternity/latin",
            "version": 1,
            "name": p.name,
            "n": p.n,
            "squares": p.squares,
            "diagonal": p.diagonal,
            "reduced": p.reduced,
        }
    if isinstance(p, MagicPuzzle):
        return {"format": "eternity/magic", "version": 1, "name": p.name, "shape": p.shape, "n": p.n, "rule": p.rule}
    raise TypeError(type(p).__name__)


def parse_piece_text(text: str, source: str = "<pieces>", name: str = "") -> EdgePuzzle:
    """Community piece lists: ``N E S W`` or ``id N E S W`` a line, optional
    ``rows cols`` header; ``#`` and ``c`` lines are comments.  Without a header
    the board is the square the piece count makes."""
    rows = cols = None
    pieces: list[list[int]] = []
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s.startswith("#") or s.startswith("c ") or s == "c":
            continue
        try:
            nums = [int(x) for x in s.replace(",", " ").split()]
        except ValueError:
            raise InputError(source, f"line {ln}", f"expected integers, got {s[:40]!r}") from None
        if len(nums) == 2 and rows is None and not pieces:
            rows, cols = nums
            if rows < 1 or cols < 1 or rows > MAX_SIDE or cols > MAX_SIDE:
                raise InputError(source, f"line {ln}", f"board size {rows}x{cols} must be between 1 and {MAX_SIDE}")
            continue
        if len(nums) == 5:
            nums = nums[1:]
        if len(nums) != 4:
            raise InputError(source, f"line {ln}", f"a piece has 4 colours (N E S W), got {len(nums)} numbers")
        if min(nums) < 0:
            raise InputError(source, f"line {ln}", "colours must be non-negative")
        if any(v > MAX_COLOUR for v in nums):
            raise InputError(source, f"line {ln}", f"a colour above {MAX_COLOUR} (colours are 0..{MAX_COLOUR})")
        pieces.append(nums)
    if not pieces:
        raise InputError(source, None, "no pieces found")
    if rows is None:
        side = math.isqrt(len(pieces))
        if side * side != len(pieces):
            raise InputError(source, None, f"{len(pieces)} pieces and no 'rows cols' header: not a square board")
        rows = cols = side
    assert cols is not None  # set with rows by the header
    if len(pieces) < rows * cols:
        raise InputError(source, "pieces", f"{len(pieces)} pieces cannot fill {rows}x{cols} = {rows * cols} cells")
    return EdgePuzzle(rows=rows, cols=cols, pieces=np.asarray(pieces, np.int64), name=name)


def read_puzzle(path: str | os.PathLike):
    """A puzzle from a JSON file or a community piece list."""
    source = str(path)
    text = read_text(path)
    if not text.strip():
        raise InputError(source, None, "empty file")
    if text.lstrip().startswith(("{", "[")):
        return puzzle_from_dict(_json(source, text), source)
    return parse_piece_text(text, source, name=Path(path).stem)


def write_puzzle(p, path) -> None:
    atomic_write(path, json.dumps(puzzle_to_dict(p), indent=1) + "\n")


# ----------------------------------------------------------------- solutions
def solution_to_dict(puzzle, placements) -> dict:
    out = []
    for pl in placements:
        if isinstance(puzzle, EdgePuzzle):
            out.append({"cell": puzzle.cell_name(pl[0]), "piece": int(pl[1]) + 1, "rotation": int(pl[2])})
        elif isinstance(puzzle, PolyformPuzzle):
            d = {"piece": puzzle.pieces[pl[0]].name, "cells": [list(c) for c in pl[2]]}
            if puzzle.pieces[pl[0]].count > 1:
                d["copy"] = int(pl[1]) + 1
            out.append(d)
        elif isinstance(puzzle, MagicPuzzle):
            out.append({"cell": int(pl[0]), "value": int(pl[1])})
        elif isinstance(puzzle, LatinPuzzle):
            out.append(
                {
                    "row": int(pl[0]),
                    "col": int(pl[1]),
                    "a": int(pl[2]),
                    **({"b": int(pl[3])} if puzzle.squares == 2 else {}),
                }
            )
        else:
            out.append({"row": int(pl[0]), "col": int(pl[1])})
    return {"format": "eternity/solution", "version": 1, "puzzle": puzzle_hash(puzzle), "placements": out}


def write_solution(puzzle, placements, path) -> None:
    atomic_write(path, json.dumps(solution_to_dict(puzzle, placements), indent=1) + "\n")


def solution_from_dict(puzzle, data: Any, source: str = "<solution>") -> list:
    if not isinstance(data, dict):
        raise InputError(source, None, "expected a JSON object at the top level")
    if data.get("format") != "eternity/solution":
        raise InputError(source, "format", f"unknown format {data.get('format')!r} (expected 'eternity/solution')")
    if data.get("version") != 1:
        raise InputError(
            source, "version", f"unsupported version {data.get('version')!r} (this program reads version 1)"
        )
    try:
        m = SolutionModel.model_validate(data)
    except ValidationError as e:
        raise _validation(source, e) from None
    if m.puzzle is not None and m.puzzle != puzzle_hash(puzzle):
        raise InputError(source, "puzzle", "this solution was written for a different puzzle (hash differs)")
    out: list = []
    for i, raw in enumerate(m.placements):
        where = f"placements.{i}"
        try:
            if isinstance(puzzle, EdgePuzzle):
                pm = EdgePlacementModel.model_validate(raw)
                try:
                    cell = puzzle.parse_cell(pm.cell)
                except ValueError as e:
                    raise InputError(source, where + ".cell", str(e)) from None
                if pm.piece > puzzle.n_pieces:
                    raise InputError(source, where + ".piece", f"no piece {pm.piece} (there are {puzzle.n_pieces})")
                out.append(EdgePlacement(cell, pm.piece - 1, pm.rotation))
            elif isinstance(puzzle, PolyformPuzzle):
                pp = PolyPlacementModel.model_validate(raw)
                idx = {pc.name: k for k, pc in enumerate(puzzle.pieces)}
                if pp.piece not in idx:
                    raise InputError(source, where + ".piece", f"no piece named {pp.piece!r}")
                out.append(PolyPlacement(idx[pp.piece], pp.copy_ - 1, tuple(tuple(c) for c in pp.cells)))
            elif isinstance(puzzle, MagicPuzzle):
                mp = MagicPlacementModel.model_validate(raw)
                out.append(MagicPlacement(mp.cell, mp.value))
            elif isinstance(puzzle, LatinPuzzle):
                lp = LatinPlacementModel.model_validate(raw)
                out.append(LatinPlacement(lp.row, lp.col, lp.a, lp.b))
            else:
                qp = QueenPlacementModel.model_validate(raw)
                out.append(QueenPlacement(qp.row, qp.col))
        except ValidationError as e:
            err = e.errors()[0]
            raise InputError(source, f"{where}.{_loc(err)}", err.get("msg", "invalid")) from None
    return out


def read_solution(puzzle, path) -> list:
    source = str(path)
    text = read_text(path)
    if isinstance(puzzle, EdgePuzzle) and "board_edges=" in text[:200_000]:
        return solution_from_bucas(puzzle, text, source)
    return solution_from_dict(puzzle, _json(source, text), source)


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


class _WeightsModel(BaseModel):
    """A tilability weights file (format eternity/weights): per-piece log-weights and how they were fitted
    (the fit's own fields are kept as written; only the weights and the size schedule are read).

    ``sizes``, when present, makes the weights depend on the pieces left (Selby's model parameters for
    every size): ``{"N": [alpha, beta]}``, the weights with N pieces left being ``alpha * l + beta * l**2``
    of the base weights ``l`` (``experiments/size_weights.py`` fits them)."""

    model_config = ConfigDict(extra="allow")
    format: Literal["eternity/weights"] | None = None
    weights: dict[str, float]
    sizes: dict[int, tuple[float, float]] | None = None


def write_weights(doc: dict, path) -> None:
    """Write a weights document (``experiments.tilability.weights_document``) whole."""
    atomic_write(path, json.dumps(doc, indent=1) + "\n")


def read_weights(puzzle: PolyformPuzzle, path) -> dict[str, float]:
    """The log-weight of each piece of ``puzzle`` from a weights file, by piece name; every piece must
    have one (a file fitted for another puzzle is refused, naming the first piece it lacks)."""
    return read_weights_and_sizes(puzzle, path)[0]


def read_weights_and_sizes(
    puzzle: PolyformPuzzle, path
) -> tuple[dict[str, float], dict[int, tuple[float, float]] | None]:
    """``read_weights``, and the file's size schedule (``_WeightsModel.sizes``: pieces left -> (alpha,
    beta)), None when the weights are the same at every size."""
    source = str(path)
    data = _json(source, read_text(path))
    try:
        m = _WeightsModel.model_validate(data)
    except ValidationError as e:
        raise _validation(source, e) from None
    names = [pc.name for pc in puzzle.pieces]
    missing = [n for n in names if n not in m.weights]
    if missing:
        raise InputError(source, "weights", f"no weight for piece {missing[0]!r} ({len(missing)} missing)")
    if m.sizes is not None and not m.sizes:
        raise InputError(source, "sizes", "an empty size schedule (leave the field out for one weight set)")
    return {n: m.weights[n] for n in names}, m.sizes
