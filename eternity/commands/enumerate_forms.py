"""`eternity enumerate`: the free polyforms of a grid, counted (the check of its geometry)."""

from __future__ import annotations

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
    forms = free_polyforms(grid, a.size)
    holes = sum(has_hole(grid, f) for f in forms)
    info = {
        "grid": grid.name,
        "size": a.size,
        "free": len(forms),
        "with_holes": holes,
        "without_holes": len(forms) - holes,
    }
    if a.json:
        if a.forms:
            info["forms"] = [[list(c) for c in f] for f in forms]
        _out(info)
    else:
        print(f"{len(forms)} free {grid.name} polyforms of size {a.size} ({holes} with holes)")
    return 0


def add(sub) -> None:
    """Declare `eternity enumerate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("enumerate", help="count the free polyforms of a grid (the check of its geometry)")
    s.add_argument("grid", help="square, triangle, hexagon or drafter")
    s.add_argument("--size", type=arg(int, 1, 12), required=True, help="units: cells, or drafters on the drafter grid")
    s.add_argument("--forms", action="store_true", help="with --json: list the canonical forms")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_enumerate)
