"""Two configurations of a results store, pair by pair: the comparison a reviewer asks for before a
"faster" is believed (``eternity compare DB A B``, ``eternity table --compare A B``).

A pair is one instance and repeat that both configurations ran; times are PAR-2 times on the chosen clock.
The statistics are ``experiments.significance``'s."""

from __future__ import annotations

import json

from puzzles.errors import UsageError

from .cells import ANSWERED, CLOCKS, _t, cells, overloaded
from .significance import Paired, paired, verdict


def resolve(name: str, configs: list[str]) -> str:
    """A configuration by its full label, or by a text that only one label contains; UsageError otherwise,
    naming the candidates."""
    if name in configs:
        return name
    hits = [c for c in configs if name in c]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise UsageError(f"compare: no configuration {name!r} in the database (it holds: {', '.join(configs)})")
    raise UsageError(f"compare: {name!r} names {len(hits)} configurations ({', '.join(hits)}); give a full label")


def compare(db: str, a: str, b: str, clock: str = "solve", experiment: str | None = None) -> Paired:
    """``a`` against ``b`` in ``db`` on ``clock``."""
    if clock not in CLOCKS:
        raise UsageError(f"unknown clock {clock!r} ({', '.join(CLOCKS)})")
    rows = [r for r in cells(db) if experiment is None or r["experiment"] == experiment]
    configs = sorted({r["config"] for r in rows})
    a, b = resolve(a, configs), resolve(b, configs)
    if a == b:
        raise UsageError(f"compare: both names are the configuration {a!r}")
    per: dict[str, dict] = {a: {}, b: {}}
    # a pair is one instance: two instances of one name (a board as published and scrambled, in two families)
    # are told apart by their family, never paired with each other's cells
    ids: dict[str, set] = {}
    for r in rows:
        ids.setdefault(_name(r), set()).add(r["instance"])
    for r in rows:
        if r["config"] in per:
            t = _t(r, clock)
            if t is not None:  # an unavailable cell ran nowhere: no pair
                name = _name(r)
                if len(ids[name]) > 1:
                    name = f"{name} ({r['family']})"
                per[r["config"]][(name, r["repeat"])] = (r["status"] in ANSWERED, t)
    out = paired(a, b, per[a], per[b])
    out.overloaded = sum(1 for r in rows if r["config"] in per and overloaded(r))
    return out


def _name(r: dict) -> str:
    """A cell's instance as a reader knows it: its name, or the head of its id."""
    return r.get("instance_name") or r["instance"][:12]


def render(p: Paired, fmt: str = "md", clock: str = "solve") -> str:
    """The comparison as text (``md``) or JSON."""
    if fmt == "json":
        return json.dumps({"clock": clock, **p.as_dict()}, indent=1) + "\n"
    ci = f"{p.speedup_ci[0]:.3g} to {p.speedup_ci[1]:.3g}" if p.speedup_ci else "(fewer than two pairs)"
    lines = [
        f"A: {p.a}",
        f"B: {p.b}",
        f"clock: {clock} ({CLOCKS[clock]}); PAR-2 times, an unanswered cell counted as twice its limit",
        "",
        "| | A | B |",
        "|---|---|---|",
        f"| answered only by | {len(p.only_a)} | {len(p.only_b)} |",
        f"| faster on | {p.a_faster} | {p.b_faster} |",
        "",
        f"paired cells: {p.pairs}; answered by both: {p.both}",
        "speedup of A over B (geometric mean of B's time / A's): "
        + ("-" if p.speedup is None else f"{p.speedup:.3g}")
        + f", bootstrap 95% interval {ci}",
        "Wilcoxon signed-rank p-value: "
        + ("- (too few pairs that differ)" if p.p_value is None else f"{p.p_value:.3g}")
        + (
            ""
            if p.p_floor is None
            else f" on n = {p.tested} differing pairs (the least p that n allows: {p.p_floor:.2g})"
        ),
    ]
    for who, names in (("A", p.only_a), ("B", p.only_b)):
        if names:
            lines.append(f"answered only by {who}: {', '.join(names[:20])}" + (" ..." if len(names) > 20 else ""))
    lines += ["", verdict(p)]
    return "\n".join(lines) + "\n"
