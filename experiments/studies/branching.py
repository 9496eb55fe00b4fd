"""Site against piece, and the exchange argument: seed 000's two claims about branching, read from the
exhausts of a run (``experiments/configs/branching.toml``: one count a branch rule and a puzzle).

Selby: branching on the most constrained site is the best method, better than choosing a piece and
branching on where it goes.  The table gives each rule's tree (nodes) on the same puzzles, counts held
equal, and says where the claim holds.

The exchange argument: a tree of branching factors b_0, b_1, ... has N = 1 + b_0 (1 + b_1 (1 + ...))
nodes, so for a given multiset of factors the smallest N puts the small factors first (swap two
adjacent levels with b_i > b_(i+1) and N shrinks).  An order that defers its large factors should
make the smaller tree.  For each finished exhaust the profile is measured (b_i = nodes at level i over
nodes at level i - 1), with its *deferral*: Spearman's correlation of log b_i with the level (1: the
factors grow with depth, all large ones deferred; -1: the largest come first), and N against the
trees of the same factors sorted ascending (the best the argument allows) and descending (the worst).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from scipy import stats

from experiments.cells import cells

RULES = ("mrv", "site", "piece", "site-order", "piece-order")


@dataclass
class Exhaust:
    """One rule's exhaust of one puzzle."""

    rule: str
    finished: bool
    nodes: int
    count: int | None
    search_s: float | None
    per_level: list[int] = field(default_factory=list)

    @property
    def factors(self) -> list[float]:
        """b_i: nodes at level i over nodes at level i - 1 (the root is one node)."""
        out, above = [], 1
        for n in self.per_level:
            if n == 0 or above == 0:
                break
            out.append(n / above)
            above = n
        return out


def tree_of(factors: list[float]) -> float:
    """N = 1 + b_0 (1 + b_1 (1 + ...)): the nodes of a tree with these branching factors, root included."""
    n = 1.0
    for b in reversed(factors):
        n = 1.0 + b * n
    return n


def deferral(factors: list[float]) -> float | None:
    """Spearman's correlation of log b_i with the level i: 1 when the factors only grow with depth."""
    if len(factors) < 3 or len(set(factors)) < 2:
        return None
    rho = stats.spearmanr(range(len(factors)), [math.log(b) if b > 0 else -1e9 for b in factors]).statistic
    return None if math.isnan(rho) else float(rho)


def _deferral(e: Exhaust) -> float:
    d = deferral(e.factors)
    return -2.0 if d is None else d


def exhausts(db: str, experiment: str | None = None) -> dict[str, dict[str, Exhaust]]:
    """{instance name: {rule: its exhaust}} of a run's count cells whose configuration is a branch rule."""
    out: dict[str, dict[str, Exhaust]] = {}
    for r in cells(db):
        if r["mode"] != "count" or (experiment and r["experiment"] != experiment):
            continue
        rule = json.loads(r.get("options") or "{}").get("branch", "mrv")
        if r["solver"] != "backtrack" or rule not in RULES:
            continue
        es = json.loads(r.get("engine_stats") or "{}")
        ex = Exhaust(
            rule,
            r["status"] in ("solved", "unsatisfiable"),
            int(r["nodes"] or 0),
            None if r["count"] is None else int(r["count"]),
            r.get("search_s"),
            [int(v) for v in es.get("nodes_per_level", [])],
        )
        out.setdefault(r.get("instance_name") or r["instance"], {})[rule] = ex
    return out


def _nodes(e: Exhaust | None) -> str:
    if e is None:
        return "-"
    return f"{e.nodes:,}" if e.finished else f">= {e.nodes:,}"


def _secs(e: Exhaust | None) -> str:
    if e is None or e.search_s is None:
        return "-"
    return f"{e.search_s:.2g}" if e.finished else f">{e.search_s:.0f}"


