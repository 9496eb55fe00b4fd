"""The `eternity` command line (docs/ARCHITECTURE.md, "The command line").

Exit status: 0 answered; 1 `verify` found an invalid solution (otherwise a
bug); 2 bad input or usage, as one line on stderr; 3 a limit stopped the
work before an answer; 4 an internal error (a bug: one line, the traceback in
a file it names, or on stderr with ETERNITY_DEBUG=1).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import math
import os
import sys
import time
from pathlib import Path

from experiments import cli as runner_cli

from . import proof_commands
from puzzles.errors import InputError, UsageError
from puzzles.grids import GRIDS
from puzzles.ranges import MAX_SIDE, arg

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_LIMIT, EXIT_INTERNAL = 0, 1, 2, 3, 4


class _Help(argparse.HelpFormatter):
    """Help that names each option's default, where it has one the text does not already give."""

    def _get_help_string(self, action):
        text = action.help or ""
        if (action.option_strings and action.default not in (None, False, argparse.SUPPRESS)
                and "default" not in text.lower()):
            text += " (default: %(default)s)"
        return text


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # one line, exit 2
        raise UsageError(f"{self.prog}: {message}")


# Help for the arguments that many commands share, or whose meaning their name says, by destination; a
# command's own text wins.  ``tests/test_hostile_input.py`` checks that no argument is left without help.
COMMON_HELP = {
    "puzzle": "a puzzle file (JSON, or a community piece list) or a built-in name (`eternity list`)",
    "solution": "a solution file (format eternity/solution, as `solve -o` writes it)",
    "json": "print JSON instead of text",
    "output": "the file to write (written whole; never one of the command's inputs)",
    "seed": "random seed: the same seed gives the same result",
    "name": "the name stored in the file",
    "planted": "also write the planted solution to this file",
    "rows": "board rows", "cols": "board columns",
    "frame_colors": "colours of the frame (the joins along the border)",
    "inner_colors": "colours of the inner joins",
    "grid": "the polyform grid: square, triangle, hexagon or drafter",
    "solver": "a registered solver (`eternity solvers`); default: edge-backtrack on edge matching, else backtrack",
    "opt": "a solver option K=V, repeated for more (`eternity solvers NAME` lists them)",
    "node_limit": "stop after this many search nodes",
    "from": "the CNF file `eternity export --to dimacs` wrote",
    "model": "the model an outside SAT solver printed for that CNF (v lines, or integers)",
    "to": "the format to write",
    "config": "an experiment config (TOML; experiments/*.toml)",
    "executor": "local worker processes, or a Dask cluster (--scheduler, or a local one)",
    "quiet": "no progress (a live line on a terminal, else a log line every 15 s)",
    "db": "a results database (SQLite, as `eternity run` writes it)",
    "kind": "cactus (cells solved against time) or hardness (time against inner colours)",
    "commitment": "the commitment `eternity commit` wrote",
    "proof": "the proof `eternity prove` wrote",
}


