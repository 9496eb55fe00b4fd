"""Owen's estimate held against a real search tree.

``eternity estimate --measure`` and ``benchmarks/estimate_vs_measured.py``
count a puzzle with ``edge-backtrack`` in a static order and compare the
nodes it visits at each depth with the nodes the model expects there.
"""

from __future__ import annotations

import math

import solving
from puzzles.errors import UsageError
from puzzles.estimates import estimate
from puzzles.kinds.orders import ORDERS, search_order


def measure(p, order: str = "rowscan", time_s: float | None = None) -> dict:
    """Estimated and measured nodes per depth for one puzzle and order.

    ``ratio`` is estimated total / measured total (1 is a perfect model);
    ``complete`` is False when the time limit cut the count short (the
    measured tree is then a lower bound).
    """
    if order not in ORDERS or order == "mrv":
        raise UsageError(
            f"--measure needs a static order edge-backtrack knows: {', '.join(o for o in ORDERS if o != 'mrv')}"
        )
    total, prof = estimate.search_nodes(p, search_order(p, order))
    r = solving.get("edge-backtrack", {"order": order, "identical": "distinct", "profile": True}).solve(
        p, mode="count", limits=solving.Limits(time_s=time_s)
    )
    measured = list(r.stats["nodes_per_level"])
    measured += [0] * (len(prof) - len(measured))
    m_total = sum(measured)
    return {
        "puzzle": p.name,
        "order": order,
        "solutions": r.count,
        "complete": r.status != "limit",
        "estimated_per_depth": [10**x for x in prof],
        "measured_per_depth": measured,
        "estimated_total": 10**total,
        "measured_total": m_total,
        "ratio": (10**total / m_total) if m_total else math.inf,
        "time_s": r.measured.time_s,
    }


def plot_join_probabilities(probs: dict[str, list[float]], path, title: str) -> None:
    """Seed 001's figures 1 and 2 side by side: the chance that the next frame (inner) join is valid, over the
    joins made."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for ax, kind, colour in zip(axes, ("frame", "inner"), ("C0", "C1")):
        ys = probs[kind]
        ax.plot(range(1, len(ys) + 1), ys, color=colour, lw=1.4)
        ax.set_xlabel(f"{kind} joins made")
        ax.set_ylabel(f"P(the next {kind} join is valid)")
        ax.set_ylim(0, 1.02)
        ax.grid(alpha=0.3)
        ax.set_title(f"{kind} joins ({len(ys)})")
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot(results: list[dict], path, title: str | None = None, model: str = "Owen") -> None:
    """Nodes per depth, estimated (dashed) against measured (solid), log scale."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5))
    for i, res in enumerate(results):
        colour = f"C{i % 10}"
        depths = range(1, len(res["measured_per_depth"]) + 1)
        ax.plot(
            depths,
            [max(x, 0.5) for x in res["measured_per_depth"]],
            color=colour,
            lw=1.2,
            label=f"{res['puzzle']} measured" if len(results) <= 6 else None,
        )
        ax.plot(
            depths,
            res["estimated_per_depth"],
            color=colour,
            lw=1.0,
            ls="--",
            label=f"{res['puzzle']} {model}" if len(results) <= 6 else None,
        )
    ax.set_yscale("log")
    ax.set_xlabel("depth (pieces placed)")
    ax.set_ylabel("nodes")
    ax.set_title(title or "Owen's estimate (dashed) against the measured search tree (solid)")
    if len(results) <= 6:
        ax.legend(fontsize=8)
    fig.tight_layout()
    from puzzles.files.outputs import atomic_save

    atomic_save(path, lambda tmp: fig.savefig(tmp, dpi=110))
    plt.close(fig)
