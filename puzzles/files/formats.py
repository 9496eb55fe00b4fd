"""Reading and writing puzzle and solution files (docs/ARCHITECTURE.md, "Files").

JSON files are versioned and validated with pydantic; every problem becomes
an ``InputError`` whose one-line message names the file, the field and what
is wrong.  This module turns puzzles and solutions into their JSON and back;
each other format is a module of its own, its names re-exported here:
``file_schema`` (the pydantic models), ``file_input`` (reading an input
safely), ``piece_text`` (community piece lists), ``bucas`` (the e2.bucas.name
board URL, read as a solution) and ``weights_file`` (tilability weights).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import ValidationError

from puzzles.errors import InputError, UsageError
from puzzles.files.bucas import _bucas_colour, solution_from_bucas  # noqa: F401
from puzzles.files.file_input import (  # noqa: F401
    _INTERNAL,
    _LONG_NUMBER,
    _TAGS,
    MAX_DIGITS,
    MAX_FILE_BYTES,
    _json,
    _loc,
    _validation,
    problem_words,
    puzzle_hash,
    read_text,
    refuse_long_numbers,
    refuse_special,
    shown_int,
    whole_numbers,
)

# The file formats live one module each; their names are re-exported here, where every reader has found them.
from puzzles.files.file_schema import (  # noqa: F401
    MAX_COLOUR,
    MAX_COORD,
    MAX_COPIES,
    MAX_REGION,
    Coord,
    EdgeModel,
    EdgePlacementModel,
    FixedModel,
    LatinModel,
    LatinPlacementModel,
    MagicModel,
    MagicPlacementModel,
    PolyformModel,
    PolyPieceModel,
    PolyPlacementModel,
    PuzzleModel,
    QueenPlacementModel,
    QueensModel,
    RegionModel,
    SolutionModel,
    _Strict,
)
from puzzles.files.heule_board import looks_heule, parse_heule, to_heule  # noqa: F401
from puzzles.files.outputs import atomic_write
from puzzles.files.piece_text import parse_piece_text  # noqa: F401
from puzzles.files.weights_file import _WeightsModel, read_weights, read_weights_and_sizes, write_weights  # noqa: F401
from puzzles.kinds.cnf_formula import CnfFormula, looks_cnf, read_cnf
from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed
from puzzles.kinds.grids import GRIDS
from puzzles.kinds.latin import LatinPlacement, LatinPuzzle
from puzzles.kinds.magic import MagicPlacement, MagicPuzzle
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece, PolyPlacement
from puzzles.kinds.queens import QueenPlacement, QueensPuzzle


# ------------------------------------------------------------------- puzzles
def puzzle_from_dict(data: Any, source: str = "<puzzle>"):
    """A puzzle from a file's parsed JSON; ``InputError`` naming ``source``, the field and the problem."""
    if not isinstance(data, dict):
        raise InputError(source, None, "expected a JSON object at the top level")
    fmt = data.get("format")
    if fmt == "eternity/cnf":
        if not isinstance(data.get("file"), str) or not isinstance(data.get("sha256"), str):
            raise InputError(source, "file", "a CNF instance names its file and the file's sha256")
        return read_cnf(data["file"], data["sha256"])
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
    if not puzzle.free_supply and puzzle.piece_area < len(region):  # count 0: any number of copies
        raise InputError(
            source, "pieces", f"piece area {puzzle.piece_area} cannot cover the {len(region)} region cells"
        )
    return puzzle


def puzzle_to_dict(p) -> dict:
    """A puzzle as the JSON of its file format (``puzzle_from_dict`` reads it back)."""
    if isinstance(p, CnfFormula):  # the file and its digest: the formula is read again from the file
        return {"format": "eternity/cnf", "version": 1, "name": p.name, "file": p.file, "sha256": p.sha256}
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


def read_puzzle(path: str | os.PathLike):
    """A puzzle from a JSON file or a community piece list."""
    source = str(path)
    if looks_cnf(path):
        refuse_special(path)
        return read_cnf(path)
    text = read_text(path)
    if not text.strip():
        raise InputError(source, None, "empty file")
    if text.lstrip().startswith(("{", "[")):
        return puzzle_from_dict(_json(source, text), source)
    if looks_heule(text):
        return parse_heule(text, source, name=Path(path).stem)
    return parse_piece_text(text, source, name=Path(path).stem)


WRITE_FORMATS = ("json", "heule", "pieces")


def write_puzzle(p, path, fmt: str = "json") -> None:
    """Write a puzzle file, whole: the workbench's JSON, a Heule board file, or a ``rows cols`` piece list."""
    if fmt == "heule":
        text = to_heule(p)
    elif fmt == "pieces":
        if not isinstance(p, EdgePuzzle) or p.fixed:
            raise UsageError("a piece list holds edge-matching boards without fixed pieces; use json")
        text = f"{p.rows} {p.cols}\n" + "".join(" ".join(str(int(c)) for c in q) + "\n" for q in p.pieces)
    else:
        text = json.dumps(puzzle_to_dict(p), indent=1) + "\n"
    atomic_write(path, text)


# ----------------------------------------------------------------- solutions
def solution_to_dict(puzzle, placements) -> dict:
    """A solution as the JSON of a solution file, naming its puzzle by hash."""
    out: list[dict[str, Any]] = []
    for pl in placements:
        if isinstance(puzzle, CnfFormula):  # a model: its true variables, the others false
            out.append({"variable": int(pl)})
        elif isinstance(puzzle, EdgePuzzle):
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
    """Write a solution file, whole."""
    atomic_write(path, json.dumps(solution_to_dict(puzzle, placements), indent=1) + "\n")


def solution_from_dict(puzzle, data: Any, source: str = "<solution>") -> list:
    """The placements of a solution file's JSON for ``puzzle``; ``InputError`` when it is another puzzle's or malformed."""
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
            if isinstance(puzzle, CnfFormula):
                v = raw.get("variable") if isinstance(raw, dict) else None
                if not isinstance(v, int) or isinstance(v, bool) or not 0 < v <= puzzle.n_vars:
                    raise InputError(source, where + ".variable", f"a variable 1..{puzzle.n_vars} is expected")
                out.append(v)
            elif isinstance(puzzle, EdgePuzzle):
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
    """The placements of the solution file ``path`` (JSON, or an e2.bucas.name URL) for ``puzzle``."""
    source = str(path)
    text = read_text(path)
    if isinstance(puzzle, EdgePuzzle) and "board_edges=" in text[:200_000]:
        return solution_from_bucas(puzzle, text, source)
    return solution_from_dict(puzzle, _json(source, text), source)
