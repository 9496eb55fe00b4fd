"""A stored cell as the tables read it: its time on a clock, its PAR-2 time, whether its machine was
overloaded, and the small helpers every table shares (the summary, the pivot, the comparison, the report)."""

from __future__ import annotations

import csv
import io
import math
import statistics

import solving

from .store import Store

ANSWERED = tuple(sorted(s.value for s in solving.ANSWERED))  # in SQL: status IN (...)
CLOCKS = {
    "solve": "build plus search (tables, model or encoding, then the search; no imports or kernel loading)",
    "search": "the search alone",
    "total": "the whole cell: loading, building, searching and verifying",
    "cpu": "CPU time of the whole cell and of its child processes (forked solvers, outside binaries)",
}
OVERLOADED_WAIT = 0.1  # a cell whose worker waited on the run queue this share of its wall time shared its core


def _rows(store) -> list[dict]:
    """Stored results without the parts of split counts (their whole rows stand for them)."""
    from .store import require_table_fields

    rows = store.results()
    require_table_fields(rows, store.path)
    return [r for r in rows if r["mode"] != "count-part"]


def cells(db: str) -> list[dict]:
    """The stored cells of a results database (``_rows``), refused in one line when it is not one; read only."""
    store = Store(db, readonly=True)
    try:
        return _rows(store)
    finally:
        store.close()


def clock_time(r: dict, clock: str) -> float | None:
    """A cell's time on ``clock``; None when the store has no such clock for it."""
    if clock == "total":
        return r["wall_s"]
    if clock == "cpu":
        return r.get("cpu_s")
    if clock == "search":
        return r.get("search_s")
    if r.get("build_s") is None or r.get("search_s") is None:
        return None
    return r["build_s"] + r["search_s"]


def _t(r: dict, clock: str = "solve") -> float | None:
    """PAR-2 time: the clock's time when answered, twice the limit otherwise; None for a cell that could not run
    here (``unavailable``), whose row then has no times rather than times it never took."""
    if r["status"] == "unavailable":
        return None
    return clock_time(r, clock) if r["status"] in ANSWERED else 2 * r["time_limit"]


def overloaded(r: dict) -> bool:
    """Whether a cell was measured on an overloaded machine (more runnable processes than cores): its worker
    waited on the run queue for a core more than ``OVERLOADED_WAIT`` of its wall time, or the load average at its
    start or end was above the cores online by more than half a process (a forked solver's own wait is not in
    the worker's; the load average sees it).  False for a store written before the machine was recorded."""
    wait, wall = r.get("wait_s"), r.get("wall_s")
    if wait is not None and wall and wait > OVERLOADED_WAIT * wall:
        return True
    cores = r.get("cores_online")
    loads = [x for x in (r.get("load_start"), r.get("load_end")) if x is not None]
    return bool(cores and loads and max(loads) > cores + 0.5)


def unavailable_reasons(rows: list[dict]) -> dict[str, str]:
    """Configuration -> why it could not run here (its stored message), for the configurations with such cells."""
    out: dict[str, str] = {}
    for r in rows:
        if r["status"] == "unavailable" and r["config"] not in out:
            out[r["config"]] = r.get("message") or "no reason stored"
    return dict(sorted(out.items()))


def _stat(fn, ts: list) -> float | None:
    return None if not ts or any(t is None for t in ts) else fn(ts)


def _median(ts: list, limit: float) -> float | str | None:
    """The median time with an unsolved cell counted as longer than any (``ts`` holds PAR-2 times: twice the
    limit where unsolved).  When the middle falls on unsolved cells, the median is not a number of seconds but
    "above the limit", written ``> LIMIT``: counting an unsolved cell as twice the limit once showed a median of
    40 for a row that solved nothing at 20 s."""
    if not ts or any(t is None for t in ts):
        return None
    m = statistics.median([math.inf if t >= 2 * limit else t for t in ts])
    return f"> {limit:g}" if math.isinf(m) else m


def _cls(r: dict):
    c = r.get("class")
    return "-" if c is None or c == "" else c


def _natural(v) -> tuple:
    """Sort key of a class, a point or an instance name: numbers by value (4 before 10), then names in natural
    order, the digits in a name read as numbers (``i6`` before ``i10``, ``edge-5x5-c4`` before ``edge-5x5-c12``)."""
    import re

    try:
        return (0, float(v), ())
    except (TypeError, ValueError):
        parts = re.split(r"(\d+)", str(v))
        return (1, 0.0, tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in parts if x))


def _csv(cols: list[str], rows: list[dict]) -> str:
    """A table as CSV text, its columns in this order."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, cols, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue()
