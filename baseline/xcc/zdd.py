"""The diagram of all solutions: a zero-suppressed decision diagram (ZDD) in flat arrays.

Node ``n`` (from 2) is labelled with an option ``lab[n]`` and has two
children: ``zlo[n]``, the solutions without that option, and ``zhi[n]``, the
rest of the solutions with it.  Node 0 is the empty family (no solution),
node 1 the family holding the empty set (a complete cover).  Children come
before their parents (the memoised search creates them bottom-up), so one
pass in index order counts every node's solutions: count(n) = count(lo) +
count(hi).  A path from the root to node 1 that collects the labels where it
takes ``hi`` is one solution, and every solution is exactly one such path,
because the search tree the diagram folds partitions the solutions.

From the counts follow enumeration (``solutions``) and uniform sampling
(``sample``): walking from the root, the ``hi`` branch is taken with
probability count(hi) / count(n), so each of the N solutions is drawn with
probability 1/N.  Counts that fit in 62 bits are kept in int64 arrays and
the walks run in numba; larger ones are exact Python integers.

A diagram is saved as a versioned ``.npz`` with the fingerprint of the XCC it
answers, and checked on loading (a diagram of another problem, or a damaged
file, is refused in one line).
"""

from __future__ import annotations

import hashlib
import random
import zipfile
from pathlib import Path

import numpy as np
from numba import njit

from baseline.runtime.checkpoint import seal
from puzzles.errors import InputError
from puzzles.files.outputs import atomic_save

FORMAT = "eternity/zdd"
VERSION = 1


@njit(cache=True)
def _counts(zlo, zhi):
    """Solutions below each node, and whether some count passed 2^62 (then the array is not exact)."""
    n = zlo.shape[0]
    c = np.zeros(n, np.int64)
    if n > 1:
        c[1] = 1
    over = False
    for k in range(2, n):
        v = c[zlo[k]] + c[zhi[k]]
        if v > 1 << 62 or c[zlo[k]] < 0 or c[zhi[k]] < 0:
            over = True
            v = -1
        c[k] = v
    return c, over


@njit(cache=True)
def _sample(lab, zlo, zhi, counts, root, n, seed, out, lens):
    """``n`` uniform draws: the labels of each are appended to ``out``, their numbers to ``lens``."""
    np.random.seed(seed)
    m = 0
    for s in range(n):
        k = root
        size = 0
        while k > 1:
            r = np.random.randint(0, counts[k])
            if r < counts[zhi[k]]:
                out[m] = lab[k]
                m += 1
                size += 1
                k = zhi[k]
            else:
                k = zlo[k]
        lens[s] = size
    return m




def _seal(fingerprint: str, root: int, n_options: int, lab, zlo, zhi) -> str:
    """A diagram's seal: the snapshots' seal (``checkpoint.seal``) over what it is of (its XCC's fingerprint)
    and its arrays, so a diagram edited by hand is refused rather than counted."""
    return seal({"fingerprint": np.array(fingerprint), "root": np.array(int(root)),
                 "n_options": np.array(int(n_options)), "lab": lab, "zlo": zlo, "zhi": zhi})  # fmt: skip


