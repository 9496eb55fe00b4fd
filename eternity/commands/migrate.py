"""`eternity migrate DB`: bring a results database written by an older version to the current schema.

Every read (`table`, `plot`, `eternity.results`) opens a database read-only and reads an older schema as it is, so
a committed database is never changed by looking at it.  The columns added since are written here, or by the next
`eternity run` into the database, and by nothing else."""

from __future__ import annotations

from contextlib import closing

from eternity.commands.common import _db


def cmd_migrate(a) -> int:
    """Run `eternity migrate` with the parsed arguments ``a``; returns the exit status."""
    from experiments.store import ADDED, Store, read_only

    db = _db(a.db)
    with closing(read_only(db)) as con:
        have = {r[1] for r in con.execute("PRAGMA table_info(results)")}
    missing = [c for c in ADDED if c not in have]
    if not missing:
        print(f"{a.db}: already at the current schema")
        return 0
    Store(db).close()
    print(f"{a.db}: added the columns {', '.join(missing)} (their values in the stored cells: NULL)")
    return 0


def add(sub) -> None:
    """Declare `eternity migrate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("migrate", help="bring a results database of an older version to the current schema")
    s.add_argument("db")
    s.set_defaults(func=cmd_migrate)
