"""Benchmark tables and plots from a results store (SAT-competition style).

Per family, class and solver configuration: cells, solved (an answer:
solved or unsatisfiable), PAR-2 (mean time, an unsolved cell counted as
twice the time limit), median time (same rule), mean nodes; and the
virtual best solver (per instance and repeat, the fastest configuration).

Times are read off one clock (``CLOCKS``): ``solve`` (the default: building
plus searching, what a solver costs once its process is warm), ``search``,
or ``total`` (the whole cell: loading, building, searching and verifying).
The column names say which (``par2_solve_s``).  A store written before the
clocks existed has no solve or search clock: those cells show empty times.
"""

from __future__ import annotations

import csv
import io
import json
import statistics
from collections import defaultdict

import solving
from puzzles.errors import UsageError

from .store import Store

ANSWERED = tuple(sorted(s.value for s in solving.ANSWERED))  # in SQL: status IN (...)
CLOCKS = {
    "solve": "build plus search (tables, model or encoding, then the search; no imports or kernel loading)",
    "search": "the search alone",
    "total": "the whole cell: loading, building, searching and verifying",
}


def _rows(store) -> list[dict]:
    """Stored results without the parts of split counts (their whole rows stand for them)."""
    return [r for r in store.results() if r["mode"] != "count-part"]


def clock_time(r: dict, clock: str) -> float | None:
    """A cell's time on ``clock``; None when the store has no such clock for it."""
    if clock == "total":
        return r["wall_s"]
    if clock == "search":
        return r.get("search_s")
    if r.get("build_s") is None or r.get("search_s") is None:
        return None
    return r["build_s"] + r["search_s"]


def _t(r: dict, clock: str = "solve") -> float | None:
    """PAR-2 time: the clock's time when answered, twice the limit otherwise."""
    return clock_time(r, clock) if r["status"] in ANSWERED else 2 * r["time_limit"]


def _stat(fn, ts: list) -> float | None:
    return None if not ts or any(t is None for t in ts) else fn(ts)


def summarise(rows: list[dict], clock: str = "solve") -> list[dict]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["family"], r.get("class") or "-", r["config"])].append(r)
    out = []
    for (fam, cls, conf), rs in sorted(groups.items()):
        nodes = [r["nodes"] for r in rs if r["nodes"] is not None]
        out.append(
            {
                "family": fam,
                "class": cls,
                "solver": conf,
                "cells": len(rs),
                "solved": sum(r["status"] in ANSWERED for r in rs),
                "par2_s": _stat(statistics.fmean, [_t(r, clock) for r in rs]),
                "median_s": _stat(statistics.median, [_t(r, clock) for r in rs]),
                "mean_nodes": statistics.fmean(nodes) if nodes else None,
                "verified": sum(1 for r in rs if r["verified"] == 1),
                "errors": sum(r["status"] in ("error", "memout") for r in rs),
                "mean_score": _mean_score([r.get("best_score") for r in rs]),
                "optimal": sum(1 for r in rs if r.get("optimal") == 1),
            }
        )
    # virtual best solver per family and class
    vbs: dict[tuple, dict[tuple, list[float]]] = defaultdict(lambda: defaultdict(list))
    top: dict[tuple, dict[tuple, list]] = defaultdict(lambda: defaultdict(list))
    limit: dict[tuple, float] = {}
    for r in rows:
        k = (r["family"], r.get("class") or "-")
        vbs[k][(r["instance"], r["repeat"])].append(_t(r, clock))
        top[k][(r["instance"], r["repeat"])].append(r.get("best_score"))
        limit[k] = r["time_limit"]
    for (fam, cls), per in sorted(vbs.items()):
        best = [min((t for t in ts if t is not None), default=None) for ts in per.values()]
        out.append(
            {
                "family": fam,
                "class": cls,
                "solver": "virtual best",
                "cells": len(best),
                "solved": sum(t is not None and t < 2 * limit[(fam, cls)] for t in best),
                "par2_s": _stat(statistics.fmean, best),
                "median_s": _stat(statistics.median, best),
                "mean_nodes": None,
                "verified": None,
                "errors": None,
                "optimal": None,
                "mean_score": _mean_score(
                    [max((v for v in vs if v is not None), default=None) for vs in top[(fam, cls)].values()]
                ),
            }
        )
    return out


