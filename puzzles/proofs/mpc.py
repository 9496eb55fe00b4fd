"""Three-party computation "in the head" (ZKBoo's (2,3)-decomposition), vectorised over rounds.

Every wire value v of a circuit is held as three additive shares v0 + v1 + v2
= v (mod p).  Linear gates act on each share alone; a constant is added by
party 0 only.  A product z = x * y is shared as

    z_i = x_i y_i + x_(i+1) y_i + x_i y_(i+1) + R_i - R_(i+1)        (indices mod 3)

with R_i drawn from party i's random tape, so party i's output needs its own
shares and those of party i+1 only.  A verifier that sees the views of two
consecutive parties e and e+1 can therefore recompute party e's view from its
seed and check it, while the two views together are uniformly random apart
from the outputs (Giacomelli, Madsen, Orlandi, ZKBoo, USENIX Security 2016).

The engines hold an array ``(slots, rounds, k)`` per wire: ``ProverEngine``
all three parties, ``VerifierEngine`` parties e and e+1 of each round (e
differs by round).  A circuit is written once against either engine
(``circuits.py``).  Random tapes and input shares come from SHAKE-128 of a
16-byte seed per party and round (hashlib: no hand-made primitive).
"""

from __future__ import annotations

import hashlib

import numpy as np

from puzzles.proofs import field as F

SEED_BYTES = 16


def tape(seed: bytes, n: int) -> np.ndarray:
    """n field elements from a party's seed (SHAKE-128 as the generator)."""
    return F.from_bytes(hashlib.shake_128(b"eternity/zk/tape" + seed).digest(8 * n)) if n else np.zeros(0, np.uint64)


def _next(a: np.ndarray) -> np.ndarray:
    """Each slot's next party's shares: for three parties, party i+1's (mod 3)."""
    return np.roll(a, -1, axis=0)


class _Engine:
    n_in: int
    tapes: np.ndarray  # (slots, rounds, n_in + n_mult)
    party0: np.ndarray  # (slots, rounds) bool: the slot is party 0 (it adds constants)

    def __init__(self) -> None:
        self.cursor = 0
        self.views: list[np.ndarray] = []
        self.outputs: list[np.ndarray] = []

    def add_const(self, x: np.ndarray, c: int) -> np.ndarray:
        k = F.const(c)
        mask = self.party0.reshape(self.party0.shape + (1,) * (x.ndim - 2))
        return np.where(mask, F.add(x, k), x)

    def _rand(self, k: int) -> np.ndarray:
        a = self.n_in + self.cursor
        self.cursor += k
        return self.tapes[:, :, a : a + k]

    def output(self, x: np.ndarray) -> None:
        """A wire whose value must be 0 (every constraint is written as an expression = 0)."""
        self.outputs.append(x.reshape(x.shape[0], x.shape[1], -1))

    def view_bytes(self) -> np.ndarray:
        """Each slot's and round's multiplication outputs, in gate order: (slots, rounds, n_mult)."""
        return np.concatenate(self.views, axis=2) if self.views else np.zeros(self.tapes.shape[:2] + (0,), np.uint64)

    def output_shares(self) -> np.ndarray:
        return (
            np.concatenate(self.outputs, axis=2) if self.outputs else np.zeros(self.tapes.shape[:2] + (0,), np.uint64)
        )


class ProverEngine(_Engine):
    """All three parties, for the prover."""

    def __init__(self, seeds: list[list[bytes]], n_in: int, n_mult: int):
        super().__init__()
        self.n_in = n_in
        self.tapes = np.stack([np.stack([tape(s, n_in + n_mult) for s in per_round]) for per_round in seeds])
        self.party0 = np.array([[True] * len(seeds[0]), [False] * len(seeds[0]), [False] * len(seeds[0])])

    def share_inputs(self, witness: np.ndarray) -> np.ndarray:
        """Shares of the witness: parties 0 and 1 from their tapes, party 2 the rest (explicit)."""
        x0 = self.tapes[0, :, : self.n_in]
        x1 = self.tapes[1, :, : self.n_in]
        x2 = F.sub(F.sub(np.broadcast_to(witness, x0.shape), x0), x1)
        return np.stack([x0, x1, x2])

    def mul(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The product of two shared values, with the parties' messages recorded for the view."""
        shape = x.shape
        x = x.reshape(3, shape[1], -1)
        y = y.reshape(3, shape[1], -1)
        r = self._rand(x.shape[2])
        xn, yn = _next(x), _next(y)
        z = F.add(F.add(F.mul(x, y), F.mul(xn, y)), F.add(F.mul(x, yn), F.sub(r, _next(r))))
        self.views.append(z)
        return z.reshape(shape)


class VerifierEngine(_Engine):
    """Parties e and e+1 of each round: slot 0 recomputed, slot 1 as the proof gives it."""

    def __init__(
        self,
        challenge: np.ndarray,
        seeds: list[tuple[bytes, bytes]],
        x2: list[np.ndarray | None],
        z_next: np.ndarray,
        n_in: int,
        n_mult: int,
    ):
        super().__init__()
        self.n_in = n_in
        self.pid = np.stack([challenge, (challenge + 1) % 3])  # (2, rounds)
        self.tapes = np.stack([np.stack([tape(s[j], n_in + n_mult) for s in seeds]) for j in (0, 1)])
        self.party0 = self.pid == 0
        self.x2 = x2
        self.z_next = z_next  # (rounds, n_mult): party e+1's outputs

    def share_inputs(self) -> np.ndarray:
        """The two opened parties' shares of the inputs, from the proof."""
        x = self.tapes[:, :, : self.n_in].copy()
        for t in range(x.shape[1]):
            for j in (0, 1):
                if self.pid[j, t] == 2:
                    x[j, t] = self.x2[t]
        return x

    def mul(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """The product of two shared values as the opened parties saw it, checked against their recorded messages."""
        shape = x.shape
        x = x.reshape(2, shape[1], -1)
        y = y.reshape(2, shape[1], -1)
        k = x.shape[2]
        r = self._rand(k)
        a = self.cursor - k
        z0 = F.add(F.add(F.mul(x[0], y[0]), F.mul(x[1], y[0])), F.add(F.mul(x[0], y[1]), F.sub(r[0], r[1])))
        z = np.stack([z0, self.z_next[:, a : a + k]])
        self.views.append(z)
        return z.reshape(shape)
