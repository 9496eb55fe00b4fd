"""Where the shipped puzzle data lives: ``$ETERNITY_DATA``, else ``data/`` beside the packages (a source checkout),
else the package ``puzzles.shipped`` (an installed wheel: setup.py ships ``data/`` under that name).

Its own module, on the ground floor of the model, so that the catalogue and the puzzles it
names (``eternity1``) both read it without importing each other."""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """The folder of the shipped data (its ``SOURCES.md`` gives every file's provenance)."""
    env = os.environ.get("ETERNITY_DATA")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent
    checkout = here.parent / "data"
    return checkout if (checkout / "SOURCES.md").is_file() else here / "shipped"