def _mean_score(scores: list) -> float | None:
    """Mode best: the mean best score of the cells that have one (the virtual best: each instance's top)."""
    have = [v for v in scores if v is not None]
    return statistics.fmean(have) if have else None


LEGEND = (
    "Times on the {clock} clock ({means}); par2: mean, an unsolved cell counted as twice the time limit. "
    "solved: cells answered (solved or unsatisfiable). verified: cells whose returned solutions the verifier "
    "checked and accepted (a count returns none to check). errors: error or memout cells. mean_score (mode best): "
    "the mean best score; optimal: cells whose score is proven the best possible."
)
WINNERS_LEGEND = (
    "Times on the {clock} clock ({means}). best: the configuration that answered the most cells, "
    "then the lowest par2 (mean, an unsolved cell counted as twice the time limit); virtual best: "
    "each cell's fastest configuration."
)
COLUMNS = ["family", "class", "solver", "cells", "solved", "par2_s", "median_s", "mean_nodes", "verified", "errors"]


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1e5 else f"{v:.3e}"
    return str(v)


def _cell(r: dict, c: str) -> str:
    if c == "mean_score" and r.get(c) is not None:
        return f"{r[c]:.1f}"
    return _fmt(r[c])


def experiments_in(db: str) -> list[str]:
    """The experiments (config names) whose cells a database holds."""
    store = Store(db)
    try:
        return sorted({r["experiment"] for r in store.results() if r["experiment"] is not None})
    finally:
        store.close()


WINNER_COLUMNS = "family class cells best solved par2_s median_s virtual_best_solved virtual_best_median_s".split()


def winners(summary: list[dict]) -> list[dict]:
    """Per family and class, the single configuration that did best (most cells answered, then the lowest
    PAR-2, then the name; best-mode rows only where there are no others), beside the virtual best of all:
    where each solver family wins."""
    by: dict[tuple, list[dict]] = defaultdict(list)
    vbs: dict[tuple, dict] = {}
    for r in summary:
        k = (r["family"], r["class"])
        if r["solver"] == "virtual best":
            vbs[k] = r
        else:
            by[k].append(r)
    out = []
    for k, rs in sorted(by.items()):
        answers = [r for r in rs if not r["solver"].endswith("/best")]  # a best board answers another question
        rs = answers or rs
        best = min(
            rs, key=lambda r: (-r["solved"], r["par2_s"] if r["par2_s"] is not None else float("inf"), r["solver"])
        )
        v = vbs.get(k, {})
        out.append(
            {
                "family": k[0],
                "class": k[1],
                "cells": best["cells"],
                "best": best["solver"],
                "solved": best["solved"],
                "par2_s": best["par2_s"],
                "median_s": best["median_s"],
                "virtual_best_solved": v.get("solved"),
                "virtual_best_median_s": v.get("median_s"),
            }
        )
    return out


