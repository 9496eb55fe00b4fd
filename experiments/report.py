"""Benchmark tables and plots from a results store (SAT-competition style).

Per family, class and solver configuration: cells, solved (an answer:
solved or unsatisfiable), PAR-2 (mean time, an unsolved cell counted as
twice the time limit), median time (an unsolved cell counted as longer than
any: "> LIMIT" when the middle is unsolved), mean nodes; and the
virtual best solver (per instance and repeat, the fastest configuration).

Times are read off one clock (``CLOCKS``): ``solve`` (the default: building
plus searching, what a solver costs once its process is warm), ``search``,
or ``total`` (the whole cell: loading, building, searching and verifying).
The column names say which (``par2_solve_s``).  A store written before the
clocks existed has no solve or search clock: those cells show empty times.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections import defaultdict
from pathlib import Path

import solving
from puzzles.errors import UsageError

from .cells import (
    ANSWERED,
    CLOCKS,
    OVERLOADED_WAIT,
    _cls,
    _csv,
    _median,
    _natural,
    _rows,
    _stat,
    _t,
    clock_time,
    overloaded,
    unavailable_reasons,
)
from .store import Store
from .table_text import COLUMN_NOTES, ENGINE_COLUMNS, _cell, _fmt, _latex, notes_for  # noqa: F401


def _engine(r: dict) -> dict:
    """A cell's engine statistics (the stored JSON), with the conflicts column of stores written before it."""
    out = json.loads(r["engine_stats"]) if r.get("engine_stats") else {}
    if out.get("conflicts") is None and r.get("conflicts") is not None:
        out["conflicts"] = r["conflicts"]
    return out


def _engine_means(rs: list[dict]) -> dict:
    """Mean of each engine statistic over the cells that report it (the sizes are the same on every repeat of an
    instance; conflicts, decisions and propagations are those of the cells as they ended, solved or not)."""
    stats = [_engine(r) for r in rs]
    out = {}
    for k in ENGINE_COLUMNS:
        vs = [st[k] for st in stats if st.get(k) is not None]
        out[f"mean_{k}"] = statistics.fmean(vs) if vs else None
    return out


