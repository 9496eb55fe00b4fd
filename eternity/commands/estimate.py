"""`eternity estimate`: Owen's model, Knuth's probes and the critical size."""

from __future__ import annotations

import math
import re
import time
from pathlib import Path

from eternity.commands.common import _live_progress, _out, _refused
from puzzles.errors import InputError, UsageError
from puzzles.puzzle import EDGES, GRID
from puzzles.ranges import arg


def cmd_estimate(a) -> int:
    """Run `eternity estimate` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.estimates import estimate
    from puzzles.files import formats
    from puzzles.kinds.orders import search_order

    if a.selby_t is not None:
        if a.puzzle or a.critical:
            raise UsageError("estimate: --selby-t stands alone (Selby's crude model needs no puzzle)")
        return _crude(a)
    if a.critical:
        if a.puzzle:
            raise UsageError(f"estimate: --critical is instead of a puzzle; drop {a.puzzle} or --critical")
        if re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*:.*", a.critical):  # ROWSxCOLS:FRAME, an edge family
            _only_what_applies(a, "critical")
            return _critical(a)
        _only_what_applies(a, "critical-set")
        return _critical_set(a)
    if not a.puzzle:
        raise UsageError("estimate: name a PUZZLE (or use --critical ROWSxCOLS:FRAME)")
    p = catalog.load(a.puzzle)
    if GRID in p.features:
        _only_what_applies(a, "knuth")
        return _knuth(a, p)
    if EDGES not in p.features or not p.bordered:
        raise UsageError(
            f"estimate: {a.puzzle}: Owen's model covers bordered edge-matching puzzles "
            "(polyform puzzles get Knuth's estimate)"
        )
    _only_what_applies(a, "owen")
    if a.order is None:
        a.order = DEFAULT_ORDER
    slips = None
    if a.slips:
        try:
            slips = [int(x) for x in a.slips.split(",") if x.strip()]
        except ValueError:
            raise UsageError(f"estimate: --slips {a.slips!r}: expected depths like 192,192,200") from None
        if any(d < 1 or d > p.n_cells for d in slips):
            raise UsageError(f"estimate: --slips: every depth must lie in 1..{p.n_cells}")
    if Path(a.order).exists():
        try:
            order = [p.parse_cell(w) for w in formats.read_text(a.order).split()]
        except ValueError as e:
            raise InputError(a.order, None, str(e)) from None
        if sorted(order) != list(range(p.n_cells)):
            raise InputError(a.order, None, f"an order must name each of the {p.n_cells} cells once")
        order_name = a.order
    else:
        with _refused("estimate"):
            order = search_order(p, a.order)
        order_name = a.order
    with _refused("estimate"):
        log_s = estimate.log_expected_solutions(p)
        log_conf = estimate.log_configurations(p)
        total, prof = estimate.search_nodes(p, order, slips)
    if slips:
        log_s = prof[-1]  # full boards with the invalid joins the slips allow
    out = {
        "puzzle": p.name or a.puzzle,
        "expected_solutions": 10**log_s if log_s < 308 else None,
        "log10_expected_solutions": log_s,
        "class": "sub-critical" if log_s < 0 else "super-critical",
        "symmetry": estimate.symmetry_factors(p),
        "log10_configurations": log_conf,
        "naive": estimate.naive_estimate(p),
        **({"join_probabilities": estimate.join_probabilities(p)} if a.joins_plot else {}),
        "order": order_name,
        "log10_total_nodes": total,
        "total_nodes": 10**total if total < 308 else None,
        "slips": slips,
        "log10_nodes_per_depth": prof,
    }
    if a.joins_plot:
        from eternity.measure import plot_join_probabilities

        plot_join_probabilities(
            out["join_probabilities"], a.joins_plot, f"{p.name or a.puzzle}: Owen's figures 1 and 2 (seed 001)"
        )
        out["joins_plot"] = a.joins_plot
    if a.measure:
        if slips:
            raise UsageError("estimate: --measure counts exact solutions; drop --slips")
        from eternity.measure import measure, plot

        with _refused("estimate"):
            res = measure(p, order_name, a.time_limit)
        plot_path = Path(a.plot or f"estimate-{p.name or 'puzzle'}.png")
        plot([res], plot_path)
        out["measured"] = {
            k: res[k] for k in ("solutions", "complete", "measured_total", "ratio", "time_s", "measured_per_depth")
        }
        out["plot"] = str(plot_path)
    if a.json:
        _out(out)
    else:
        what = "expected boards    " if slips else "expected solutions "
        print(
            f"{what} {10**log_s:.6g}  (log10 {log_s:.3f}, {out['class']})"
            + (f"  with up to {len(slips)} invalid inner joins" if slips else "")
        )
        print("symmetry factors    " + ", ".join(f"{k} {v}" for k, v in out["symmetry"].items()))
        mant, exp = 10 ** (log_conf % 1), int(log_conf // 1)
        print(f"configurations      {mant:.4g}e+{exp} (log10 {log_conf:.3f}; before any join is asked to match)")
        nv = out["naive"]
        lp, ls = nv["log10_all_joins_valid"], nv["log10_expected_solutions"]
        print(
            f"naive estimate      (1/{nv['frame_colors']})^{nv['frame_joins']} (1/{nv['inner_colors']})^"
            f"{nv['inner_joins']} = {10 ** (lp % 1):.3g}e{int(lp // 1)} all joins valid, independent; "
            f"{10**ls:.3g} solutions (log10 {ls:.3f})"
        )
        print(f"search nodes        {10**total:.4g} with order {order_name} (log10 {total:.3f})")
        peak = max(range(len(prof)), key=prof.__getitem__)
        print(f"widest depth        {peak + 1} (log10 {prof[peak]:.2f} nodes)")
        if a.measure:
            m = out["measured"]
            print(
                f"measured nodes      {m['measured_total']:,} ({m['solutions']} solutions"
                + ("" if m["complete"] else ", cut short by the time limit")
                + f", {m['time_s']:.2f} s); "
                f"estimate/measured {m['ratio']:.3g}"
            )
            print(f"plot                {out['plot']}")
    return 0


DEFAULT_ORDER = "rowscan"
WAYS = {
    "owen": "edge-matching puzzles (Owen's model)",
    "knuth": "polyform puzzles (Knuth's estimate)",
    "critical": "--critical",
    "critical-set": "--critical SET (a polyform piece set)",
    "crude": "--selby-t (Selby's crude model)",
}
# where each flag means something; given anywhere else it is refused, not ignored
APPLIES = {
    "pieces": ("crude",),
    "order": ("owen",),
    "slips": ("owen",),
    "seeds": ("critical",),
    "measure": ("owen", "knuth"),
    "plot": ("owen", "knuth"),
    "joins_plot": ("owen",),
    "time_limit": ("owen", "knuth", "critical-set"),
    "probes": ("knuth", "critical-set"),
    "budget": ("knuth", "critical-set"),
    "sweep": ("knuth",),
    "branches": ("knuth",),
    "seed": ("knuth", "critical-set"),
    "sizes": ("critical-set",),
    "regions": ("critical-set",),
}


def _crude(a) -> int:
    """--selby-t T: Selby's crude model (seed 000) for t = T, beside the talk's and seed 002's figures."""
    from puzzles.estimates.crude import lines, model

    if not 0 < a.selby_t < 1:
        raise UsageError(f"estimate: --selby-t {a.selby_t}: t is a number between 0 and 1 (the talk's is about 0.03)")
    a.pieces = a.pieces or 209
    m = model(a.selby_t, a.pieces)
    _out(m) if a.json else print("\n".join(lines(m)))
    return 0


