"""Owen's model held to measured counts: each board of a run of ``owen_counts.toml`` (generated edge boards across
the phase transition, Owen's Puzzles A and B) with its expected count beside the count measured.

A board's count is exact where the native count finished, else the estimate of ``edge-estimate`` (Knuth's
random prefixes, exact below them) with its 95% interval.  Both count each look of a symmetric piece once;
Owen's model counts a symmetric piece's look-alike turns apart, so the measured count is multiplied by the
model's symmetric-piece factor before the two are compared (as for Puzzle B: 28,767,908,352 x 4).

A board is *beyond the native count's reach in 10 minutes* when the native count, given the run's limit, did
not finish, and the tree the probes estimate for it, a quarter of it (the first corner fixed), at the rate the
native count searched that board, takes more than 600 s.  Knuth's estimate of a tree tends to fall short of it
(rare heavy subtrees are seldom drawn), so the test errs towards reach."""

from __future__ import annotations

import json
import math
import sqlite3
import statistics
from collections import defaultdict

REACH_S = 600.0  # the native count's time this study calls out of reach


def points(db: str) -> list[dict]:
    """One point a board: its name, family, size, inner colours, expected count, the measured count (exact or
    estimated, with its interval) times the symmetric-piece factor, log10 of measured over expected, and the
    native count's estimated time."""
    from experiments.store import check_readable, read_only
    from puzzles.errors import InputError

    check_readable(db)  # a results database, or one line naming the file
    con = read_only(db)  # a file path, never a URI; nothing written beside it
    con.row_factory = sqlite3.Row
    try:
        insts = {
            r["id"]: dict(r)
            for r in con.execute("SELECT id, family, name, kind, params, puzzle, estimate FROM instances")
        }
        cells: dict[str, dict[str, dict]] = defaultdict(dict)
        for r in con.execute(
            "SELECT instance, config, status, count, count_exact, nodes, search_s, engine_stats FROM results"
        ):
            cells[r["instance"]][r["config"]] = dict(r)
    except sqlite3.DatabaseError as e:
        raise InputError(db, None, f"not a store of owen_counts.toml's columns ({e})") from None
    finally:
        con.close()
    out = []
    for iid, inst in sorted(insts.items(), key=lambda kv: (str(kv[1]["family"]), str(kv[1]["name"]))):
        try:
            point = _point(inst, cells[iid])
        except (ValueError, KeyError, TypeError, AttributeError, ZeroDivisionError, OverflowError) as e:
            raise InputError(db, f"instance {inst['name']!r}", f"a damaged cell or instance ({e})") from None
        if point is not None:
            out.append(point)
    return out


def _point(inst: dict, cells: dict[str, dict]) -> dict | None:
    """One board's point (``points``), or None for an instance that is not an edge board (a polyform set, a
    CNF file): Owen's model says nothing of it."""
    from puzzles.estimates import estimate
    from puzzles.files.formats import puzzle_from_dict

    if inst["kind"] != "edge" or not isinstance(inst["puzzle"], str):
        return None
    p = puzzle_from_dict(json.loads(inst["puzzle"]))
    if getattr(p, "kind", None) != "edge" or not isinstance(inst["estimate"], (int, float, type(None))):
        return None
    sym = estimate.symmetry_factors(p)["symmetric_pieces"]
    native, sampled = cells.get("native"), cells.get("sampled")
    point = {"name": inst["name"], "family": inst["family"], "size": f"{p.rows}x{p.cols}",
             "inner": len(p.colour_classes()[1]), "expected": inst["estimate"], "symmetric": sym,
             "exact": None, "estimate": None, "low": None, "high": None, "native_s": None}  # fmt: skip
    if native and native["status"] in ("solved", "unsatisfiable"):
        point["exact"] = int(native["count_exact"] or native["count"] or 0) * sym
    st = json.loads(sampled["engine_stats"] or "{}") if sampled else {}
    if sampled and sampled["status"] == "solved":
        point |= {"estimate": st["estimate"] * sym, "low": st["low"] * sym, "high": st["high"] * sym}
    if st.get("tree_nodes"):
        quarter = st["tree_nodes"] / 4  # the first corner fixed, as the native count does on a square board
        rate = native["nodes"] / native["search_s"] if native and native["search_s"] else None
        point["native_s"] = quarter / rate if rate else (st.get("native_s") or 0) / 4
    point["beyond"] = point["exact"] is None and point["native_s"] is not None and point["native_s"] > REACH_S
    measured = point["exact"] if point["exact"] is not None else point["estimate"]
    point["measured"] = measured
    ok = measured and point["expected"]
    point["log_ratio"] = math.log10(measured / point["expected"]) if ok else None
    return point


