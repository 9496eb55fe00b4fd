"""A CNF formula as a puzzle: a published SAT instance run by the same runner, solvers and verifier.

The field's instances are often CNF files (the SAT Competition 2009's edge-matching instances among them); set
beside the workbench's own encodings of the same board, they are a row of the same table.  A ``CnfFormula``
is taken by the SAT solvers (``sat``, ``external``) as its own encoding; a solution is the model's true
variables (every other one false), and the verifier checks it against every clause.

Files are DIMACS (``p cnf V C``, clauses ending in 0, ``c`` comments) or Heule's KNF (``p knf V C``, where a line
``k K lits 0`` says at least K of its literals are true), plain or compressed (``.gz``, ``.bz2``, ``.xz``,
``.lzma``).  They are read as a stream: the uncompressed size is capped as it is read, the header's variables are
capped before anything is allocated, and a literal past the header is refused at its line.

A count is of models over the *projection*: the variables a ``c p show ... 0`` line (the Model Counting
Competition's format) or ``c ind ... 0`` lines name, or every declared variable when the file names none.  A
declared variable that no clause uses doubles the count (it is free), and is counted so, not dropped.

In a results store the instance is the file's path and digest: a file changed since is refused, never silently
re-read.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import hashlib
import lzma
import os
import re
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

from puzzles.errors import InputError, LimitReached
from puzzles.puzzle import CNF

OPENERS: dict[str, Any] = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open, ".lzma": lzma.open}
MAX_CNF_BYTES = 2 << 30  # a file larger than 2 GiB once uncompressed is refused, as it is read
MAX_VARS = 1 << 26  # a header declaring more variables (67,108,864) is refused before anything is allocated
MAX_CLAUSES = 1 << 28  # and one declaring more clauses than this
CHUNK = 1 << 20
_INT = re.compile(r"-?(0|[1-9][0-9]*)\Z")  # a DIMACS literal: no sign +, no leading zeros, no underscores


def looks_cnf(path: str | os.PathLike) -> bool:
    """Whether ``path`` is named as a DIMACS or KNF file (``.cnf``, ``.knf``, perhaps compressed)."""
    name = Path(path).name.lower()
    for ext in OPENERS:
        name = name.removesuffix(ext)
    return name.endswith((".cnf", ".dimacs", ".knf"))


@dataclass
class CnfFormula:
    """A CNF formula: its declared variables, its clauses, its cardinality lines (KNF), its projection, the file
    it came from and that file's digest."""

    n_vars: int
    clauses: list[list[int]]
    name: str = ""
    file: str = ""
    sha256: str = ""
    stated: tuple[int, int] = (0, 0)  # the header's variables and clauses, as the file states them
    extra: dict = field(default_factory=dict)
    # KNF's ``k K lits 0`` lines: (literals, K), at least K of the literals true
    atleast: list[tuple[list[int], int]] = field(default_factory=list)
    # the variables a count is over (``c p show`` / ``c ind``); None: every declared variable
    projection: tuple[int, ...] | None = None
    header_kind: str = "cnf"

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

    @property
    def used(self) -> set[int]:
        """The variables some clause or cardinality line mentions."""
        out = {abs(x) for c in self.clauses for x in c}
        out.update(abs(x) for lits, _ in self.atleast for x in lits)
        return out

    @property
    def counted(self) -> tuple[int, ...]:
        """The variables a count is over: the projection, or every declared variable."""
        return self.projection if self.projection is not None else tuple(range(1, self.n_vars + 1))

    def summary(self) -> dict[str, Any]:
        """Sizes for `eternity info`."""
        used = self.used
        out = {
            "kind": "cnf",
            "name": self.name,
            "file": self.file,
            "variables": self.n_vars,
            "variables_used": len(used),
            "clauses": len(self.clauses),
            "literals": sum(len(c) for c in self.clauses),
            "header": f"p {self.header_kind} {self.stated[0]} {self.stated[1]}",
            "count_over": "every declared variable"
            if self.projection is None
            else f"the projection ({len(self.projection)} variables)",
        }
        if self.atleast:
            out["cardinality"] = len(self.atleast)
        return out

    def satisfied(self, true_vars) -> list[int]:
        """The (1-based) clauses, then cardinality lines, the assignment (these variables true, the others false)
        leaves unsatisfied."""
        true = set(int(v) for v in true_vars)
        bad = [k + 1 for k, c in enumerate(self.clauses) if not any((x > 0) == (abs(x) in true) for x in c)]
        n = len(self.clauses)
        for k, (lits, at_least) in enumerate(self.atleast):
            if sum((x > 0) == (abs(x) in true) for x in lits) < at_least:
                bad.append(n + k + 1)
        return bad


_READ_BY: list[float | None] = [None]  # the time (``time.monotonic``) by which a file must be read: ``read_by``


@contextlib.contextmanager
def read_by(deadline: float | None):
    """Files read within this block stop at ``deadline`` (``time.monotonic``) with ``LimitReached``: a solve's
    time limit covers the reading of its formula (a small gzip file that unpacks to gigabytes)."""
    _READ_BY.append(deadline)
    try:
        yield
    finally:
        _READ_BY.pop()


