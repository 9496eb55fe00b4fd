"""Where the shipped puzzle data lives: ``data/`` beside the packages, or ``$ETERNITY_DATA``.

Its own module, on the ground floor of the model, so that the catalogue and the puzzles it
names (``eternity1``) both read it without importing each other."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    env = os.environ.get("ETERNITY_DATA")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "data"
