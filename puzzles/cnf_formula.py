"""A CNF formula as a puzzle: a published SAT instance run by the same runner, solvers and verifier.

The field's instances are often CNF files (the SAT Competition 2009's edge-matching instances among them); set
beside the workbench's own encodings of the same board, they are a row of the same table.  A ``CnfFormula``
is taken by the SAT solvers (``sat``, ``external``) as its own encoding; a solution is the model's true
variables (every other one false), and the verifier checks it against every clause.

Files are DIMACS (``p cnf V C``, clauses ending in 0, ``c`` comments), plain or compressed (``.gz``, ``.bz2``,
``.xz``, ``.lzma``), read whole.  In a results store the instance is the file's path and digest: a file changed
since is refused, never silently re-read.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import lzma
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from .errors import InputError
from .puzzle import CNF

OPENERS: dict[str, Any] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open, ".lzma": lzma.open}
MAX_CNF_BYTES = 2 << 30  # a file larger than 2 GiB once uncompressed is refused


def looks_cnf(path: str | os.PathLike) -> bool:
    """Whether ``path`` is named as a DIMACS file (``.cnf``, perhaps compressed)."""
    name = Path(path).name.lower()
    for ext in OPENERS:
        name = name.removesuffix(ext)
    return name.endswith(".cnf") or name.endswith(".dimacs")


@dataclass
class CnfFormula:
    """A CNF formula: its variables, its clauses, the file it came from and that file's digest."""

    n_vars: int
    clauses: list[list[int]]
    name: str = ""
    file: str = ""
    sha256: str = ""
    stated: tuple[int, int] = (0, 0)  # the header's variables and clauses, as the file states them
    extra: dict = field(default_factory=dict)

    kind: ClassVar[str] = "cnf"
    features: ClassVar[frozenset[str]] = frozenset({CNF})
    native_solver: ClassVar[str] = "sat"
    grid_name: ClassVar[str | None] = None

    def to_xcc(self):
        """A formula is no exact cover: the solvers of other families decline it."""
        raise TypeError("a CNF formula has no exact cover form")

    def canonical(self) -> dict[str, Any]:
        """The formula's identity: its digest (of the file's uncompressed text)."""
        return {"kind": "cnf", "sha256": self.sha256}

    def summary(self) -> dict[str, Any]:
        """Sizes for `eternity info`."""
        return {
            "kind": "cnf",
            "name": self.name,
            "file": self.file,
            "variables": self.n_vars,
            "clauses": len(self.clauses),
            "literals": sum(len(c) for c in self.clauses),
            "header": f"p cnf {self.stated[0]} {self.stated[1]}",
        }

    def satisfied(self, true_vars) -> list[int]:
        """The (1-based) clauses the assignment (these variables true, the others false) leaves unsatisfied."""
        true = set(int(v) for v in true_vars)
        return [k + 1 for k, c in enumerate(self.clauses) if not any((x > 0) == (abs(x) in true) for x in c)]


def _text(path: Path) -> str:
    opener = OPENERS.get(path.suffix.lower())
    try:
        if opener is None:
            data = path.read_bytes()
        else:
            with opener(path, "rb") as f:
                data = f.read(MAX_CNF_BYTES + 1)
    except (OSError, EOFError, lzma.LZMAError) as e:
        raise InputError(str(path), None, f"cannot read: {e}") from None
    if len(data) > MAX_CNF_BYTES:
        raise InputError(str(path), None, "larger than 2 GiB uncompressed")
    return data.decode("ascii", errors="replace")


def read_cnf(path: str | os.PathLike, expect_sha256: str | None = None) -> CnfFormula:
    """The formula of a DIMACS file; ``InputError`` naming the line for a malformed one, and for a file whose
    digest is not ``expect_sha256`` (an instance of a results store whose file changed)."""
    path = Path(path)
    text = _text(path)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if expect_sha256 and digest != expect_sha256:
        raise InputError(str(path), None, "the file changed since the instance was stored (its digest differs)")
    header: tuple[int, int] | None = None
    clauses: list[list[int]] = []
    cur: list[int] = []
    top = 0
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if not s or s[0] == "c":
            continue
        if s[0] == "%":  # the SATLIB files' end mark
            break
        if s[0] == "p":
            w = s.split()
            if header is not None or len(w) != 4 or w[1] != "cnf" or not (w[2].isdigit() and w[3].isdigit()):
                raise InputError(str(path), f"line {ln}", f"expected one header 'p cnf VARS CLAUSES', got {s[:40]!r}")
            header = (int(w[2]), int(w[3]))
            continue
        if header is None:
            raise InputError(str(path), f"line {ln}", "a clause before the 'p cnf' header")
        try:
            nums = [int(x) for x in s.split()]
        except ValueError:
            raise InputError(str(path), f"line {ln}", f"expected integers, got {s[:40]!r}") from None
        for x in nums:
            if x == 0:
                clauses.append(cur)
                cur = []
            else:
                cur.append(x)
                top = max(top, abs(x))
    if header is None:
        raise InputError(str(path), None, "no 'p cnf' header: not a DIMACS file")
    if cur:
        clauses.append(cur)  # a last clause without its 0
    if top > header[0]:
        raise InputError(str(path), "p cnf", f"a literal of variable {top} past the {header[0]} the header states")
    return CnfFormula(top, clauses, path.name, str(path.resolve()), digest, header)
