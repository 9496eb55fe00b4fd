"""`eternity enumerate`: the free polyforms of a grid, counted (the check of its geometry).

On the drafter grid the counts come from Redelmeier's enumeration in numba
(`puzzles.forms.drafter_count`): every size from 1 to N at once, to 12 drafters, with
the polydudes (Eternity's piece shapes) beside the polydrafters.  The other
grids, and `--forms`, use the canonical growth of `puzzles.forms.enumeration`.
"""

from __future__ import annotations

import sys
import time

from eternity.commands.common import _out, _refused
from puzzles.errors import UsageError
from puzzles.ranges import arg

# The largest size a grid's enumeration finishes within about 40 s on one core (square 10: 3 s,
# triangle 12: 9 s, hexagon 10: 36 s, drafter 8: 38 s); the drafter count by Redelmeier's method
# reaches 12 in about 2 minutes.
MAX_SIZE = {"square": 11, "triangle": 12, "hexagon": 10, "drafter": 8}
MAX_DRAFTER_COUNT = 12

# Cazenave's paper (seed 002), for n = 1..12: polydrafters to 8, polydudes to 12.
SEED_POLYDRAFTERS = (None, 6, 14, 64, 237, 1014, 4124, 17705, None, None, None, None)
SEED_POLYDUDES = (None, 3, 1, 9, 15, 59, 152, 517, 1547, 5064, 16123, 52630)


def _drafter_counts(a) -> int:
    from puzzles.forms.drafter_count import count_drafters

    if a.size < 1 or a.size > MAX_DRAFTER_COUNT:
        raise UsageError(f"enumerate: --size {a.size}: expected 1 to {MAX_DRAFTER_COUNT} on the drafter grid")
    if a.size >= 11:
        print(
            f"enumerate: counting polydrafters to {a.size} drafters (about {30 if a.size == 11 else 120} s on one core)",
            file=sys.stderr,
        )
    t0 = time.perf_counter()
    counts = count_drafters(a.size)
    seconds = round(time.perf_counter() - t0, 2)
    rows = []
    for n in range(1, a.size + 1):
        row = {"size": n, **counts.as_dict(n)}
        row["seed_polydrafters"] = SEED_POLYDRAFTERS[n - 1]
        row["seed_polydudes"] = SEED_POLYDUDES[n - 1]
        rows.append(row)
    last = rows[-1]
    info: dict = {"grid": "drafter", **{k: v for k, v in last.items() if not k.startswith("seed_")}}
    info["seconds"] = seconds
    info["sequence"] = rows
    if a.json:
        _out(info)
        return 0
    print(f"{last['free']} free drafter polyforms of size {a.size} ({last['with_holes']} with holes)")
    if a.dudes:
        print(f"{last['polydudes']} polydudes (no hole, no 30 degree corner or notch, no weakly hanging drafter)")
        print(f"{'n':>3} {'polydrafters':>13} {'seed':>7} {'polydudes':>10} {'seed':>7}")
        for r in rows:
            sp = "" if r["seed_polydrafters"] is None else r["seed_polydrafters"]
            sd = "" if r["seed_polydudes"] is None else r["seed_polydudes"]
            print(f"{r['size']:>3} {r['without_holes']:>13} {sp:>7} {r['polydudes']:>10} {sd:>7}")
    print(f"{seconds} s")
    return 0


def cmd_enumerate(a) -> int:
    """Run `eternity enumerate` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.forms.enumeration import free_polyforms, has_hole
    from puzzles.kinds.grids import get_grid

    with _refused("enumerate"):
        grid = get_grid(a.grid)
    if a.dudes and grid.name != "drafter":
        raise UsageError("enumerate: --dudes (Eternity's piece shapes) is for the drafter grid")
    if grid.name == "drafter" and not a.forms:
        return _drafter_counts(a)
    most = MAX_SIZE.get(grid.name, 8)
    if a.size < 1 or a.size > most:
        raise UsageError(
            f"enumerate: --size {a.size}: expected 1 to {most} on the {grid.name} grid"
            + (" with --forms" if grid.name == "drafter" else "")
            + " (one size more takes minutes: the count grows about fourfold a unit)"
        )
    t0 = time.perf_counter()
    forms = free_polyforms(grid, a.size)
    holes = sum(has_hole(grid, f) for f in forms)
    info: dict = {
        "grid": grid.name,
        "size": a.size,
        "free": len(forms),
        "with_holes": holes,
        "without_holes": len(forms) - holes,
    }
    if a.dudes:
        from puzzles.forms.drafter_count import is_polydude

        info["polydudes"] = sum(1 for f in forms if is_polydude(f))
    info["seconds"] = round(time.perf_counter() - t0, 2)
    if a.json:
        if a.forms:
            info["forms"] = [[list(c) for c in f] for f in forms]
        _out(info)
    else:
        print(f"{len(forms)} free {grid.name} polyforms of size {a.size} ({holes} with holes)")
        if a.dudes:
            print(f"{info['polydudes']} polydudes")
    return 0


def add(sub) -> None:
    """Declare `eternity enumerate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("enumerate", help="count the free polyforms of a grid (the check of its geometry)")
    s.add_argument("grid", help="square, triangle, hexagon or drafter")
    s.add_argument(
        "--size",
        type=arg(int, 1, 12),
        required=True,
        help="units: cells, or drafters on the drafter grid (which counts every size to N, to 12)",
    )
    s.add_argument("--forms", action="store_true", help="with --json: list the canonical forms (drafter grid: to 8)")
    s.add_argument(
        "--dudes",
        action="store_true",
        help="drafter grid: print the polydudes (Eternity's piece shapes) beside the seed's counts",
    )
    s.add_argument("--json", action="store_true", help="print the counts (and on the drafter grid each size's) as JSON")
    s.set_defaults(func=cmd_enumerate)
