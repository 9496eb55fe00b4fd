"""Instance families of an experiment config: each a small class that makes its own instances.

A family is a validated TOML table (``kind`` picks the class) with one
method, ``puzzles(seed, ...)``: the (puzzle, params) pairs it stands for,
generated reproducibly from the config's seed.  ``instance_id`` names an
instance in the store; ``detail`` optionally names a function
``f(puzzle, solutions, count, stats) -> dict`` that a cell applies to its answer (the
tilability statistics of an excess-piece state), so the runner stays generic.
Adding a family: a class here with ``kind``, ``name`` and ``puzzles``, and
its name in ``Family``.
"""

from __future__ import annotations

import glob
import hashlib
import itertools
import json
import os
import random
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from typing_extensions import override

from puzzles import catalog
from puzzles.errors import InputError
from puzzles.estimates.tilability_design import REGIONS
from puzzles.files.formats import puzzle_hash, read_puzzle
from puzzles.make import generate
from puzzles.puzzle import EDGES
from puzzles.ranges import MAX_SIDE

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
    critical size (seed 000's c, ``experiments.critical``).

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
        """The set's measured critical size (``experiments.critical.cached_critical_size``)."""
        from experiments.critical import cached_critical_size, default_sizes

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
        from experiments.critical import classify_size, expected_solutions

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
        import os
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