def table(db: str, fmt: str = "md", clock: str = "solve", experiment: str | None = None, view: str = "all") -> str:
    """The summary table on one clock; its time columns are named after it (``par2_solve_s``).
    ``experiment``: only that config's cells (a database may hold several).  ``view="winners"``: one row a
    family and class, its best single configuration beside the virtual best (``winners``)."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    store = Store(db)
    named = {
        "par2_s": f"par2_{clock}_s",
        "median_s": f"median_{clock}_s",
        "virtual_best_median_s": f"virtual_best_median_{clock}_s",
    }
    cells = _rows(store)
    if experiment is not None:
        have = sorted({r["experiment"] for r in cells})
        if experiment not in have:
            store.close()
            raise UsageError(f"table: {db} holds no experiment {experiment!r} (it holds {', '.join(have)})")
        cells = [r for r in cells if r["experiment"] == experiment]
    summary = summarise(cells, clock)
    store.close()
    if view == "winners":
        rows = [{named.get(k, k): v for k, v in r.items()} for r in winners(summary)]
        cols = [named.get(c, c) for c in WINNER_COLUMNS]
    else:
        rows = [{named.get(k, k): v for k, v in r.items()} for r in summary]
        cols = [named.get(c, c) for c in COLUMNS]
        if any(r["mean_score"] is not None for r in rows):  # mode best: the score is what the table is for
            cols += ["mean_score", "optimal"]
        else:
            rows = [{k: v for k, v in r.items() if k not in ("mean_score", "optimal")} for r in rows]
    if fmt == "json":
        return json.dumps({"clock": clock, "clock_means": CLOCKS[clock], "rows": rows}, indent=1)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()
    if fmt == "latex":
        lines = [
            "\\begin{tabular}{lll" + "r" * (len(cols) - 3) + "}",
            "\\hline",
            " & ".join(c.replace("_", "\\_") for c in cols) + " \\\\",
            "\\hline",
        ]
        for r in rows:
            lines.append(" & ".join(_cell(r, c).replace("_", "\\_") for c in cols) + " \\\\")
        lines += ["\\hline", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        lines.append("| " + " | ".join(_cell(r, c) for c in cols) + " |")
    legend = LEGEND if view != "winners" else WINNERS_LEGEND
    return "\n".join(lines) + "\n\n" + legend.format(clock=clock, means=CLOCKS[clock]) + "\n"


def plot(db: str, kind: str, output: str, clock: str = "solve") -> None:
    """A cactus plot (instances solved against time, one line a solver configuration) or a hardness
    plot (median time against inner colours, colour by solver, line style by board size, Owen's
    critical points dashed).  Legends stand outside the axes; the title names the experiment."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    store = Store(db)
    rows = _rows(store)
    store.close()
    experiments = sorted({r["experiment"] for r in rows if r.get("experiment")})
    what = ", ".join(experiments) or db
    confs = sorted({r["config"] for r in rows})
    cmap = plt.get_cmap("tab10" if len(confs) <= 10 else "tab20")
    colour = {c: cmap(i % cmap.N) for i, c in enumerate(confs)}
    markers = "osD^v<>pXh*"
    fig, ax = plt.subplots(figsize=(10, 5))
    if kind == "cactus":
        by: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            if r["status"] in ANSWERED and clock_time(r, clock) is not None:
                by[r["config"]].append(clock_time(r, clock))
        for i, (conf, ts) in enumerate(sorted(by.items())):
            ts.sort()
            ax.plot(range(1, len(ts) + 1), ts, marker=markers[i % len(markers)], ms=4, color=colour[conf], label=conf)
        ax.set_xlabel("instances solved")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(f"{clock} time per instance (s)")
        ax.set_yscale("log")
        ax.set_title(f"{what}: instances solved against {clock} time")
    elif kind == "hardness":
        pts: dict[tuple, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        crit: dict[tuple, list[tuple[int, float]]] = defaultdict(list)
        for r in rows:
            p = r["params"]
            if "inner_colors" not in p:
                continue
            board = f"{p['rows']}x{p['cols']}"
            if _t(r, clock) is not None:
                pts[(board, r["config"])][p["inner_colors"]].append(_t(r, clock))
            if r.get("estimate") is not None:
                crit[board].append((p["inner_colors"], r["estimate"]))
        boards = sorted({b for b, _ in pts})
        styles = ["-", "--", ":", "-."]
        style = {b: styles[i % len(styles)] for i, b in enumerate(boards)}
        for (board, conf), d in sorted(pts.items()):
            xs = sorted(d)
            ax.plot(
                xs,
                [statistics.median(d[x]) for x in xs],
                marker="o",
                ms=4,
                color=colour[conf],
                ls=style[board],
                label=f"{conf}, {board}",
            )
        for board, est in crit.items():
            # the estimated critical point: where the expected count crosses 1
            above = sorted({x for x, e in est if e >= 1})
            below = sorted({x for x, e in est if e < 1})
            if above and below:
                x = (max(above) + min(below)) / 2
                ax.axvline(x, ls=style.get(board, "--"), color="grey", lw=1)
                ax.annotate(
                    f"critical {board}",
                    (x, 1),
                    xycoords=("data", "axes fraction"),
                    rotation=90,
                    va="top",
                    ha="right",
                    fontsize=8,
                    color="grey",
                )
        ax.set_xlabel("inner colours")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(f"median {clock} time (s, unsolved = 2x limit)")
        ax.set_yscale("log")
        ax.set_title(f"{what}: hardness against inner colours (colour: solver; line style: board)")
    else:
        raise UsageError(f"unknown plot kind {kind!r} (cactus, hardness)")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    from puzzles.outputs import atomic_save

    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)
