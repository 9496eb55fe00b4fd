"""`eternity encodings PUZZLE`: every CNF encoding that applies to a puzzle, with its size and build time.

The named encodings (``encoders.catalogue``: Heule's twelve, the direct model's variants, the primal model, the
XCC encodings) and every installed plug-in encoding (`eternity.encodings`), each built once, in one table:
variables (the largest), clauses (with a KNF encoding's cardinality constraints, one each, as its file counts
them), literals and the seconds the build took.  The first column is what ``--opt encoding=NAME`` and a runner
row's ``encoding = [...]`` take.  ``--amo`` adds the `sat` models with every at-most-one encoding."""

from __future__ import annotations

import time

from eternity.commands.common import _load, _out
from puzzles.ranges import arg


def _configs(puzzle, amo_grid: bool) -> list[tuple[str, str, dict]]:
    """(label, family, sat options) of every encoding that applies to ``puzzle``."""
    from encoders import catalogue, plugins
    from encoders.amo import ENCODINGS
    from puzzles.puzzle import CNF, EDGES, SUMS

    if CNF in puzzle.features:  # a formula is its own encoding: one row, the file as given
        return [("as given", "cnf", {})]
    out = [(n, e.family, {"encoding": n}) for n, e in catalogue.NAMED.items() if catalogue.applies(n, puzzle)]
    out += [(n, "plug-in", {"encoding": n}) for n in plugins.names()]
    if amo_grid:
        if SUMS in puzzle.features:
            out += [(f"model=auto amo={amo}", "sums", {"model": "auto", "amo": amo}) for amo in ENCODINGS]
        else:
            out += [(f"model=xcc amo={amo}", "xcc", {"model": "xcc", "amo": amo}) for amo in ENCODINGS]
        if EDGES in puzzle.features:
            out += [(f"model=direct amo={amo}", "direct", {"model": "direct", "amo": amo}) for amo in ENCODINGS]
    return out


def _cp_rows(p, limit: float) -> list[dict[str, object]]:
    """CP-SAT's named models (``cpmodel.named_models``) that take ``p``: variables and constraints."""
    import solving
    from cpmodel.named_models import CP_MODELS
    from puzzles.errors import UsageError
    from solving.extras import MissingExtra

    out: list[dict[str, object]] = []
    for name in CP_MODELS:
        t0 = time.perf_counter()
        try:
            size = solving.get("cpsat", {"encoding": name}).model_size(p, t0 + limit)  # type: ignore[attr-defined]
        except solving.BuildLate:
            out.append({"encoding": name, "family": "cp-sat", "error": f"not built within {limit:g} s"})
            continue
        except (UsageError, TypeError, ValueError) as e:  # a model for another kind of puzzle
            out.append({"encoding": name, "family": "cp-sat", "error": str(e).splitlines()[0]})
            continue
        except MissingExtra:
            return out
        out.append(
            {
                "encoding": name,
                "family": "cp-sat",
                "variables": size["vars"],
                "constraints": size["constraints"],
                "build_s": round(time.perf_counter() - t0, 4),
            }
        )
    return out


def cmd_encodings(a) -> int:
    """Run `eternity encodings` with the parsed arguments ``a``; returns the exit status."""
    import solving
    from encoders import plugins
    from encoders.solver import encode
    from puzzles.errors import UsageError

    p, _ = _load(a)
    base = solving.get("sat").opts.as_dict()
    rows: list[dict[str, object]] = []
    for label, family, opts in _configs(p, a.amo):
        t0 = time.perf_counter()
        try:
            enc = encode(p, {**base, **opts}, t0 + a.limit)
        except solving.BuildLate:
            rows.append({"encoding": label, "family": family, "error": f"not built within {a.limit:g} s"})
            continue
        except (plugins.BrokenEncoding, UsageError) as e:  # a board the encoding does not take
            rows.append({"encoding": label, "family": family, "error": str(e)})
            continue
        rows.append(
            {
                "encoding": label,
                "family": family,
                "variables": enc.n_vars,
                "clauses": enc.n_constraints,
                "cardinality": len(enc.atmost),
                "literals": enc.n_literals,
                "build_s": round(time.perf_counter() - t0, 4),
            }
        )
    from puzzles.puzzle import CNF

    if CNF not in p.features:  # CP-SAT's models are of puzzles, not of formulas
        rows += _cp_rows(p, a.limit)
    if a.json:
        _out(rows)
        return 0
    width = max(len(str(r["encoding"])) for r in rows)
    print(f"{'encoding':<{width}}  {'family':<8} {'variables':>10} {'clauses':>11} {'literals':>12} {'build_s':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['encoding']:<{width}}  {r['family']:<8} {r['error']}")
        elif "constraints" in r:  # a CP-SAT model: constraints, not clauses
            print(
                f"{r['encoding']:<{width}}  {r['family']:<8} {r['variables']:>10,} {r['constraints']:>11,} "
                f"{'':>12} {r['build_s']:>8.3f}  (CP-SAT constraints)"
            )
        else:
            card = f"  ({r['cardinality']:,} of them cardinality)" if r["cardinality"] else ""
            print(
                f"{r['encoding']:<{width}}  {r['family']:<8} {r['variables']:>10,} {r['clauses']:>11,} "
                f"{r['literals']:>12,} {r['build_s']:>8.3f}{card}"
            )
    return 0


def add(sub) -> None:
    """Declare `eternity encodings` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("encodings", help="every CNF encoding of a puzzle: variables, clauses, literals, build time")
    s.add_argument("puzzle", help="a puzzle file or built-in name")
    s.add_argument("--amo", action="store_true", help="add the sat models with every at-most-one encoding")
    s.add_argument(
        "--limit", type=arg(float, 0.1, 86400), default=60.0, help="seconds each build may take (default 60)"
    )
    s.add_argument("--json", action="store_true", help="the table as JSON")
    s.set_defaults(func=cmd_encodings)
