"""The plots of a results database: cactus, hardness, phase and clues sweeps, and the map of winners.

Apart from the tables (``report``), whose summaries they draw: matplotlib is imported only when a plot is
made, so a table never pays for it.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from typing import Any

import solving
from puzzles.errors import UsageError

from .report import ANSWERED, _natural, _rows, _swept, _t, clock_time, critical_points, summarise, winners
from .store import Store


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

    store = Store(db, readonly=True)
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
        from puzzles.files.outputs import atomic_save

        atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
        plt.close(fig)
        return
    fig, ax = plt.subplots(figsize=(10, 5))
    if kind == "cactus":
        by: dict[str, list[tuple[float, bool]]] = defaultdict(list)
        for r in rows:
            t = clock_time(r, clock)
            if r["status"] in ANSWERED and t is not None:
                by[r["config"]].append((t, solving.is_claim(r.get("evidence"))))
        for i, (conf, answers) in enumerate(sorted(by.items())):
            answers.sort()
            ts = [t for t, _ in answers]
            claims = sum(c for _, c in answers)
            label = conf + (f" ({claims} of {len(ts)} claimed)" if claims else "")
            ax.plot(range(1, len(ts) + 1), ts, marker=markers[i % len(markers)], ms=4, color=colour[conf], label=label)
            xs = [k + 1 for k, (_, c) in enumerate(answers) if c]  # an answer on an engine's word: a hollow marker
            if xs:
                ax.plot(xs, [ts[k - 1] for k in xs], ls="none", marker=markers[i % len(markers)], ms=7,
                        mfc="white", mec=colour[conf])  # fmt: skip
        ax.set_xlabel("instances solved")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel(f"{clock} time per instance (s)")
        ax.set_yscale("log")
        ax.set_title(f"{what}: instances solved against {clock} time (hollow: claimed, not checked)")
    elif kind == "hardness":
        times: dict[tuple[str, str], dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
        crit: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for r in rows:
            p = r["params"]
            if "inner_colors" not in p:
                continue
            board = f"{p['rows']}x{p['cols']}"
            t = _t(r, clock)
            if t is not None:
                times[(board, r["config"])][p["inner_colors"]].append(t)
            if r.get("estimate") is not None:
                crit[board].append((p["inner_colors"], r["estimate"]))
        boards = sorted({b for b, _ in times})
        styles = ["-", "--", ":", "-."]
        style = {b: styles[i % len(styles)] for i, b in enumerate(boards)}
        for (board, conf), d in sorted(times.items()):
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
        owen = critical_points(rows)  # Owen's critical point, as the phase plot and the peaks table mark it
        for board in crit:
            if board in owen:
                _mark_critical(ax, owen[board], f"critical {board} {owen[board]:.2f}", style.get(board, "--"), 1.0)
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
    from puzzles.files.outputs import atomic_save

    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)


def _mark_critical(ax, x: float, text: str, ls: str, top: float) -> None:
    """Owen's critical point on an axis of inner colours: a grey vertical line, labelled along it."""
    ax.axvline(x, ls=ls, color="grey", lw=1)
    ax.annotate(text, (x, top), xycoords=("data", "axes fraction"), rotation=90, va="top", ha="right", fontsize=8,
                color="grey")  # fmt: skip


SWEEPS = {"phase": "inner_colors", "clues": "clues", "poly-phase": "pieces"}  # plot kind: its x axis's parameter
AXIS_LABEL = {"phase": "inner colours", "clues": "cells given as clues (%)", "poly-phase": "pieces"}
PLOT_KINDS = ("cactus", "hardness", *SWEEPS, "map")


def _points(rows: list[dict], param: str, clock: str) -> dict:
    """{board: {config: {x: [PAR-2 times]}}} of a sweep over ``param`` (``_swept``)."""
    out: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r, board, x in _swept(rows, param):
        t = _t(r, clock)
        if t is not None:
            out[board][r["config"]][x].append(t)
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
        what_swept = "polyform sets" if kind == "poly-phase" else "edge boards"
        unit = "set" if kind == "poly-phase" else "board size"
        hint = "; a clue sweep is a family with clues = [..]" if kind == "clues" else ""
        raise UsageError(
            f"plot --kind {kind}: the store holds no {what_swept} swept over {param} (at least two values of it "
            f"for one {unit}{hint})"
        )
    boards = sorted(pts, key=lambda b: tuple(_natural(x) for x in b.split("x")))
    crit = critical_points(rows) if kind in ("phase", "poly-phase") else {}
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
        ax.set_xlabel(AXIS_LABEL[kind])
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
    fig.suptitle(f"{what}: median time against {AXIS_LABEL[kind]}")
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
