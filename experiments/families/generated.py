"""Families generated from the config's seed: edge boards, polyform sets, piece sets."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any, Literal

from pydantic import Field, field_validator, model_validator
from typing_extensions import override

from puzzles import catalog
from puzzles.errors import InputError
from puzzles.make import generate
from puzzles.ranges import MAX_SIDE

from .base import (
    _INTS,
    _NAME,
    MAX_INSTANCES,
    Around,
    Bounded,
    IntList,
    OnSample,
    Pairs,
    _axis_shape,
    _Family,
    _ints,
    derived_seed,
)


class EdgeFamily(_Family):
    """Generated edge-matching boards with a planted solution, one sweep over sizes and colour counts."""

    kind: Literal["edge"] = Field(description="`edge`")
    name: str = Field(description=_NAME)
    rows: IntList = Field(description="board rows" + _INTS)
    cols: IntList = Field(description="board columns" + _INTS)
    frame_colors: IntList = Field(description="colours of the frame joins" + _INTS)
    inner_colors: IntList | Around = Field(
        description="colours of the inner joins" + _INTS + ", or {critical = [offsets]}: around Owen's "
        "critical point of each size (`eternity estimate --critical RxC:F`), rounded"
    )
    instances: int = Field(1, ge=1, le=MAX_INSTANCES, description="boards a point of the sweep, each from its own seed")
    clues: float | list[float] = Field(
        0.0,
        description="share of the cells given as fixed pieces of the planted solution, at random cells "
        "(0 to 1; a number or a list to sweep)",
    )
    unsat: bool = Field(
        False,
        description="boards made unsolvable without changing their colour counts: two pieces' inner sides "
        "swapped, kept only where an exhaustive search finds no solution",
    )
    unsat_check_s: float = Field(
        60.0,
        gt=0,
        le=86_400,
        description="unsat: seconds the exhaustive check may take a board before it is drawn again",
    )

    @model_validator(mode="after")
    def _nonempty(self):
        for f in ("rows", "cols", "frame_colors", "inner_colors"):
            if not isinstance(getattr(self, f), Around) and not _ints(getattr(self, f)):
                raise ValueError(f"{f}: empty list")
        if min(_ints(self.rows)) < 2 or min(_ints(self.cols)) < 2:
            raise ValueError("rows and cols must be at least 2")
        if max(_ints(self.rows)) > MAX_SIDE or max(_ints(self.cols)) > MAX_SIDE:
            raise ValueError(f"rows and cols must be at most {MAX_SIDE} (the longest side a board file may have)")
        shares = self._shares()
        if not shares:
            raise ValueError("clues: empty list")
        if any(not 0 <= c <= 1 for c in shares):
            raise ValueError("clues: each share must lie between 0 and 1")
        if self.unsat and any(c > 0 for c in shares):
            raise ValueError("unsat: boards with clues are not made unsolvable (give one or the other)")
        return self

    @override
    def solvable(self, params: dict) -> bool | None:
        return not params.get("unsat")  # a planted solution, unless the board was made unsolvable

    def _shares(self) -> list[float]:
        return [float(self.clues)] if isinstance(self.clues, (int, float)) else [float(c) for c in self.clues]

    def _inner(self, r: int, c: int, f: int) -> list[int]:
        """The inner colour counts of one size: as given, or around Owen's critical point."""
        if not isinstance(self.inner_colors, Around):
            return _ints(self.inner_colors)
        from puzzles.estimates.estimate import critical_size

        point = critical_size(r, c, f)["critical_inner_colors"]
        if point is None:
            raise InputError(
                f"family {self.name}",
                "inner_colors",
                f"{r}x{c} boards with {f} frame colours have no critical point within 40 inner colours",
            )
        return self.inner_colors.values(point)

    def points(self):
        """The sweep's points: every combination of the axes' values."""
        sizes = itertools.product(*(_ints(getattr(self, k)) for k in ("rows", "cols", "frame_colors")))
        grid = [(rr, cc, ff, ii) for rr, cc, ff in sizes for ii in self._inner(rr, cc, ff)]
        for (r, c, f, i), clue in itertools.product(grid, self._shares()):
            pt: dict[str, Any] = {"rows": r, "cols": c, "frame_colors": f, "inner_colors": i}
            if clue:  # only then: a plain sweep keeps the params (and so the stored rows) it always had
                pt["clues"] = clue
            if self.unsat:
                pt["unsat"] = True
            yield pt

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        out = []
        for pt in self.points():
            for k in range(self.instances):
                s = derived_seed(seed, self.name, json.dumps(pt, sort_keys=True), k)
                if self.unsat:
                    p, s = _unsolvable(self.name, pt, s, self.unsat_check_s)
                else:
                    p, planted = generate.edge_puzzle(pt["rows"], pt["cols"], pt["frame_colors"], pt["inner_colors"], s)
                    if pt.get("clues"):
                        p = generate.with_clues(p, planted, pt["clues"], s)
                out.append((p, {**pt, "seed": s}))
        return out