def table(pts: list[dict]) -> str:
    """A markdown table by board size and inner colours: boards, the median expected count, how many were
    counted exactly, estimated, or neither, the median and range of log10(measured / expected), and the boards
    beyond the native count's reach in 10 minutes (those measured, and all)."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for q in pts:
        key = (q["size"], q["inner"]) if q["family"] != "owen-puzzles" else (q["name"], q["inner"])
        groups[key].append(q)
    lines = [
        "| boards | inner colours | n | expected (median) | exact | estimated | neither | log10(measured / expected): "
        "median | range | beyond reach: measured, all |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ]

    def order(k):
        side = k[0].split("x")[0]
        return (0, int(side), k[1]) if side.isdigit() else (1, 0, k[0])

    for key in sorted(groups, key=order):
        qs = groups[key]
        logs = sorted(q["log_ratio"] for q in qs if q["log_ratio"] is not None)
        exact = sum(q["exact"] is not None for q in qs)
        est = sum(q["exact"] is None and q["estimate"] is not None for q in qs)
        med = statistics.median(q["expected"] for q in qs)
        spread = f"{logs[0]:+.2f} to {logs[-1]:+.2f}" if logs else "-"
        mid = f"{statistics.median(logs):+.2f}" if logs else "-"
        lines.append(f"| {key[0]} | {key[1]} | {len(qs)} | {med:.3g} | {exact} | {est} | {len(qs) - exact - est} | "
                     f"{mid} | {spread} | {sum(q['beyond'] and q['measured'] is not None for q in qs)}, "
                     f"{sum(q['beyond'] for q in qs)} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def summary(pts: list[dict]) -> dict:
    """The study's headline figures: boards, measured, beyond reach (and measured), and the estimates'
    intervals against the exact counts where both exist."""
    both = [q for q in pts if q["exact"] is not None and q["estimate"] is not None]
    return {
        "boards": len(pts),
        "measured": sum(q["measured"] is not None for q in pts),
        "beyond_reach_measured": sum(q["beyond"] and q["measured"] is not None for q in pts),
        "both": len(both),
        "covered": sum(q["low"] <= q["exact"] <= q["high"] for q in both),
        "largest_estimate": max((q["estimate"] for q in pts if q["estimate"]), default=None),
    }


def plot(pts: list[dict], output: str) -> None:
    """Two panels: log10(measured / expected) against inner colours, a colour a board size (filled: exact,
    open with its interval: estimated, stars: Owen's Puzzles); and measured against expected on log axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from puzzles.files.outputs import atomic_save

    sizes = sorted({q["size"] for q in pts if q["family"] != "owen-puzzles"}, key=lambda s: int(s.split("x")[0]))
    cmap = plt.get_cmap("viridis")
    colour = {s: cmap(i / max(1, len(sizes) - 1)) for i, s in enumerate(sizes)}
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5))
    for i, s in enumerate(sizes):
        qs = [q for q in pts if q["size"] == s and q["family"] != "owen-puzzles" and q["log_ratio"] is not None]
        dx = (i - (len(sizes) - 1) / 2) * 0.08
        for exact in (True, False):
            sel = [q for q in qs if (q["exact"] is not None) == exact]
            if not sel:
                continue
            xs = [q["inner"] + dx for q in sel]
            ys = [q["log_ratio"] for q in sel]
            label = f"{s}, {'exact' if exact else 'estimated'}"
            if exact:
                ax.scatter(xs, ys, color=colour[s], s=30, label=label, zorder=3)
            else:
                lo = [y - math.log10(q["low"] / q["expected"]) if q["low"] > 0 else 0 for y, q in zip(ys, sel)]
                hi = [math.log10(q["high"] / q["expected"]) - y for y, q in zip(ys, sel)]
                ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", mfc="white", color=colour[s], ms=5, label=label, zorder=2)
        bx.scatter([q["expected"] for q in qs], [q["measured"] for q in qs], color=colour[s], s=18, label=s)
    for q in (q for q in pts if q["family"] == "owen-puzzles" and q["log_ratio"] is not None):
        ax.scatter([q["inner"]], [q["log_ratio"]], marker="*", s=160, color="crimson", zorder=4)
        ax.annotate(q["name"], (q["inner"], q["log_ratio"]), textcoords="offset points", xytext=(6, 6), fontsize=8)
        bx.scatter([q["expected"]], [q["measured"]], marker="*", s=140, color="crimson", zorder=4)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("inner colours")
    ax.set_ylabel("log10(measured / expected)")
    ax.set_title("Owen's model against measured counts")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    top = max([q["measured"] for q in pts if q["measured"]] + [q["expected"] for q in pts if q["expected"]])
    bx.plot([1, top], [1, top], color="grey", lw=0.8)
    bx.set_xscale("log")
    bx.set_yscale("log")
    bx.set_xlabel("expected (Owen's model)")
    bx.set_ylabel("measured (exact, or estimated)")
    bx.set_title("measured against expected")
    fig.tight_layout()
    atomic_save(output, lambda tmp: fig.savefig(tmp, dpi=120, bbox_inches="tight"))
    plt.close(fig)
