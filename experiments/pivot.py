"""The pivot: instance by configuration, the table a paper prints.

Each cell holds the time of an answered cell, marked when the answer is "unsatisfiable" (a refutation is not
the same work as a solution), or a mark for a cell with no answer; the last rows count the solved cells and give
PAR-2.  Configurations that could not run here are listed under the table with the reason.
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict

from puzzles.errors import UsageError

from .cells import ANSWERED, CLOCKS, _csv, _natural, _stat, _t, cells, clock_time, unavailable_reasons

PIVOT_MARKS = {"limit": "T", "wrong": "X", "error": "E", "memout": "M", "unavailable": "U"}
UNSAT_MARK = " unsat"  # after the time of a cell answered "unsatisfiable"
PIVOT_LEGEND = (
    "A row an instance, a column a configuration: the {clock} time in seconds of an answered cell (the mean of its "
    "repeats), followed by 'unsat' when the answer is unsatisfiable; T a time limit, X a wrong answer, E an "
    "error, M out of memory, U not installed here (why: under the table); the last rows count the solved cells "
    "and give PAR-2 (an unsolved cell counts twice the limit)."
)


def instance_grid(rows: list[dict]) -> list[tuple[tuple[str, str], dict[str, list[dict]]]]:
    """The cells by instance, then by configuration: ((family, instance name), {config: cells}), sorted by
    family, then by name in natural order."""
    grid: dict[tuple, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        grid[(r["family"], r.get("instance_name") or r["instance"][:12])][r["config"]].append(r)
    return sorted(grid.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1])))


def _short_labels(configs: list[str]) -> dict[str, str]:
    """Column names for a pivot: the options alone when every configuration is one solver in one mode
    (``sat[backend=x,encoding=y]/first`` -> ``backend=x,encoding=y``), the labels otherwise."""
    heads = {c.split("[", 1)[0] for c in configs}
    tails = {c.rsplit("]", 1)[-1] for c in configs}
    if len(heads) == 1 and len(tails) == 1 and all("[" in c for c in configs):
        return {c: c.split("[", 1)[1].rsplit("]", 1)[0] for c in configs}
    return {c: c for c in configs}


def pivot(db: str, fmt: str = "md", clock: str = "solve", experiment: str | None = None) -> str:
    """Instance by configuration: the table a paper prints.  Each cell its time or a status mark (``PIVOT_MARKS``),
    then a solved count and PAR-2 per configuration."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    rows = cells(db)
    if experiment is not None:
        rows = [r for r in rows if r["experiment"] == experiment]
    if not rows:
        raise UsageError(f"table --pivot: {db} holds no cells" + (f" of {experiment!r}" if experiment else ""))
    configs = sorted({r["config"] for r in rows})
    out_rows = []
    for (fam, name), per in instance_grid(rows):
        row: dict[str, object] = {"family": fam, "instance": name}
        for c in configs:
            rs = per.get(c, [])
            if not rs:
                row[c] = ""
                continue
            bad = next((PIVOT_MARKS[r["status"]] for r in rs if r["status"] in ("wrong", "error", "memout")), None)
            ts = [clock_time(r, clock) for r in rs if r["status"] in ANSWERED]
            if bad:
                row[c] = bad
            elif ts and all(t is not None for t in ts):
                t = round(statistics.fmean(ts), 3)  # type: ignore[arg-type]
                unsat = any(r["status"] == "unsatisfiable" for r in rs)
                row[c] = f"{t}{UNSAT_MARK}" if unsat else t
            else:
                row[c] = PIVOT_MARKS.get(rs[0]["status"], rs[0]["status"])
        out_rows.append(row)
    by_conf: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_conf[r["config"]].append(r)
    solved: dict[str, object] = {"family": "", "instance": "solved"}
    par2: dict[str, object] = {"family": "", "instance": "par2_s"}
    for c in configs:
        rs = by_conf[c]
        solved[c] = f"{sum(r['status'] in ANSWERED for r in rs)}/{len(rs)}"
        ts = [_t(r, clock) for r in rs]
        p = _stat(statistics.fmean, ts)
        par2[c] = "" if p is None else round(p, 2)
    out_rows += [solved, par2]
    short = _short_labels(configs)
    out_rows = [{short.get(k, k): v for k, v in r.items()} for r in out_rows]
    cols = ["family", "instance", *(short[c] for c in configs)]
    why = unavailable_reasons(rows)
    if fmt == "json":
        marks = {**PIVOT_MARKS, "unsatisfiable": UNSAT_MARK.strip()}
        return json.dumps({"clock": clock, "marks": marks, "rows": out_rows, "unavailable": why}, indent=1)
    if fmt == "csv":
        return _csv(cols, out_rows)
    if fmt == "latex":
        lines = ["\\begin{tabular}{ll" + "r" * len(configs) + "}", "\\hline"]
        lines.append(" & ".join(c.replace("_", "\\_") for c in cols) + " \\\\")
        lines.append("\\hline")
        lines += [" & ".join(str(r.get(c, "")).replace("_", "\\_") for c in cols) + " \\\\" for r in out_rows]
        lines += ["\\hline", "\\end{tabular}"]
        return "\n".join(lines) + "\n"
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(r.get(c, "")) for c in cols) + " |" for r in out_rows]
    notes = "".join(f"\nU: {c}: {w}" for c, w in why.items())
    return "\n".join(lines) + "\n\n" + PIVOT_LEGEND.format(clock=clock) + ("\n" + notes if notes else "") + "\n"
