"""`eternity generate`: instances with a planted solution (edge boards, polyform puzzles)."""

from __future__ import annotations

import os
import sys
from typing import Any

from eternity.commands.common import _Parser, _refused
from puzzles.errors import UsageError
from puzzles.kinds.grids import GRIDS
from puzzles.ranges import MAX_SIDE, arg

GENERATE_BYTES_PER_CELL = 1200  # measured: a 300x300 edge puzzle peaks near 105 MB, 45 MB of it the interpreter


def _memory_check(cells: int) -> None:
    """Refuse, before it starts, a generation that would need more than half the memory available now."""
    need = cells * GENERATE_BYTES_PER_CELL
    try:
        avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return
    if need > avail / 2:
        raise UsageError(
            f"generate: {cells:,} cells need about {need / 2**30:.1f} GiB, more than half the "
            f"{avail / 2**30:.1f} GiB available"
        )


def cmd_generate(a) -> int:
    """Run `eternity generate` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.files import formats
    from puzzles.make import generate

    if a.rows and a.cols:
        _memory_check(a.rows * a.cols)
    p: Any  # an edge or a polyform puzzle
    planted: list[Any]
    with _refused(f"generate {a.family}"):
        if a.family == "edge":
            p, planted = generate.edge_puzzle(a.rows, a.cols, a.frame_colors, a.inner_colors, a.seed, a.name)
            if a.solved_order or a.scramble is not None:
                p, planted = generate.solved_order(p, planted)  # the tiles as they lie, row by row
            if a.scramble is not None:
                from puzzles.make.scramble import scramble, scrambled_placements

                p, planted = scramble(p, a.scramble), scrambled_placements(p, a.scramble, planted)
        elif a.region:
            p, planted = _region_puzzle(a)
            if a.hints:
                from puzzles.make.hints import hinted

                if a.excess:
                    raise UsageError("generate polyform: --hints places pieces of the planted solution; no --excess")
                p, given, planted = hinted(p, planted, a.hints, a.seed)
                print(
                    f"generate polyform: {a.hints} hint pieces placed (their cells left out of the region): "
                    + ", ".join(f"{h.piece + 1}" for h in given),
                    file=sys.stderr,
                )
        else:
            if a.grid != "square" or a.rows is None or a.cols is None:
                raise UsageError("generate polyform: give --rows and --cols (square grid) or --region")
            if a.excess or a.dudes or a.hints:
                raise UsageError("generate polyform: --excess, --dudes and --hints need --region")
            p, planted = generate.polyomino_puzzle(a.rows, a.cols, a.size or 5, a.seed, not a.no_mirror, a.name)
    fmt = getattr(a, "format", "json")
    formats.write_puzzle(p, a.output, fmt)
    if a.planted:
        formats.write_solution(p, planted, a.planted)
    print(f"wrote {a.output}" + (f" and {a.planted}" if a.planted else ""), file=sys.stderr)
    return 0


MAX_HEXAGON_SIDE = 16  # --region hexagon:SIDE


def _region_puzzle(a):
    from puzzles import catalog
    from puzzles.kinds.partition import hexagon_region, region_puzzle

    if a.region.startswith("hexagon:"):
        try:
            side = int(a.region.split(":", 1)[1])
        except ValueError:
            raise UsageError(f"generate polyform: --region {a.region!r}: expected hexagon:SIDE") from None
        if not 1 <= side <= MAX_HEXAGON_SIDE:
            raise UsageError(
                f"generate polyform: --region {a.region!r}: the side is 1 to {MAX_HEXAGON_SIDE} "
                f"(side {MAX_HEXAGON_SIDE}: about 25 s to cut)"
            )
        grid, region = "drafter", hexagon_region(side)
    else:
        base = catalog.load(a.region)
        if base.grid_name is None:
            raise UsageError(f"generate polyform: --region {a.region!r} is not a polyform puzzle")
        grid, region = base.grid_name, base.region
    if a.grid not in ("square", grid):  # --grid defaults to square; a region brings its own grid
        raise UsageError(f"generate polyform: --region {a.region!r} lies on the {grid} grid, not {a.grid}")
    units = a.size or (12 if grid == "drafter" else 5)
    return region_puzzle(grid, region, units, a.seed, a.excess, a.dudes, not a.no_mirror, a.name)


def add(sub) -> None:
    """Declare `eternity generate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("generate", help="instances with a planted solution")
    gsub = s.add_subparsers(dest="family", required=True, parser_class=_Parser)
    g = gsub.add_parser("edge", help="an edge-matching board with a planted solution")
    g.add_argument("--rows", type=arg(int, 2, MAX_SIDE), required=True)
    g.add_argument("--cols", type=arg(int, 2, MAX_SIDE), required=True)
    g.add_argument("--frame-colors", type=arg(int, 1, 1000), required=True)
    g.add_argument("--inner-colors", type=arg(int, 1, 1000), required=True)
    g.add_argument("--seed", type=arg(int, 0), default=0)
    g.add_argument("--name")
    g.add_argument(
        "--solved-order",
        action="store_true",
        help="list the pieces row by row as they lie in the planted solution, unturned (as Heule's generator does)",
    )
    g.add_argument(
        "--scramble",
        type=arg(int, 0),
        metavar="SEED",
        help="shuffle and turn the pieces with their own seed (the board stays the seed's board)",
    )
    g.add_argument(
        "--format",
        choices=("json", "heule", "pieces"),
        default="json",
        help="the file's format: the workbench's JSON, a Heule board file (hint count, then pieces), or a "
        "'rows cols' piece list",
    )
    g.add_argument("-o", "--output", required=True)
    g.add_argument("--planted")
    g.set_defaults(func=cmd_generate, outputs={"output": "file", "planted": "file"})
    g = gsub.add_parser("polyform", help="a polyform puzzle (a rectangle cut into pieces, or a region of a grid)")
    g.add_argument("--grid", default="square", choices=sorted(GRIDS))
    g.add_argument("--rows", type=arg(int, 1, MAX_SIDE), help="square grid: a ROWS x COLS rectangle")
    g.add_argument("--cols", type=arg(int, 1, MAX_SIDE))
    g.add_argument("--region", help="hexagon:SIDE (drafter grid) or a built-in polyform puzzle whose region is cut")
    g.add_argument(
        "--size", type=arg(int, 1, 64), help="units per piece: cells (default 5), drafters on the drafter grid (12)"
    )
    g.add_argument("--excess", type=arg(int, 0, 10_000), default=0, help="extra pieces beyond what the region needs")
    g.add_argument("--dudes", action="store_true", help="drafter grid: only pieces without 30 degree corners")
    g.add_argument("--no-mirror", action="store_true", help="pieces may not be turned over")
    g.add_argument(
        "--hints",
        type=arg(int, 0, 10_000),
        default=0,
        help="--region: place this many pieces of the planted solution, drawn with --seed, as Monckton's hint "
        "pieces (the puzzle written is the rest: the region without their cells, the other pieces)",
    )
    g.add_argument("--seed", type=arg(int, 0), default=0)
    g.add_argument("--name")
    g.add_argument("-o", "--output", required=True)
    g.add_argument("--planted")
    g.set_defaults(func=cmd_generate, outputs={"output": "file", "planted": "file"})
