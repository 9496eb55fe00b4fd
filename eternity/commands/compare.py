"""`eternity compare`: two configurations of a results store, pair by pair, with their significance."""

from __future__ import annotations

import sys

from eternity.commands.common import _db
from eternity.commands.table import CLOCK_NAMES


def cmd_compare(a) -> int:
    """Run `eternity compare` with the parsed arguments ``a``; returns the exit status."""
    from experiments.compare import compare, render

    p = compare(_db(a.db), a.a, a.b, a.clock, a.experiment)
    sys.stdout.write(render(p, a.format, a.clock))
    return 0


def add(sub) -> None:
    """Declare `eternity compare` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "compare",
        help="two configurations on the cells both ran: wins, per-instance speedups with a bootstrap interval, "
        "a signed-rank test and one line to quote",
    )
    s.add_argument("db")
    s.add_argument("a", metavar="A", help="a configuration's label (as in `eternity table`), or a unique part of it")
    s.add_argument("b", metavar="B", help="the other configuration")
    s.add_argument("--clock", choices=CLOCK_NAMES, default="solve", help="as for table")
    s.add_argument("--experiment", metavar="NAME", help="only this experiment's cells")
    s.add_argument("--format", choices=["md", "json"], default="md", help="md (the default) or json")
    s.set_defaults(func=cmd_compare)
