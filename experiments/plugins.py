"""Instance families from other packages: the entry-point group ``eternity.families``.

A researcher's generator of instances is one class in a small package that declares

    [project.entry-points."eternity.families"]
    my-family = "my_package.module:MyFamily"

The class has ``generate(seed, **params)``, which returns one puzzle (any of ``puzzles``' kinds) for the
config's seed and one point of the sweep, and may have ``solvable(**params)`` (True when every instance of that
point has a solution, as a planted one gives: the runner then calls an "unsatisfiable" on it wrong).  A config
sweeps it like the built-in families:

    [[families]]
    kind = "plugin"
    family = "my-family"
    name = "mine"
    params = { n = [4, 5, 6] }
    instances = 2
"""

from __future__ import annotations

import itertools
from typing import Any, Literal

from pydantic import Field, field_validator
from typing_extensions import override

from puzzles.errors import Unavailable, UsageError
from solving import plugins

from .families import _NAME, MAX_INSTANCES, OnSample, Pairs, _Family, derived_seed

GROUP = "eternity.families"


class BrokenFamily(Unavailable):
    """A registered family that cannot be used: its module does not import, or it has no ``generate``."""


def names() -> list[str]:
    """The registered family plug-ins, by name."""
    return sorted(plugins.registered(GROUP))


def load(name: str) -> Any:
    """The family registered as ``name``, an instance of its class; ``UsageError`` for a name nobody
    registered, ``BrokenFamily`` (one line) for one that fails to import or has no ``generate``."""
    return plugins.load(GROUP, name, "family plug-in", BrokenFamily, _lacks)


def _lacks(made: Any) -> str | None:
    """What a family plug-in lacks of its contract: ``generate``."""
    return None if callable(getattr(made, "generate", None)) else "it has no generate(seed, **params)"


class PluginFamily(_Family):
    """Instances from a generator another package registers (``experiments.plugins``): one puzzle a point of
    the sweep over ``params`` (a list value sweeps) and instance."""

    kind: Literal["plugin"] = Field(description="`plugin`")
    name: str = Field(description=_NAME)
    family: str = Field(description="the registered family (the entry-point group eternity.families)")
    params: dict[str, Any] = Field(
        default_factory=dict, description="the generator's parameters by name; a list sweeps its values"
    )
    instances: int = Field(1, ge=1, le=MAX_INSTANCES, description="instances a point of the sweep, each its own seed")

    @field_validator("family")
    @classmethod
    def _registered(cls, v: str) -> str:
        load(v)  # unknown or broken: one line naming it
        return v

    def points(self) -> list[dict[str, Any]]:
        """The sweep: every combination of the list-valued parameters."""
        keys = sorted(self.params)
        grids = [v if isinstance(v, list) else [v] for v in (self.params.get(k) for k in keys)]
        return [dict(zip(keys, combo)) for combo in itertools.product(*grids)]

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        gen = load(self.family)
        out = []
        for point in self.points():
            for i in range(self.instances):
                try:
                    p = gen.generate(derived_seed(seed, self.name, sorted(point.items()), i), **point)
                except TypeError as e:  # parameters the generator does not take: the config's mistake
                    raise UsageError(f"family {self.name}: {self.family} refuses the parameters {point}: {e}") from None
                except Exception as e:  # noqa: BLE001 - the plug-in's failure, named in one line
                    why = f"{type(e).__name__}: {e}".splitlines()[0]
                    raise BrokenFamily(f"family plug-in {self.family} failed on {point}: {why}") from None
                if not _a_puzzle(p):
                    raise BrokenFamily(
                        f"family plug-in {self.family} is broken: generate() returned {type(p).__name__} on {point}, "
                        "not a puzzle"
                    )
                out.append((p, {**point, "plugin": self.family, "instance": i}))
        return out

    @override
    def solvable(self, params: dict) -> bool | None:
        gen = load(self.family)
        ask = getattr(gen, "solvable", None)
        point = {k: v for k, v in params.items() if k not in ("plugin", "instance")}
        if ask is None:
            return None
        try:
            said = ask(**point)
        except Exception as e:  # noqa: BLE001 - the plug-in's failure, named in one line
            why = f"{type(e).__name__}: {e}".splitlines()[0]
            raise BrokenFamily(f"family plug-in {self.family}: solvable() failed on {point}: {why}") from None
        if said is not None and not isinstance(said, bool):
            raise BrokenFamily(f"family plug-in {self.family}: solvable() returned {said!r}, not True, False or None")
        return said


def _a_puzzle(p: Any) -> bool:
    """Whether a generator's return is a puzzle of a registered kind (the kinds of ``puzzles``)."""
    from puzzles.puzzle import FEATURES

    feats = getattr(p, "features", None)
    return isinstance(feats, frozenset) and bool(feats & set(FEATURES)) and isinstance(getattr(p, "kind", None), str)
