"""Selby and Riordan's split: convince a challenger you hold a solution by showing half of it.

The claimant cuts the solved board along the pieces' edges into two regions
of (nearly) equal piece counts, publishes the boundary (the cells of the left
region) and the pieces that tile the left side, and commits to each half's
placements with a salted SHA-256.  The challenger names a side; the claimant
opens that half; ``verify_half`` checks it against the commitment and the
puzzle: the half's pieces are the published ones (or the rest), they cover
exactly that side's cells, and every rule inside the half holds.

Seed 000's caveats hold and are stated wherever the commands are: a cheat who
can tile only one side is caught half the time (repeat the challenge on fresh
commitments to go lower: the protocol is interactive), and the transcript
convinces the challenger only, not a bystander who did not choose the side.

On an edge-matching board the commitment also fixes the colour of every join
along the cut (``cut``), and each opened half must show those colours on its
side.  Without them a claimant with no solution could tile each side on its
own, the two disagreeing along the cut, and open either half successfully.
Polyform halves need no such list: the cut's cells are the boundary itself.

The salts are HMAC-SHA256 of a public nonce and the side, keyed by the
solution itself, so opening needs the solution and nothing else kept secret.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import re
import secrets
from typing import Any

from puzzles.errors import InputError, UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.kinds.polyform import PolyformPuzzle

COMMIT_FORMAT = "eternity/split-commitment"
HALF_FORMAT = "eternity/split-half"
VERSION = 2  # 2: the colours along the cut are committed (edge matching)
SIDES = ("left", "right")


def _canon(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":")).encode()


def _placements(puzzle, placements) -> list[dict]:
    from puzzles.files.formats import solution_to_dict

    return solution_to_dict(puzzle, placements)["placements"]


def _label(puzzle, pl) -> str:
    """A piece as the split publishes it: its number (edge) or name and copy (polyform)."""
    if isinstance(puzzle, EdgePuzzle):
        return str(int(pl[1]) + 1)
    pc = puzzle.pieces[int(pl[0])]
    return pc.name if pc.count == 1 else f"{pc.name}#{int(pl[1]) + 1}"


def _cell_key(puzzle, cell) -> str:
    return puzzle.cell_name(int(cell)) if isinstance(puzzle, EdgePuzzle) else ".".join(map(str, cell))


def halves(puzzle, placements) -> tuple[list, list]:
    """The solution cut in two along piece edges, piece counts balanced (left gets the odd one).

    Edge matching: the first half of the cells in reading order.  Polyforms: the placements
    ordered by the mean column, then row, of their cells, the first half of them."""
    if isinstance(puzzle, EdgePuzzle):
        order = sorted(placements, key=lambda pl: int(pl[0]))
    elif isinstance(puzzle, PolyformPuzzle):

        def centre(pl):
            cells = list(pl[2])
            return (sum(c[1] for c in cells) / len(cells), sum(c[0] for c in cells) / len(cells))

        order = sorted(placements, key=centre)
    else:
        raise UsageError(
            f"commit: the split needs a board cut along piece edges (edge and polyform puzzles), not "
            f"a {puzzle.kind} puzzle"
        )
    k = (len(order) + 1) // 2
    return order[:k], order[k:]


def _cells_of(puzzle, placements) -> list[str]:
    if isinstance(puzzle, EdgePuzzle):
        return sorted(_cell_key(puzzle, pl[0]) for pl in placements)
    return sorted(_cell_key(puzzle, c) for pl in placements for c in pl[2])


def _all_cells(puzzle) -> set[str]:
    if isinstance(puzzle, EdgePuzzle):
        return {puzzle.cell_name(x) for x in range(puzzle.n_cells)}
    return {_cell_key(puzzle, tuple(c)) for c in puzzle.region}


def _all_labels(puzzle) -> set[str]:
    if isinstance(puzzle, EdgePuzzle):
        return {str(k + 1) for k in range(puzzle.n_pieces)}
    return {n for _, _, n in puzzle.copy_names()}


SIDE_LETTERS = "NESW"


def cut_joins(puzzle: EdgePuzzle, left_cells: set[str]) -> list[tuple[str, int]]:
    """The joins across the cut: (a left cell, the side that faces the right region), in reading order."""
    out = []
    for cell in range(puzzle.n_cells):
        if puzzle.cell_name(cell) not in left_cells:
            continue
        for side in range(4):
            nb = puzzle.neighbour(cell, side)
            if nb >= 0 and puzzle.cell_name(nb) not in left_cells:
                out.append((puzzle.cell_name(cell), side))
    return out


def _cut_key(cell: str, side: int) -> str:
    return f"{cell}:{SIDE_LETTERS[side]}"


def cut_colours(puzzle: EdgePuzzle, placements, left_cells: set[str]) -> dict[str, int]:
    """The colour each join across the cut shows, keyed ``CELL:SIDE`` from the left side."""
    by_cell = {int(pl[0]): pl for pl in placements}
    out = {}
    for name, side in cut_joins(puzzle, left_cells):
        pl = by_cell[puzzle.parse_cell(name)]
        out[_cut_key(name, side)] = int(puzzle.placed(int(pl[1]), int(pl[2]))[side])
    return out


def _cut_problems(puzzle: EdgePuzzle, placements, side: str, commitment: dict) -> list[str]:
    """The joins across the cut at which an opened half shows another colour than the committed one."""
    joins = cut_joins(puzzle, set(commitment["left"]["cells"]))
    cut = commitment["cut"]
    if len(cut) != len(joins):
        return ["the commitment's cut does not list the joins across the boundary"]
    by_cell = {int(pl[0]): pl for pl in placements}
    bad = []
    for name, s in joins:
        key = _cut_key(name, s)
        cell, face = puzzle.parse_cell(name), s
        if side == "right":
            cell, face = puzzle.neighbour(cell, s), (s + 2) % 4
        pl = by_cell.get(cell)
        if key not in cut or pl is None or int(puzzle.placed(int(pl[1]), int(pl[2]))[face]) != cut[key]:
            bad.append(key)
    if bad:
        return [
            f"the {side} half shows other colours than the committed ones along the cut at {len(bad)} joins "
            f"({', '.join(bad[:3])}{', ...' if len(bad) > 3 else ''})"
        ]
    return []


def _salt(placements_text: bytes, nonce: bytes, side: str) -> bytes:
    return hmac.new(placements_text, nonce + side.encode(), hashlib.sha256).digest()


def _digest(salt: bytes, half: list[dict]) -> str:
    return hashlib.sha256(salt + _canon(sorted(half, key=_canon))).hexdigest()


def commit(puzzle, placements, puzzle_hash: str, nonce: bytes | None = None) -> dict:
    """The public commitment: the boundary, the left side's pieces, a salted hash of each half."""
    left, right = halves(puzzle, placements)
    key = _canon(sorted(_placements(puzzle, placements), key=_canon))
    nonce = nonce or secrets.token_bytes(16)
    cells = _cells_of(puzzle, left)
    cut = cut_colours(puzzle, placements, set(cells)) if isinstance(puzzle, EdgePuzzle) else None
    return {
        "format": COMMIT_FORMAT,
        "version": VERSION,
        "puzzle": puzzle_hash,
        "nonce": nonce.hex(),
        "left": {"cells": cells, "pieces": sorted((_label(puzzle, pl) for pl in left), key=lambda s: (len(s), s))},
        **({"cut": cut} if cut is not None else {}),
        "commitments": {
            side: _digest(_salt(key, nonce, side), _placements(puzzle, half))
            for side, half in zip(SIDES, (left, right))
        },
    }


