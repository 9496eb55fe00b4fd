"""Arithmetic modulo the Mersenne prime p = 2^61 - 1 on numpy uint64 arrays.

The proofs evaluate their circuits over this field, vectorised over rounds,
parties and gates.  A product of two 61-bit residues needs 122 bits, which
numpy does not have, so ``mul`` splits each factor into 32-bit halves and folds
the partial products with 2^61 = 1 (mod p): four uint64 products and shifts,
no Python integers in the loop.
"""

from __future__ import annotations

import numpy as np

P = (1 << 61) - 1
_P = np.uint64(P)
_M32 = np.uint64(0xFFFFFFFF)
_M29 = np.uint64((1 << 29) - 1)


def reduce(x: np.ndarray) -> np.ndarray:
    """x mod p for uint64 x (any value below 2^64)."""
    x = (x & _P) + (x >> np.uint64(61))
    return x - np.where(x >= _P, _P, np.uint64(0))


def add(a, b):
    """``a + b`` in the field."""
    return reduce(np.asarray(a, np.uint64) + np.asarray(b, np.uint64))


def sub(a, b):
    """``a - b`` in the field."""
    return reduce(np.asarray(a, np.uint64) + (_P - np.asarray(b, np.uint64)))


def neg(a):
    """``-a`` in the field."""
    return reduce(_P - np.asarray(a, np.uint64))


def mul(a, b):
    """a * b mod p for residues a, b < p."""
    a = np.asarray(a, np.uint64)
    b = np.asarray(b, np.uint64)
    a1, a0 = a >> np.uint64(32), a & _M32
    b1, b0 = b >> np.uint64(32), b & _M32
    lo = a0 * b0  # < 2^64
    mid = a1 * b0 + a0 * b1  # < 2^62
    hi = a1 * b1  # < 2^58
    # a*b = hi * 2^64 + mid * 2^32 + lo, and 2^64 = 8, 2^61 = 1 (mod p)
    t = (hi << np.uint64(3)) + (mid >> np.uint64(29)) + ((mid & _M29) << np.uint64(32))
    return reduce(reduce(t) + reduce(lo))


def const(v: int) -> np.uint64:
    """A Python integer (any sign, any size) as a residue."""
    return np.uint64(v % P)


def from_bytes(raw: bytes) -> np.ndarray:
    """Residues from 8 bytes each (little endian, reduced: a bias below 2^-60)."""
    return reduce(np.frombuffer(raw, dtype="<u8").astype(np.uint64))


def matsum(x: np.ndarray, a: np.ndarray) -> np.ndarray:
    """x @ a mod p for residues x (..., k) and a 0/1 (or small) matrix a (k, g), without overflow:
    x is cut into four 16-bit limbs, each product summed exactly in uint64, then recombined."""
    a = np.asarray(a, np.uint64)
    out = np.zeros(x.shape[:-1] + (a.shape[1],), np.uint64)
    for j in range(4):
        limb = (x >> np.uint64(16 * j)) & np.uint64(0xFFFF)
        out = add(out, mul(reduce(limb @ a), const(1 << (16 * j))))
    return out