def _only_what_applies(a, way: str) -> None:
    """Refuse a flag that the way this estimate is made would ignore (the user meant something by it)."""
    for dest, ways in APPLIES.items():
        if getattr(a, dest) not in (None, False) and way not in ways:
            flag = "--" + dest.replace("_", "-")
            where = " and ".join(WAYS[w] for w in ways)
            here = "with --critical" if way.startswith("critical") else f"on {WAYS[way]}"
            raise UsageError(f"estimate: {flag} is for {where}, not {here}")
    if way != "critical" and not a.measure:
        if a.plot:
            raise UsageError("estimate: --plot goes with --measure")
        if way == "owen" and a.time_limit is not None:
            raise UsageError(
                "estimate: --time-limit on edge-matching puzzles goes with --measure (Owen's model is instant)"
            )


def _duration(seconds: float) -> str:
    """A span of time in the unit a reader thinks in."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"


def _knuth(a, p) -> int:
    """Knuth's estimate of the `poly` engine's exhaustive tree of a polyform puzzle, with the
    engine's speed measured here: whether an exhaust fits in the time there is.  With
    ``--measure`` the engine then exhausts (up to ``--time-limit``) and the plot holds the
    estimate against the nodes it met per level."""
    from baseline.poly.counting import branching
    from baseline.poly.estimate import estimate_tree
    from baseline.poly.tables import DEFAULT_SWEEP
    from baseline.runtime.kernel import DONE
    from baseline.xcc.searches import make_search

    sweep = DEFAULT_SWEEP if a.sweep is None else a.sweep
    with _refused("estimate"):
        xcc = p.to_xcc()
        search = make_search(xcc, engine="poly", grid=p.grid_name, sweep=sweep)
    progress, status_ctx = _live_progress(a, f"eternity estimate {a.puzzle}")
    with status_ctx:
        probes = a.probes or (10**12 if a.time_limit else 2000)  # a time limit alone: probe until it
        # one limit for the command: the tree's probes take half of it, the speed a tenth (at most 3 s, or the
        # rest with --measure), the solution count what is left
        t_start = time.perf_counter()
        res = estimate_tree(
            search,
            probes=probes,
            seed=a.seed or 0,
            time_s=None if a.time_limit is None else 0.5 * a.time_limit,
            branches=a.branches or 1,
            progress=(lambda **k: progress(k)) if progress else None,
        )
        t0 = time.perf_counter()  # the engine's speed, from the root: a few seconds, or the measured exhaust
        left = math.inf if a.time_limit is None else max(0.0, a.time_limit - (t0 - t_start))
        cap = left if a.measure else min(3.0, 0.1 * left)
        code = None
        while code != DONE and time.perf_counter() - t0 < cap:
            code = search.step(20_000, False)
            if progress and a.measure:
                progress({"exhaust_nodes": search.nodes, "seconds": round(time.perf_counter() - t0, 1)})
        el = time.perf_counter() - t0
    rate = search.nodes / el if el > 0 else 0.0
    hours = res["nodes"] / rate / 3600 if rate > 0 else None
    spent = time.perf_counter() - t_start
    count = _solutions(a, p, search, code == DONE, progress, None if a.time_limit is None else a.time_limit - spent)
    count["branching"] = branching(res["log10_nodes_per_level"])
    out = {
        "puzzle": p.name or a.puzzle,
        "method": "knuth",
        "engine": "poly",
        "sweep": sweep,
        "seed": a.seed or 0,
        "branches": a.branches or 1,
        **res,
        "knuth_solutions": res["solutions"],
        "knuth_solutions_stderr": res["solutions_stderr"],
        **count,
        "nodes_per_s": round(rate),
        "exhaust_hours_one_core": hours,
    }
    if a.measure:
        from eternity.measure import plot

        measured = [int(v) for v in search.prof]
        while measured and measured[-1] == 0:
            measured.pop()
        est = [10**v if v is not None else math.nan for v in res["log10_nodes_per_level"]]  # nan: no line
        n = max(len(measured), len(est))
        m_total = sum(measured)
        out["measured"] = {
            "complete": code == DONE,
            "solutions": search.count,
            "measured_total": m_total,
            "ratio": res["nodes"] / m_total if m_total else None,
            "time_s": round(el, 3),
            "measured_per_level": measured,
        }
        plot_path = Path(a.plot or f"estimate-{p.name or 'puzzle'}.png")
        plot(
            [
                {
                    "puzzle": p.name or a.puzzle,
                    "measured_per_depth": measured + [0] * (n - len(measured)),
                    "estimated_per_depth": est + [math.nan] * (n - len(est)),
                }
            ],
            plot_path,
            model="Knuth",
            title="Knuth's probes (dashed) against the poly engine's exhaust (solid)",
        )
        out["plot"] = str(plot_path)
    if a.json:
        _out(out)
    else:
        se, sse = res["nodes_stderr"], res["solutions_stderr"]
        rel = "n/a" if se is None else f"{se / res['nodes']:.0%}" if res["nodes"] > 0 else "0%"
        print(
            f"tree nodes          {res['nodes']:.4g} (log10 {res['log10_nodes'] or 0:.2f}, standard error {rel}) "
            f"from {res['probes']:,} probes in {res['seconds']:.1f} s (Knuth, engine poly, sweep {sweep:g})"
        )
        if count["solutions_exact"]:
            print(f"solutions           {count['solutions']:,.0f} (exact: the whole exhaust ran here)")
        else:
            cse = count["solutions_stderr"]
            print(
                f"solutions           {count['solutions']:.4g} (standard error {'n/a' if cse is None else f'{cse:.3g}'}; "
                f"{count['count_probes']:,} probe(s) ending in exhausts of up to {count['count_budget']:,} placements)"
            )
        print(
            f"  Knuth's probes    {res['solutions']:.3g} (standard error {'n/a' if sse is None else f'{sse:.3g}'}; "
            f"{res['probes_reaching_a_solution']:,} probes met one: heavy-tailed, an undercount near the critical size)"
        )
        if count["selby_t"] is not None:
            print(
                f"Selby's model       t = {count['selby_t']:.4g} in S = N! t^N (N = {count['pieces']} pieces); "
                f"b_i (branching per level) {', '.join('-' if b is None else f'{b:.3g}' for b in count['branching'][:12])}"
                + (" ..." if len(count["branching"]) > 12 else "")
            )
        print(f"probe depths        mean {res['depth_mean']}, deepest {res['depth_max']}")
        print(f"engine speed        {rate:,.0f} nodes/s on one core (measured here)")
        if hours is not None:
            print(f"exhaust             about {_duration(hours * 3600)} on one core")
        if a.measure:
            m = out["measured"]
            print(
                f"measured nodes      {m['measured_total']:,} ({m['solutions']} solutions"
                + ("" if m["complete"] else ", cut short by the time limit")
                + f", {m['time_s']:.2f} s)"
                + (f"; estimate/measured {m['ratio']:.3g}" if m["ratio"] is not None else "")
            )
            print(f"plot                {out['plot']}")
    return 0


COUNT_PROBES = 400  # probes of the count estimate (about 10 s on the pentomino boxes)
DEFAULT_REGIONS = 8  # --critical SET: random regions a size
SET_PROBES = 200  # --critical SET: probes of each region's count


def _sizes(text: str | None, m: int) -> list[int]:
    """--sizes: N1,N2,... or A-B; the default spans the small sizes a set's regions are counted at."""
    if text is None:
        return list(range(3, m, 2)) if m <= 20 else [4, 6, 8, 10, 12]
    try:
        if "-" in text:
            lo, hi = (int(x) for x in text.split("-"))
            out = list(range(lo, hi + 1))
        else:
            out = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"estimate: --sizes {text!r}: expected N1,N2,... or A-B") from None
    if not out or any(not 1 <= n < m for n in out):
        raise UsageError(f"estimate: --sizes {text!r}: sizes are 1 to {m - 1} pieces (the set has {m})")
    return sorted(set(out))


