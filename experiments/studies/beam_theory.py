"""Seed 000's theory of the beam, checked on its own idealisation: a random tree where beam search is
argued optimal.

The idealisation (seed 000): a tree with a branching factor b_d at each depth d, decreasing with d;
the root scores 0, and each edge adds an independent random number to its child's score; the aim is
to reach the last depth with high-scoring nodes for the least work.  Here the increments are standard
normal, the work is the children generated, and a run *succeeds* when it ends with a node of score at
least a target T (the puzzle's solution: deep and well scored).  Three claims are tested:

* **crossover**: one beam of width 2a is at least as good as two independent beams of width a (the
  same work): merge their children at every depth and keep the best 2a.  More generally, k beams of
  width w / k against one of width w.
* **doubling**: replacing every a_i by 2 a_i helps (at twice the work).
* **instability**: a depth-first search with fixed score cutoffs x_i, taken from a first beam run as
  the score of its a_i-th best node at each depth, and run on a new tree with the beam's work as its
  budget, does much worse than a new beam search.

Each policy runs on ``seeds`` independent trees; the table gives its success rate and the median of
its best final score.  Numbers are the model's, not Eternity's: the model says what the argument
predicts where its assumptions hold exactly.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Tree:
    """The idealised tree: depth ``depth``, branching b_d falling linearly from ``b0`` to ``b_end``."""

    depth: int = 40
    b0: int = 8
    b_end: int = 2

    def branching(self, d: int) -> int:
        """b_d: the children of every node at depth d."""
        return int(round(self.b0 + (self.b_end - self.b0) * d / max(1, self.depth - 1)))


_M1, _M2, _GOLD = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB), np.uint64(0x9E3779B97F4A7C15)


def _mix(z: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a well-mixed 64-bit hash of each key."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


def children(keys: np.ndarray, b: int) -> tuple[np.ndarray, np.ndarray]:
    """The b children of each node: their keys and their score increments.  A node's subtree is a
    function of its key alone, so every search that reaches a node sees the same tree below it."""
    with np.errstate(over="ignore"):
        kid = _mix(keys[:, None] * _GOLD + np.arange(1, b + 1, dtype=np.uint64)[None, :])
        u1 = (_mix(kid ^ _M1) >> np.uint64(11)).astype(np.float64) * 2.0**-53
        u2 = (_mix(kid ^ _M2) >> np.uint64(11)).astype(np.float64) * 2.0**-53
    z = np.sqrt(-2.0 * np.log1p(-u1)) * np.cos(2.0 * np.pi * u2)  # Box-Muller: one standard normal
    return kid, z


def beam(tree: Tree, width: int, seed: int, part: int = 0, parts: int = 1) -> tuple[float, int, np.ndarray]:
    """One beam of ``width`` on tree ``seed``; with ``parts`` > 1, through the children ``part``,
    ``part + parts``, ... of the first level that has ``parts`` of them (the runs share the tree out
    between them; the levels above are each run's own, repeated work): (best final score, children
    generated, the cutoff at each depth: the score of the last node kept there)."""
    keys, scores = np.array([seed], np.uint64), np.zeros(1)
    dealt = parts == 1
    work, cut = 0, np.zeros(tree.depth)
    for d in range(tree.depth):
        kid, z = children(keys, tree.branching(d))
        kids = (scores[:, None] + z).ravel()
        kid = kid.ravel()
        work += len(kids)
        if not dealt and len(kids) >= parts:
            order = np.argsort(kid)  # a fixed deal of the level's nodes, whatever their scores
            kid, kids, dealt = kid[order][part::parts], kids[order][part::parts], True
        if len(kids) > width:
            top = np.argpartition(-kids, width - 1)[:width]
            kid, kids = kid[top], kids[top]
        cut[d] = kids.min()
        keys, scores = kid, kids
    return float(scores.max()), work, cut


def cutoff_dfs(tree: Tree, cut: np.ndarray, budget: int, seed: int) -> float:
    """Depth-first search of tree ``seed`` keeping a child of depth d only when its score is at least
    ``cut[d]``, best children first, until ``budget`` children are generated: the best final score
    (-inf: none reached the last depth)."""
    best = -np.inf
    work = 0
    stack: list[tuple[int, int, float]] = [(0, seed, 0.0)]  # (depth, key, score)
    while stack and work < budget:
        d, key, s = stack.pop()
        if d == tree.depth:
            best = max(best, s)
            continue
        kid, z = children(np.array([key], np.uint64), tree.branching(d))
        work += len(z[0])
        keep = np.flatnonzero(s + z[0] >= cut[d])
        for i in keep[np.argsort(z[0][keep])]:  # ascending: the best is pushed last, popped first
            stack.append((d + 1, int(kid[0, i]), s + float(z[0, i])))
    return float(best)


def trial(tree: Tree, width: int, seeds: int, target_quantile: float = 0.5, splits: tuple[int, ...] = (2, 4, 10)):
    """The three claims on ``seeds`` trees, every policy on the same trees; the target T is the median
    (``target_quantile``) of the width-``width`` beam's best scores, so that beam succeeds on about that
    share of the trees by construction."""
    one = [beam(tree, width, s) for s in range(seeds)]
    target = float(np.quantile([b for b, _, _ in one], 1 - target_quantile))
    work = int(statistics.median(w for _, w, _ in one))
    first = [b for b, _, _ in one]
    rows = [_row(f"beam, width {width}", first, target, work)]
    for k in (k for k in splits if width // k >= 1):  # k runs of width w / k, the root's children dealt out
        got = [[beam(tree, width // k, s, j, k) for j in range(k)] for s in range(seeds)]
        runs = [max(b for b, _, _ in g) for g in got]
        spent = int(statistics.median(sum(w for _, w, _ in g) for g in got))
        rows.append(_row(f"{k} beams of width {width // k}, the tree shared out", runs, target, spent, first))
    double = [beam(tree, 2 * width, s)[0] for s in range(seeds)]
    rows.append(_row(f"beam, width {2 * width} (every a_i doubled)", double, target, 2 * work, first))
    # the cutoffs of tree 0's beam, reused by a depth-first search on each tree (tree 0 is the first run)
    dfs = [cutoff_dfs(tree, one[0][2], work, s) for s in range(seeds)]
    rows.append(_row(f"DFS with tree 0's beam cutoffs, budget {work:,}", dfs, target, work, first))
    return {"target": target, "work": work, "rows": rows}


def _row(policy: str, best: list[float], target: float, work: int, beam_best: list[float] | None = None) -> dict:
    """A policy's line; against the beam's best scores, Mann-Whitney's two-sided p that the two differ."""
    from scipy.stats import mannwhitneyu

    reached = [b for b in best if np.isfinite(b)]
    p = None if beam_best is None else mannwhitneyu([max(b, -1e9) for b in best], beam_best).pvalue
    return {
        "policy": policy,
        "work (children)": f"{work:,}",
        "success": f"{sum(b >= target for b in best)}/{len(best)}",
        "reached the last depth": f"{len(reached)}/{len(best)}",
        "median best score": f"{statistics.median(reached):.2f}" if reached else "-",
        "p against the beam": "-" if p is None else f"{p:.2g}",
    }


