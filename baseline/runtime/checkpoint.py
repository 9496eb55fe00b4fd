"""Crash-safe snapshots of a search: write, fsync, rename, fsync the directory.

A kill -9 at any moment leaves either the previous snapshot or the new one,
never half a file.  Each snapshot carries a fingerprint of the puzzle and
the options, so a resume with anything else is refused, and a seal (SHA-256
of every array, names, types and shapes included), so a snapshot edited by
hand (a best score raised, a count moved) is refused too: a resumed search
goes on only from what a search wrote.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

import numpy as np

from puzzles.errors import UsageError


def seal(arrays: dict) -> str:
    """The seal of a snapshot's arrays: SHA-256 over their names, types, shapes and bytes, in name order."""
    h = hashlib.sha256(b"eternity/snapshot 1")
    for k in sorted(arrays):
        a = np.ascontiguousarray(np.asarray(arrays[k]))
        h.update(f" {k} {a.dtype.str} {a.shape} ".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def save(d: Path, name: str, **arrays) -> None:
    """Write the arrays as ``d/name.npz`` with their seal, atomically."""
    d.mkdir(parents=True, exist_ok=True)
    tmp = d / f"{name}.tmp.npz"
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    with open(tmp, "wb") as f:
        np.savez(f, **arrays, seal=np.array(seal(arrays)))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, d / f"{name}.npz")
    fd = os.open(d, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def load(d: Path, name: str, fingerprint: str) -> dict:
    """The arrays of ``d/name.npz``; ``UsageError`` when the seal does not hold or the fingerprint is another search's."""
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
    sealed = data.pop("seal", None)
    if sealed is None:
        raise UsageError(f"resume: {f}: written before snapshots were sealed; start the search afresh")
    if str(sealed) != seal(data):
        raise UsageError(f"resume: {f}: does not match its seal (edited or damaged); start the search afresh")
    return data
