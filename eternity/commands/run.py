"""`eternity run`: an experiment config run into a results store."""

from __future__ import annotations

import sys
from pathlib import Path

from puzzles.errors import UsageError
from puzzles.ranges import arg


def cmd_run(a) -> int:
    """Run `eternity run` with the parsed arguments ``a``; returns the exit status."""
    from experiments.runner import run

    db = a.db or str(Path("results") / (Path(a.config).stem + ".sqlite"))
    if a.executor == "local" and a.scheduler:
        raise UsageError("run: --scheduler needs --executor dask")

    s = run(
        a.config,
        db,
        jobs=a.jobs,
        executor=a.executor,
        scheduler=a.scheduler,
        show_progress=not a.quiet,
        families=a.family,
        solvers=a.solver,
    )
    print(
        f"{s['ran']} cells run, {s['skipped']} already stored, {s['solved']} answered; results in {db}", file=sys.stderr
    )
    for why, n in s["unavailable"].items():
        print(f"{n} cells unavailable (stored as such, tried again by the next run): {why}", file=sys.stderr)
    if s["wrong"]:
        print(f"{len(s['wrong'])} wrong answers (status wrong in the store and the tables):", file=sys.stderr)
        for line in s["wrong"][:20]:
            print(f"  {line}", file=sys.stderr)
        if len(s["wrong"]) > 20:
            print(f"  ... and {len(s['wrong']) - 20} more (eternity table {db})", file=sys.stderr)
    return 0


def add(sub) -> None:
    """Declare `eternity run` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("run", help="run an experiment config (TOML)")
    s.add_argument("config")
    s.add_argument("--db", help="SQLite results file (default results/CONFIG.sqlite)")
    s.add_argument(
        "--jobs",
        type=arg(int, 1, 1024),
        help="cells at a time (default: the cores but one, left to the runner and the machine)",
    )
    s.add_argument("--executor", choices=["local", "dask"], default="local")
    s.add_argument("--scheduler", help="Dask scheduler address (default: start a local cluster)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--family",
        action="append",
        metavar="NAME",
        help="run only this family of the config (repeatable; stored results are shared)",
    )
    s.add_argument(
        "--solver",
        action="append",
        metavar="LABEL",
        help="run only the solver entries with this label or name (repeatable)",
    )
    s.set_defaults(func=cmd_run, outputs={"db": "db"})
