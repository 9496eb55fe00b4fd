"""Compact board states ([BoardState] in docs/ARCHITECTURE.md, References): in a known search order a placed tile is
only its piece and rotation, so a state is a bit string of
``ceil(log2 n_pieces) + 2`` bits a tile -- 10 bits for Eternity II's 256
pieces, against 18 for cell + piece + rotation.  The beam search keeps its
checkpointed frontier this way.
"""

from __future__ import annotations

import math

import numpy as np

BLOCK = 4096  # rows packed at a time

def bits_per_tile(n_pieces: int) -> int:
    """Piece index bits plus two rotation bits."""
    return max(1, math.ceil(math.log2(max(n_pieces, 2)))) + 2


def pack(pieces: np.ndarray, rots: np.ndarray, n_pieces: int) -> np.ndarray:
    """Pack rows of (piece, rotation) sequences: ``pieces`` and ``rots`` are
    [states, depth] integer arrays; returns [states, bytes] uint8."""
    pieces = np.atleast_2d(np.asarray(pieces))  # any integer type: blocks are widened below
    rots = np.atleast_2d(np.asarray(rots))
    if pieces.shape != rots.shape:
        raise ValueError("pieces and rotations differ in shape")
    if pieces.size and (pieces.min() < 0 or pieces.max() >= n_pieces or rots.min() < 0 or rots.max() > 3):
        raise ValueError("a piece or rotation is out of range")
    b = bits_per_tile(n_pieces)
    shifts = np.arange(b - 1, -1, -1, dtype=np.int64)
    out = np.empty((pieces.shape[0], (pieces.shape[1] * b + 7) // 8), np.uint8)
    for a in range(0, pieces.shape[0], BLOCK):  # in blocks: the bits of a million rows would not fit
        code = (pieces[a:a + BLOCK].astype(np.int64) << 2) | rots[a:a + BLOCK]  # [S, D], b bits each
        bits = ((code[:, :, None] >> shifts) & 1).astype(np.uint8).reshape(code.shape[0], -1)
        out[a:a + BLOCK] = np.packbits(bits, axis=1)
    return out


def unpack(packed: np.ndarray, depth: int, n_pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of ``pack`` for ``depth`` tiles a row."""
    packed = np.atleast_2d(np.asarray(packed, np.uint8))
    b = bits_per_tile(n_pieces)
    code = np.empty((packed.shape[0], depth), np.int64)
    shifts = np.arange(b - 1, -1, -1, dtype=np.int64)
    for a in range(0, packed.shape[0], BLOCK):
        bits = np.unpackbits(packed[a:a + BLOCK], axis=1)[:, : depth * b].reshape(-1, depth, b).astype(np.int64)
        code[a:a + BLOCK] = (bits << shifts).sum(axis=2)
    return code >> 2, code & 3
