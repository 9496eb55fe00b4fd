"""Experiment configs: TOML validated with pydantic.

A config names instance families (generated edge and polyomino sweeps,
built-in names, file globs), solvers with option grids, repeats, a seed and
per-cell limits.  ``load_config`` turns every problem into one ``InputError``
naming the file, the field and what is wrong, before anything runs.
"""

from __future__ import annotations

import itertools
import tomllib
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

import solving
from puzzles.files.formats import InputError, _loc, problem_words, read_text
from solving import Mode

from .families import BuiltinFamily, CnfFamily, EdgeFamily, ExcessFamily, FilesFamily, PiecesFamily, PolyformFamily
from .plugins import PluginFamily

# every family kind a config may name, told apart by its ``kind``
Family = Annotated[
    EdgeFamily | PolyformFamily | PiecesFamily | BuiltinFamily | FilesFamily | CnfFamily | ExcessFamily | PluginFamily,
    Field(discriminator="kind"),
]

MEMORY_MB = 4096  # a cell's default memory limit (RLIMIT_DATA)
MIN_MEMORY_MB = 512  # below this a cell's interpreter, numpy and numba do not load
MAX_TIME_LIMIT = 7 * 86400.0


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


Scalar = bool | int | float | str


def config_label(solver: str, options: dict, mode: str) -> str:
    """A solver configuration's name in the tables: ``solver[k=v,...]/mode``."""
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"{solver}[{opts}]/{mode}" if opts else f"{solver}/{mode}"


class SolverSpec(_M):
    """One ``[[solvers]]`` table: a registered solver, a mode and an option grid."""

    name: str = Field(description="a registered solver (`eternity solvers`)")
    mode: Mode = Field(
        "first", description="what the cells ask for (sample: one solution drawn uniformly at random a cell)"
    )
    options: dict[str, Scalar | list[Scalar]] = Field(
        {}, description="solver options; a list is a grid: one configuration per combination"
    )
    label: str | None = Field(None, description="the row's name in the tables (default: solver[k=v,...]/mode)")
    encoding: list[str] | None = Field(
        None,
        min_length=1,
        description="SAT solvers: the named encodings the row sweeps (`eternity encodings PUZZLE` lists them); "
        "the same as options.encoding = [...]",
    )
    families: list[str] | None = Field(
        None, min_length=1, description="the families the row runs on, by name (default: every family)"
    )
    split_depth: int = Field(
        0,
        ge=0,
        description="mode count, a solver that splits: one cell per sub-problem at this depth, summed into one row",
    )
    cores: int = Field(
        1,
        ge=1,
        le=1024,
        description="cores a cell of this solver occupies (a portfolio, jobs=N): "
        "the local executor runs no more cells at once than the cores allow",
    )

    @model_validator(mode="after")
    def _check(self):
        cls = solving.solver_class(self.name)  # ValueError when unknown
        if self.encoding is not None:
            if "encoding" in self.options:
                raise ValueError("encoding: give it once, as encoding or as options.encoding")
            from encoders.catalogue import known

            for name in self.encoding if self.name in ("sat", "external") else []:  # others: their option's values
                if not known(name):
                    raise ValueError(f"encoding: unknown encoding {name!r} (`eternity encodings PUZZLE` lists them)")
            self.options = {**self.options, "encoding": list(self.encoding)}
        if self.mode not in cls.MODES:
            raise ValueError(f"solver {self.name} has no mode {self.mode!r}")
        if self.split_depth and (not cls.CAN_SPLIT or self.mode != "count"):
            raise ValueError(
                "split_depth: only in mode count, for solvers that split ("
                + ", ".join(n for n in solving.registry.own() if solving.solver_class(n).CAN_SPLIT)
                + ")"
            )
        for k, v in self.options.items():
            if isinstance(v, list) and not v:
                raise ValueError(f"options.{k}: empty grid")
        for combo in self.expand():
            # unknown options, bad values, and options that do not apply to the row's mode raise here
            cls(combo).check_options(self.mode)
        return self

    def expand(self) -> list[dict[str, Any]]:
        """The option grid as one dict per solver configuration."""
        keys, values = zip(*sorted(self.options.items())) if self.options else ((), ())
        grids = [v if isinstance(v, list) else [v] for v in values]
        return [dict(zip(keys, combo)) for combo in itertools.product(*grids)]


