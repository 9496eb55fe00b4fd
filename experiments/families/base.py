"""What every family shares: the base class, the sweep's axes and their checks, derived seeds."""

from __future__ import annotations

import hashlib
import json
from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, field_validator

from puzzles.files.formats import puzzle_hash

OnSample = Any  # callable (family, done, total) -> None, or None
Pairs = list[tuple[Any, dict]]

FAIL_FIRST = 5  # excess-piece samples that must all fail before a family is given up as unsampleable


def derived_seed(*parts) -> int:
    """A seed for one instance, from the config seed and what names the instance."""
    return int(hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:8], 16)


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


MAX_VALUE = 1000  # a size, a colour count or a piece size in a family (the readers' longest side)
AXES = ("rows", "cols", "frame_colors", "inner_colors", "size")
_AXIS = f"expected a whole number from 1 to {MAX_VALUE}, a list of them, or {{start, stop, step}}"


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _axis_shape(v: Any) -> Any:
    """An axis of a sweep checked whole before pydantic tries each form of the union: a misshapen
    value gets one complaint in the config's own terms, not one per form it is not (and ``true``
    is not taken for 1)."""
    if isinstance(v, dict) and "critical" in v:
        for k in v:
            if k != "critical":
                raise ValueError(f"unknown key {k!r} in {{critical = [offsets]}}")
        offs = v["critical"]
        if not isinstance(offs, list) or not offs or not all(_whole(x) and abs(x) <= MAX_VALUE for x in offs):
            raise ValueError(
                f"critical: expected a list of whole numbers (offsets from the critical point), not {_shown(offs)}"
            )
        return v
    if isinstance(v, dict):
        for k in v:
            if k not in ("start", "stop", "step"):
                raise ValueError(f"unknown key {k!r} in {{start, stop, step}}")
        for k in ("start", "stop"):
            if k not in v:
                raise ValueError(f"{{start, stop, step}} needs {k}")
        for k, x in v.items():
            top = None if k == "step" else MAX_VALUE
            if not _whole(x) or x < 1 or (top is not None and x > top):
                raise ValueError(
                    f"{k}: expected a whole number from 1" + (f" to {top}" if top else "") + f", not {_shown(x)}"
                )
        return v
    if not isinstance(v, list) and not (_whole(v) and 1 <= v <= MAX_VALUE):
        raise ValueError(f"{_AXIS}, not {_shown(v)}")
    for x in v if isinstance(v, list) else []:
        if not _whole(x):  # a whole number out of range: pydantic names its place in the list
            raise ValueError(f"{_AXIS}, not {_shown(x)}")
    return v


def _shown(x: Any) -> str:
    """A value as the TOML file spells it (true, "x", 1.5)."""
    return json.dumps(x, default=str)


class _Family(_M):
    """What every family has: a ``name``, its instances and how they are named."""

    detail: ClassVar[str | None] = None  # "module:function" a cell applies to its solutions

    @field_validator(*AXES, mode="before", check_fields=False)
    @classmethod
    def _axes(cls, v: Any) -> Any:
        return _axis_shape(v)

    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        raise NotImplementedError

    def instance_id(self, puzzle, params: dict) -> str:
        return puzzle_hash(puzzle)

    def solvable(self, params: dict) -> bool | None:
        """Whether an instance is known to have a solution (a planted one): the runner calls an
        "unsatisfiable" answer on it wrong.  None: not known."""
        return None

    def classify(self, params: dict) -> tuple[float | None, str] | None:
        """(expected solutions, class) of an instance when the family knows them (a polyform set's
        critical size); None: the runner asks Owen's model of the puzzle."""
        return None


MAX_INSTANCES = 10_000


class Range(_M):
    """``{start, stop, step}``: the integers from start to stop, both included."""

    start: int = Field(ge=1, le=MAX_VALUE, description="the first value")
    stop: int = Field(ge=1, le=MAX_VALUE, description="the last value (included)")
    step: int = Field(1, ge=1, description="the step")

    def values(self) -> list[int]:
        """The values of the range, ``start`` to ``stop`` by ``step``."""
        return list(range(self.start, self.stop + 1, self.step))


Bounded = Annotated[int, Field(ge=1, le=MAX_VALUE)]


class Around(_M):
    """``{critical = [offsets]}``: the values around the family's critical point (rounded to a whole
    number), each offset added; values below 1 are left out.  The point is computed, not typed."""

    critical: list[int] = Field(min_length=1, description="offsets from the critical point, rounded")

    def values(self, point: float) -> list[int]:
        """The values around ``point``: its offsets added and rounded, each at least 1."""
        return sorted({round(point) + o for o in self.critical if round(point) + o >= 1})


IntList = list[Bounded] | Range | Bounded


def _ints(v) -> list[int]:
    if isinstance(v, Around):
        raise TypeError("an axis around the critical point has no values until the point is known")
    if isinstance(v, Range):
        return v.values()
    if isinstance(v, int):
        return [v]
    return list(v)


_NAME = "the family's name in the store and the tables (unique in a config)"
_INTS = "; a number, a list, or {start, stop, step}"