# Piece sets whose full puzzle is known to have solutions: an estimate below one solution there is the method's
# failure, not a fact about the puzzle.
SOLVED_SETS = {"eternity1": "Selby and Riordan solved it in 2000 (seed 000)"}


def _bound(x: float | None) -> str:
    """An interval's bound on the critical size: None is past the set's size."""
    return "beyond the set" if x is None else f"{x:.1f}"


def _critical_set(a) -> int:
    """--critical SET: the critical size of a polyform piece set (``experiments.studies.critical``)."""
    from experiments.studies.critical import critical_size
    from puzzles import catalog

    base = catalog.load(a.critical)
    if GRID not in base.features:
        raise UsageError(f"estimate: --critical {a.critical!r}: not ROWSxCOLS:FRAME, nor a polyform puzzle")
    sizes = _sizes(a.sizes, len(base.pieces))
    progress, status_ctx = _live_progress(a, f"eternity estimate --critical {a.critical}")
    with status_ctx:
        res = critical_size(
            base,
            sizes,
            regions=a.regions or DEFAULT_REGIONS,
            seed=a.seed or 0,
            probes=a.probes or SET_PROBES,
            budget=a.budget or 20_000,
            time_s=a.time_limit,
            progress=progress,
        )
    if a.json:
        _out(res)
        return 0
    m = res["pieces"]
    print(f"set {res['set']}: {m} pieces; tilings of random regions with every piece offered")
    print(f"{'size':>5} {'regions':>8} {'mean tilings':>14} {'stderr':>11} {'log10 E(N)':>11} {'Selby t':>9}")
    for r in res["sizes"]:
        le = "-" if r["log10_expected_solutions"] is None else f"{r['log10_expected_solutions']:.2f}"
        t = "-" if r["selby_t"] is None else f"{r['selby_t']:.4f}"
        se = "-" if r["stderr"] is None else f"{r['stderr']:.4g}"
        print(f"{r['size']:>5} {r['regions']:>8} {r['mean_tilings_all_pieces']:>14.5g} {se:>11} {le:>11} {t:>9}")
    iv, ia = res["critical_size_90"], res["log10_solutions_all_pieces_90"]
    if res["selby_t_inf"] is None:
        print("critical size       not measured (no region at the sizes measured has a tiling)")
        return 0
    print(f"Selby's t           t_N = {res['selby_t_inf']:.4g} (1 - {res['selby_t_drift']:.3g}/sqrt(N))")
    sizes = [r["size"] for r in res["sizes"]]
    where = f"a fit of Selby's t at sizes {min(sizes)}-{max(sizes)}, extrapolated to {m} pieces"
    solved = next((why for name, why in SOLVED_SETS.items() if res["set"].startswith(name)), None)
    la = res["log10_solutions_all_pieces"]
    if res["critical_size"] is None and solved:
        print(
            f"critical size       not reached by this method here: {where} never expects one solution, yet "
            f"{solved}; measure larger sizes (--sizes) to bring the fit nearer; seeds 000 and 002: 70-80 and 75"
        )
    else:
        shown = "beyond the set" if res["critical_size"] is None else f"{res['critical_size']:.1f} pieces"
        print(
            f"critical size       c = {shown}"
            + (f" (90%: {_bound(iv[0])} to {_bound(iv[1])})" if iv else "")
            + ("; seeds 000 and 002: 70-80 and 75" if res["set"].startswith("eternity1") else "")
            + f" ({where})"
        )
    if la is not None and la < 0 and solved:
        print(
            f"all {m} pieces      not reached by this method here: {where} gives 10^{la:.1f} solutions, below one, "
            f"yet {solved}; the estimate holds near the sizes measured, not at the full set"
        )
    elif la is not None:
        print(
            f"all {m} pieces      10^{la:.1f} solutions"
            + (f" (90%: 10^{ia[0]:.1f} to 10^{ia[1]:.1f})" if ia else "")
            + ("; seed 000: about 10^95" if res["set"].startswith("eternity1") else "")
            + (f" ({where}; below one: the fit expects no tiling of the full set)" if la < 0 else f" ({where})")
        )
    return 0


