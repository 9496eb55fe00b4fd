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
from collections import Counter, defaultdict
from typing import Any

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
        groups[(r["family"], _cls(r), r["config"])].append(r)
    out = []
    for (fam, cls, conf), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]), kv[0][2])):
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
                "claimed": _claimed(rs),
                "wrong": sum(r["status"] == "wrong" for r in rs),
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
        k = (r["family"], _cls(r))
        vbs[k][(r["instance"], r["repeat"])].append(_t(r, clock))
        top[k][(r["instance"], r["repeat"])].append(r.get("best_score"))
        limit[k] = r["time_limit"]
    for (fam, cls), per in sorted(vbs.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]))):
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
                "claimed": None,
                "wrong": None,
                "errors": None,
                "optimal": None,
                "mean_score": _mean_score(
                    [max((v for v in vs if v is not None), default=None) for vs in top[(fam, cls)].values()]
                ),
            }
        )
    return out


def _cls(r: dict):
    c = r.get("class")
    return "-" if c is None or c == "" else c


def _natural(v) -> tuple:
    """Sort key of a class or a point: numbers by value (4 before 10), then names."""
    try:
        return (0, float(v), "")
    except (TypeError, ValueError):
        return (1, 0.0, str(v))


def by_point(rows: list[dict], by: str) -> list[dict]:
    """The cells with their class replaced by their value of the family parameter ``by`` (``inner_colors``,
    ``clues``): the tables then have a row a point of the sweep instead of a row a class."""
    out = []
    for r in rows:
        v = (r.get("params") or {}).get(by, 0 if by == "clues" else "-")
        out.append({**r, "class": v})
    return out


def _claimed(rs: list[dict]) -> int | None:
    """Answered cells whose answer rests on an engine's word; None for a store written before answers
    carried their evidence."""
    answered = [r for r in rs if r["status"] in ANSWERED]
    if answered and all(r.get("evidence") is None for r in answered):
        return None
    return sum(solving.is_claim(r.get("evidence")) for r in answered)


def _mean_score(scores: list) -> float | None:
    """Mode best: the mean best score of the cells that have one (the virtual best: each instance's top)."""
    have = [v for v in scores if v is not None]
    return statistics.fmean(have) if have else None


LEGEND = (
    "Times on the {clock} clock ({means}); par2: mean, an unsolved cell counted as twice the time limit. "
    "solved: cells answered (solved or unsatisfiable). verified: cells whose returned solutions the verifier "
    "checked and accepted (a count returns none to check). claimed: of the solved, the cells whose answer rests "
    "on an engine's word alone (an unsatisfiable or a count with no certificate, exhaustion or checked models; "
    "blank: stored before answers carried their evidence). wrong: answers the runner refuted (unsatisfiable on "
    "a board with a planted solution, a count other evidence contradicts); not counted as solved. errors: "
    "error or memout cells. mean_score (mode best): "
    "the mean best score; optimal: cells whose score is proven the best possible."
)
WINNERS_LEGEND = (
    "Times on the {clock} clock ({means}). best: the configuration that answered the most cells, "
    "then the lowest par2 (mean, an unsolved cell counted as twice the time limit); virtual best: "
    "each cell's fastest configuration."
)
PEAKS_LEGEND = (
    "Times on the {clock} clock ({means}). peak: the inner-colour count of a configuration's highest median "
    "time (an unsolved cell counted as twice the time limit); critical: Owen's critical point of the board size "
    "(eternity estimate --critical); off_by: peak minus critical, in inner colours. peak_by_nodes: the same by the "
    "median of the nodes or placements a solver reports (a time of milliseconds is mostly set-up; a time-out "
    "hides how far past the limit a search would go, its placements do not)."
)
COLUMNS = [
    "family", "class", "solver", "cells", "solved", "par2_s", "median_s", "mean_nodes", "verified", "claimed", "wrong",
    "errors",
]  # fmt: skip


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


def time_limits_in(db: str) -> dict[str, list[float]]:
    """Each experiment's distinct time limits: a config whose limit changed between runs stores cells of
    both, which a table pools (each unsolved cell counted at twice its own limit)."""
    store = Store(db)
    try:
        out: dict[str, set[float]] = defaultdict(set)
        for r in store.results():
            if r["experiment"] is not None and r["time_limit"] is not None:
                out[r["experiment"]].add(float(r["time_limit"]))
        return {k: sorted(v) for k, v in sorted(out.items())}
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
    for k, rs in sorted(by.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]))):
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


