"""Excess-piece states of a polyform puzzle (the tilability data of [Selby2001]), sampled in a pool."""

from __future__ import annotations

import hashlib
import json
import os
import random
from typing import Any, ClassVar, Literal

from pydantic import Field, field_validator

from puzzles import catalog
from puzzles.errors import InputError
from puzzles.estimates.tilability_design import REGIONS
from puzzles.files.formats import puzzle_hash

from .base import _NAME, FAIL_FIRST, OnSample, Pairs, _Family, derived_seed
from .generated import _polyform_puzzle


class ExcessFamily(_Family):
    """Excess-piece states of a polyform puzzle, built-in or a file (the tilability data of [Selby2001])."""

    kind: Literal["excess"] = Field(description="`excess`")
    name: str = Field(description=_NAME)
    puzzle: str = Field(description="a polyform puzzle, built-in or a file")
    region_size: int = Field(ge=1, description="the region of a state, in pieces' area")
    excess: int = Field(ge=1, description="pieces on offer beyond those the region needs")
    samples: int = Field(ge=1, description="states to draw (raising it later adds only the new ones)")
    regions: Literal[REGIONS] = Field(  # type: ignore[valid-type]  # the values of the one tuple REGIONS
        "last",
        description="what a partial tiling leaves (`last`), what its first "
        "pieces cover (`first`), or that with other pieces (`apart`)",
    )
    sample_jobs: int = Field(0, ge=0, description="processes drawing the samples (0: one per core)")

    detail: ClassVar[str | None] = "puzzles.estimates.tilability:piece_uses"

    @field_validator("puzzle")
    @classmethod
    def _polyform(cls, v):
        _polyform_puzzle(v)
        return v

    def instance_id(self, puzzle, params: dict) -> str:
        """Samples are draws with replacement: a repeated state is a new observation."""
        return hashlib.sha256(f"{puzzle_hash(puzzle)}/{self.name}/{params['sample']}".encode()).hexdigest()

    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        """The sampled states; ``on_sample(family, done, total)`` after each (sampling takes seconds a
        state on Eternity's board: a partial tiling each, so the samples are drawn in a process
        pool over ``sample_jobs`` cores); ``known``: states a store already holds
        (``Store.sampled_instances``), returned as ``(None, stored instance)`` instead of sampled
        again.  A sample's seed alone decides it, so the pool draws what one process would."""
        from concurrent.futures import ProcessPoolExecutor

        design = {
            "base": self.puzzle,
            "region_size": self.region_size,
            "excess": self.excess,
            **({"regions": self.regions} if self.regions != "last" else {}),
        }
        seeds = [
            derived_seed(seed, self.name, self.puzzle, self.region_size, self.excess, k) for k in range(self.samples)
        ]
        got: dict[int, Any] = {}
        todo = []
        for k, s in enumerate(seeds):
            g = (known or {}).get((self.name, k, s))
            if (
                g is not None
                and all(g["params"].get(key) == v for key, v in design.items())
                and g["params"].get("regions", "last") == self.regions
            ):
                got[k] = (None, g)  # stored by an earlier run of this config: not sampled again
            else:
                todo.append(k)
        done = len(got)
        if on_sample is not None and done:
            on_sample(self.name, done, self.samples)
        jobs = min(len(todo), self.sample_jobs or os.cpu_count() or 1)
        args = [(self.puzzle, self.region_size, self.excess, self.regions, seeds[k]) for k in todo]
        pool = ProcessPoolExecutor(jobs) if jobs > 1 else None
        try:
            results = pool.map(_sample, args) if pool else map(_sample, args)
            for k, r in zip(todo, results):
                got[k] = r
                done += 1
                if on_sample is not None:
                    on_sample(self.name, done, self.samples)
                if self.samples >= FAIL_FIRST and all(got.get(j) == (None, {}) for j in range(FAIL_FIRST)):
                    raise InputError(
                        self.puzzle,
                        "region_size",
                        f"the first {FAIL_FIRST} samples found no "
                        f"partial tiling that leaves {self.region_size} pieces' area (a puzzle "
                        'with few solutions): try regions = "first" (--regions first) or a '
                        "larger region size",
                    )
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
        out: Pairs = []
        for k in range(self.samples):
            state, chosen = got[k]
            if state is None and "params" in chosen:
                out.append((None, chosen))
            elif state is not None:  # a sample with no region of that size is left out
                state.name = f"{self.puzzle}-k{self.region_size}+{self.excess}-{k}"
                region = hashlib.sha256(json.dumps(sorted(map(list, state.region))).encode()).hexdigest()[:16]
                out.append((state, {**design, "region": region, "sample": k, "seed": seeds[k], "pieces": chosen}))
        return out


_SAMPLER: dict = {}  # per process: the base puzzle and its XCC, built once for all the samples it draws


def _sample(args) -> tuple[Any, Any]:
    """One excess-piece state from its seed: (state, chosen piece indices), or (None, {}) when no
    partial tiling of that size was found."""
    from baseline.xcc.backtrack import random_prefix
    from puzzles.estimates.tilability import sample_state

    puzzle, k, excess, regions, s = args
    if _SAMPLER.get("name") != puzzle:
        _SAMPLER.clear()
        _SAMPLER.update(name=puzzle, base=catalog.load(puzzle), xcc=None)
    base = _SAMPLER["base"]
    if _SAMPLER["xcc"] is None and regions == "last":
        _SAMPLER["xcc"] = base.to_xcc()
    try:
        return sample_state(base, k, excess, random.Random(s), _SAMPLER["xcc"], random_prefix, regions)
    except RuntimeError:
        return None, {}
