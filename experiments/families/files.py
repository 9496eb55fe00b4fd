"""Families read from files or the catalogue: built-in puzzles, puzzle files, CNF files."""

from __future__ import annotations

import glob
import os
from typing import Literal

from pydantic import Field, field_validator
from typing_extensions import override

from puzzles import catalog
from puzzles.files.formats import read_puzzle
from puzzles.puzzle import EDGES

from .base import _NAME, OnSample, Pairs, _Family


class BuiltinFamily(_Family):
    """Built-in puzzles by name."""

    kind: Literal["builtin"] = Field(description="`builtin`")
    name: str = Field(description=_NAME)
    names: list[str] = Field(min_length=1, description="built-in puzzle names (`eternity list`)")

    @field_validator("names")
    @classmethod
    def _known(cls, v):
        for n in v:
            if not catalog.is_builtin(n):
                raise ValueError(f"unknown built-in puzzle {n!r}")
        return v

    @override
    def solvable(self, params: dict) -> bool | None:
        return True if catalog.known_solution(params["builtin"]) is not None else None

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        return [(catalog.load_builtin(n), {"builtin": n}) for n in self.names]


class FilesFamily(_Family):
    """Puzzle files matching a glob pattern."""

    kind: Literal["files"] = Field(description="`files`")
    name: str = Field(description=_NAME)
    glob: str = Field(description="a glob pattern of puzzle files (JSON, Heule board files or piece lists)")
    scramble: int | None = Field(
        None,
        ge=0,
        description="edge boards: shuffle and turn the pieces with this seed (published boards list them "
        "in solved order)",
    )

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        out: Pairs = []
        for f in sorted(glob.glob(self.glob)):
            p = read_puzzle(f)
            if self.scramble is not None and EDGES in p.features:
                from puzzles.make.scramble import scramble

                out.append((scramble(p, self.scramble), {"file": f, "scramble": self.scramble}))
            else:
                out.append((p, {"file": f}))
        return out


class CnfFamily(_Family):
    """CNF files matching a glob pattern (DIMACS, plain or compressed): published SAT instances, run by the SAT
    solvers as given, beside the workbench's own encodings of the same boards."""

    kind: Literal["cnf"] = Field(description="`cnf`")
    name: str = Field(description=_NAME)
    glob: str = Field(description="a glob pattern of DIMACS files (.cnf, .cnf.gz, .cnf.bz2, .cnf.xz)")

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        from puzzles.kinds.cnf_formula import read_cnf

        files = sorted(glob.glob(self.glob))
        out = [(read_cnf(f), {"file": f}) for f in files]
        names = [p.name for p, _ in out]
        if len(set(names)) < len(names):  # two folders, one file name: each named by its path, so two rows
            top = os.path.commonpath([os.path.abspath(f) for f in files])
            for (p, _), f in zip(out, files, strict=True):
                p.name = os.path.relpath(os.path.abspath(f), top)
        return out