def open_half(puzzle, placements, commitment: dict, side: str) -> dict:
    """The opened half for the challenge ``side``: its placements and its salt."""
    if side not in SIDES:
        raise UsageError(f"open: --side must be left or right, not {side!r}")
    left, right = halves(puzzle, placements)
    if _cells_of(puzzle, left) != commitment["left"]["cells"]:
        raise UsageError("open: this solution is not the one the commitment was made from (the boundary differs)")
    key = _canon(sorted(_placements(puzzle, placements), key=_canon))
    salt = _salt(key, bytes.fromhex(commitment["nonce"]), side)
    half = _placements(puzzle, left if side == "left" else right)
    if _digest(salt, half) != commitment["commitments"][side]:
        raise UsageError("open: this solution is not the one the commitment was made from (the hash differs)")
    return {
        "format": HALF_FORMAT,
        "version": VERSION,
        "puzzle": commitment["puzzle"],
        "side": side,
        "salt": salt.hex(),
        "placements": half,
    }


def _check_header(data: Any, source: str, fmt: str, what: str, puzzle_hash: str) -> None:
    """The format, version and puzzle of a split file, or InputError naming the file and the field."""
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise InputError(source, "format", f"not {what} (expected {fmt!r})")
    if data.get("version") != VERSION:
        raise InputError(source, "version", f"{data.get('version')!r} (this program reads version {VERSION})")
    if data.get("puzzle") != puzzle_hash:
        raise InputError(source, "puzzle", f"{what} of a different puzzle (its hash differs)")