def _fill_help(parser: argparse.ArgumentParser) -> None:
    """Give every argument without help the common text for its destination."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _fill_help(sub)
        elif action.help is None and action.dest in COMMON_HELP:
            action.help = COMMON_HELP[action.dest]


@contextlib.contextmanager
def _refused(prefix: str):
    """A ValueError from below is a request refused: one line, ``prefix: why`` (a UsageError passes as it is)."""
    try:
        yield
    except UsageError:
        raise
    except ValueError as e:
        raise UsageError(f"{prefix}: {e}") from None


def _out(obj) -> None:
    print(json.dumps(obj, indent=1, default=str))


def _opts(pairs: list[str] | None) -> dict:
    out = {}
    for kv in pairs or []:
        if "=" not in kv:
            raise UsageError(f"--opt {kv!r}: expected KEY=VALUE")
        k, v = kv.split("=", 1)
        out[k.strip()] = v.strip()
    return out


# ------------------------------------------------------------------ commands
def cmd_list(a) -> int:
    from rich.console import Console
    from rich.table import Table

    from puzzles import catalog

    rows = [(n, catalog.describe(n)) for n in catalog.names()]
    if a.json:
        _out([{"name": n, "description": d} for n, d in rows])
        return 0
    t = Table("name", "description", box=None)
    for n, d in rows:
        t.add_row(n, d)
    Console().print(t)
    return 0


def cmd_solvers(a) -> int:
    from rich.console import Console

    import solving

    rows = []
    for name in solving.names():
        cls = solving.solver_class(name)
        rows.append({"name": name, "modes": list(cls.MODES), "kinds": list(cls.KINDS),
                     "options": {k: {"type": o.kind.__name__, "default": o.default, "choices": list(o.choices or []),
                                     "range": o.range if o.kind in (int, float) else None,
                                     "help": o.help} for k, o in cls.OPTIONS.items()},
                     "doc": (cls.__doc__ or sys.modules[cls.__module__].__doc__ or "").strip().splitlines()[0],
                     "here": cls.here() if a.name == name or a.json else None})
    if a.name:
        rows = [r for r in rows if r["name"] == a.name]
        if not rows:
            raise UsageError(f"solvers: no solver named {a.name!r} (registered: {', '.join(solving.names())})")
    if a.json:
        _out(rows)
        return 0
    if not a.name:  # one line a solver, within 80 columns; `eternity solvers NAME` for its options
        for r in rows:
            doc = r["doc"].removeprefix(f"`{r['name']}`: ")
            line = f"{r['name']:<15} {'/'.join(r['modes']):<28} {doc}"
            print(line if len(line) <= 80 else line[:77] + "...")
        print("\n`eternity solvers NAME`: one solver and its options; --json: everything.")
        return 0
    con = Console()
    for r in rows:
        con.print(f"[bold]{r['name']}[/bold]  modes {', '.join(r['modes'])}; puzzles {', '.join(r['kinds'])}")
        if r["doc"]:
            con.print(f"  {r['doc']}", markup=False)
        if r["here"]:
            con.print(f"  On this machine: {r['here']}", markup=False, highlight=False)
        for k, o in r["options"].items():
            values = ", ".join(map(str, o["choices"])) or o["range"] or ""
            con.print(f"  [bold]{k}[/bold] ({o['type']}, default {o['default']!r}" + (f"; {values}" if values else "")
                      + ")", highlight=False)
            con.print(f"      {o['help']}", markup=False, highlight=False)
    return 0


def cmd_info(a) -> int:
    from puzzles import catalog, formats
    p = catalog.load(a.puzzle)
    info = p.summary()
    info["hash"] = formats.puzzle_hash(p)
    if catalog.is_builtin(a.puzzle):
        info["description"] = catalog.describe(a.puzzle)
        info["known_solution"] = catalog.known_solution(a.puzzle) is not None
    if p.kind == "edge":
        frame, inner = p.colour_classes()
        info["frame_color_ids"], info["inner_color_ids"] = frame, inner
        if p.bordered and min(p.rows, p.cols) >= 2:
            from puzzles import estimate

            info["owen_log10_expected_solutions"] = round(estimate.log_expected_solutions(p), 4)
            info["symmetry"] = estimate.symmetry_factors(p)
    if a.json:
        _out(info)
    else:
        for k, v in info.items():
            print(f"{k:>16}: {v}")
    return 0


def cmd_estimate(a) -> int:
    from puzzles import catalog, estimate, formats
    from puzzles.orders import search_order

    if a.critical:
        return _critical(a)
    if not a.puzzle:
        raise UsageError("estimate: name a PUZZLE (or use --critical ROWSxCOLS:FRAME)")
    p = catalog.load(a.puzzle)
    if p.kind == "polyform":
        return _knuth(a, p)
    if p.kind != "edge" or not p.bordered:
        raise UsageError(f"estimate: {a.puzzle}: Owen's model covers bordered edge-matching puzzles "
                         "(polyform puzzles get Knuth's estimate)")
    if a.probes is not None or a.sweep is not None or a.branches is not None:
        raise UsageError("estimate: --probes, --branches and --sweep are for polyform puzzles (Knuth's estimate)")
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
    log_s = estimate.log_expected_solutions(p)
    total, prof = estimate.search_nodes(p, order, slips)
    if slips:
        log_s = prof[-1]  # full boards with the invalid joins the slips allow
    out = {"puzzle": p.name or a.puzzle, "expected_solutions": 10 ** log_s if log_s < 308 else None,
           "log10_expected_solutions": log_s, "class": "sub-critical" if log_s < 0 else "super-critical",
           "symmetry": estimate.symmetry_factors(p), "order": order_name,
           "log10_total_nodes": total, "total_nodes": 10 ** total if total < 308 else None,
           "slips": slips, "log10_nodes_per_depth": prof}
    if a.measure:
        if slips:
            raise UsageError("estimate: --measure counts exact solutions; drop --slips")
        from eternity.measure import measure, plot

        with _refused("estimate"):
            res = measure(p, order_name, a.time_limit)
        plot_path = Path(a.plot or f"estimate-{p.name or 'puzzle'}.png")
        plot([res], plot_path)
        out["measured"] = {k: res[k] for k in ("solutions", "complete", "measured_total", "ratio", "time_s",
                                                "measured_per_depth")}
        out["plot"] = str(plot_path)
    if a.json:
        _out(out)
    else:
        what = "expected boards    " if slips else "expected solutions "
        print(f"{what} {10 ** log_s:.6g}  (log10 {log_s:.3f}, {out['class']})"
              + (f"  with up to {len(slips)} invalid inner joins" if slips else ""))
        print("symmetry factors    " + ", ".join(f"{k} {v}" for k, v in out["symmetry"].items()))
        print(f"search nodes        {10 ** total:.4g} with order {order_name} (log10 {total:.3f})")
        peak = max(range(len(prof)), key=prof.__getitem__)
        print(f"widest depth        {peak + 1} (log10 {prof[peak]:.2f} nodes)")
        if a.measure:
            m = out["measured"]
            print(f"measured nodes      {m['measured_total']:,} ({m['solutions']} solutions"
                  + ("" if m["complete"] else ", cut short by the time limit") + f", {m['time_s']:.2f} s); "
                  f"estimate/measured {m['ratio']:.3g}")
            print(f"plot                {out['plot']}")
    return 0


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
    from baseline.backtrack import make_search
    from baseline.kernel import DONE
    from baseline.poly_estimate import estimate_tree

    for flag in ("slips", "critical"):
        if getattr(a, flag):
            raise UsageError(f"estimate: --{flag} is for edge-matching puzzles (Owen's model)")
    if a.plot and not a.measure:
        raise UsageError("estimate: --plot goes with --measure")
    sweep = 90.0 if a.sweep is None else a.sweep
    with _refused("estimate"):
        xcc = p.to_xcc()
        search = make_search(xcc, engine="poly", grid=p.grid_name, sweep=sweep)
    progress, status_ctx = _live_progress(a, f"eternity estimate {a.puzzle}")
    with status_ctx:
        probes = a.probes or (10**12 if a.time_limit else 2000)  # a time limit alone: probe until it
        res = estimate_tree(search, probes=probes, seed=a.seed, time_s=a.time_limit, branches=a.branches or 1,
                            progress=(lambda **k: progress(k)) if progress else None)
        t0 = time.perf_counter()  # the engine's speed, from the root: a few seconds, or the measured exhaust
        cap = (a.time_limit or math.inf) if a.measure else 3.0
        code = None
        while code != DONE and time.perf_counter() - t0 < cap:
            code = search.step(20_000, False)
            if progress and a.measure:
                progress({"exhaust_nodes": search.nodes, "seconds": round(time.perf_counter() - t0, 1)})
        el = time.perf_counter() - t0
    rate = search.nodes / el if el > 0 else 0.0
    hours = res["nodes"] / rate / 3600 if rate > 0 else None
    out = {"puzzle": p.name or a.puzzle, "method": "knuth", "engine": "poly", "sweep": sweep, "seed": a.seed,
           "branches": a.branches or 1,
           **res, "nodes_per_s": round(rate), "exhaust_hours_one_core": hours}
    if a.measure:
        from eternity.measure import plot

        measured = [int(v) for v in search.prof]
        while measured and measured[-1] == 0:
            measured.pop()
        est = [10 ** v if v is not None else math.nan for v in res["log10_nodes_per_level"]]  # nan: no line
        n = max(len(measured), len(est))
        m_total = sum(measured)
        out["measured"] = {"complete": code == DONE, "solutions": search.count, "measured_total": m_total,
                           "ratio": res["nodes"] / m_total if m_total else None, "time_s": round(el, 3),
                           "measured_per_level": measured}
        plot_path = Path(a.plot or f"estimate-{p.name or 'puzzle'}.png")
        plot([{"puzzle": p.name or a.puzzle, "measured_per_depth": measured + [0] * (n - len(measured)),
               "estimated_per_depth": est + [math.nan] * (n - len(est))}], plot_path, model="Knuth",
             title="Knuth's probes (dashed) against the poly engine's exhaust (solid)")
        out["plot"] = str(plot_path)
    if a.json:
        _out(out)
    else:
        se, sse = res["nodes_stderr"], res["solutions_stderr"]
        rel = "n/a" if se is None else f"{se / res['nodes']:.0%}" if res["nodes"] > 0 else "0%"
        print(f"tree nodes          {res['nodes']:.4g} (log10 {res['log10_nodes'] or 0:.2f}, standard error {rel}) "
              f"from {res['probes']:,} probes in {res['seconds']:.1f} s (Knuth, engine poly, sweep {sweep:g})")
        print(f"solutions           {res['solutions']:.3g} (standard error {'n/a' if sse is None else f'{sse:.3g}'}; "
              f"{res['probes_reaching_a_solution']:,} probes met one)")
        print(f"probe depths        mean {res['depth_mean']}, deepest {res['depth_max']}")
        print(f"engine speed        {rate:,.0f} nodes/s on one core (measured here)")
        if hours is not None:
            print(f"exhaust             about {_duration(hours * 3600)} on one core")
        if a.measure:
            m = out["measured"]
            print(f"measured nodes      {m['measured_total']:,} ({m['solutions']} solutions"
                  + ("" if m["complete"] else ", cut short by the time limit") + f", {m['time_s']:.2f} s)"
                  + (f"; estimate/measured {m['ratio']:.3g}" if m["ratio"] is not None else ""))
            print(f"plot                {out['plot']}")
    return 0


def _critical(a) -> int:
    from puzzles import estimate

    try:
        size, frame = a.critical.split(":")
        rows, cols = (int(x) for x in size.lower().split("x"))
        frame = int(frame)
    except ValueError:
        raise UsageError(f"estimate: --critical {a.critical!r}: expected ROWSxCOLS:FRAME, e.g. 10x10:3") from None
    if rows < 3 or cols < 3 or frame < 1:
        raise UsageError("estimate: --critical needs at least 3x3 and one frame colour")
    res = estimate.critical_size(rows, cols, frame, seeds=a.seeds)
    if a.json:
        _out({"rows": rows, "cols": cols, "frame_colors": frame, "seeds": a.seeds, **res})
        return 0
    crit = res["critical_inner_colors"]
    print(f"{rows}x{cols}, {frame} frame colours: critical at "
          + (f"{crit:.2f} inner colours" if crit is not None else "no crossing found"))
    for i, lg in res["table"]:
        print(f"  {i:3d} inner colours  log10 expected solutions {lg:8.3f}  "
              + ("super-critical" if lg >= 0 else "sub-critical"))
    return 0


GENERATE_BYTES_PER_CELL = 1200  # measured: a 300x300 edge puzzle peaks near 105 MB, 45 MB of it the interpreter


def _memory_check(cells: int) -> None:
    """Refuse, before it starts, a generation that would need more than half the memory available now."""
    need = cells * GENERATE_BYTES_PER_CELL
    try:
        avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        return
    if need > avail / 2:
        raise UsageError(f"generate: {cells:,} cells need about {need / 2**30:.1f} GiB, more than half the "
                         f"{avail / 2**30:.1f} GiB available")


def cmd_generate(a) -> int:
    from puzzles import formats, generate

    if a.rows and a.cols:
        _memory_check(a.rows * a.cols)
    with _refused(f"generate {a.family}"):
        if a.family == "edge":
            p, planted = generate.edge_puzzle(a.rows, a.cols, a.frame_colors, a.inner_colors, a.seed, a.name)
        elif a.region:
            p, planted = _region_puzzle(a)
        else:
            if a.grid != "square" or a.rows is None or a.cols is None:
                raise UsageError("generate polyform: give --rows and --cols (square grid) or --region")
            if a.excess or a.dudes:
                raise UsageError("generate polyform: --excess and --dudes need --region")
            p, planted = generate.polyomino_puzzle(a.rows, a.cols, a.size or 5, a.seed, not a.no_mirror, a.name)
    formats.write_puzzle(p, a.output)
    if a.planted:
        formats.write_solution(p, planted, a.planted)
    print(f"wrote {a.output}" + (f" and {a.planted}" if a.planted else ""), file=sys.stderr)
    return 0


def _region_puzzle(a):
    from puzzles import catalog
    from puzzles.partition import hexagon_region, region_puzzle

    if a.region.startswith("hexagon:"):
        try:
            side = int(a.region.split(":", 1)[1])
        except ValueError:
            raise UsageError(f"generate polyform: --region {a.region!r}: expected hexagon:SIDE") from None
        grid, region = "drafter", hexagon_region(side)
    else:
        base = catalog.load(a.region)
        if base.kind != "polyform":
            raise UsageError(f"generate polyform: --region {a.region!r} is not a polyform puzzle")
        grid, region = base.grid_name, base.region
    if a.grid not in ("square", grid):  # --grid defaults to square; a region brings its own grid
        raise UsageError(f"generate polyform: --region {a.region!r} lies on the {grid} grid, not {a.grid}")
    units = a.size or (12 if grid == "drafter" else 5)
    return region_puzzle(grid, region, units, a.seed, a.excess, a.dudes, not a.no_mirror, a.name)


def cmd_enumerate(a) -> int:
    from puzzles.enumeration import free_polyforms, has_hole
    from puzzles.grids import get_grid

    with _refused("enumerate"):
        grid = get_grid(a.grid)
    if a.size < 1 or a.size > 12:
        raise UsageError(f"enumerate: --size {a.size}: expected 1 to 12")
    forms = free_polyforms(grid, a.size)
    holes = sum(has_hole(grid, f) for f in forms)
    info = {"grid": grid.name, "size": a.size, "free": len(forms), "with_holes": holes,
            "without_holes": len(forms) - holes}
    if a.json:
        if a.forms:
            info["forms"] = [[list(c) for c in f] for f in forms]
        _out(info)
    else:
        print(f"{len(forms)} free {grid.name} polyforms of size {a.size} ({holes} with holes)")
    return 0


def cmd_verify(a) -> int:
    from puzzles import catalog, formats
    from puzzles.verify import verify

    p = catalog.load(a.puzzle)
    if a.commitment:  # Selby's split: SOLUTION is an opened half
        return proof_commands.verify_half(a, p, formats.puzzle_hash(p))
    sol = formats.read_solution(p, a.solution)
    rep = verify(p, sol, allow_mismatch=a.score)
    if a.json:
        _out(rep.as_dict())
    else:
        if rep.score is not None:
            print(f"score {rep.score}/{rep.max_score}")
        for msg in rep.problems:
            print(msg)
        if a.score and rep.mismatches:
            print("mismatched joins: " + ", ".join(rep.mismatches))
        print("valid" if rep.valid else ("legal partial board" if a.score and not rep.problems else "INVALID"))
    if a.score:  # a partial board scores; only a broken rule is invalid
        return EXIT_OK if rep.legal else EXIT_INVALID
    return EXIT_OK if rep.valid else EXIT_INVALID


def cmd_render(a) -> int:
    from puzzles import catalog, formats
    from puzzles.render import render

    p = catalog.load(a.puzzle)
    if a.pieces:
        if a.solution:
            raise UsageError("render: --pieces draws the piece sheet; give no solution")
        if p.kind == "edge":  # the edge-matching picture without a solution is its piece sheet
            formats.atomic_write(a.output, render(p, None))
            return 0
        if p.kind != "polyform":
            raise UsageError(f"render --pieces: {a.puzzle} has no pieces")
        from puzzles.render import render_piece_sheet

        formats.atomic_write(a.output, render_piece_sheet(p))
        return 0
    sol = formats.read_solution(p, a.solution) if a.solution else None
    formats.atomic_write(a.output, render(p, sol))
    return 0


def cmd_export(a) -> int:
    from puzzles import catalog, formats
    p = catalog.load(a.puzzle)
    opts = _opts(a.opt)
    if a.to == "xcc":
        text = p.to_xcc().to_knuth()
    elif a.to in ("bucas", "solution"):
        sol = formats.read_solution(p, opts.pop("solution")) if "solution" in opts else catalog.known_solution(a.puzzle)
        if sol is None:
            raise UsageError(f"export --to {a.to}: {a.puzzle} has no known solution (give --opt solution=FILE)")
        if a.to == "bucas":
            if p.kind != "edge":
                raise UsageError("export --to bucas: only edge-matching puzzles")
            text = formats.bucas_url(p, sol) + "\n"
        else:
            text = json.dumps(formats.solution_to_dict(p, sol), indent=1) + "\n"
    elif a.to == "dimacs":
        from encoders.dimacs import to_dimacs
        from encoders.solver import Sat, encode

        with _refused("export --to dimacs"):
            sat = Sat({"identical": "distinct", **opts})  # a model of the file is a board as it stands
            text = to_dimacs(p, encode(p, sat.options), opts)
    elif a.to == "cpsat":
        from cpmodel.solver import export_model

        with _refused("export --to cpsat"):
            export_model(p, a.output, opts)
        return 0
    elif a.to == "mzn":
        from cpmodel.minizinc_solver import export_mzn

        export_mzn(p, a.output, opts)
        return 0
    elif a.to == "wcnf":
        from encoders.maxsat import export_wcnf

        export_wcnf(p, a.output, opts)
        return 0
    elif a.to in ("opb", "lp", "mps", "fzn"):
        from cpmodel.cpmpy_solver import export_model as export_cpmpy

        export_cpmpy(p, a.to, a.output, opts)
        return 0
    else:  # json (argparse allows nothing else)
        text = json.dumps(formats.puzzle_to_dict(p), indent=1) + "\n"
    formats.atomic_write(a.output, text)
    return 0


def cmd_decode(a) -> int:
    from encoders.dimacs import decode
    from puzzles import catalog, formats
    from puzzles.verify import verify

    p = catalog.load(a.puzzle)
    sol = decode(p, getattr(a, "from"), a.model)
    rep = verify(p, sol)
    formats.write_solution(p, sol, a.output)
    print(("valid" if rep.valid else "INVALID: " + "; ".join(rep.problems[:3])) + f", written to {a.output}")
    return EXIT_OK if rep.valid else EXIT_INVALID


def cmd_solve(a) -> int:
    import solving
    from puzzles import catalog

    p = catalog.load(a.puzzle)
    name = a.solver or ("edge-backtrack" if p.kind == "edge" else "backtrack")
    opts = _opts(a.opt)
    for key in ("checkpoint", "resume"):
        if getattr(a, key):
            opts[key] = getattr(a, key)
    if (a.checkpoint or a.resume) and "checkpoint" not in solving.solver_class(name).OPTIONS:
        raise UsageError(f"solver {name} has no checkpoints (beam and backtrack have)")
    solver = solving.get(name, opts)
    limits = solving.Limits(time_s=a.time_limit, nodes=a.node_limit,
                            solutions=a.samples if a.mode == "sample" else a.limit)
    # --distinct needs every solution: count by enumerating them
    mode = "all" if a.distinct and a.mode in ("count", "all") else a.mode
    if a.distinct and mode == "all":
        limits.solutions = None
    solver.check(p, mode)  # before the progress display: a refused request is one line
    progress, status_ctx = _live_progress(a)
    with status_ctx, _refused("solve"):  # options only the puzzle can refute (slips, a foreign checkpoint)
        res, verified = solving.solve_verified(solver, p, mode, limits, progress)
    if a.distinct and mode == "all" and res.status.answered:
        from puzzles.symmetry import distinct_count

        res.stats["distinct"] = distinct_count(p, res.solutions)
    if verified is False:
        print("eternity: error: a solver returned a solution the verifier rejects", file=sys.stderr)
        return EXIT_INVALID
    if res.stats.get("interrupted") and res.solutions:  # Ctrl-C in mode best: the best board is kept
        return _keep_interrupted(a, p, res)
    if a.output and a.mode != "first" and a.mode != "best" and (res.solutions or res.count is not None):
        from puzzles import formats
        from puzzles.outputs import write_or_rescue

        # count, all, sample: every answer goes in the file (a solution file holds one board only)
        doc = {"format": "eternity/solutions", "version": 1, "puzzle": formats.puzzle_hash(p), "mode": a.mode,
               "status": res.status.value, "count": res.count,
               "solutions": [formats.solution_to_dict(p, s)["placements"] for s in res.solutions]}
        write_or_rescue(a.output, json.dumps(doc, indent=1) + "\n", "the solutions")
    if (a.output or a.svg or a.json) and res.solutions:  # pydantic and the renderer only when something is written
        from puzzles import formats
        from puzzles.outputs import write_or_rescue
        from puzzles.render import render

        if a.output and a.mode in ("first", "best"):  # a long solve's answer survives a failed write (a rescue copy)
            write_or_rescue(a.output, json.dumps(formats.solution_to_dict(p, res.solutions[0]), indent=1) + "\n",
                            "the solution")
        if a.svg:
            write_or_rescue(a.svg, render(p, res.solutions[0]), "the picture")
    if a.json:
        d = res.as_dict()
        if verified is not None:  # "verified" means a solution was checked: absent when there was none
            d["verified"] = verified
        d["solutions"] = [formats.solution_to_dict(p, s)["placements"] for s in res.solutions[: a.show]] \
            if res.solutions else []
        if res.best_score is not None and res.solutions and p.kind == "edge":
            d["bucas_url"] = formats.bucas_url(p, res.solutions[0])
        _out(d)
    else:
        line = res.status.value
        if res.count is not None:
            line += f"  count {res.count}" + ("" if res.status != solving.Status.LIMIT else " (incomplete)")
        if "distinct" in res.stats:
            line += f"  distinct {res.stats['distinct']}"
        if res.best_score is not None:
            line += f"  best score {res.best_score}" + {True: " (proven optimal)", False: " (best so far)"}.get(
                res.optimal, "")
        if verified is not None:
            line += f"  verified {verified}"
        shown = {"load_s": res.load_s, "build_s": res.build_s, "search_s": res.search_s,
                 **{k: v for k, v in res.stats.items() if k in ("nodes", "placements_per_s")}}
        line += "  " + "  ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in shown.items())
        print(line)
        if res.best_score is not None and res.solutions and p.kind == "edge":  # the board, for the viewer
            from puzzles.formats import bucas_url

            print(bucas_url(p, res.solutions[0]))
        if res.message:
            print(res.message, file=sys.stderr)
    if res.status == solving.Status.ERROR:
        return EXIT_INVALID
    return EXIT_LIMIT if res.status == solving.Status.LIMIT and not res.solutions else EXIT_OK


def _keep_interrupted(a, p, res) -> int:
    """Write the best board of an interrupted best-mode run (to -o, or a file named in the message),
    then exit as an interrupted command does."""
    from puzzles import formats
    from puzzles.outputs import rescue, write_or_rescue

    text = json.dumps(formats.solution_to_dict(p, res.solutions[0]), indent=1) + "\n"
    if a.output:
        write_or_rescue(a.output, text, "the best board")
        where = a.output
    else:
        where = rescue(text, "best-board.json")
    print(f"eternity: interrupted: the best board so far (score {res.best_score}) is in {where}", file=sys.stderr)
    return 130


def _live_progress(a, prefix: str | None = None):
    """A live status line on a terminal, a log line every 15 s elsewhere, nothing with --quiet."""
    from solving.progress import LogLines, describe

    if a.quiet:
        return None, contextlib.nullcontext()
    if a.json or not sys.stderr.isatty():
        return LogLines(prefix or f"eternity solve {a.puzzle}"), contextlib.nullcontext()
    from rich.console import Console

    console = Console(stderr=True)
    status = console.status("working ..." if prefix else "solving ...")

    def progress(info: dict) -> None:
        status.update(describe(info))

    return progress, status


# -------------------------------------------------------------------- parser
def build_parser() -> argparse.ArgumentParser:
    ap = _Parser(prog="eternity", description="A workbench for hard tiling and edge-matching puzzles.")
    ap.add_argument("--version", action="version", version=f"eternity {_version()}")
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    s = sub.add_parser("solvers", help="registered solvers: modes, puzzle kinds and options")
    s.add_argument("name", nargs="?", help="one solver: its options in full")
    s.add_argument("--json", action="store_true", help="everything, as JSON")
    s.set_defaults(func=cmd_solvers)

    s = sub.add_parser("list", help="built-in puzzles")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_list)

    s = sub.add_parser("info", help="sizes, pieces, colours of a puzzle")
    s.add_argument("puzzle")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_info)

    s = sub.add_parser("generate", help="instances with a planted solution")
    gsub = s.add_subparsers(dest="family", required=True, parser_class=_Parser)
    g = gsub.add_parser("edge", help="an edge-matching board with a planted solution")
    g.add_argument("--rows", type=arg(int, 2, MAX_SIDE), required=True)
    g.add_argument("--cols", type=arg(int, 2, MAX_SIDE), required=True)
    g.add_argument("--frame-colors", type=arg(int, 1, 1000), required=True)
    g.add_argument("--inner-colors", type=arg(int, 1, 1000), required=True)
    g.add_argument("--seed", type=arg(int, 0), default=0)
    g.add_argument("--name")
    g.add_argument("-o", "--output", required=True)
    g.add_argument("--planted")
    g.set_defaults(func=cmd_generate, outputs={"output": "file", "planted": "file"})
    g = gsub.add_parser("polyform", help="a polyform puzzle (a rectangle cut into pieces, or a region of a grid)")
    g.add_argument("--grid", default="square", choices=sorted(GRIDS))
    g.add_argument("--rows", type=arg(int, 1, MAX_SIDE), help="square grid: a ROWS x COLS rectangle")
    g.add_argument("--cols", type=arg(int, 1, MAX_SIDE))
    g.add_argument("--region", help="hexagon:SIDE (drafter grid) or a built-in polyform puzzle whose region is cut")
    g.add_argument("--size", type=arg(int, 1, 64), help="units per piece: cells (default 5), drafters on the drafter grid (12)")
    g.add_argument("--excess", type=arg(int, 0, 10_000), default=0, help="extra pieces beyond what the region needs")
    g.add_argument("--dudes", action="store_true", help="drafter grid: only pieces without 30 degree corners")
    g.add_argument("--no-mirror", action="store_true", help="pieces may not be turned over")
    g.add_argument("--seed", type=arg(int, 0), default=0)
    g.add_argument("--name")
    g.add_argument("-o", "--output", required=True)
    g.add_argument("--planted")
    g.set_defaults(func=cmd_generate, outputs={"output": "file", "planted": "file"})

    s = sub.add_parser("enumerate", help="count the free polyforms of a grid (the check of its geometry)")
    s.add_argument("grid", help="square, triangle, hexagon or drafter")
    s.add_argument("--size", type=arg(int, 1, 12), required=True, help="units: cells, or drafters on the drafter grid")
    s.add_argument("--forms", action="store_true", help="with --json: list the canonical forms")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_enumerate)

    s = sub.add_parser("solve", help="solve a puzzle with a registered solver")
    s.add_argument("puzzle")
    s.add_argument("--solver")
    s.add_argument("--opt", action="append", metavar="K=V")
    s.add_argument("--mode", default="first", choices=["first", "count", "all", "best", "sample"],
                   help="first solution, count, all solutions, best board (edge matching), or sample: solutions "
                        "drawn uniformly at random (backtrack's diagram of all solutions)")
    s.add_argument("--samples", type=arg(int, 1, 10**7), default=10, help="mode sample: how many to draw")
    s.add_argument("--distinct", action="store_true", help="also count up to symmetry and identical pieces")
    s.add_argument("--time-limit", type=arg(float, 0.001), help="seconds")
    s.add_argument("--checkpoint", metavar="DIR", help="beam: write the frontier to DIR (every level, a wide one every 60 s); mode best also "
                   "the best board (best.npz, best.svg with mismatches in red, best.url for e2.bucas.name)")
    s.add_argument("--resume", metavar="DIR", help="beam: continue from the frontier in DIR, or in mode best from its best board")
    s.add_argument("--node-limit", type=arg(int, 1))
    s.add_argument("--limit", type=arg(int, 1), help="solutions to collect in mode all")
    s.add_argument("--show", type=arg(int, 0), default=1, help="solutions printed with --json")
    s.add_argument("-o", "--output", help="modes first and best: the solution file; count, all and sample: every "
                                         "answer (format eternity/solutions: the count and all solutions)")
    s.add_argument("--svg", help="the first solution as an SVG picture (a name ending in .svg)")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="no progress (a live line on a terminal, else a log line "
                                                        "every 15 s on stderr)")
    s.set_defaults(func=cmd_solve, outputs={"output": "file", "svg": "svg", "checkpoint": "dir"})

    s = sub.add_parser("verify", help="check a solution (exit 1 when invalid)")
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument("--score", action="store_true", help="mismatches allowed; print the score")
    s.add_argument("--commitment", metavar="COMMITMENT", help="SOLUTION is a half opened by `eternity open`: check "
                                                             "it against this commitment (Selby's split)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_verify)

    s = sub.add_parser("render", help="SVG picture of a puzzle or a solution")
    s.add_argument("puzzle")
    s.add_argument("solution", nargs="?")
    s.add_argument("--pieces", action="store_true", help="a catalogue sheet of the pieces")
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_render, outputs={"output": "file"})

    s = sub.add_parser("decode", help="turn an external SAT solver's model of an exported CNF into a solution")
    s.add_argument("puzzle")
    s.add_argument("--from", required=True, metavar="FILE.cnf")
    s.add_argument("--model", required=True, metavar="MODEL")
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_decode, outputs={"output": "file"})

    s = sub.add_parser("estimate", help="expected solutions and search-tree size: Owen's model (edge matching), "
                                        "Knuth's probes (polyforms)")
    s.add_argument("puzzle", nargs="?")
    s.add_argument("--order", default="rowscan", help="rowscan, rowscan-up, colscan, spiral, frame-first, or a file of cell names")
    s.add_argument("--slips", help="D1,D2,...: the k-th invalid inner join is allowed from depth D_k (slip array)")
    s.add_argument("--critical", metavar="ROWSxCOLS:FRAME",
                   help="instead of a puzzle: the inner-colour count where a generated family turns sub-critical")
    s.add_argument("--seeds", type=arg(int, 1, 1000), default=3, help="--critical: generated instances per colour count")
    s.add_argument("--measure", action="store_true",
                   help="count with edge-backtrack in the same order and plot estimated against measured nodes")
    s.add_argument("--plot", help="--measure: where the PNG goes (default estimate-PUZZLE.png)")
    s.add_argument("--time-limit", type=arg(float, 0.001), help="--measure: stop the count after this many seconds; "
                   "polyforms: stop probing after this many seconds")
    s.add_argument("--probes", type=arg(int, 1), help="polyforms: random probes of the poly engine's tree (default 2000)")
    s.add_argument("--sweep", type=arg(float, -360.0, 360.0), help="polyforms: the engine's sweep in degrees (default 90)")
    s.add_argument("--branches", type=arg(int, 1, 64), help="polyforms: children a probe follows at each node (default 1, "
                   "Knuth's path; 2 or more: Purdom's partial backtracking, dearer probes that see rare deep branches)")
    s.add_argument("--seed", type=arg(int, 0), default=0, help="polyforms: the probes' random seed")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="polyforms: no progress")
    s.set_defaults(func=cmd_estimate, outputs={"plot": "image"})

    s = sub.add_parser("export", help="write a puzzle in another format")
    s.add_argument("puzzle")
    s.add_argument("--to", required=True, choices=["xcc", "dimacs", "cpsat", "mzn", "wcnf", "opb", "lp", "mps", "fzn",
                                                   "bucas", "solution", "json"],
                   help="xcc: Knuth's format (dlx2, miniexact, xcover); dimacs: the CNF (sat's encodings); cpsat: the "
                        "CP-SAT proto; mzn: the MiniZinc model; wcnf (MaxSAT: the max-score problem), opb "
                        "(pseudo-Boolean), lp, mps, fzn: the CPMpy model through CPMpy's writers; bucas: the "
                        "e2.bucas.name viewer URL; solution: a known solution; json: the puzzle file")
    s.add_argument("--opt", action="append", metavar="K=V",
                   help="the encoding's options (--to dimacs: sat's options; cpsat, mzn and the CPMpy formats: "
                        "identical=merge|distinct, model=...; best=true: the max-score problem)")
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_export, outputs={"output": "file"})

    runner_cli.add_commands(sub)
    proof_commands.add_commands(sub, arg)
    _fill_help(ap)
    return ap


def check_outputs(a) -> None:
    """Every file or directory the command will write, checked before any work (``puzzles.outputs``):
    writable, of the right kind, and none of them one of the command's inputs or another output."""
    from puzzles import outputs

    files = {}
    for name, kind in getattr(a, "outputs", {}).items():
        value = getattr(a, name, None)
        if value is not None:
            option = "-o" if name == "output" else "--" + name.replace("_", "-")
            outputs.check(value, option, kind)
            if kind != "dir":
                files[option] = value
    skip = set(getattr(a, "outputs", {})) | {"func", "outputs", "command"}
    inputs = [v for k, v in vars(a).items() if k not in skip and isinstance(v, str)]
    outputs.refuse_overwriting_inputs(files, inputs)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eternity")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:  # the command list, not "required: command"
        build_parser().print_help()
        return EXIT_OK
    try:
        a = build_parser().parse_args(argv)
        check_outputs(a)
        return a.func(a)
    except (InputError, UsageError) as e:
        print(f"eternity: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("eternity: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`eternity list | head -1`): nothing more to say
        return 0
    except OSError as e:
        if e.errno not in _NAME_ERRNOS:
            return _internal_error(argv, e)
        name = str(e.filename or "")
        shown = name if len(name) <= 200 else name[:100] + "..." + name[-60:]
        print(f"eternity: error: {shown}: {e.strerror.lower()}", file=sys.stderr)  # a file name the system refuses
        return EXIT_USAGE
    except Exception as e:  # a bug, not bad input: say so, and keep the traceback
        return _internal_error(argv, e)


_NAME_ERRNOS = (errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR)


def _internal_error(argv: list[str], e: Exception) -> int:
    """One line naming the command and the error, the traceback in a file it names (or on stderr with
    ETERNITY_DEBUG=1): exit 4, apart from bad input's 2."""
    import tempfile
    import traceback

    text = "".join(traceback.format_exception(e))
    where = next((w for w in argv if not w.startswith("-")), "eternity")
    if os.environ.get("ETERNITY_DEBUG"):
        print(text, file=sys.stderr, end="")
        where_tb = "above"
    else:
        fd, path = tempfile.mkstemp(prefix="eternity-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write("eternity " + " ".join(argv) + "\n\n" + text)
        where_tb = f"in {path}"
    print(f"eternity: internal error in {where}: {type(e).__name__}: {e} (a bug, not your input; the traceback is "
          f"{where_tb})", file=sys.stderr)
    return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
