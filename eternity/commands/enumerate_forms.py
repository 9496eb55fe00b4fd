"""`eternity enumerate`: the free polyforms of a grid, counted (the check of its geometry)."""

from __future__ import annotations

import time

from eternity.commands.common import _out, _refused
from puzzles.errors import UsageError
from puzzles.ranges import arg

# The largest size a grid's enumeration finishes within about 40 s on one core (square 10: 3 s,
# triangle 12: 9 s, hexagon 10: 36 s, drafter 8: 38 s).
MAX_SIZE = {"square": 11, "triangle": 12, "hexagon": 10, "drafter": 8}


def cmd_enumerate(a) -> int:
    """Run `eternity enumerate` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.enumeration import free_polyforms, has_hole
    from puzzles.grids import get_grid

    with _refused("enumerate"):
        grid = get_grid(a.grid)
    most = MAX_SIZE.get(grid.name, 8)
    if a.size < 1 or a.size > most:
        raise UsageError(
            f"enumerate: --size {a.size}: expected 1 to {most} on the {grid.name} grid "
            f"(one size more takes minutes: the count grows about fourfold a unit)"
        )
    if a.dudes and grid.name != "drafter":
        raise UsageError("enumerate: --dudes (no 30 degree corner) is for the drafter grid")
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
    if a.dudes:  # no hole and no 30 degree corner: the shape of every Eternity piece
        from puzzles.partition import has_30_degree_corner

        info["without_holes_or_30_degree_corners"] = sum(
            1 for f in forms if not has_hole(grid, f) and not has_30_degree_corner(grid, f)
        )
    info["seconds"] = round(time.perf_counter() - t0, 2)
    if a.json:
        if a.forms:
            info["forms"] = [[list(c) for c in f] for f in forms]
        _out(info)
    else:
        print(f"{len(forms)} free {grid.name} polyforms of size {a.size} ({holes} with holes)")
        if a.dudes:
            print(f"{info['without_holes_or_30_degree_corners']} without holes or 30 degree corners")
    return 0


def add(sub) -> None:
    """Declare `eternity enumerate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("enumerate", help="count the free polyforms of a grid (the check of its geometry)")
    s.add_argument("grid", help="square, triangle, hexagon or drafter")
    s.add_argument("--size", type=arg(int, 1, 12), required=True, help="units: cells, or drafters on the drafter grid")
    s.add_argument("--forms", action="store_true", help="with --json: list the canonical forms")
    s.add_argument(
        "--dudes",
        action="store_true",
        help="drafter grid: also count the forms with no hole and no 30 degree corner (as every Eternity piece)",
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_enumerate)
