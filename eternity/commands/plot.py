"""`eternity plot`: plots from a results store."""

from __future__ import annotations

from eternity.commands.common import _db
from eternity.commands.table import CLOCK_NAMES
from puzzles.errors import UsageError


def cmd_plot(a) -> int:
    """Run `eternity plot` with the parsed arguments ``a``; returns the exit status."""
    if a.kind == "owen":
        return _owen(a)
    if a.kind in ("scatter", "quantile"):
        return _pair(a)
    if a.configs:
        raise UsageError("plot --configs goes with --kind scatter")
    from experiments.plots import plot

    plot(_db(a.db), a.kind, a.output, a.clock)
    print(f"wrote the {a.kind} plot of {a.db} to {a.output}")
    return 0


def _pair(a) -> int:
    """The scatter of two configurations cell by cell, or the quantile plot of every configuration."""
    from experiments import pair_plots
    from experiments.cells import cells

    rows = cells(_db(a.db))
    what = ", ".join(sorted({r["experiment"] for r in rows if r.get("experiment")})) or a.db
    if a.kind == "scatter":
        names = [c.strip() for c in (a.configs or "").split(",") if c.strip()]
        if len(names) != 2:
            confs = ", ".join(sorted({r["config"] for r in rows}))
            raise UsageError(f"plot --kind scatter: --configs A,B names the two configurations (there are: {confs})")
        pair_plots.scatter(rows, names[0], names[1], a.clock, a.output, what)
    else:
        pair_plots.quantile(rows, a.clock, a.output, what)
    print(f"wrote the {a.kind} plot of {a.db} to {a.output}")
    return 0


def _owen(a) -> int:
    """Owen's model against the counts of a run of ``owen_counts.toml``: the plot, and its table printed."""
    from experiments.studies import owen_counts

    pts = owen_counts.points(_db(a.db))
    if not any(q["expected"] for q in pts):
        raise UsageError(f"{a.db}: no board with Owen's expected count (a run of owen_counts.toml has them)")
    owen_counts.plot(pts, a.output)
    print(owen_counts.table(pts), end="")
    s = owen_counts.summary(pts)
    print(
        f"\n{s['boards']} boards, {s['measured']} measured; {s['beyond_reach_measured']} measured beyond the native "
        f"count's reach in {owen_counts.REACH_S:.0f} s; the estimate's 95% interval holds the exact count on "
        f"{s['covered']} of the {s['both']} boards counted both ways"
    )
    print(f"wrote the owen plot of {a.db} to {a.output}")
    return 0


def add(sub) -> None:
    """Declare `eternity plot` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "plot",
        help="cactus, hardness, phase, clues, poly-phase, map, owen, scatter or quantile plot from a results database",
    )
    s.add_argument("db")
    s.add_argument(
        "--kind",
        choices=["cactus", "hardness", "phase", "clues", "poly-phase", "map", "owen", "scatter", "quantile"],
        default="cactus",
        help="poly-phase: median time against pieces, a panel a polyform set, its critical size marked; owen: "
        "Owen's expected counts against measured ones (a run of owen_counts.toml), its table printed; scatter: "
        "two configurations (--configs A,B) cell by cell, log axes; quantile: each configuration's answered "
        "times in order against the share of its cells (PNG, PDF or SVG by the suffix of -o)",
    )
    s.add_argument("--configs", metavar="A,B", help="with --kind scatter: the two configurations, by label")
    s.add_argument("-o", "--output", required=True)
    s.add_argument("--clock", choices=CLOCK_NAMES, default="solve", help="as for table")
    s.set_defaults(func=cmd_plot, outputs={"output": "image"})
