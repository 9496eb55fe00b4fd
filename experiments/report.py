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

from .store import Store

ANSWERED = ("solved", "unsatisfiable")
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
        out.append({
            "family": fam, "class": cls, "solver": conf, "cells": len(rs),
            "solved": sum(r["status"] in ANSWERED for r in rs),
            "par2_s": _stat(statistics.fmean, [_t(r, clock) for r in rs]),
            "median_s": _stat(statistics.median, [_t(r, clock) for r in rs]),
            "mean_nodes": statistics.fmean(nodes) if nodes else None,
            "verified": sum(1 for r in rs if r["verified"] == 1),
            "errors": sum(r["status"] in ("error", "memout") for r in rs),
        })
    # virtual best solver per family and class
    vbs: dict[tuple, dict[tuple, list[float]]] = defaultdict(lambda: defaultdict(list))
    limit: dict[tuple, float] = {}
    for r in rows:
        k = (r["family"], r.get("class") or "-")
        vbs[k][(r["instance"], r["repeat"])].append(_t(r, clock))
        limit[k] = r["time_limit"]
    for (fam, cls), per in sorted(vbs.items()):
        best = [min((t for t in ts if t is not None), default=None) for ts in per.values()]
        out.append({
            "family": fam, "class": cls, "solver": "virtual best", "cells": len(best),
            "solved": sum(t is not None and t < 2 * limit[(fam, cls)] for t in best),
            "par2_s": _stat(statistics.fmean, best), "median_s": _stat(statistics.median, best),
            "mean_nodes": None, "verified": None, "errors": None,
        })
    return out


COLUMNS = ["family", "class", "solver", "cells", "solved", "par2_s", "median_s", "mean_nodes", "verified", "errors"]


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1e5 else f"{v:.3e}"
    return str(v)


def table(db: str, fmt: str = "md", clock: str = "solve") -> str:
    """The summary table on one clock; its time columns are named after it (``par2_solve_s``)."""
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    store = Store(db)
    named = {"par2_s": f"par2_{clock}_s", "median_s": f"median_{clock}_s"}
    rows = [{named.get(k, k): v for k, v in r.items()} for r in summarise(_rows(store), clock)]
    store.close()
    cols = [named.get(c, c) for c in COLUMNS]
    if fmt == "json":
        return json.dumps({"clock": clock, "clock_means": CLOCKS[clock], "rows": rows}, indent=1)
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.DictWriter(buf, cols, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        return buf.getvalue()
    if fmt == "latex":
        lines = ["\\begin{tabular}{lll" + "r" * (len(cols) - 3) + "}", "\\hline",
                 " & ".join(c.replace("_", "\\_") for c in cols) + " \\\\", "\\hline"]
        for r in rows:
            lines.append(" & ".join(_fmt(r[c]).replace("_", "\\_") for c in cols) + " \\\\")
        lines += ["\\hline", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        lines.append("| " + " | ".join(_fmt(r[c]) for c in cols) + " |")
    return "\n".join(lines) + "\n"


def plot(db: str, kind: str, output: str, clock: str = "solve") -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    store = Store(db)
    rows = _rows(store)
    store.close()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    if kind == "cactus":
        by: dict[str, list[float]] = defaultdict(list)
        for r in rows:
            if r["status"] in ANSWERED and clock_time(r, clock) is not None:
                by[r["config"]].append(clock_time(r, clock))
        for conf, ts in sorted(by.items()):
            ts.sort()
            ax.plot(range(1, len(ts) + 1), ts, marker="o", ms=3, label=conf)
        ax.set_xlabel("instances solved")
        ax.set_ylabel(f"{clock} time per instance (s)")
        ax.set_yscale("log")
        ax.set_title("cactus plot")
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
        for (board, conf), d in sorted(pts.items()):
            xs = sorted(d)
            ax.plot(xs, [statistics.median(d[x]) for x in xs], marker="o", label=f"{board} {conf}")
        for board, est in crit.items():
            # the estimated critical point: where the expected count crosses 1
            above = sorted({x for x, e in est if e >= 1})
            below = sorted({x for x, e in est if e < 1})
            if above and below:
                ax.axvline((max(above) + min(below)) / 2, ls="--", color="grey")
                ax.text((max(above) + min(below)) / 2, ax.get_ylim()[1], f" critical {board}", va="top", fontsize=8)
        ax.set_xlabel("inner colours")
        ax.set_ylabel(f"median {clock} time (s, unsolved = 2x limit)")
        ax.set_yscale("log")
        ax.set_title("hardness against colours")
    else:
        raise ValueError(f"unknown plot kind {kind!r} (cactus, hardness)")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    fig.tight_layout()
    from puzzles.outputs import atomic_save

    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120))
    plt.close(fig)
