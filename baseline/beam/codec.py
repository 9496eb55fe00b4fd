"""Compact board states ([BoardState] in docs/references.md): in a known search order a placed tile is
only its piece and rotation, so a state is a bit string of
``ceil(log2 n_pieces) + 2`` bits a tile -- 10 bits for Eternity II's 256
pieces, against 18 for cell + piece + rotation.  The beam search keeps its
checkpointed frontier this way.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

BLOCK = 4096  # rows unpacked at a time


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
    out = np.zeros((pieces.shape[0], (pieces.shape[1] * b + 7) // 8), np.uint8)
    if pieces.size:
        _pack_rows(pieces, rots, b, out)
    return out


@njit(cache=True)
def _pack_rows(pieces, rots, b, out):
    """Each row's codes (piece << 2 | rotation), b bits each, most significant bit first, as
    ``np.packbits`` lays them out: a million-state frontier in about a second (numpy's bit
    arrays would take, at their measured rate and by arithmetic, 20 s and 14 GB)."""
    for i in range(pieces.shape[0]):
        acc = np.int64(0)
        nacc = 0
        pos = 0
        for d in range(pieces.shape[1]):
            acc = (acc << b) | (np.int64(pieces[i, d]) << 2) | np.int64(rots[i, d])
            nacc += b
            while nacc >= 8:
                nacc -= 8
                out[i, pos] = (acc >> nacc) & 0xFF
                pos += 1
            acc &= (np.int64(1) << nacc) - 1
        if nacc > 0:
            out[i, pos] = (acc << (8 - nacc)) & 0xFF


def unpack(packed: np.ndarray, depth: int, n_pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """The inverse of ``pack`` for ``depth`` tiles a row."""
    packed = np.atleast_2d(np.asarray(packed, np.uint8))
    b = bits_per_tile(n_pieces)
    code = np.empty((packed.shape[0], depth), np.int64)
    shifts = np.arange(b - 1, -1, -1, dtype=np.int64)
    for a in range(0, packed.shape[0], BLOCK):
        block = packed[a : a + BLOCK]
        bits = np.unpackbits(block, axis=1)[:, : depth * b].reshape(block.shape[0], depth, b).astype(np.int64)
        code[a : a + BLOCK] = (bits << shifts).sum(axis=2)
    return code >> 2, code & 3
