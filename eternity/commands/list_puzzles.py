"""`eternity list`: the built-in puzzles."""

from __future__ import annotations

from eternity.commands.common import _out


# ------------------------------------------------------------------ commands
def cmd_list(a) -> int:
    """Run `eternity list` with the parsed arguments ``a``; returns the exit status."""
    from rich.console import Console
    from rich.table import Table

    from puzzles import catalog

    rows = [(n, catalog.describe(n)) for n in catalog.names()]
    if a.json:
        _out([{"name": n, "description": d} for n, d in rows])
        return 0
    t = Table("name", "description", box=None)
    for n, d in rows:
        t.add_row(n, d)
    Console().print(t)
    return 0


def add(sub) -> None:
    """Declare `eternity list` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("list", help="built-in puzzles")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)
