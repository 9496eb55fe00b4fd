"""`eternity encodings PUZZLE`: every CNF encoding that applies to a puzzle, with its size and build time.

The built-in models of `sat` (the XCC model with each at-most-one encoding; the direct model of edge matching;
the sums of magic figures) and every installed plug-in encoding (`eternity.encodings`), each built once, in
one table: variables, clauses, literals and the seconds the build took.  The name in the first column is what
`--opt` takes (`model=...,amo=...`, or `encoding=NAME`)."""

from __future__ import annotations

import time

from eternity.commands.common import _load, _out


def _configs(puzzle) -> list[tuple[str, dict]]:
    """(label, sat options) of every built-in model that applies to ``puzzle``, and every plug-in encoding."""
    from encoders import plugins
    from encoders.amo import ENCODINGS
    from puzzles.puzzle import EDGES, SUMS

    out = []
    if SUMS in puzzle.features:
        out += [(f"sums amo={amo}", {"model": "auto", "amo": amo}) for amo in ENCODINGS]
    else:
        out += [(f"model=xcc amo={amo}", {"model": "xcc", "amo": amo}) for amo in ENCODINGS]
    if EDGES in puzzle.features:
        out += [(f"model=direct amo={amo}", {"model": "direct", "amo": amo}) for amo in ENCODINGS]
    for name in plugins.names():
        out.append((f"encoding={name}", {"encoding": name}))
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
    for label, opts in _configs(p):
        t0 = time.perf_counter()
        try:
            enc = encode(p, {**base, **opts})
        except plugins.BrokenEncoding as e:
            rows.append({"encoding": label, "error": str(e)})
            continue
        except UsageError as e:  # a plug-in that does not take this kind of puzzle
            rows.append({"encoding": label, "error": str(e)})
            continue
        rows.append(
            {
                "encoding": label,
                "variables": enc.n_vars,
                "clauses": len(enc.clauses),
                "literals": enc.n_literals,
                "build_s": round(time.perf_counter() - t0, 4),
            }
        )
    if a.json:
        _out(rows)
        return 0
    width = max(len(str(r["encoding"])) for r in rows)
    print(f"{'encoding':<{width}}  {'variables':>10} {'clauses':>11} {'literals':>12} {'build_s':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['encoding']:<{width}}  {r['error']}")
        else:
            print(
                f"{r['encoding']:<{width}}  {r['variables']:>10,} {r['clauses']:>11,} {r['literals']:>12,} "
                f"{r['build_s']:>8.3f}"
            )
    return 0


def add(sub) -> None:
    """Declare `eternity encodings` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("encodings", help="every CNF encoding of a puzzle: variables, clauses, literals, build time")
    s.add_argument("puzzle")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_encodings)