# ---- the beam on generated boards with a planted solution: success against width at a fixed budget ----


def width_runs(
    rows: int,
    cols: int,
    frame: int,
    inner: int,
    widths: list[int],
    boards: int,
    budget: float,
    time_s: float = 60.0,
    first_board: int = 0,
) -> list[dict]:
    """The beam solver (mode first) on generated boards, board b from seed b: for each width, runs with
    beam seeds 0, 1, 2, ... (restarts) until one solves the board or the runs have spent ``budget``
    nodes.  A row a (width, board): solved, the runs made, the nodes spent, and whether the first run
    alone solved it."""
    import solving
    from puzzles.make.generate import edge_puzzle

    out = []
    for b in range(first_board, first_board + boards):
        puzzle, _ = edge_puzzle(rows, cols, frame, inner, seed=b)
        for w in widths:
            spent, runs, solved, first = 0, 0, False, False
            while spent < budget and not solved:
                res, verified = solving.solve_verified(
                    solving.get("beam", {"width": w, "seed": runs}), puzzle, "first", solving.Limits(time_s=time_s)
                )
                spent += int(res.measured.nodes or 0) or 1
                solved = bool(verified)
                first = first or (solved and runs == 0)
                runs += 1
            out.append({"width": w, "board": b, "solved": solved, "first_run": first, "runs": runs, "nodes": spent})
    return out