UNSAT_TRIES = 50  # boards drawn for one unsolvable instance before the family gives up


def _unsolvable(name: str, pt: dict, seed: int, check_s: float):
    """A generated board with two pieces' inner sides swapped (the colour counts unchanged) that an
    exhaustive search proves unsolvable, and the seed it came from; later seeds are drawn while a swap
    leaves a solution or the check does not finish in ``check_s``."""
    import solving

    for t in range(UNSAT_TRIES):
        s = derived_seed(seed, "unsat", t) if t else seed
        p, _ = generate.edge_puzzle(pt["rows"], pt["cols"], pt["frame_colors"], pt["inner_colors"], s)
        q = generate.swap_sides(p, s)
        if q is None:
            continue
        r, _ = solving.solve_verified(solving.get("edge-backtrack"), q, "first", solving.Limits(time_s=check_s))
        if r.status == solving.Status.UNSAT:
            return q, s
    raise InputError(
        f"family {name}",
        "unsat",
        f"at {json.dumps(pt, sort_keys=True)} no proven-unsolvable board in {UNSAT_TRIES} draws (each checked "
        f"for {check_s:g} s): take more inner colours or a longer unsat_check_s",
    )


class PolyformFamily(_Family):
    """Generated polyomino puzzles: a rectangle cut into random pieces of one size."""

    kind: Literal["polyform"] = Field(description="`polyform`")
    name: str = Field(description=_NAME)
    rows: IntList = Field(description="rectangle rows" + _INTS)
    cols: IntList = Field(description="rectangle columns" + _INTS)
    size: IntList = Field(description="cells a piece (points where it does not divide the area are skipped)" + _INTS)
    instances: int = Field(1, ge=1, le=MAX_INSTANCES, description="puzzles a point, each from its own seed")

    def points(self):
        """The sweep's points: every combination of the axes' values."""
        for r, c, k in itertools.product(_ints(self.rows), _ints(self.cols), _ints(self.size)):
            if (r * c) % k == 0:
                yield {"rows": r, "cols": c, "size": k}

    @override
    def solvable(self, params: dict) -> bool | None:
        return True  # the rectangle was cut into the pieces

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        out = []
        for pt in self.points():
            for k in range(self.instances):
                s = derived_seed(seed, self.name, json.dumps(pt, sort_keys=True), k)
                p, _ = generate.polyomino_puzzle(pt["rows"], pt["cols"], pt["size"], s)
                out.append((p, {**pt, "seed": s}))
        return out


def _polyform_puzzle(name: str):
    """A polyform puzzle named in a config (built-in or a file), or the field's one-line complaint."""
    try:
        p = catalog.load(name)
    except Exception:  # noqa: BLE001 - reported as this field's error
        raise ValueError(f"{name!r} is neither a built-in puzzle nor a readable puzzle file") from None
    if p.grid_name is None:
        raise ValueError(f"{name!r} is not a polyform puzzle")
    return p


