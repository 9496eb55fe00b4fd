"""One self-contained HTML page of a run (``eternity report DB -o report.html``), in the spirit of benchexec's
table generator: it opens offline, with every script inlined.

* the summary table (``report.summarise``), which sorts by a click on a column and filters by text and family;
* the pivot, instance by configuration, each cell coloured by its status (solved, unsatisfiable, limit, wrong,
  error, memout, unavailable); a click on a cell shows its options, evidence, engine statistics, versions and
  host;
* a cactus plot and a scatter plot of any two configurations, chosen on the page (log axes, the time limit
  drawn, unanswered cells on the edge beyond it): Plotly figures, their menus Plotly's own (no plotting code
  is written by hand here; the page's own script only sorts, filters and shows a cell);
* the run's configuration (experiments, limits, solver configurations and options, or the config file given)
  and its environment (versions, hosts, the machine's load).

Plotly is the ``report`` extra; without it the command says how to install it.
"""

from __future__ import annotations

import html
import json
import math
import statistics
from collections import defaultdict
from pathlib import Path

from puzzles.errors import UsageError

from .cells import ANSWERED, CLOCKS, cells, clock_time, overloaded, unavailable_reasons
from .pivot import instance_grid
from .report import summarise

STATUS_CLASS = {
    "solved": "ok",
    "unsatisfiable": "unsat",
    "limit": "limit",
    "wrong": "wrong",
    "error": "error",
    "memout": "memout",
    "unavailable": "na",
}
EDGE = 1.5  # an unanswered cell is drawn at this many times the limit, on the plots' edge
SUMMARY_COLUMNS = ["family", "class", "solver", "cells", "solved", "par2_s", "median_s", "median_iqr", "par2_ci"]
SUMMARY_COLUMNS += ["vs_best", "verified", "claimed", "approximate", "wrong", "errors", "unavailable", "overloaded"]

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
th { background: #eee; cursor: pointer; position: sticky; top: 0; }
td.l, th.l { text-align: left; }
.ok { background: #d8f0d8; } .unsat { background: #cfe3ff; } .limit { background: #f3f3f3; color: #777; }
.wrong { background: #ff9a9a; font-weight: bold; } .error { background: #ffd3a6; }
.memout { background: #f5d0f5; } .na { background: #fff; color: #aaa; }
td.cell { cursor: pointer; }
#detail { white-space: pre-wrap; background: #fafafa; border: 1px solid #ccc; padding: 0.5em; min-height: 2em; }
.legend span { padding: 1px 6px; margin-right: 4px; border: 1px solid #ccc; }
"""

# sorting, filtering and showing a cell's details: the page's only script of its own (no plotting)
_SCRIPT = """
(function () {
  function key(t) { var v = parseFloat(t.replace(/^> /, '')); return isNaN(v) ? t.toLowerCase() : v; }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    table.querySelectorAll('th').forEach(function (th, i) {
      th.addEventListener('click', function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var asc = th.getAttribute('data-dir') !== 'asc';
        table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('data-dir'); });
        th.setAttribute('data-dir', asc ? 'asc' : 'desc');
        rows.sort(function (a, b) {
          var x = key(a.cells[i].textContent), y = key(b.cells[i].textContent);
          if (typeof x !== typeof y) { x = String(x); y = String(y); }
          return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
  function filter() {
    var text = document.getElementById('filter').value.toLowerCase();
    var fam = document.getElementById('family').value;
    document.querySelectorAll('table.filtered tbody tr').forEach(function (r) {
      var ok = (!text || r.textContent.toLowerCase().indexOf(text) >= 0) &&
               (!fam || r.getAttribute('data-family') === fam);
      r.style.display = ok ? '' : 'none';
    });
  }
  document.getElementById('filter').addEventListener('input', filter);
  document.getElementById('family').addEventListener('change', filter);
  var details = JSON.parse(document.getElementById('cells').textContent);
  document.querySelectorAll('td.cell').forEach(function (td) {
    td.addEventListener('click', function () {
      document.getElementById('detail').textContent = JSON.stringify(details[td.getAttribute('data-cell')], null, 1);
    });
  });
})();
"""


def _plotly():
    from solving.extras import require

    require("report", "eternity report", "plotly")
    import plotly.graph_objects as go
    from plotly.offline import get_plotlyjs

    return go, get_plotlyjs


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3g}"
    return str(v)


def _summary_html(rows: list[dict], clock: str) -> str:
    cols = [c for c in SUMMARY_COLUMNS if any(r.get(c) not in (None, 0, "") for r in rows) or c in SUMMARY_COLUMNS[:7]]
    head = "".join(
        f'<th class="{"l" if c in ("family", "class", "solver", "vs_best") else ""}">'
        f"{html.escape(c.replace('_s', f'_{clock}_s') if c in ('par2_s', 'median_s') else c)}</th>"
        for c in cols
    )
    body = []
    for r in rows:
        tds = "".join(
            f'<td class="{"l" if c in ("family", "class", "solver", "vs_best") else ""}">{html.escape(_fmt(r.get(c)))}</td>'
            for c in cols
        )
        body.append(f'<tr data-family="{html.escape(str(r["family"]))}">{tds}</tr>')
    return (
        f'<table id="summary" class="sortable filtered"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _cell_detail(r: dict) -> dict:
    return {
        "instance": r.get("instance_name") or r["instance"],
        "family": r["family"],
        "configuration": r["config"],
        "solver": r["solver"],
        "options": json.loads(r["options"]) if r.get("options") else {},
        "mode": r["mode"],
        "repeat": r["repeat"],
        "status": r["status"],
        "message": r.get("message"),
        "evidence": r.get("evidence"),
        "verified": r.get("verified"),
        "count": r.get("count"),
        "times_s": {k: r.get(k) for k in ("wall_s", "cpu_s", "load_s", "build_s", "search_s")},
        "time_limit_s": r["time_limit"],
        "limit_clock": r.get("limit_clock") or "wall",
        "nodes": r.get("nodes"),
        "engine_stats": json.loads(r["engine_stats"]) if r.get("engine_stats") else None,
        "machine": {k: r.get(k) for k in ("load_start", "load_end", "wait_s", "cpu_core", "cores_online")},
        "overloaded": overloaded(r),
        "versions": json.loads(r["versions"]) if (r.get("versions") or "").startswith("{") else r.get("versions"),
        "host": r.get("host"),
        "finished_at": r.get("finished_at"),
    }


def _pivot_html(rows: list[dict], clock: str) -> tuple[str, list[dict]]:
    configs = sorted({r["config"] for r in rows})
    details: list[dict] = []
    head = '<th class="l">family</th><th class="l">instance</th>' + "".join(
        f"<th>{html.escape(c)}</th>" for c in configs
    )
    body = []
    for (fam, name), per in instance_grid(rows):
        tds = [f'<td class="l">{html.escape(fam)}</td><td class="l">{html.escape(str(name))}</td>']
        for c in configs:
            rs = per.get(c, [])
            if not rs:
                tds.append("<td></td>")
                continue
            worst = next((r for r in rs if r["status"] not in ANSWERED), rs[0])
            ts = [clock_time(r, clock) for r in rs if r["status"] in ANSWERED]
            text = worst["status"] if worst["status"] not in ANSWERED or not ts or None in ts else ""
            if not text:
                text = f"{statistics.fmean(t for t in ts if t is not None):.3g}" + (
                    " unsat" if worst["status"] == "unsatisfiable" else ""
                )
            details.append({"cells": [_cell_detail(r) for r in rs]})
            css = STATUS_CLASS.get(worst["status"], "error")
            tds.append(f'<td class="cell {css}" data-cell="{len(details) - 1}">{html.escape(text)}</td>')
        body.append(f'<tr data-family="{html.escape(fam)}">{"".join(tds)}</tr>')
    table = (
        f'<table id="pivot" class="sortable filtered"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    return table, details


def _times(rows: list[dict], clock: str) -> tuple[list[str], list[str], dict[str, list], float]:
    """The scatter's data: the cells' names (instance and repeat), the configurations, each configuration's time
    a cell (an unanswered one at ``EDGE`` x the limit; None where it did not run), and the largest limit."""
    limit = max(r["time_limit"] for r in rows)
    keys = sorted({(r.get("instance_name") or r["instance"][:12], r["repeat"]) for r in rows}, key=str)
    index = {k: i for i, k in enumerate(keys)}
    configs = sorted({r["config"] for r in rows})
    times: dict[str, list] = {c: [None] * len(keys) for c in configs}
    for r in rows:
        if r["status"] == "unavailable":
            continue
        t = clock_time(r, clock) if r["status"] in ANSWERED else None
        i = index[(r.get("instance_name") or r["instance"][:12], r["repeat"])]
        times[r["config"]][i] = EDGE * limit if t is None else max(t, 1e-4)
    names = [f"{k[0]} #{k[1]}" for k in keys]
    return names, configs, times, limit


def _scatter(go, rows: list[dict], clock: str):
    names, configs, times, limit = _times(rows, clock)
    cx, cy = configs[0], configs[1] if len(configs) > 1 else configs[0]
    present = [t for ts in times.values() for t in ts if t is not None]
    lo = math.log10(max(min(present, default=1e-3) / 2, 1e-4))
    hi = math.log10(EDGE * limit * 1.3)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=times[cx], y=times[cy], mode="markers", text=names, name="cells"))
    fig.add_trace(go.Scatter(x=[10**lo, 10**hi], y=[10**lo, 10**hi], mode="lines", name="equal time",
                             line={"dash": "dot", "color": "#999"}))  # fmt: skip
    for axis in ("x", "y"):
        fig.add_shape(type="line", xref="x" if axis == "x" else "paper", yref="paper" if axis == "x" else "y",
                      x0=limit if axis == "x" else 0, x1=limit if axis == "x" else 1,
                      y0=0 if axis == "x" else limit, y1=1 if axis == "x" else limit,
                      line={"color": "#c33", "dash": "dash"})  # fmt: skip
    menus = []
    for axis, chosen, place in (("x", cx, 0.0), ("y", cy, 0.5)):
        buttons = [
            {
                "label": c,
                "method": "update",
                "args": [{axis: [times[c]]}, {f"{axis}axis.title.text": f"{c} ({clock} s)"}, [0]],
            }
            for c in configs
        ]
        menus.append({"buttons": buttons, "direction": "down", "x": place, "y": 1.22, "xanchor": "left",
                      "active": configs.index(chosen), "name": f"{axis} axis"})  # fmt: skip
    fig.update_layout(
        updatemenus=menus,
        xaxis={"type": "log", "range": [lo, hi], "title": {"text": f"{cx} ({clock} s)"}},
        yaxis={"type": "log", "range": [lo, hi], "title": {"text": f"{cy} ({clock} s)"}},
        height=560,
        margin={"t": 110},
        annotations=[
            {"text": "x axis", "x": 0.0, "y": 1.3, "xref": "paper", "yref": "paper", "showarrow": False},
            {"text": "y axis", "x": 0.5, "y": 1.3, "xref": "paper", "yref": "paper", "showarrow": False},
        ],
    )
    return fig


def _cactus(go, rows: list[dict], clock: str):
    fig = go.Figure()
    by: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        t = clock_time(r, clock) if r["status"] in ANSWERED else None
        if t is not None:
            by[r["config"]].append(t)
    for c in sorted({r["config"] for r in rows}):
        ts = sorted(by.get(c, []))
        fig.add_trace(go.Scatter(x=list(range(1, len(ts) + 1)), y=ts, mode="lines+markers", name=c))
    fig.update_layout(
        xaxis={"title": {"text": "cells answered"}},
        yaxis={"type": "log", "title": {"text": f"time ({clock} s)"}},
        height=480,
    )
    return fig


def _environment(rows: list[dict], config_text: str | None) -> str:
    exps: dict[str, dict] = {}
    for r in rows:
        e = exps.setdefault(r["experiment"] or "", {"limits": set(), "clocks": set(), "repeats": 0, "configs": {}})
        e["limits"].add(r["time_limit"])
        e["clocks"].add(r.get("limit_clock") or "wall")
        e["repeats"] = max(e["repeats"], (r["repeat"] or 0) + 1)
        e["configs"][r["config"]] = json.loads(r["options"]) if r.get("options") else {}
    out = ["<h2>The run</h2>"]
    for name, e in sorted(exps.items()):
        limits = ", ".join(f"{t:g} s" for t in sorted(e["limits"]))
        out.append(
            f"<p>experiment <b>{html.escape(name)}</b>: time limit {limits} on the {', '.join(sorted(e['clocks']))}"
            f" clock, {e['repeats']} repeat(s), {len(e['configs'])} configurations</p>"
        )
        out.append("<ul>" + "".join(
            f"<li>{html.escape(c)}: <code>{html.escape(json.dumps(o, sort_keys=True))}</code></li>"
            for c, o in sorted(e["configs"].items())
        ) + "</ul>")  # fmt: skip
    if config_text is not None:
        out.append(f"<h3>Config file</h3><pre>{html.escape(config_text)}</pre>")
    versions = sorted({str(r.get("versions")) for r in rows if r.get("versions")})
    hosts = sorted({str(r.get("host")) for r in rows if r.get("host")})
    n_over = sum(overloaded(r) for r in rows)
    out.append("<h2>Environment</h2>")
    out.append(f"<p>hosts: {html.escape(', '.join(hosts) or 'not stored')}</p>")
    out.append("<p>versions:</p>" + "".join(f"<pre>{html.escape(v)}</pre>" for v in versions[:5]))
    out.append(f"<p>cells measured on an overloaded machine: {n_over} of {len(rows)}</p>")
    why = unavailable_reasons(rows)
    if why:
        out.append(
            "<p>could not run here:</p><ul>"
            + "".join(f"<li>{html.escape(c)}: {html.escape(w)}</li>" for c, w in why.items())
            + "</ul>"
        )
    return "\n".join(out)


def _json_script(data) -> str:
    """JSON for a ``<script type="application/json">``: no ``<`` at all (``<!--<script>`` in a name would put the
    element in the parser's double-escaped state, where its ``</script>`` no longer ends it), and whole numbers
    past a double's exact range as text, so that the page shows every digit of a count (JavaScript reads
    a 442-digit number as Infinity)."""

    def exact(v):
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and abs(v) > 2**53:
            return str(v)
        if isinstance(v, dict):
            return {k: exact(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [exact(x) for x in v]
        return v

    text = json.dumps(exact(data))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def write(db: str, output: str | Path, clock: str = "solve", config: str | None = None) -> Path:
    """Write the report of ``db`` to ``output`` (times on ``clock``; ``config``: a config file shown as it is)."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    go, get_plotlyjs = _plotly()
    rows = cells(db)
    if not rows:
        raise UsageError(f"report: {db} holds no cells")
    config_text = _config_text(config) if config else None
    summary = summarise(rows, clock)
    pivot, details = _pivot_html(rows, clock)
    families = sorted({r["family"] for r in rows})
    options = "".join(f'<option value="{html.escape(f)}">{html.escape(f)}</option>' for f in families)
    cactus = _cactus(go, rows, clock).to_html(full_html=False, include_plotlyjs=False, div_id="cactus")
    scatter = _scatter(go, rows, clock).to_html(full_html=False, include_plotlyjs=False, div_id="scatter")
    legend = "".join(f'<span class="{css}">{html.escape(s)}</span>' for s, css in STATUS_CLASS.items())
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>eternity report: {html.escape(Path(db).name)}</title>
<style>{_STYLE}</style>
<script>{get_plotlyjs()}</script>
</head><body>
<h1>Benchmark report: {html.escape(Path(db).name)}</h1>
<p>Times on the <b>{clock}</b> clock: {html.escape(CLOCKS[clock])}. PAR-2 counts an unanswered cell as twice its
limit. {len(rows)} cells.</p>
<p>filter: <input id="filter" placeholder="text in a row"> family: <select id="family"><option value="">all</option>
{options}</select> (a click on a column heading sorts)</p>
<h2>Summary</h2>
{_summary_html(summary, clock)}
<h2>Instance by configuration</h2>
<p class="legend">{legend} &mdash; a click on a cell shows it below</p>
{pivot}
<h3>The cell</h3>
<div id="detail">(click a cell of the table above)</div>
<h2>Cactus</h2>
{cactus}
<h2>Scatter: two configurations, cell by cell</h2>
<p>Choose the configurations on the axes with the menus. The dashed red lines are the time limit; an
unanswered cell lies beyond it, at {EDGE:g} x the limit.</p>
{scatter}
{_environment(rows, config_text)}
<script type="application/json" id="cells">{_json_script(details)}</script>
<script>{_SCRIPT}</script>
</body></html>
"""
    from puzzles.files.outputs import atomic_write

    out = Path(output)
    atomic_write(out, page)  # nothing half-written under the name asked for, nor beside it
    return out


def _config_text(config: str) -> str:
    """The config file shown on the page, as it is; a missing, unreadable or binary file is refused in one line."""
    from puzzles.errors import InputError

    p = Path(config)
    if not p.is_file():
        raise InputError(config, None, "no such config file" if not p.exists() else "not a file")
    data = p.read_bytes()[: (1 << 20) + 1]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(config, None, "not a text file (a config is TOML)") from None
    if "\x00" in text or len(data) > 1 << 20:
        raise InputError(config, None, "not a config (binary, or larger than 1 MB)")
    return text