def at_budget(runs: list[dict], budget: float) -> list[dict]:
    """Success against width at a budget of nodes: boards solved by the first run, and by restarts
    within the budget, each with Wilson's 95% interval; the restarts made."""
    rows = []
    for w in sorted({r["width"] for r in runs}):
        mine = [r for r in runs if r["width"] == w]
        one, done = sum(r["first_run"] for r in mine), sum(r["solved"] for r in mine)
        rows.append({
            "width": w,
            "one run solves": share(one, len(mine)),
            f"solved within {budget:,.0f} nodes": share(done, len(mine)),
            "runs made (median)": f"{statistics.median(r['runs'] for r in mine):g}",
            "runs made (max)": max(r["runs"] for r in mine),
            "nodes a run (median)": f"{statistics.median(r['nodes'] / r['runs'] for r in mine):,.0f}",
        })  # fmt: skip
    return rows


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion k / n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(k: int, n: int) -> str:
    """k of n with Wilson's 95% interval, as the study tables print it: 3/10 (0.11-0.60)."""
    lo, hi = wilson(k, n)
    return f"{k}/{n} ({lo:.2f}-{hi:.2f})"


def diversity_runs(
    rows: int, cols: int, frame: int, inner: int, widths: list[int], boards: int, time_s: float = 60.0
) -> list[dict]:
    """How alike the beam's states are against width: one run (beam seed 0) a board and a width, option
    ``diversity``; at the level three quarters down the board (or the deepest the run reached), its
    distinct piece sets and distinct ancestors half-way up, per state kept, and the share of placements
    two states have in common."""
    import solving
    from puzzles.make.generate import edge_puzzle

    out = []
    target = (3 * rows * cols) // 4
    for b in range(boards):
        puzzle, _ = edge_puzzle(rows, cols, frame, inner, seed=b)
        for w in widths:
            res = solving.get("beam", {"width": w, "diversity": True}).solve(
                puzzle, mode="first", limits=solving.Limits(time_s=time_s)
            )
            levels = [lv for lv in res.stats.get("levels", []) if "piece_sets" in lv]
            if not levels:
                continue
            lv = min(levels, key=lambda lv: abs(lv["level"] - target))
            out.append({
                "width": w, "board": b, "level": lv["level"], "kept": lv["kept"], "piece_sets": lv["piece_sets"],
                "lineages_half": lv["lineages_half"], "shared": lv["shared"],
            })  # fmt: skip
    return out


def diversity_table(runs: list[dict]) -> list[dict]:
    """A row a width: medians over the boards."""
    rows = []
    for w in sorted({r["width"] for r in runs}):
        mine = [r for r in runs if r["width"] == w]
        med = {
            k: statistics.median(r[k] for r in mine) for k in ("level", "kept", "piece_sets", "lineages_half", "shared")
        }
        rows.append({
            "width": w,
            "boards": len(mine),
            "level (median)": f"{med['level']:g}",
            "states kept": f"{med['kept']:,.0f}",
            "distinct piece sets": f"{med['piece_sets']:,.0f}",
            "distinct ancestors half-way up": f"{med['lineages_half']:,.0f}",
            "placements two states share": f"{med['shared']:.2f}",
        })  # fmt: skip
    return rows


def plot_width(runs: list[dict], budget: float, title: str, output: str) -> None:
    """Success against width (log axis): boards solved by one run and within the budget, each with its
    Wilson interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzles.files.outputs import atomic_save

    widths = sorted({r["width"] for r in runs})
    fig, ax = plt.subplots(figsize=(6.4, 4.0))
    for key, label, marker in (("first_run", "one run", "o"), ("solved", f"restarts within {budget:,.0f} nodes", "s")):
        share, lo, hi = [], [], []
        for w in widths:
            mine = [r for r in runs if r["width"] == w]
            k = sum(r[key] for r in mine)
            a, b = wilson(k, len(mine))
            share.append(k / len(mine))
            lo.append(k / len(mine) - a)
            hi.append(b - k / len(mine))
        ax.errorbar(widths, share, yerr=[lo, hi], marker=marker, capsize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("beam width")
    ax.set_ylabel("boards solved (95% interval)")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120))
    plt.close(fig)
