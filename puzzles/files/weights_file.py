"""Selby's tilability weights as a file: written by ``eternity tilability``, read by the beam (``weights=``)."""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from puzzles.errors import InputError
from puzzles.files.file_input import _json, _validation, read_text
from puzzles.files.outputs import atomic_write
from puzzles.kinds.polyform import PolyformPuzzle


class _WeightsModel(BaseModel):
    """A tilability weights file (format eternity/weights): per-piece log-weights and how they were fitted
    (the fit's own fields are kept as written; only the weights and the size schedule are read).

    ``sizes``, when present, makes the weights depend on the pieces left (Selby's model parameters for
    every size): ``{"N": [alpha, beta]}``, the weights with N pieces left being ``alpha * l + beta * l**2``
    of the base weights ``l`` (``experiments/studies/size_weights.py`` fits them)."""

    model_config = ConfigDict(extra="allow")
    format: Literal["eternity/weights"] | None = None
    weights: dict[str, float]
    sizes: dict[int, tuple[float, float]] | None = None


def write_weights(doc: dict, path) -> None:
    """Write a weights document (``experiments.studies.tilability.weights_document``) whole."""
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