class Config(_M):
    """An experiment config (a TOML file): instance families, solver configurations, limits."""

    name: str = Field(description="the experiment's name in the store")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="instances are generated reproducibly from it")
    repeats: int = Field(1, ge=1, le=1000, description="cells per (instance, solver configuration)")
    time_limit: float = Field(
        60.0,
        gt=0,
        le=MAX_TIME_LIMIT,
        allow_inf_nan=False,
        description="seconds a cell (finite, a week at most); the cell is killed at 1.5x + 5 s",
    )
    limit_clock: Literal["wall", "cpu"] = Field(
        "wall",
        description="the clock the time limit is on: wall time, or the CPU time of the cell and its child "
        "processes (as benchexec and runsolver measure it; a cell may then take 3 times the limit in "
        "wall time, and an answer past the CPU limit is a limit)",
    )
    memory_mb: int = Field(
        MEMORY_MB,
        ge=MIN_MEMORY_MB,
        le=1_048_576,
        description="memory limit a cell (RLIMIT_DATA), in MB (a cell needs its interpreter and numba)",
    )
    families: list[Family] = Field(min_length=1, description="`[[families]]` tables: the instances")
    solvers: list[SolverSpec] = Field(min_length=1, description="`[[solvers]]` tables: the solver configurations")

    @model_validator(mode="after")
    def _unique(self):
        names = [f.name for f in self.families]
        if len(set(names)) != len(names):
            raise ValueError("families: two families share a name")
        for spec in self.solvers:
            for name in spec.families or []:
                if name not in names:
                    raise ValueError(f"solvers: families names {name!r}, which no [[families]] table is")
        seen: dict[str, set[str]] = {}
        for spec in self.solvers:  # a table row per label: two configurations under one would be mixed
            combos = spec.expand()
            if spec.label is not None and len(combos) > 1:
                raise ValueError(
                    f"solvers: label {spec.label!r} names {len(combos)} configurations (its options "
                    "are a grid); leave the label out or give each configuration its own entry"
                )
            for combo in combos:
                label = spec.label or config_label(spec.name, combo, spec.mode)
                mine = set(spec.families or names)
                if mine & seen.get(label, set()):  # the same configuration twice on a family
                    raise ValueError(f"solvers: two entries share the configuration {label!r}")
                seen[label] = seen.get(label, set()) | mine
        return self


def shipped() -> dict[str, Path]:
    """The configs that ship with the package (``experiments/configs/*.toml``), by name: ``eternity run quick``
    runs one from any folder, in a checkout or an installed copy alike (``eternity configs`` lists them)."""
    here = Path(__file__).resolve().parent / "configs"
    return {p.stem: p for p in sorted(here.glob("*.toml"))}


def resolve(path: str) -> str:
    """A config's file: ``path`` itself when it exists; else a shipped config named by it (``quick``,
    ``quick.toml``, ``experiments/configs/quick.toml`` as the README writes it, or the older
    ``experiments/configs/quick.toml``); else ``path``, which the reader then refuses in one line that lists the shipped
    names."""
    p = Path(path)
    if p.exists():
        return path
    name = p.stem if p.suffix in ("", ".toml") and p.parent.name in ("", "experiments", "configs") else None
    found = shipped().get(name) if name else None
    return str(found) if found else path


def load_config(path: str) -> Config:
    """A config from a TOML file, or from a shipped config named by ``path`` (``resolve``), validated; every
    problem is one ``InputError`` naming the file, the field and what is wrong."""
    path = resolve(path)
    if not Path(path).exists():
        raise InputError(path, None, f"no such file, nor a shipped config of that name ({', '.join(shipped())})")
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(path, None, f"invalid TOML ({e})") from None
    except RecursionError:
        raise InputError(path, None, "invalid TOML (nested too deeply)") from None
    return config_from_dict(data, path)


def config_from_dict(data: dict, source: str = "<config>") -> Config:
    """A config from its TOML's contents as a dict (a notebook's), checked as a file's is; errors name ``source``."""
    try:
        return Config.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        return _raise(source, _loc(err), problem_words(err))


def _raise(path, field, msg):
    raise InputError(path, field, msg)
