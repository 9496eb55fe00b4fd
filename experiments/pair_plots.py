"""Two plots a paper takes from BenchExec's table generator: the scatter of two configurations cell by cell, and
the quantile plot of every configuration (its answered cells' times in order, against the share of all its
cells).  PNG, PDF or SVG by the output's suffix; matplotlib is imported only when a plot is made."""

from __future__ import annotations

from collections import defaultdict

from puzzles.errors import UsageError

from .cells import ANSWERED, clock_time

EDGE = 2.0  # an unanswered cell is drawn at this many times its limit, past the dashed limit lines


def _config_named(rows: list[dict], name: str) -> str:
    """The configuration a name means: the label itself, or the one configuration it is the start of."""
    confs = sorted({r["config"] for r in rows})
    if name in confs:
        return name
    hits = [c for c in confs if c.startswith(name)]
    if len(hits) == 1:
        return hits[0]
    raise UsageError(
        f"plot --kind scatter: {'no' if not hits else 'more than one'} configuration {name!r} "
        f"(there are: {', '.join(confs)})"
    )


def scatter_points(rows: list[dict], a: str, b: str, clock: str) -> list[tuple[str, float, float, bool, bool]]:
    """(instance, time of A, time of B, A answered, B answered) of each cell both ran, an unanswered cell at
    ``EDGE`` times its limit."""
    a, b = _config_named(rows, a), _config_named(rows, b)
    by: dict[str, dict[tuple, dict]] = defaultdict(dict)
    for r in rows:
        if r["config"] in (a, b) and r["status"] != "unavailable":
            by[r["config"]][(r["instance"], r["repeat"])] = r
    out = []
    for key in sorted(set(by[a]) & set(by[b]), key=str):
        ra, rb = by[a][key], by[b][key]

        def t(r: dict) -> tuple[float, bool]:
            v = clock_time(r, clock)
            ok = r["status"] in ANSWERED and v is not None
            return (max(float(v or 0.0), 1e-4) if ok else EDGE * float(r["time_limit"])), ok

        (ta, oka), (tb, okb) = t(ra), t(rb)
        out.append((str(ra.get("instance_name") or key[0]), ta, tb, oka, okb))
    if not out:
        raise UsageError(f"plot --kind scatter: {a} and {b} share no cell")
    return out


def scatter(rows: list[dict], a: str, b: str, clock: str, output: str, what: str) -> None:
    """The scatter of two configurations: a point a cell both ran, A's time across, B's up, log axes, the
    diagonal, the limit dashed and unanswered cells past it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzles.files.outputs import atomic_save

    a, b = _config_named(rows, a), _config_named(rows, b)
    pts = scatter_points(rows, a, b, clock)
    limit = max(float(r["time_limit"]) for r in rows if r["config"] in (a, b))
    fig, ax = plt.subplots(figsize=(6, 6))
    both = [(x, y) for _, x, y, oa, ob in pts if oa and ob]
    one = [(x, y) for _, x, y, oa, ob in pts if oa != ob]
    none = [(x, y) for _, x, y, oa, ob in pts if not oa and not ob]
    for sel, marker, colour, label in ((both, "o", "tab:blue", "both answered"), (one, "^", "tab:orange", "one answered"),
                                       (none, "x", "tab:grey", "neither")):  # fmt: skip
        if sel:
            ax.scatter([x for x, _ in sel], [y for _, y in sel], s=18, marker=marker, color=colour,
                       label=f"{label} ({len(sel)})")  # fmt: skip
    lo = min(min(x for _, x, _, _, _ in pts), min(y for _, _, y, _, _ in pts)) / 2
    hi = EDGE * limit * 1.3
    ax.plot([lo, hi], [lo, hi], color="black", lw=0.8)
    for f in (10, 0.1):
        ax.plot([lo, hi], [lo * f, hi * f], color="grey", lw=0.5, ls=":")
    ax.axvline(limit, color="red", lw=0.8, ls="--")
    ax.axhline(limit, color="red", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel(f"{a}: {clock} time (s)")
    ax.set_ylabel(f"{b}: {clock} time (s)")
    faster = sum(1 for _, x, y, oa, ob in pts if ob and (not oa or y < x))
    ax.set_title(f"{what}: {len(pts)} cells, {b} faster on {faster}\n(dashed: the limit; past it: unanswered, "
                 f"at {EDGE:g}x; dotted: 10x)", fontsize=9)  # fmt: skip
    ax.legend(fontsize=7, loc="upper left")
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)


def quantiles(rows: list[dict], clock: str) -> dict[str, tuple[int, list[float]]]:
    """Each configuration's cells (all of them) and its answered cells' times in order."""
    cells: dict[str, int] = defaultdict(int)
    times: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        if r["status"] == "unavailable":
            continue
        cells[r["config"]] += 1
        t = clock_time(r, clock)
        if r["status"] in ANSWERED and t is not None:
            times[r["config"]].append(float(t))
    return {c: (cells[c], sorted(times[c])) for c in sorted(cells)}


def quantile(rows: list[dict], clock: str, output: str, what: str) -> None:
    """The quantile plot: a line a configuration, its answered cells' times in order against the share of all
    its cells answered by then (BenchExec's table generator draws the same, by count)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzles.files.outputs import atomic_save

    q = quantiles(rows, clock)
    if not any(ts for _, ts in q.values()):
        raise UsageError("plot --kind quantile: no answered cell to draw")
    fig, ax = plt.subplots(figsize=(9, 5))
    for conf, (n, ts) in q.items():
        if ts:
            ax.step([100 * (k + 1) / n for k in range(len(ts))], ts, where="post", label=f"{conf} ({len(ts)}/{n})")
    ax.set_yscale("log")
    ax.set_xlim(0, 100)
    ax.set_xlabel("cells answered (% of the configuration's cells)")
    ax.set_ylabel(f"{clock} time (s)")
    ax.set_title(f"{what}: quantile plot on the {clock} clock")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)
