"""Crash-safe snapshots of a search: write, fsync, rename, fsync the directory.

A kill -9 at any moment leaves either the previous snapshot or the new one,
never half a file.  Each snapshot carries a fingerprint of the puzzle and
the options, so a resume with anything else is refused.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import numpy as np

from puzzles.errors import UsageError


def save(d: Path, name: str, **arrays) -> None:
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f"{name}.tmp.npz"
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, d / f"{name}.npz")
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def load(d: Path, name: str, fingerprint: str) -> dict:
    f = d / f"{name}.npz"
    if not f.exists():
        raise UsageError(f"resume: {f}: no snapshot there")
    try:
        with np.load(f, allow_pickle=False) as z:
            data = {k: z[k] for k in z.files}
    except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as e:
        raise UsageError(f"resume: {f}: a damaged snapshot ({type(e).__name__}: {e})") from None
    if str(data.get("fingerprint")) != fingerprint:
        raise UsageError(f"resume: {f}: written for another puzzle or other options")
    return data
