"""A fitted tilability model read as Selby's talk reads his (seed 000): the ranking of the pieces, the talk's
landmarks beside their ranks, and a picture of the best and worst pieces.

The landmarks are the talk's words, not numbers from it: piece 35 "the superpiece" (the best), 166 "the beast"
(the worst), 51-54 "four roughly equal" pieces just behind the best, and the convex pieces 120, 124 and 125,
which one might expect to tile well and which ranked only "about 30th".  Its figure shows the 12 best and
the 5 worst pieces.
"""

from __future__ import annotations

import statistics

# the talk's landmarks: piece -> (what the talk calls it, the rank it gives, counted from the best)
LANDMARKS = {
    "35": ("the superpiece: the best", "1"),
    "51": ("one of four roughly equal second-best (51-54)", "2-5"),
    "52": ("one of four roughly equal second-best (51-54)", "2-5"),
    "53": ("one of four roughly equal second-best (51-54)", "2-5"),
    "54": ("one of four roughly equal second-best (51-54)", "2-5"),
    "120": ("convex, yet only about 30th", "about 30"),
    "124": ("convex, yet only about 30th", "about 30"),
    "125": ("convex, yet only about 30th", "about 30"),
    "166": ("the beast: the worst", "last"),
}
BEST, WORST = 12, 5  # the talk's figure


def ranking(doc: dict) -> list[tuple[int, str, float]]:
    """(rank from the best, piece, weight) of every piece of a weights document, the best first."""
    items = sorted(doc["weights"].items(), key=lambda kv: (-kv[1], kv[0]))
    return [(i + 1, name, w) for i, (name, w) in enumerate(items)]


def landmark_rows(doc: dict) -> list[dict]:
    """Each landmark's rank in the fit beside the talk's."""
    ranks = {name: (r, w) for r, name, w in ranking(doc)}
    n = len(ranks)
    out = []
    for name, (what, talk) in LANDMARKS.items():
        if name in ranks:
            r, w = ranks[name]
            out.append({"piece": name, "talk": what, "talk_rank": talk, "rank": r, "of": n, "weight": w})
    return out


def gaps(doc: dict) -> dict:
    """The gap from the best piece to the next and from the worst to the one above it, in weight, and both as
    a multiple of the median gap between neighbouring ranks (the talk: the superpiece and the beast stand out)."""
    w = [x for _, _, x in ranking(doc)]
    steps = [a - b for a, b in zip(w, w[1:])]
    med = statistics.median(steps) if steps else 0.0
    return {
        "best_gap": steps[0],
        "worst_gap": steps[-1],
        "median_gap": med,
        "best_gap_x_median": steps[0] / med if med else None,
        "worst_gap_x_median": steps[-1] / med if med else None,
    }


def draw(doc: dict, output: str) -> None:
    """The 12 best and the 5 worst pieces, each drawn from its cells on the drafter grid, with rank and weight."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon

    from puzzles import catalog
    from puzzles.files.outputs import atomic_save

    base = catalog.load(doc["puzzle"])
    g = base.grid
    pieces = {pc.name: pc for pc in base.pieces}
    ranked = ranking(doc)
    shown = ranked[:BEST] + ranked[-WORST:]
    fig, axes = plt.subplots(3, 6, figsize=(12, 6.5))
    for ax in axes.flat:
        ax.set_axis_off()
    for ax, (r, name, w) in zip(axes.flat, shown):
        pc = pieces[name]
        for cell in pc.cells:
            colour = "#8fb3de" if r <= BEST else "#e39a8f"
            ax.add_patch(Polygon(g.polygon(cell), closed=True, fc=colour, ec="#333", lw=0.6))
        ax.autoscale_view()
        ax.set_aspect("equal")
        ax.set_title(f"#{r}: piece {name}\n{w:+.2f}", fontsize=9)
    fig.suptitle(f"{doc['puzzle']}: the {BEST} most tilable pieces (blue) and the {WORST} least (red), by the fit")
    fig.tight_layout()
    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=110))
    plt.close(fig)
