"""Experiment configs: TOML validated with pydantic.

A config names instance families (generated edge and polyomino sweeps,
built-in names, file globs), solvers with option grids, repeats, a seed and
per-cell limits.  ``load_config`` turns every problem into one ``InputError``
naming the file, the field and what is wrong, before anything runs.
"""

from __future__ import annotations

import itertools
import tomllib
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from puzzles import solvers
from puzzles.formats import InputError, _loc, read_text
from puzzles.tilability import REGIONS


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Range(_M):
    start: int
    stop: int  # inclusive
    step: int = Field(1, ge=1)

    def values(self) -> list[int]:
        return list(range(self.start, self.stop + 1, self.step))


IntList = Union[list[Annotated[int, Field(ge=1)]], Range, Annotated[int, Field(ge=1)]]


def _ints(v) -> list[int]:
    if isinstance(v, Range):
        return v.values()
    if isinstance(v, int):
        return [v]
    return list(v)


class EdgeFamily(_M):
    kind: Literal["edge"]
    name: str
    rows: IntList
    cols: IntList
    frame_colors: IntList
    inner_colors: IntList
    instances: int = Field(1, ge=1)

    @model_validator(mode="after")
    def _nonempty(self):
        for f in ("rows", "cols", "frame_colors", "inner_colors"):
            if not _ints(getattr(self, f)):
                raise ValueError(f"{f}: empty list")
        if min(_ints(self.rows)) < 2 or min(_ints(self.cols)) < 2:
            raise ValueError("rows and cols must be at least 2")
        return self

    def points(self):
        for r, c, f, i in itertools.product(*(_ints(getattr(self, k)) for k in ("rows", "cols", "frame_colors", "inner_colors"))):
            yield {"rows": r, "cols": c, "frame_colors": f, "inner_colors": i}


class PolyformFamily(_M):
    kind: Literal["polyform"]
    name: str
    rows: IntList
    cols: IntList
    size: IntList
    instances: int = Field(1, ge=1)

    def points(self):
        for r, c, k in itertools.product(_ints(self.rows), _ints(self.cols), _ints(self.size)):
            if (r * c) % k == 0:
                yield {"rows": r, "cols": c, "size": k}


class BuiltinFamily(_M):
    kind: Literal["builtin"]
    name: str
    names: list[str] = Field(min_length=1)

    @field_validator("names")
    @classmethod
    def _known(cls, v):
        from puzzles import catalog

        for n in v:
            if not catalog.is_builtin(n):
                raise ValueError(f"unknown built-in puzzle {n!r}")
        return v


class FilesFamily(_M):
    kind: Literal["files"]
    name: str
    glob: str


class ExcessFamily(_M):
    """Excess-piece states of a polyform puzzle, built-in or a file (the tilability data, seed 000)."""

    kind: Literal["excess"]
    name: str
    puzzle: str
    region_size: int = Field(ge=1)
    excess: int = Field(ge=1)
    samples: int = Field(ge=1)
    # what a partial tiling leaves, what its first pieces cover, or that with other pieces (puzzles.tilability)
    regions: Literal[REGIONS] = "last"

    @field_validator("puzzle")
    @classmethod
    def _polyform(cls, v):
        from puzzles import catalog

        try:
            p = catalog.load(v)
        except Exception:  # noqa: BLE001 - reported as this field's error
            raise ValueError(f"{v!r} is neither a built-in puzzle nor a readable puzzle file") from None
        if p.kind != "polyform":
            raise ValueError(f"{v!r} is not a polyform puzzle")
        return v


Family = Annotated[Union[EdgeFamily, PolyformFamily, BuiltinFamily, FilesFamily, ExcessFamily],
                   Field(discriminator="kind")]
Scalar = Union[bool, int, float, str]


class SolverSpec(_M):
    name: str
    mode: Literal["first", "count", "all", "best"] = "first"
    options: dict[str, Union[Scalar, list[Scalar]]] = {}
    label: str | None = None
    split_depth: int = Field(0, ge=0)  # count mode, backtrack: one cell per sub-problem at this depth

    @model_validator(mode="after")
    def _check(self):
        cls = solvers.solver_class(self.name)  # ValueError when unknown
        if self.mode not in cls.MODES:
            raise ValueError(f"solver {self.name} has no mode {self.mode!r}")
        if self.split_depth and (self.name != "backtrack" or self.mode != "count"):
            raise ValueError("split_depth: only for solver backtrack in mode count")
        for k, v in self.options.items():
            if isinstance(v, list) and not v:
                raise ValueError(f"options.{k}: empty grid")
        for combo in self.expand():
            cls(combo)  # unknown options and bad values raise here
        return self

    def expand(self) -> list[dict[str, Any]]:
        """The option grid as one dict per solver configuration."""
        keys = sorted(self.options)
        grids = [v if isinstance(v, list) else [v] for v in (self.options[k] for k in keys)]
        return [dict(zip(keys, combo)) for combo in itertools.product(*grids)]


class Config(_M):
    name: str
    seed: int = 0
    repeats: int = Field(1, ge=1)
    time_limit: float = Field(60.0, gt=0)
    memory_mb: int = Field(4096, ge=64)
    families: list[Family] = Field(min_length=1)
    solvers: list[SolverSpec] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self):
        names = [f.name for f in self.families]
        if len(set(names)) != len(names):
            raise ValueError("families: two families share a name")
        return self


def load_config(path: str) -> Config:
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(path, None, f"invalid TOML ({e})") from None
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        return _raise(path, _loc(err), msg)


def _raise(path, field, msg):
    raise InputError(path, field, msg)
