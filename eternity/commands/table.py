"""`eternity table`: benchmark tables from a results store."""

from __future__ import annotations

import sys

from eternity.commands.common import _db
from puzzles.errors import UsageError

CLOCK_NAMES = ("solve", "search", "total", "cpu")  # experiments.report.CLOCKS, without importing the report here


def cmd_table(a) -> int:
    """Run `eternity table` with the parsed arguments ``a``; returns the exit status."""
    from experiments.report import experiments_in, table, time_limits_in

    db = _db(a.db)
    names = experiments_in(db)
    if a.experiment is None and len(names) > 1:
        print(
            f"eternity table: {a.db} holds {len(names)} experiments ({', '.join(names)}), pooled here; "
            "--experiment NAME shows one",
            file=sys.stderr,
        )
    for name, limits in time_limits_in(db).items():
        if len(limits) > 1 and a.experiment in (None, name):
            print(
                f"eternity table: experiment {name} holds cells run under {len(limits)} time limits "
                f"({', '.join(f'{t:g} s' for t in limits)}), pooled in its rows (a config changed between runs); "
                "an unsolved cell counts at twice its own limit",
                file=sys.stderr,
            )
    if a.compare:
        from experiments.compare import compare, render

        if a.peaks or a.winners or a.pivot or a.by:
            raise UsageError("table --compare: a comparison of two configurations stands alone")
        if a.format not in ("md", "json"):
            raise UsageError("table --compare: --format md or json")
        first, second = a.compare
        sys.stdout.write(render(compare(db, first, second, a.clock, a.experiment), a.format, a.clock))
        return 0
    if a.provenance:
        from experiments.report import provenance

        if a.peaks or a.winners or a.pivot or a.by or a.columns:
            raise UsageError("table --provenance: a table of its own (one row a configuration)")
        if a.format not in ("md", "csv", "json"):
            raise UsageError("table --provenance: --format md, csv or json")
        sys.stdout.write(provenance(db, a.format, a.experiment))
        return 0
    if sum(map(bool, (a.peaks, a.winners, a.pivot))) > 1:
        raise UsageError("table: --peaks, --winners and --pivot are three tables; ask for one at a time")
    if a.pivot:
        from experiments.pivot import pivot

        if a.by:
            raise UsageError("table --pivot: a row is an instance; --by is for the summary table")
        sys.stdout.write(pivot(db, a.format, a.clock, a.experiment))
        return 0
    columns = [c.strip() for c in a.columns.split(",") if c.strip()] if a.columns else None
    if columns and (a.peaks or a.winners):
        raise UsageError("table --columns: the summary's columns; --peaks and --winners have their own")
    if a.caption and a.format != "latex":
        raise UsageError("table --caption goes with --format latex")
    view = "peaks" if a.peaks else "winners" if a.winners else "all"
    sys.stdout.write(table(db, a.format, a.clock, a.experiment, view, a.by, columns, a.caption))
    return 0


def add(sub) -> None:
    """Declare `eternity table` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("table", help="benchmark table from a results database")
    s.add_argument("db")
    s.add_argument(
        "--format", choices=["md", "csv", "latex", "json"], default="md", help="md (the default), csv, latex or json"
    )
    s.add_argument(
        "--experiment",
        metavar="NAME",
        help="only this experiment's cells (a config's name); a database "
        "that holds several pools them otherwise, and says so",
    )
    s.add_argument(
        "--clock",
        choices=CLOCK_NAMES,
        default="solve",
        help="the time the table ranks by: solve (build + search, the default), search, total "
        "(the whole cell: loading, building, searching, verifying), or cpu (the cell's CPU time, its child "
        "processes included)",
    )
    s.add_argument(
        "--winners",
        action="store_true",
        help="one row a family and class: its best single configuration beside the virtual best",
    )
    s.add_argument(
        "--peaks",
        action="store_true",
        help="one row a family and configuration of a sweep over inner colours: where its median time peaks, "
        "beside Owen's critical point",
    )
    s.add_argument(
        "--pivot",
        action="store_true",
        help="instance by configuration: each cell its time or a mark (T limit, X wrong, E error, U not "
        "installed), then solved counts and PAR-2",
    )
    s.add_argument(
        "--compare", nargs=2, metavar=("A", "B"), help="two configurations pair by pair, as `eternity compare DB A B`"
    )
    s.add_argument(
        "--by",
        metavar="PARAM",
        help="a row a value of this family parameter in place of the class, one row a point of a sweep: rows, "
        "cols, frame_colors, inner_colors, clues (edge); size, pieces (polyform sets); builtin; or any key of a "
        "plugin family's params (an unknown one is refused with the parameters the database holds)",
    )
    s.add_argument(
        "--columns",
        metavar="A,B,...",
        help="the summary's columns by name, in this order (e.g. family,class,solver,solved,par2_solve_s); an "
        "unknown name is refused with the names there are; the footnote defines only the columns shown",
    )
    s.add_argument(
        "--provenance",
        action="store_true",
        help="what each configuration was measured with: its engines' versions, the workbench's stack, the "
        "machine (CPU, cores, OS) and the hosts or Dask workers",
    )
    s.add_argument("--caption", help="the LaTeX table's caption (--format latex; default: the database and clock)")
    s.set_defaults(func=cmd_table)