def _solutions(a, p, search, exhausted: bool, progress, time_s: float | None = None) -> dict:
    """The solution count: exact when the engine's exhaust finished while its speed was measured, else the
    probes that end in exhausts (``baseline.poly.counting``); Selby's t and the branching per level beside."""
    from baseline.poly.counting import DEFAULT_BUDGET, estimate_count, selby_t

    n_pieces = sum(pc.count for pc in p.pieces) or len(p.pieces)
    if exhausted:
        est = {"solutions": float(search.count), "solutions_stderr": 0.0, "probes": 0, "budget": 0, "exact": True}
    else:
        est = estimate_count(
            search,
            probes=a.probes or COUNT_PROBES,
            seed=a.seed or 0,
            budget=a.budget or DEFAULT_BUDGET,
            time_s=None if time_s is None else max(0.0, time_s),
            progress=(lambda **k: progress({"count": k})) if progress else None,
        )
    return {
        "solutions": est["solutions"],
        "solutions_stderr": est["solutions_stderr"],
        "solutions_exact": bool(est["exact"]),
        "count_probes": est["probes"],
        "count_budget": est["budget"],
        "pieces": n_pieces,
        "selby_t": selby_t(est["solutions"], n_pieces),
        "branching": [],
    }


DEFAULT_SEEDS = 3
CRITICAL_WORK = 40_960  # cells x seeds of a --critical sweep: about a minute (32x32 with 40 seeds)
CRITICAL_SIDE = 32  # --critical: 32x32 turns sub-critical at 39.6 inner colours, within the sweep's 40