PEAK_COLUMNS = (
    "family board solver peak_inner_colors peak_median_s peak_solved critical off_by peak_by_nodes nodes_off_by"
).split()


def peaks(rows: list[dict], clock: str = "solve") -> list[dict]:
    """Per family and configuration of a sweep over inner colours: the point of the highest median time
    (PAR-2 rule; ties: the higher par2, then the fewer colours), beside Owen's critical point of the board
    size (``critical_points``) and how far apart they are: where the search is hardest against where the
    model expects about one solution (seeds 000 and 001)."""
    crit = critical_points(rows)
    by: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
    work: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))  # placements (or nodes), where reported
    for r, board, x in _swept(rows, "inner_colors"):
        by[(r["family"], board, r["config"])][x].append(_t(r, clock))
        work[(r["family"], board, r["config"])][x].append(r["nodes"])
    out = []
    for (fam, size, conf), pts in sorted(by.items()):
        if any(t is None for ts in pts.values() for t in ts):
            continue
        x = max(pts, key=lambda x: (statistics.median(pts[x]), statistics.fmean(pts[x]), -x))
        ts = pts[x]
        c = crit.get(size)
        limit2 = max(r["time_limit"] for r in rows) * 2
        w = work[(fam, size, conf)]
        xn = None
        if w and all(n is not None for ns in w.values() for n in ns):  # the search's own measure of its work
            xn = max(w, key=lambda x: (statistics.median(w[x]), -x))
        out.append(
            {
                "family": fam,
                "board": size,
                "solver": conf,
                "peak_inner_colors": x,
                "peak_median_s": statistics.median(ts),
                "peak_solved": f"{sum(t < limit2 for t in ts)}/{len(ts)}",
                "critical": None if c is None else round(c, 2),
                "off_by": None if c is None else round(x - c, 2),
                "peak_by_nodes": xn,
                "nodes_off_by": None if c is None or xn is None else round(xn - c, 2),
            }
        )
    return out


def table(
    db: str,
    fmt: str = "md",
    clock: str = "solve",
    experiment: str | None = None,
    view: str = "all",
    by: str | None = None,
) -> str:
    """The summary table on one clock; its time columns are named after it (``par2_solve_s``).
    ``experiment``: only that config's cells (a database may hold several).  ``view="winners"``: one row a
    family and class, its best single configuration beside the virtual best (``winners``).  ``by``: a row a
    value of that family parameter (``inner_colors``, ``clues``) in place of the class column."""
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
    if by is not None:
        known = sorted({k for r in cells for k in (r.get("params") or {})} | {"clues"})
        if by not in known:
            store.close()
            raise UsageError(f"table: --by {by!r}: no such family parameter in {db} (it has {', '.join(known)})")
        cells = by_point(cells, by)
        named["class"] = by
    summary = summarise(cells, clock)
    store.close()
    if view == "peaks":
        named["peak_median_s"] = f"peak_median_{clock}_s"
        rows = [{named.get(k, k): v for k, v in r.items()} for r in peaks(cells, clock)]
        if not rows:
            raise UsageError(f"table --peaks: {db} holds no sweep over inner colours")
        cols = [named.get(c, c) for c in PEAK_COLUMNS]
    elif view == "winners":
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
    legend = {"winners": WINNERS_LEGEND, "peaks": PEAKS_LEGEND}.get(view, LEGEND)
    return "\n".join(lines) + "\n\n" + legend.format(clock=clock, means=CLOCKS[clock]) + "\n"


