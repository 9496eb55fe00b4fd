"""`eternity report`: one self-contained HTML page of a results store, to open in a browser."""

from __future__ import annotations

from eternity.commands.common import _db
from eternity.commands.table import CLOCK_NAMES


def cmd_report(a) -> int:
    """Run `eternity report` with the parsed arguments ``a``; returns the exit status."""
    from experiments.html_report import write

    write(_db(a.db), a.output, a.clock, a.config)
    print(f"wrote the report of {a.db} to {a.output}")
    return 0


def add(sub) -> None:
    """Declare `eternity report` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "report",
        help="one HTML page of a run that works offline: the table to sort and filter, the pivot by status, "
        "cactus and scatter plots, each cell's details, the config and the environment",
    )
    s.add_argument("db")
    s.add_argument("-o", "--output", required=True, help="the HTML file to write")
    s.add_argument("--clock", choices=CLOCK_NAMES, default="solve", help="as for table")
    s.add_argument("--config", metavar="TOML", help="the run's config file, shown on the page as it is")
    s.set_defaults(func=cmd_report, outputs={"output": "file"})