def site_vs_piece(by_puzzle: dict[str, dict[str, Exhaust]]) -> list[dict]:
    """A row a puzzle: each rule's tree, the smallest, whether the finished counts agree, and Selby's
    claim judged: the most constrained site against the most constrained piece."""
    rows = []
    for name in sorted(by_puzzle):
        ex = by_puzzle[name]
        counts = {e.count for e in ex.values() if e.finished and e.count is not None}
        done = [e for e in ex.values() if e.finished]
        best = min(done, key=lambda e: e.nodes).rule if done else None
        site, piece = ex.get("site"), ex.get("piece")
        if site is None or piece is None:
            claim = "-"
        elif site.finished and (not piece.finished or site.nodes < piece.nodes):
            claim = "holds" if piece.finished else "holds (piece at its limit)"
        elif piece.finished and (not site.finished or piece.nodes < site.nodes):
            claim = "fails"
        elif site.finished and piece.finished:
            claim = "tie"
        else:
            claim = "neither finished"
        mrv = ex.get("mrv")
        rows.append({
            "puzzle": name,
            **{rule: _nodes(ex.get(rule)) for rule in RULES},
            "smallest": best or "-",
            "mrv/site": f"{mrv.nodes / site.nodes:.2f}" if mrv and site and mrv.finished and site.finished else "-",
            "search s (mrv/site/piece)": "/".join(_secs(ex.get(r)) for r in ("mrv", "site", "piece")),
            "counts agree": "yes" if len(counts) == 1 else ("-" if not counts else f"NO {sorted(counts)}"),
            "site beats piece": claim,
        })  # fmt: skip
    return rows


def exchange(by_puzzle: dict[str, dict[str, Exhaust]]) -> list[dict]:
    """A row a finished exhaust: its depth, deferral, N and the trees of its factors sorted both ways;
    the puzzle's rule of most deferral is marked, and whether it made the smallest tree."""
    rows = []
    for name in sorted(by_puzzle):
        done = [e for e in by_puzzle[name].values() if e.finished and e.factors]
        if len(done) < 2:
            continue
        smallest = min(done, key=lambda e: e.nodes)
        ranked = [e for e in done if deferral(e.factors) is not None]
        most = max(ranked, key=_deferral) if ranked else None
        for e in sorted(done, key=lambda e: e.nodes):
            f = e.factors
            asc, desc = tree_of(sorted(f)), tree_of(sorted(f, reverse=True))
            d = deferral(f)
            rows.append({
                "puzzle": name,
                "rule": e.rule,
                "depth": len(f),
                "nodes": e.nodes,
                "deferral": "-" if d is None else f"{d:+.2f}",
                "N / sorted": f"{(1 + e.nodes) / asc:.3g}",
                "N / reversed": f"{(1 + e.nodes) / desc:.3g}",
                "most deferred": "yes" if e is most else "",
                "smallest tree": "yes" if e is smallest else "",
            })  # fmt: skip
    return rows


def exchange_verdict(by_puzzle: dict[str, dict[str, Exhaust]]) -> dict:
    """Over the puzzles with two or more finished exhausts: how often the rule of most deferral made the
    smallest tree, and the rank correlation of deferral with log N within each puzzle (its median)."""
    hits, total, rhos = 0, 0, []
    for ex in by_puzzle.values():
        done = [e for e in ex.values() if e.finished and deferral(e.factors) is not None]
        if len(done) < 2:
            continue
        total += 1
        most = max(done, key=_deferral)
        hits += most.nodes == min(e.nodes for e in done)
        if len(done) >= 3:
            rho = stats.spearmanr([deferral(e.factors) for e in done], [e.nodes for e in done]).statistic
            if not math.isnan(rho):
                rhos.append(float(rho))
    rhos.sort()
    return {
        "puzzles": total,
        "most deferred is smallest": hits,
        "median rho(deferral, nodes)": None if not rhos else round(rhos[len(rhos) // 2], 2),
        "puzzles with rho": len(rhos),
    }


def markdown(rows: list[dict]) -> str:
    """A list of row dicts as a markdown table."""
    if not rows:
        return "(no rows)\n"
    cols = list(rows[0])
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(str(r[c]) for c in cols) + " |" for r in rows]
    return "\n".join(out) + "\n"