def plot(db: str, kind: str, output: str, clock: str = "solve") -> None:
    """A cactus plot (instances solved against time, one line a solver configuration), a hardness
    plot (median time against inner colours, colour by solver, line style by board size, Owen's
    critical points dashed), a phase or clues plot (median time against inner colours or against
    the clue density, one panel a board size, Owen's critical point marked) or a map (the winning
    configuration at every point of the sweeps).  Legends stand outside the axes; the title names
    the experiment."""
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
    if kind in SWEEPS or kind == "map":
        fig = _sweep_plot(rows, kind, clock, what, colour) if kind in SWEEPS else _map_plot(rows, clock, what)
        from puzzles.outputs import atomic_save

        atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
        plt.close(fig)
        return
    fig, ax = plt.subplots(figsize=(10, 5))
    if kind == "cactus":
        by: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        for r in rows:
            if r["status"] in ANSWERED and clock_time(r, clock) is not None:
                by[r["config"]].append((clock_time(r, clock), solving.is_claim(r.get("evidence"))))
        for i, (conf, pts) in enumerate(sorted(by.items())):
            pts.sort()
            ts = [t for t, _ in pts]
            claims = sum(c for _, c in pts)
            label = conf + (f" ({claims} of {len(ts)} claimed)" if claims else "")
            ax.plot(range(1, len(ts) + 1), ts, marker=markers[i % len(markers)], ms=4, color=colour[conf], label=label)
            xs = [k + 1 for k, (_, c) in enumerate(pts) if c]  # an answer on an engine's word: a hollow marker
            if xs:
                ax.plot(xs, [ts[k - 1] for k in xs], ls="none", marker=markers[i % len(markers)], ms=7,
                        mfc="white", mec=colour[conf])  # fmt: skip
        ax.set_xlabel("instances solved")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(f"{clock} time per instance (s)")
        ax.set_yscale("log")
        ax.set_title(f"{what}: instances solved against {clock} time (hollow: claimed, not checked)")
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
                _mark_critical(ax, x, f"critical {board}", style.get(board, "--"), 1.0)
        ax.set_xlabel("inner colours")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(f"median {clock} time (s, unsolved = 2x limit)")
        ax.set_yscale("log")
        ax.set_title(f"{what}: hardness against inner colours (colour: solver; line style: board)")
    else:
        raise UsageError(f"unknown plot kind {kind!r} ({', '.join(PLOT_KINDS)})")
    ax.grid(alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    from puzzles.outputs import atomic_save

    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)


def _mark_critical(ax, x: float, text: str, ls: str, top: float) -> None:
    """Owen's critical point on an axis of inner colours: a grey vertical line, labelled along it."""
    ax.axvline(x, ls=ls, color="grey", lw=1)
    ax.annotate(text, (x, top), xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right", fontsize=8,
                color="grey")  # fmt: skip


SWEEPS = {"phase": "inner_colors", "clues": "clues"}  # plot kind: the family parameter on its x axis
PLOT_KINDS = ("cactus", "hardness", *SWEEPS, "map")


def _board(p: dict) -> str:
    return f"{p['rows']}x{p['cols']}"


def _swept(rows: list[dict], param: str):
    """(cell, board, x) of the edge-board cells of a sweep over ``param``; the sweep over inner colours
    leaves out clue and unsolvable boards, which are sweeps of their own."""
    for r in rows:
        p = r.get("params") or {}
        if "inner_colors" not in p or "rows" not in p:
            continue
        if param == "inner_colors" and (p.get("clues") or p.get("unsat")):
            continue
        yield r, _board(p), p.get(param, 0)


def _points(rows: list[dict], param: str, clock: str) -> dict:
    """{board: {config: {x: [PAR-2 times]}}} of a sweep over ``param`` (``_swept``)."""
    out: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r, board, x in _swept(rows, param):
        t = _t(r, clock)
        if t is not None:
            out[board][r["config"]][x].append(t)
    return out


def critical_points(rows: list[dict]) -> dict[str, float]:
    """Owen's critical inner-colour count of each board size and frame-colour count of the stored edge
    boards (``puzzles.estimate.critical_size``, as ``eternity estimate --critical``)."""
    from puzzles.estimate import critical_size

    sizes = {
        (p["rows"], p["cols"], p["frame_colors"])
        for r in rows
        if "frame_colors" in (p := (r.get("params") or {})) and "rows" in p
    }
    out = {}
    for rr, cc, f in sorted(sizes):
        c = critical_size(rr, cc, f)["critical_inner_colors"]
        if c is not None:
            out[f"{rr}x{cc}"] = c
    return out


