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

The salts are HMAC-SHA256 of a public nonce and the side, keyed by the
solution itself, so opening needs the solution and nothing else kept secret.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import secrets
from typing import Any

from ..edge import EdgePuzzle
from ..errors import InputError, UsageError
from ..polyform import PolyformPuzzle

COMMIT_FORMAT = "eternity/split-commitment"
HALF_FORMAT = "eternity/split-half"
VERSION = 1
SIDES = ("left", "right")


def _canon(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":")).encode()


def _placements(puzzle, placements) -> list[dict]:
    from ..formats import solution_to_dict

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


def _salt(placements_text: bytes, nonce: bytes, side: str) -> bytes:
    return hmac.new(placements_text, nonce + side.encode(), hashlib.sha256).digest()


def _digest(salt: bytes, half: list[dict]) -> str:
    return hashlib.sha256(salt + _canon(sorted(half, key=_canon))).hexdigest()


def commit(puzzle, placements, puzzle_hash: str, nonce: bytes | None = None) -> dict:
    """The public commitment: the boundary, the left side's pieces, a salted hash of each half."""
    left, right = halves(puzzle, placements)
    key = _canon(sorted(_placements(puzzle, placements), key=_canon))
    nonce = nonce or secrets.token_bytes(16)
    return {
        "format": COMMIT_FORMAT,
        "version": VERSION,
        "puzzle": puzzle_hash,
        "nonce": nonce.hex(),
        "left": {
            "cells": _cells_of(puzzle, left),
            "pieces": sorted((_label(puzzle, pl) for pl in left), key=lambda s: (len(s), s)),
        },
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


def read_commitment(data: Any, source: str, puzzle_hash: str) -> dict:
    _check_header(data, source, COMMIT_FORMAT, "a split commitment", puzzle_hash)
    try:
        bytes.fromhex(data["nonce"])
        cells, pieces = list(map(str, data["left"]["cells"])), list(map(str, data["left"]["pieces"]))
        coms = {s: str(data["commitments"][s]) for s in SIDES}
    except (KeyError, TypeError, ValueError):
        raise InputError(source, None, "needs nonce, left.cells, left.pieces, commitments.left/right") from None
    return {**data, "left": {"cells": cells, "pieces": pieces}, "commitments": coms}


def verify_half(puzzle, half: Any, half_source: str, commitment: dict, puzzle_hash: str) -> list[str]:
    """What is wrong with an opened half (empty: it checks)."""
    from ..formats import solution_from_dict
    from ..verify import verify

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
    sub = puzzle
    if isinstance(puzzle, EdgePuzzle):  # fixed pieces on the other side are not this half's business
        mine = {int(pl[0]) for pl in placements}
        sub = dataclasses.replace(puzzle, fixed=[f for f in puzzle.fixed if f.cell in mine])
    rep = verify(sub, placements)
    # a half is a partial board: the other side's empty cells and pieces are not faults here
    partial = ("empty cells", "uncovered cells", "must be used")
    problems += [m for m in rep.problems if not any(w in m for w in partial)]
    return problems
