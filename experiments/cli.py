"""The runner's subcommands of `eternity`: run, table, plot."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def cmd_run(a) -> int:
    from .runner import run

    db = a.db or str(Path("results") / (Path(a.config).stem + ".sqlite"))
    if a.executor == "local" and a.scheduler:
        from eternity.cli import UsageError

        raise UsageError("run: --scheduler needs --executor dask")
    s = run(a.config, db, jobs=a.jobs, executor=a.executor, scheduler=a.scheduler,
            show_progress=not a.quiet)
    print(f"{s['ran']} cells run, {s['skipped']} already stored, {s['solved']} answered; results in {db}",
          file=sys.stderr)
    return 0


def _db(path: str) -> str:
    if not os.path.exists(path):
        from puzzles.formats import InputError

        raise InputError(path, None, "no such results database")
    return path


def cmd_table(a) -> int:
    from .report import table

    sys.stdout.write(table(_db(a.db), a.format))
    return 0


def cmd_plot(a) -> int:
    from .report import plot

    plot(_db(a.db), a.kind, a.output)
    return 0


def add_commands(sub) -> None:
    s = sub.add_parser("run", help="run an experiment config (TOML)")
    s.add_argument("config")
    s.add_argument("--db", help="SQLite results file (default results/CONFIG.sqlite)")
    s.add_argument("--jobs", type=int, help="cells at a time (default: the number of cores)")
    s.add_argument("--executor", choices=["local", "dask"], default="local")
    s.add_argument("--scheduler", help="Dask scheduler address (default: start a local cluster)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_run)

    s = sub.add_parser("table", help="benchmark table from a results database")
    s.add_argument("db")
    s.add_argument("--format", choices=["md", "csv", "latex", "json"], default="md")
    s.set_defaults(func=cmd_table)

    s = sub.add_parser("plot", help="cactus or hardness plot from a results database")
    s.add_argument("db")
    s.add_argument("--kind", choices=["cactus", "hardness"], default="cactus")
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_plot)