def _critical(a) -> int:
    from puzzles.estimates import estimate

    try:
        size, frame = a.critical.split(":")
        rows, cols = (int(x) for x in size.lower().split("x"))
        frame = int(frame)
    except ValueError:
        raise UsageError(f"estimate: --critical {a.critical!r}: expected ROWSxCOLS:FRAME, e.g. 10x10:3") from None
    if rows < 3 or cols < 3 or frame < 1:
        raise UsageError("estimate: --critical needs at least 3x3 and one frame colour")
    if max(rows, cols) > CRITICAL_SIDE or frame > 1000:
        raise UsageError(
            f"estimate: --critical {a.critical}: at most {CRITICAL_SIDE} a side and 1000 frame colours "
            f"(the sweep of 1 to 40 inner colours crosses the critical point up to {CRITICAL_SIDE}x{CRITICAL_SIDE})"
        )
    seeds = DEFAULT_SEEDS if a.seeds is None else a.seeds
    if rows * cols * seeds > CRITICAL_WORK:
        raise UsageError(
            f"estimate: --critical {a.critical} --seeds {seeds}: at most {CRITICAL_WORK // (rows * cols)} seeds on "
            f"a {rows}x{cols} board (each generates 40 boards and estimates them: about 1.6 s a seed at 32x32)"
        )
    res = estimate.critical_size(rows, cols, frame, seeds=seeds)
    if a.json:
        _out({"rows": rows, "cols": cols, "frame_colors": frame, "seeds": seeds, **res})
        return 0
    crit = res["critical_inner_colors"]
    print(
        f"{rows}x{cols}, {frame} frame colours: critical at "
        + (f"{crit:.2f} inner colours" if crit is not None else "no crossing found")
    )
    for i, lg in res["table"]:
        print(
            f"  {i:3d} inner colours  log10 expected solutions {lg:8.3f}  "
            + ("super-critical" if lg >= 0 else "sub-critical")
        )
    return 0


