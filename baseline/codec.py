"""Compact board states ([BoardState] in docs/ARCHITECTURE.md, References): in a known search order a placed tile is
only its piece and rotation, so a state is a bit string of
``ceil(log2 n_pieces) + 2`` bits a tile -- 10 bits for Eternity II's 256
pieces, against 18 for cell + piece + rotation.  The beam search keeps its
checkpointed frontier this way.
"""

from __future__ import annotations

import math

import numpy as np


def bits_per_tile(n_pieces: int) -> int:
    """Piece index bits plus two rotation bits."""
    return max(1, math.ceil(math.log2(max(n_pieces, 2)))) + 2


def pack(pieces: np.ndarray, rots: np.ndarray, n_pieces: int) -> np.ndarray:
    """Pack rows of (piece, rotation) sequences: ``pieces`` and ``rots`` are
    [states, depth] integer arrays; returns [states, bytes] uint8."""
    pieces = np.atleast_2d(np.asarray(pieces, np.int64))
    rots = np.atleast_2d(np.asarray(rots, np.int64))
    if pieces.shape != rots.shape:
        raise ValueError("pieces and rotations differ in shape")
    if pieces.size and (pieces.min() < 0 or pieces.max() >= n_pieces or rots.min() < 0 or rots.max() > 3):
        raise ValueError("a piece or rotation is out of range")
    b = bits_per_tile(n_pieces)
    code = (pieces << 2) | rots  # [S, D], b bits each
    shifts = np.arange(b - 1, -1, -1, dtype=np.int64)
    bits = ((code[:, :, None] >> shifts) & 1).astype(np.uint8).reshape(code.shape[0], -1)
    return np.packbits(bits, axis=1)


def unpack(packed: np.ndarray, depth: int, n_pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of ``pack`` for ``depth`` tiles a row."""
    packed = np.atleast_2d(np.asarray(packed, np.uint8))
    b = bits_per_tile(n_pieces)
    bits = np.unpackbits(packed, axis=1)[:, : depth * b].reshape(packed.shape[0], depth, b).astype(np.int64)
    code = (bits << np.arange(b - 1, -1, -1, dtype=np.int64)).sum(axis=2)
    return code >> 2, code & 3