class PiecesFamily(_Family):
    """Puzzles of N pieces drawn from a polyform set, each with a planted tiling, classed by the set's
    critical size (seed 000's c, ``experiments.studies.critical``).

    A puzzle is the region the first N pieces of a randomised search cover on the set's board (from its
    edge: ``tilability.sample_region_first``) and those N pieces: it has its planted tiling and, on
    average, about E(N) = N! t^N others.  Below c a puzzle has its planted tiling alone and the exhaust
    that finds it is short; above c tilings are many and a search that does not exhaust finds one;
    near c neither is easy, which is where the seeds put the peak of hardness.  The set's c and its
    interval are measured once (cached on disk, ``cached_critical_size``) and stored with each
    instance, so the tables and plots read them from the store."""

    kind: Literal["pieces"] = Field(description="`pieces`")
    name: str = Field(description=_NAME)
    set: str = Field(
        description="a polyform puzzle (built-in or a file) whose pieces, one size and one copy each, are the "
        "set, and whose board the regions are cut from (`pentomino-6x10`, `hexominoes-14x15`, `eternity1`)"
    )
    pieces: IntList | Around = Field(
        description="pieces a puzzle" + _INTS + ", or {critical = [offsets]}: around the set's critical size"
    )
    instances: int = Field(1, ge=1, le=MAX_INSTANCES, description="puzzles a point, each from its own seed")
    critical_sizes: list[Bounded] | None = Field(
        None, description="sizes at which the critical size is measured (default 3, 5, 7, 9, 11 within the set)"
    )
    critical_regions: int = Field(6, ge=2, le=1000, description="random regions a size, measuring the critical size")
    critical_probes: int = Field(200, ge=1, le=100_000, description="probes a region's count estimate")

    @field_validator("pieces", mode="before")
    @classmethod
    def _pieces_shape(cls, v: Any) -> Any:
        return _axis_shape(v)

    @field_validator("set")
    @classmethod
    def _a_set(cls, v):
        p = _polyform_puzzle(v)
        if len({len(pc.cells) for pc in p.pieces}) != 1 or any(pc.count != 1 for pc in p.pieces):
            raise ValueError(f"{v!r}: a set's pieces must be of one size, one copy each")
        return v

    @model_validator(mode="after")
    def _within(self):
        m = len(catalog.load(self.set).pieces)
        if not isinstance(self.pieces, Around):
            bad = [n for n in _ints(self.pieces) if not 1 <= n < m]
            if bad:
                raise ValueError(f"pieces: 1 to {m - 1} (the set has {m}), not {bad[0]}")
        bad = [n for n in self.critical_sizes or [] if not 1 <= n < m]
        if bad:
            raise ValueError(f"critical_sizes: 1 to {m - 1} (the set has {m}), not {bad[0]}")
        return self

    def critical(self, seed: int, on_sample: OnSample = None) -> dict:
        """The set's measured critical size (``experiments.studies.critical.cached_critical_size``)."""
        from experiments.studies.critical import cached_critical_size, default_sizes

        base = catalog.load(self.set)
        sizes = list(self.critical_sizes or default_sizes(len(base.pieces)))
        total = len(sizes) * self.critical_regions
        done = [0]

        def progress(_: dict) -> None:
            done[0] += 1
            if on_sample is not None:
                on_sample(f"{self.name} (critical size)", done[0], total)

        return cached_critical_size(
            base, sizes, self.critical_regions, derived_seed(seed, self.set), self.critical_probes, progress=progress
        )

    @override
    def solvable(self, params: dict) -> bool | None:
        return True  # the pieces were cut from the region

    @override
    def classify(self, params: dict) -> tuple[float | None, str] | None:
        from experiments.studies.critical import classify_size, expected_solutions

        crit = params["critical_fit"]
        return expected_solutions(params["pieces"], crit), classify_size(params["pieces"], crit)

    @override
    def puzzles(self, seed: int, on_sample: OnSample = None, known: dict | None = None) -> Pairs:
        from baseline.xcc.backtrack import random_prefix
        from puzzles.estimates.tilability import sample_region_first
        from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

        base = catalog.load(self.set)
        crit = self.critical(seed, on_sample)
        if isinstance(self.pieces, Around):
            if crit["critical_size"] is None:
                raise InputError(
                    f"family {self.name}",
                    "pieces",
                    f"{self.set}'s critical size lies beyond its {len(base.pieces)} pieces by the sizes measured: "
                    "give the sizes as numbers",
                )
            ns = [n for n in self.pieces.values(crit["critical_size"]) if n < len(base.pieces)]
        else:
            ns = _ints(self.pieces)
        fit = {k: crit[k] for k in ("pieces", "selby_t_inf", "selby_t_drift", "critical_size", "critical_size_90")}
        out: Pairs = []
        for n in ns:
            for k in range(self.instances):
                s = derived_seed(seed, self.name, self.set, n, k)
                region, chosen = sample_region_first(base, n, random.Random(s), random_prefix)
                pieces = [PolyPiece(base.pieces[i].name, base.pieces[i].cells) for i in chosen]
                p = PolyformPuzzle(base.grid_name, region, pieces, base.mirror, name=f"{self.set}-{n}p-{k}")
                params = {"set": self.set, "pieces": n, "seed": s, "critical": crit["critical_size"]}
                out.append((p, {**params, "critical_fit": fit}))
        return out