def add(sub) -> None:
    """Declare `eternity estimate` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "estimate",
        help="expected solutions and search-tree size: Owen's model (edge matching), Knuth's probes (polyforms)",
    )
    s.add_argument("puzzle", nargs="?")
    s.add_argument(
        "--order",
        help="edge matching: rowscan, rowscan-up, colscan, spiral, frame-first, rows-cols-K (Owen's order for "
        "slip searches: rowscan-up over all rows but the top K, then those K rows column by column), or a file "
        f"of cell names (default: {DEFAULT_ORDER})",
    )
    s.add_argument("--slips", help="D1,D2,...: the k-th invalid inner join is allowed from depth D_k (slip array)")
    s.add_argument(
        "--selby-t",
        type=float,
        metavar="T",
        help="instead of a puzzle: Selby's crude model (seed 000) for this t: the critical size, the solutions of "
        "the full set and the cost of exhausting a critical-size puzzle",
    )
    s.add_argument(
        "--pieces", type=arg(int, 1, 100_000), help="with --selby-t: the set's size (default 209, Eternity's)"
    )
    s.add_argument(
        "--critical",
        metavar="ROWSxCOLS:FRAME|SET",
        help="instead of a puzzle: ROWSxCOLS:FRAME, the inner-colour count where a generated edge family turns "
        "sub-critical; SET, a polyform puzzle whose pieces are the set (eternity1, pentomino-6x10): the region "
        "size N where N random pieces are expected to tile a random N-piece region once, and the solutions of "
        "a region of all the pieces",
    )
    s.add_argument(
        "--sizes",
        help="--critical SET: region sizes in pieces, N1,N2,... or A-B (default: 3,5,... below a set of 20 "
        "pieces; 4,6,8,10,12 for larger sets)",
    )
    s.add_argument(
        "--regions",
        type=arg(int, 2, 10_000),
        help=f"--critical SET: random regions at each size (default: {DEFAULT_REGIONS})",
    )
    s.add_argument(
        "--budget",
        type=arg(int, 1),
        help="polyforms: placements an exhaust may take inside a count probe (default 20,000)",
    )
    s.add_argument(
        "--seeds",
        type=arg(int, 1, 1000),
        help=f"--critical: generated instances per colour count (default: {DEFAULT_SEEDS})",
    )
    s.add_argument(
        "--measure",
        action="store_true",
        help="count with edge-backtrack in the same order and plot estimated against measured nodes",
    )
    s.add_argument("--plot", help="--measure: where the PNG goes (default estimate-PUZZLE.png)")
    s.add_argument(
        "--joins-plot",
        metavar="PNG",
        help="edge matching: draw seed 001's figures 1 and 2 (the chance that the next frame / inner join is "
        "valid, over the joins made) to this PNG; --json then lists the values",
    )
    s.add_argument(
        "--time-limit",
        type=arg(float, 0.001),
        help="--measure: stop the count after this many seconds; polyforms: stop probing after this many seconds",
    )
    s.add_argument(
        "--probes", type=arg(int, 1), help="polyforms: random probes of the poly engine's tree (default 2000)"
    )
    s.add_argument(
        "--sweep", type=arg(float, -360.0, 360.0), help="polyforms: the engine's sweep in degrees (default 90)"
    )
    s.add_argument(
        "--branches",
        type=arg(int, 1, 64),
        help="polyforms: children a probe follows at each node (default 1, "
        "Knuth's path; 2 or more: Purdom's partial backtracking, dearer probes that see rare deep branches)",
    )
    s.add_argument("--seed", type=arg(int, 0), help="polyforms: the probes' random seed (default: 0)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="polyforms: no progress")
    s.set_defaults(func=cmd_estimate, outputs={"plot": "image", "joins_plot": "image"})