def _sweep_plot(rows: list[dict], kind: str, clock: str, what: str, colour: dict):
    """Median time (an unsolved cell counted as twice the limit) against the sweep's parameter, one panel
    a board size, one line a configuration; the phase plot marks Owen's critical point of each size."""
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    param = SWEEPS[kind]
    pts = _points(rows, param, clock)
    swept = any(len({x for xs in per.values() for x in xs}) > 1 for per in pts.values())
    if not pts or not swept:  # one point is no sweep: a plot of it would be a dot per line
        raise UsageError(
            f"plot --kind {kind}: the store holds no edge boards swept over {param} (at least two values of it "
            f"for one board size{'; a clue sweep is a family with clues = [..]' if kind == 'clues' else ''})"
        )
    boards = sorted(pts, key=lambda b: tuple(map(int, b.split("x"))))
    crit = critical_points(rows) if kind == "phase" else {}
    limit = max(r["time_limit"] for r in rows)
    fig, axes = plt.subplots(1, len(boards), figsize=(3.6 * len(boards) + 2, 4), sharey=True, squeeze=False)
    markers = "osD^v<>pXh*"
    for ax, board in zip(axes[0], boards):
        for i, (conf, d) in enumerate(sorted(pts[board].items())):
            xs = sorted(d)
            shown = [100 * x for x in xs] if kind == "clues" else xs
            ys = [statistics.median(d[x]) for x in xs]
            ax.plot(shown, ys, marker=markers[i % len(markers)], ms=4, color=colour[conf], label=conf)
        if board in crit:
            _mark_critical(ax, crit[board], f"critical {crit[board]:.2f}", "--", 0.98)
        ax.axhline(2 * limit, color="black", lw=0.6, ls=":")
        ax.set_title(board)
        ax.set_xlabel("inner colours" if kind == "phase" else "cells given as clues (%)")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_yscale("log")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel(f"median {clock} time (s; unsolved = 2x limit, dotted)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    for ax in axes[0][1:]:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            seen.setdefault(lab, h)
    fig.legend(list(seen.values()), list(seen), fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 0.9))
    fig.suptitle(f"{what}: median time against {'inner colours' if kind == 'phase' else 'clue density'}")
    fig.tight_layout()
    return fig


def point_winners(rows: list[dict], param: str, clock: str = "solve") -> dict[tuple[str, Any], dict]:
    """{(board, x): winner row} at every point of a sweep: the configuration that answered the most cells,
    then the lowest PAR-2 (``winners``), beside the virtual best."""
    cells = [{**r, "family": board, "class": x} for r, board, x in _swept(rows, param)]
    return {(w["family"], w["class"]): w for w in winners(summarise(cells, clock))}


def _map_plot(rows: list[dict], clock: str, what: str):
    """The winning configuration at every (board size, inner colours) and, where the store holds a clue
    sweep, every (board size, clue density): one coloured square a point, labelled with the winner and
    the cells it answered."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    sweeps = {param: point_winners(rows, param, clock) for param in ("inner_colors", "clues")}
    # a sweep is drawn where a board has two points or more; a clue sweep's plain boards (one colour
    # count a board) are its 0% column, not a panel of their own
    many = {param: any(n > 1 for n in Counter(b for b, _ in w).values()) for param, w in sweeps.items()}
    panels = [(param, w) for param, w in sweeps.items()
              if w and (many[param] or (param == "inner_colors" and not many["clues"]))]  # fmt: skip
    if not panels:
        raise UsageError("plot --kind map: the store holds no edge boards swept over inner colours or clues")
    confs = sorted({v["best"] if v["solved"] else "none" for _, w in panels for v in w.values()})
    cmap = plt.get_cmap("tab10")
    colour = {c: (cmap(i % 10) if c != "none" else (0.85, 0.85, 0.85, 1)) for i, c in enumerate(confs)}
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels) + 2, 4), squeeze=False)
    for ax, (param, w) in zip(axes[0], panels):
        boards = sorted({b for b, _ in w}, key=lambda b: tuple(map(int, b.split("x"))))
        xs = sorted({x for _, x in w}, key=_natural)
        for (b, x), v in w.items():
            i, j = boards.index(b), xs.index(x)
            name = v["best"] if v["solved"] else "none"
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, color=colour[name], alpha=0.85))
            ax.text(j, i, f"{name.split('/')[0]}\n{v['solved']}/{v['cells']}", ha="center", va="center", fontsize=7)
        ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_ylim(-0.5, len(boards) - 0.5)
        ax.set_xticks(range(len(xs)))
        ax.set_xticklabels([f"{100 * x:g}%" if param == "clues" else str(x) for x in xs])
        ax.set_yticks(range(len(boards)))
        ax.set_yticklabels(boards)
        ax.set_xlabel("inner colours" if param == "inner_colors" else "cells given as clues")
        ax.set_ylabel("board")
        ax.set_title("winner by inner colours" if param == "inner_colors" else "winner by clue density")
    fig.legend(
        handles=[Patch(color=colour[c], label=c) for c in confs],
        fontsize=8,
        loc="upper left",
        bbox_to_anchor=(1.0, 0.9),
    )
    fig.suptitle(f"{what}: the winning configuration (most cells answered, then the lowest PAR-2 on {clock})")
    fig.tight_layout()
    return fig
