"""`eternity plot`: plots from a results store."""

from __future__ import annotations

from eternity.commands.common import _db
from eternity.commands.table import CLOCK_NAMES


def cmd_plot(a) -> int:
    """Run `eternity plot` with the parsed arguments ``a``; returns the exit status."""
    from experiments.plots import plot

    plot(_db(a.db), a.kind, a.output, a.clock)
    print(f"wrote the {a.kind} plot of {a.db} to {a.output}")
    return 0


def add(sub) -> None:
    """Declare `eternity plot` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("plot", help="cactus, hardness, phase, clues, poly-phase or map plot from a results database")
    s.add_argument("db")
    s.add_argument(
        "--kind",
        choices=["cactus", "hardness", "phase", "clues", "poly-phase", "map"],
        default="cactus",
        help="poly-phase: median time against pieces, a panel a polyform set, its critical size marked",
    )
    s.add_argument("-o", "--output", required=True)
    s.add_argument("--clock", choices=CLOCK_NAMES, default="solve", help="as for table")
    s.set_defaults(func=cmd_plot, outputs={"output": "image"})