class Diagram:
    """All solutions of one XCC as a ZDD: count, enumerate, sample, save, load."""

    def __init__(self, lab: np.ndarray, zlo: np.ndarray, zhi: np.ndarray, root: int, n_options: int):
        self.lab, self.zlo, self.zhi, self.root, self.n_options = lab, zlo, zhi, int(root), int(n_options)
        self._counts: np.ndarray | None = None
        self._big: list[int] | None = None

    def __len__(self) -> int:
        """Nodes, the two terminals included."""
        return len(self.lab)

    def _ensure_counts(self) -> None:
        if self._counts is not None or self._big is not None:
            return
        c, over = _counts(self.zlo, self.zhi)
        if not over:
            self._counts = c
            return
        big = [0, 1] + [0] * (len(self.lab) - 2)  # exact integers, one pass in index order
        lo, hi = self.zlo.tolist(), self.zhi.tolist()
        for k in range(2, len(big)):
            big[k] = big[lo[k]] + big[hi[k]]
        self._big = big

    def count(self) -> int:
        """The number of solutions (exact, any size)."""
        self._ensure_counts()
        if self._counts is not None:
            return int(self._counts[self.root]) if len(self.lab) > 1 else 0
        assert self._big is not None  # the counts overflowed int64: the exact ones were made
        return self._big[self.root]

    def solutions(self, limit: int | None = None):
        """Every solution as a list of option indices (depth first, the search's order), up to ``limit``."""
        stack: list[tuple[int, list[int]]] = [(self.root, [])]
        made = 0
        lab, lo, hi = self.lab, self.zlo, self.zhi
        while stack:
            k, path = stack.pop()
            if k == 0:
                continue
            if k == 1:
                yield path
                made += 1
                if limit is not None and made >= limit:
                    return
                continue
            stack.append((int(lo[k]), path))
            stack.append((int(hi[k]), path + [int(lab[k])]))

    def sample(self, n: int, seed: int = 0) -> list[list[int]]:
        """``n`` solutions drawn uniformly at random (with replacement)."""
        if n <= 0 or self.count() == 0:
            return []
        if self._counts is not None:
            depth = self._depth()
            out = np.zeros(n * max(depth, 1), np.int64)
            lens = np.zeros(n, np.int64)
            _sample(self.lab, self.zlo, self.zhi, self._counts, self.root, n, seed & 0xFFFFFFFF, out, lens)
            ends = np.cumsum(lens)
            return [out[e - s : e].tolist() for s, e in zip(lens.tolist(), ends.tolist())]
        rng = random.Random(seed)
        big = self._big
        assert big is not None
        draws = []
        for _ in range(n):
            k, path = self.root, []
            while k > 1:
                if rng.randrange(big[k]) < big[int(self.zhi[k])]:
                    path.append(int(self.lab[k]))
                    k = int(self.zhi[k])
                else:
                    k = int(self.zlo[k])
            draws.append(path)
        return draws

    def _depth(self) -> int:
        """The most options on a root-to-1 path (the length of the longest solution)."""
        d = _depths(self.zlo, self.zhi)
        return int(d[self.root]) if len(d) > self.root else 0

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path, fingerprint: str) -> None:
        """Write the diagram (versioned, with the fingerprint of its XCC) whole, then rename."""

        seal = _seal(fingerprint, self.root, self.n_options, self.lab, self.zlo, self.zhi)

        def write(tmp: str) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, format=np.array(FORMAT), version=np.array(VERSION),
                                    fingerprint=np.array(fingerprint), root=np.array(self.root),
                                    n_options=np.array(self.n_options), lab=self.lab, zlo=self.zlo, zhi=self.zhi,
                                    seal=np.array(seal))

        atomic_save(path, write)

    @classmethod
    def load(cls, path: str | Path, fingerprint: str) -> Diagram:
        """Read a saved diagram, refusing (``InputError``, naming the file) a damaged one or one of
        another problem."""
        where = f"{path}"
        try:
            with np.load(path, allow_pickle=False) as z:
                data = {k: z[k] for k in ("format", "version", "fingerprint", "root", "n_options", "lab", "zlo", "zhi")}
                seal = z["seal"] if "seal" in z.files else None
        except FileNotFoundError:
            raise InputError(where, None, "no such file") from None
        except KeyError as e:
            raise InputError(where, e.args[0], "missing: not a diagram file") from None
        except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
            raise InputError(where, None, f"not a diagram file, or a damaged one ({type(e).__name__})") from None
        if str(data["format"]) != FORMAT:
            raise InputError(where, "format", f"{str(data['format'])!r} is not {FORMAT!r}")
        if int(data["version"]) != VERSION:
            raise InputError(where, "version", f"{int(data['version'])} (this program reads version {VERSION})")
        if str(data["fingerprint"]) != fingerprint:
            raise InputError(where, "fingerprint", "the diagram is of another problem")
        lab, zlo, zhi = data["lab"], data["zlo"], data["zhi"]
        n, root, n_opt = len(lab), int(data["root"]), int(data["n_options"])
        if seal is None:
            raise InputError(where, "seal", "missing: written before diagrams were sealed (build it again)")
        if str(seal) != _seal(fingerprint, root, n_opt, lab, zlo, zhi):
            raise InputError(
                where, "seal", "does not match the diagram: edited or damaged, so its count cannot be trusted"
            )
        idx = np.arange(n)
        ok = (
            lab.ndim == zlo.ndim == zhi.ndim == 1
            and len(zlo) == n == len(zhi)
            and n >= 2
            and 0 <= root < n
            and np.all(zlo[2:] < idx[2:])
            and np.all(zhi[2:] < idx[2:])
            and np.all(zlo[2:] >= 0)
            and np.all(zhi[2:] >= 0)
            and np.all((lab[2:] >= 0) & (lab[2:] < n_opt))
        )
        if not ok:
            raise InputError(where, "nodes", "the arrays do not form a diagram (children before parents)")
        return cls(lab.astype(np.int32), zlo.astype(np.int64), zhi.astype(np.int64), root, n_opt)


@njit(cache=True)
def _depths(zlo, zhi):
    n = zlo.shape[0]
    d = np.zeros(n, np.int64)
    for k in range(2, n):
        a = d[zlo[k]]
        b = d[zhi[k]] + 1
        d[k] = max(b, a)
    return d


def fingerprint(xcc) -> str:
    """What a diagram answers: the XCC's arrays (its options, in order)."""
    h = hashlib.sha256(
        np.asarray(xcc.opt_ptr, np.int64).tobytes()
        + np.asarray(xcc.opt_items, np.int64).tobytes()
        + np.asarray(xcc.opt_colors, np.int64).tobytes()
        + f"{xcc.n_primary}".encode()
    )
    return h.hexdigest()[:32]