def _chunks(path: Path, digest):
    """The file's uncompressed bytes in chunks, hashed as they pass; a file past the cap or a damaged stream is
    an ``InputError`` at the point it is found, with nothing more read; past ``read_by``'s deadline,
    ``LimitReached``."""
    opener = OPENERS.get(path.suffix.lower())
    total = 0
    deadline = _READ_BY[-1]
    try:
        with open(path, "rb") if opener is None else opener(path, "rb") as f:
            while True:
                data = f.read(CHUNK)
                if not data:
                    return
                if deadline is not None and time.monotonic() > deadline:
                    raise LimitReached(
                        f"{path}: the time limit passed while the file was read ({total / 2**20:,.0f} MiB "
                        "uncompressed so far)"
                    )
                total += len(data)
                if total > MAX_CNF_BYTES:
                    raise InputError(str(path), None, f"larger than {MAX_CNF_BYTES >> 30} GiB uncompressed")
                digest.update(data)
                yield data
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
        why = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise InputError(str(path), None, f"cannot read (a damaged or truncated file?): {why}") from None


def _lines(path: Path, digest):
    """The file's lines, decoded as ASCII (other bytes replaced), streamed."""
    rest = b""
    for data in _chunks(path, digest):
        data = rest + data
        cut = data.rfind(b"\n")
        if cut < 0:
            rest = data
            if len(rest) > CHUNK * 16:
                raise InputError(str(path), None, "a line longer than 16 MiB")
            continue
        rest = data[cut + 1 :]
        yield from data[:cut].decode("ascii", errors="replace").split("\n")
    if rest:
        yield rest.decode("ascii", errors="replace")


def _ints(words: list[str], path: Path, ln: int) -> list[int]:
    for w in words:
        if not _INT.match(w):
            raise InputError(str(path), f"line {ln}", f"{w[:20]!r} is not a literal (an integer such as 3 or -3)")
    return [int(w) for w in words]


def read_cnf(path: str | os.PathLike, expect_sha256: str | None = None) -> CnfFormula:
    """The formula of a DIMACS or KNF file; ``InputError`` naming the line for a malformed one, and for a file
    whose digest is not ``expect_sha256`` (an instance of a results store whose file changed)."""
    path = Path(path)
    digest = hashlib.sha256()
    header: tuple[int, int] | None = None
    kind = "cnf"
    clauses: list[list[int]] = []
    atleast: list[tuple[list[int], int]] = []
    shown: list[int] | None = None
    cur: list[int] = []
    for ln, line in enumerate(_lines(path, digest), 1):
        s = line.strip()
        if not s:
            continue
        if s[0] == "c":
            w = s.split()
            if len(w) > 2 and (w[1:3] == ["p", "show"] or w[1] == "ind"):
                vs = _ints(w[3:] if w[1] == "p" else w[2:], path, ln)
                shown = (shown or []) + [v for v in vs if v != 0]
                if any(v < 0 for v in shown):
                    raise InputError(str(path), f"line {ln}", "a projection names variables, not negative literals")
            continue
        if s[0] == "%":  # the SATLIB files' end mark
            break
        if s[0] == "p":
            w = s.split()
            if (
                header is not None
                or len(w) != 4
                or w[1] not in ("cnf", "knf")
                or not (w[2].isdigit() and w[3].isdigit())
            ):
                raise InputError(
                    str(path), f"line {ln}", f"expected one header 'p cnf VARS CLAUSES' (or p knf), got {s[:40]!r}"
                )
            header, kind = (int(w[2]), int(w[3])), w[1]
            if header[0] > MAX_VARS or header[1] > MAX_CLAUSES:
                raise InputError(
                    str(path),
                    f"line {ln}",
                    f"the header declares {header[0]:,} variables and {header[1]:,} clauses; at most {MAX_VARS:,} "
                    f"and {MAX_CLAUSES:,} are read",
                )
            continue
        if header is None:
            raise InputError(str(path), f"line {ln}", "a clause before the 'p cnf' header")
        words = s.split()
        if words[0] == "k":
            if kind != "knf" or cur:
                raise InputError(str(path), f"line {ln}", "a cardinality line 'k K lits 0' outside a 'p knf' file")
            nums = _ints(words[1:], path, ln)
            if len(nums) < 2 or nums[-1] != 0 or nums[0] < 0:
                raise InputError(str(path), f"line {ln}", "expected 'k K lits 0' (K at least 0, the line ends in 0)")
            lits = nums[1:-1]
            _in_header(lits, header[0], path, ln)
            atleast.append((lits, nums[0]))
            continue
        nums = _ints(words, path, ln)
        _in_header(nums, header[0], path, ln)
        for x in nums:
            if x == 0:
                clauses.append(cur)
                cur = []
            else:
                cur.append(x)
    if header is None:
        raise InputError(str(path), None, "no 'p cnf' header: not a DIMACS file")
    if cur:
        clauses.append(cur)  # a last clause without its 0
    sha = digest.hexdigest()
    if expect_sha256 and sha != expect_sha256:
        raise InputError(str(path), None, "the file changed since the instance was stored (its digest differs)")
    projection = None
    if shown is not None:
        _in_header(shown, header[0], path, 0)
        projection = tuple(sorted(set(shown)))
    return CnfFormula(
        header[0], clauses, path.name, str(path.resolve()), sha, header, atleast=atleast, projection=projection,
        header_kind=kind,
    )  # fmt: skip


def _in_header(lits: list[int], n_vars: int, path: Path, ln: int) -> None:
    top = max((abs(x) for x in lits), default=0)
    if top > n_vars:
        where = f"line {ln}" if ln else "c p show"
        raise InputError(str(path), where, f"a literal of variable {top:,} past the {n_vars:,} the header states")