def read_commitment(data: Any, source: str, puzzle_hash: str, puzzle=None) -> dict:
    """A commitment file read; for an edge-matching ``puzzle`` the cut's colours are required."""
    edge = isinstance(puzzle, EdgePuzzle)
    _check_header(data, source, COMMIT_FORMAT, "a split commitment", puzzle_hash)
    try:
        bytes.fromhex(data["nonce"])
        cells, pieces = list(map(str, data["left"]["cells"])), list(map(str, data["left"]["pieces"]))
        coms = {s: str(data["commitments"][s]) for s in SIDES}
    except (KeyError, TypeError, ValueError, AttributeError):
        raise InputError(source, None, "needs nonce, left.cells, left.pieces, commitments.left/right") from None
    if not re.fullmatch(r"[0-9a-f]{32}", str(data["nonce"])):
        raise InputError(source, "nonce", "must be 32 hexadecimal digits")
    for side, digest in coms.items():
        if not re.fullmatch(r"[0-9a-f]{64}", digest):
            raise InputError(source, f"commitments.{side}", "must be a SHA-256 digest (64 hexadecimal digits)")
    if puzzle is not None:
        unknown = sorted(set(cells) - _all_cells(puzzle))
        if unknown:
            raise InputError(source, "left.cells", f"{unknown[0]!r} is not a cell of the puzzle")
        strangers = sorted(set(pieces) - _all_labels(puzzle))
        if strangers:
            raise InputError(source, "left.pieces", f"{strangers[0]!r} is not a piece of the puzzle")
    out = {**data, "left": {"cells": cells, "pieces": pieces}, "commitments": coms}
    if edge:
        cut = data.get("cut")
        if not isinstance(cut, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in cut.items()
        ):
            raise InputError(source, "cut", "needs the colour of every join along the cut (CELL:SIDE -> colour)")
        out["cut"] = dict(cut)
    return out


def verify_half(puzzle, half: Any, half_source: str, commitment: dict, puzzle_hash: str) -> list[str]:
    """What is wrong with an opened half (empty: it checks)."""
    from puzzles.files.formats import solution_from_dict
    from puzzles.verify import verify

    _check_header(half, half_source, HALF_FORMAT, "an opened half", puzzle_hash)
    side = half.get("side")
    if side not in SIDES:
        raise InputError(half_source, "side", "must be left or right")
    try:
        salt = bytes.fromhex(half["salt"])
        raw = list(half["placements"])
    except (KeyError, TypeError, ValueError):
        raise InputError(half_source, None, "needs salt (hex) and placements") from None
    problems = []
    if _digest(salt, raw) != commitment["commitments"][side]:
        problems.append(f"the {side} half does not match its commitment")
    placements = solution_from_dict(
        puzzle, {"format": "eternity/solution", "version": 1, "placements": raw}, half_source
    )
    cells = set(_cells_of(puzzle, placements))
    left_cells = set(commitment["left"]["cells"])
    want_cells = left_cells if side == "left" else _all_cells(puzzle) - left_cells
    if cells != want_cells or len(_cells_of(puzzle, placements)) != len(cells):
        problems.append(f"the {side} half does not cover exactly the {side} side's cells")
    labels = sorted(_label(puzzle, pl) for pl in placements)
    left_labels = set(commitment["left"]["pieces"])
    want_labels = left_labels if side == "left" else _all_labels(puzzle) - left_labels
    if len(set(labels)) != len(labels) or set(labels) != want_labels:
        problems.append(f"the {side} half's pieces are not the {side} side's pieces")
    if isinstance(puzzle, EdgePuzzle):
        problems += _cut_problems(puzzle, placements, side, commitment)
    sub = puzzle
    if isinstance(puzzle, EdgePuzzle):  # fixed pieces on the other side are not this half's business
        mine = {int(pl[0]) for pl in placements}
        sub = dataclasses.replace(puzzle, fixed=[f for f in puzzle.fixed if f.cell in mine])
    rep = verify(sub, placements)
    # a half is a partial board: the other side's empty cells and pieces are not faults here
    partial = ("empty cells", "uncovered cells", "must be used")
    problems += [m for m in rep.problems if not any(w in m for w in partial)]
    return problems