def summarise(rows: list[dict], clock: str = "solve") -> list[dict]:
    """The summary table's rows: one a family, class and configuration, then the virtual best of each family and
    class; times on ``clock`` (``CLOCKS``; another name is a ``UsageError``)."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["family"], _cls(r), r["config"])].append(r)
    out = []
    for (fam, cls, conf), rs in sorted(groups.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]), kv[0][2])):
        nodes = [r["nodes"] for r in rs if r["nodes"] is not None]
        ts = [_t(r, clock) for r in rs]
        out.append(
            {
                "family": fam,
                "class": cls,
                "solver": conf,
                "cells": len(rs),
                "solved": sum(r["status"] in ANSWERED for r in rs),
                "par2_s": _stat(statistics.fmean, ts),
                "median_s": _median(ts, max(r["time_limit"] for r in rs)),
                "mean_nodes": statistics.fmean(nodes) if nodes else None,
                "verified": sum(1 for r in rs if r["verified"] == 1),
                "claimed": _claimed(rs),
                "approximate": sum(r["status"] in ANSWERED and _approximate(r) for r in rs),
                "wrong": sum(r["status"] == "wrong" for r in rs),
                "errors": sum(r["status"] in ("error", "memout", "unavailable") for r in rs),
                "unavailable": sum(r["status"] == "unavailable" for r in rs),
                "mean_score": _mean_score([r.get("best_score") for r in rs]),
                "optimal": sum(1 for r in rs if r.get("optimal") == 1),
                "overloaded": sum(overloaded(r) for r in rs),
                **_spread(ts, [clock_time(r, clock) for r in rs if r["status"] in ANSWERED]),
                **_engine_means(rs),
            }
        )
    _mark_best(out, rows, clock)
    # virtual best solver per family and class
    vbs: dict[tuple, dict[tuple, list[float | None]]] = defaultdict(lambda: defaultdict(list))
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
                "median_s": _median(best, limit[(fam, cls)]),
                "mean_nodes": None,
                "verified": None,
                "claimed": None,
                "approximate": None,
                "wrong": None,
                "errors": None,
                "unavailable": None,
                "optimal": None,
                "overloaded": None,
                "median_iqr": None,
                "par2_ci": None,
                "vs_best": None,
                **dict.fromkeys(f"mean_{k}" for k in ENGINE_COLUMNS),
                "mean_score": _mean_score(
                    [max((v for v in vs if v is not None), default=None) for vs in top[(fam, cls)].values()]
                ),
            }
        )
    return out


def _spread(par2: list, answered: list) -> dict:
    """A configuration's spread: the interquartile range of its answered cells' times, and a bootstrap 95%
    interval of its PAR-2 (resampling its cells); None with fewer than two."""
    from .significance import bootstrap_mean, iqr

    ok = [t for t in answered if t is not None]
    q = iqr(ok)
    ci = None if any(t is None for t in par2) else bootstrap_mean(par2)
    return {
        "median_iqr": None if q is None else f"{q[0]:.3g}-{q[1]:.3g}",
        "par2_ci": None if ci is None else f"{ci[0]:.3g}-{ci[1]:.3g}",
        "vs_best": None,
    }


def _mark_best(out: list[dict], rows: list[dict], clock: str) -> None:
    """In each family and class, the best configuration (most answered, then the lowest PAR-2) is ``best``; each
    other's ``vs_best`` is the Wilcoxon signed-rank p-value of its paired cells against the best's, with ``n.s.``
    where the difference is not significant at 5% (the ranking between them is noise)."""
    from .significance import ALPHA, paired

    by: dict[tuple, dict[str, dict]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        t = _t(r, clock)
        if t is not None:
            by[(r["family"], _cls(r))][r["config"]][(r["instance"], r["repeat"])] = (r["status"] in ANSWERED, t)
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in out:  # a configuration is held against the best of its mode: a count is not a first solution
        if row["par2_s"] is not None:
            groups[(row["family"], row["class"], row["solver"].rsplit("/", 1)[-1])].append(row)
    for k, rs in groups.items():
        if len(rs) < 2:
            continue
        best = min(rs, key=lambda r: (-r["solved"], r["par2_s"], r["solver"]))
        best["vs_best"] = "best"
        fam = by[k[:2]]
        for r in rs:
            if r is best:
                continue
            pr = paired(best["solver"], r["solver"], fam[best["solver"]], fam[r["solver"]])
            if pr.p_value is None:
                r["vs_best"] = "n.s. (ties)"
            else:
                floor = f", p>={pr.p_floor:.2g}" if pr.p_floor is not None and pr.p_floor >= ALPHA else ""
                r["vs_best"] = f"{'n.s. ' if pr.p_value >= ALPHA else ''}p={pr.p_value:.2g} (n={pr.tested}{floor})"


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


def _approximate(r: dict) -> bool:
    """An answer that is an estimate (ApproxMC's count, edge-estimate's): solved, but not an exact count."""
    return str(r.get("evidence") or "").startswith("approximate")


def _mean_score(scores: list) -> float | None:
    """Mode best: the mean best score of the cells that have one (the virtual best: each instance's top)."""
    have = [v for v in scores if v is not None]
    return statistics.fmean(have) if have else None


WINNERS_LEGEND = (
    "Times on the {clock} clock ({means}). best: the configuration that answered the most cells, "
    "then the lowest par2 (mean, an unsolved cell counted as twice the time limit); virtual best: "
    "each cell's fastest configuration."
)
PEAKS_LEGEND = (
    "Times on the {clock} clock ({means}). peak: where a configuration's median time is highest (an unsolved cell "
    "counted as twice the time limit), in inner colours on edge boards and in pieces on polyform sets ('no peak' "
    "where several points tie for the hardest, as when every cell of them timed out); critical: "
    "Owen's critical point of the board size, or the set's critical size (eternity estimate --critical); off_by: "
    "peak minus critical. peak_by_nodes: the same by the "
    "median of the nodes or placements a solver reports (a time of milliseconds is mostly set-up; a time-out "
    "hides how far past the limit a search would go, its placements do not)."
)
COLUMNS = [
    "family", "class", "solver", "cells", "solved", "par2_s", "median_s", "mean_nodes", "verified", "claimed", "wrong",
    "errors",
]  # fmt: skip


def experiments_in(db: str) -> list[str]:
    """The experiments (config names) whose cells a database holds."""
    store = Store(db, readonly=True)
    try:
        return sorted({r["experiment"] for r in store.results() if r["experiment"] is not None})
    finally:
        store.close()


def time_limits_in(db: str) -> dict[str, list[float]]:
    """Each experiment's distinct time limits: a config whose limit changed between runs stores cells of
    both, which a table pools (each unsolved cell counted at twice its own limit)."""
    store = Store(db, readonly=True)
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


PEAK_COLUMNS = ("family board solver peak peak_median_s peak_solved critical off_by peak_by_nodes nodes_off_by").split()


def peaks(rows: list[dict], clock: str = "solve") -> list[dict]:
    """Per family and configuration of a sweep over inner colours: the point of the highest median time
    (PAR-2 rule; ties: the higher par2, then the fewer colours), beside Owen's critical point of the board
    size (``critical_points``) and how far apart they are: where the search is hardest against where the
    model expects about one solution (seeds 000 and 001)."""
    crit = critical_points(rows)
    by: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))
    work: dict[tuple, dict] = defaultdict(lambda: defaultdict(list))  # placements (or nodes), where reported
    swept = itertools.chain(_swept(rows, "inner_colors"), _swept(rows, "pieces"))
    for r, board, x in swept:
        by[(r["family"], board, r["config"])][x].append(_t(r, clock))
        work[(r["family"], board, r["config"])][x].append(r["nodes"])
    out = []
    for (fam, size, conf), pts in sorted(by.items()):
        if any(t is None for ts in pts.values() for t in ts):
            continue

        def hardness(x, pts=pts):
            return (statistics.median(pts[x]), statistics.fmean(pts[x]))

        x = max(pts, key=lambda x: (*hardness(x), -x))
        ts = pts[x]
        c = crit.get(size)
        limit2 = max(r["time_limit"] for r in rows) * 2
        w = work[(fam, size, conf)]
        xn = None
        if w and all(n is not None for ns in w.values() for n in ns):  # the search's own measure of its work
            xn = max(w, key=lambda x: (statistics.median(w[x]), -x))
            if sum(statistics.median(w[y]) == statistics.median(w[xn]) for y in w) > 1:
                xn = "no peak"
        # points tied for the hardest (every cell of several points timed out): no point is the peak
        tied = sum(hardness(y) == hardness(x) for y in pts) > 1
        if tied:
            x = "no peak"
        out.append(
            {
                "family": fam,
                "board": size,
                "solver": conf,
                "peak": x,
                "peak_median_s": statistics.median(ts),
                "peak_solved": f"{sum(t < limit2 for t in ts)}/{len(ts)}",
                "critical": None if c is None else round(c, 2),
                "off_by": None if c is None or tied else round(x - c, 2),
                "peak_by_nodes": xn,
                "nodes_off_by": None if c is None or not isinstance(xn, (int, float)) else round(xn - c, 2),
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
    columns: list[str] | None = None,
    caption: str | None = None,
) -> str:
    """The summary table on one clock; its time columns are named after it (``par2_solve_s``).
    ``experiment``: only that config's cells (a database may hold several).  ``view="winners"``: one row a
    family and class, its best single configuration beside the virtual best (``winners``).  ``by``: a row a
    value of that family parameter (``inner_colors``, ``clues``) in place of the class column.  ``columns``:
    the summary's columns by name, in this order (an unknown name is refused with the names there are);
    ``caption``: the LaTeX table's caption (default: the database and the clock)."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    store = Store(db, readonly=True)
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
            raise UsageError(f"table --peaks: {db} holds no sweep over inner colours or pieces")
        cols = [named.get(c, c) for c in PEAK_COLUMNS]
    elif view == "winners":
        rows = [{named.get(k, k): v for k, v in r.items()} for r in winners(summary)]
        cols = [named.get(c, c) for c in WINNER_COLUMNS]
    else:
        rows = [{named.get(k, k): v for k, v in r.items()} for r in summary]
        cols = [named.get(c, c) for c in COLUMNS]
        if any(r["approximate"] for r in rows):  # estimates: solved, but not exact counts
            cols.insert(cols.index("claimed") + 1, "approximate")
        if any(r["unavailable"] for r in rows):  # rows that could not run here: shown, never left out
            cols += ["unavailable"]
        if any(c.get("repeat") for c in cells):  # repeats: the spread of each configuration's times
            cols += ["median_iqr", "par2_ci"]
        if any(r.get("vs_best") for r in rows):
            cols += ["vs_best"]
        if any(r.get("overloaded") for r in rows):
            cols += ["overloaded"]
        engine = [f"mean_{k}" for k in ENGINE_COLUMNS if any(r.get(f"mean_{k}") is not None for r in rows)]
        cols += engine  # what the engines report of their input and work, where any does
        if any(r["mean_score"] is not None for r in rows):  # mode best: the score is what the table is for, last
            cols += ["mean_score", "optimal"]
        drop = {
            "mean_score", "optimal", "unavailable", "approximate", "median_iqr", "par2_ci", "vs_best", "overloaded",
            *(f"mean_{k}" for k in ENGINE_COLUMNS),
        } - set(cols)  # fmt: skip
        if columns:  # the researcher's choice: these columns, in this order, and no other
            have = list(rows[0]) if rows else cols
            unknown = [c for c in columns if c not in have]
            if unknown:
                raise UsageError(f"table --columns: no column {', '.join(unknown)} (there are: {', '.join(have)})")
            cols = list(columns)
            drop = set(have) - set(cols)
        rows = [{k: v for k, v in r.items() if k not in drop} for r in rows]
    why = unavailable_reasons(cells)
    n_over = sum(overloaded(c) for c in cells)
    if fmt == "json":
        return json.dumps(
            {
                "clock": clock,
                "clock_means": CLOCKS[clock],
                "rows": rows,
                "unavailable": why,
                "overloaded_cells": n_over,
            },
            indent=1,
        )
    if fmt == "csv":
        return _csv(cols, rows)
    if fmt == "latex":
        return _latex(cols, rows, caption or f"{Path(db).stem}: times on the {clock} clock.", notes_for(cols, clock))
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        lines.append("| " + " | ".join(_cell(r, c) for c in cols) + " |")
    if view in ("winners", "peaks"):
        notes = {"winners": WINNERS_LEGEND, "peaks": PEAKS_LEGEND}[view].format(clock=clock, means=CLOCKS[clock])
    else:
        notes = notes_for(cols, clock)
    if n_over:
        notes += (
            f"\n\n{n_over} of {len(cells)} cells were measured on an overloaded machine (their worker waited for a "
            f"core more than {OVERLOADED_WAIT:.0%} of its time, or the load average was above the cores): their times "
            "are not the solvers' alone."
        )
    for c, w in why.items():
        notes += f"\n\nunavailable: {c}: {w}"
    return "\n".join(lines) + "\n\n" + notes + "\n"


def _board(p: dict) -> str:
    return f"{p['rows']}x{p['cols']}"


def _swept(rows: list[dict], param: str):
    """(cell, board, x) of the edge-board cells of a sweep over ``param``; the sweep over inner colours
    leaves out clue and unsolvable boards, which are sweeps of their own.  ``pieces``: the polyform
    puzzles drawn from a set (``PiecesFamily``), the set standing for the board."""
    for r in rows:
        p = r.get("params") or {}
        if param == "pieces":
            if "set" in p and isinstance(p.get("pieces"), int):
                yield r, p["set"], p["pieces"]
            continue
        if "inner_colors" not in p or "rows" not in p:
            continue
        if param == "inner_colors" and (p.get("clues") or p.get("unsat")):
            continue
        yield r, _board(p), p.get(param, 0)


def critical_points(rows: list[dict]) -> dict[str, float]:
    """Owen's critical inner-colour count of each board size and frame-colour count of the stored edge
    boards (``puzzles.estimates.estimate.critical_size``, as ``eternity estimate --critical``)."""
    from puzzles.estimates.estimate import critical_size

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
    for r in rows:  # a polyform set's critical size, measured when its family made the puzzles
        p = r.get("params") or {}
        if "set" in p and p.get("critical") is not None:
            out[p["set"]] = p["critical"]
    return out


def provenance(db: str, fmt: str = "md", experiment: str | None = None) -> str:
    """What each configuration's cells were measured with (``experiments.provenance``): the workbench and its
    Python stack, the machine (CPU, cores, OS), the hosts or Dask workers, each engine's version.  A store
    written before cells carried their machine and engines says so in the cell."""
    store = Store(db, readonly=True)
    try:
        rows = [r for r in _rows(store) if experiment is None or r["experiment"] == experiment]
    finally:
        store.close()
    by: dict[str, dict] = defaultdict(lambda: {"made": set(), "hosts": set(), "cells": 0})
    for r in rows:
        e = by[r["config"]]
        e["cells"] += 1
        e["hosts"].add(str(r.get("host") or "not stored"))
        e["made"].add(str(r.get("versions") or ""))
    out = []
    for conf in sorted(by, key=_natural):
        e = by[conf]
        docs = []
        for v in sorted(e["made"]):
            try:
                docs.append(json.loads(v) if v.startswith("{") else {})
            except ValueError:
                docs.append({})
        stack = sorted({f"{k} {d[k]}" for d in docs for k in ("python", "numpy", "numba", "eternity") if k in d})
        machine = sorted({f"{d.get('cpu')}, {d.get('cores')} cores, {d.get('os')}" for d in docs if "cpu" in d})
        engines = sorted({f"{k} {v}" for d in docs for k, v in (d.get("engines") or {}).items()})
        out.append({"configuration": conf, "cells": e["cells"], "stack": "; ".join(stack) or "not stored",
                    "machine": "; ".join(machine) or "not stored (an older store)",
                    "engines": "; ".join(engines) or "not stored (an older store)",
                    "hosts": ", ".join(sorted(e["hosts"]))})  # fmt: skip
    cols = ["configuration", "cells", "engines", "stack", "machine", "hosts"]
    if fmt == "json":
        return json.dumps(out, indent=1) + "\n"
    if fmt == "csv":
        return _csv(cols, out)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r[c]).replace("|", "\\|") for c in cols) + " |" for r in out]
    return "\n".join(lines) + "\n"
