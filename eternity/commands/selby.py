"""`eternity selby`: seed 000's claims about method, tested: branching (site against piece, the exchange
argument) from a run's exhausts, and the beam's theory on its idealised tree and on generated boards."""

from __future__ import annotations

import json
import sys
import time

from eternity.commands.common import _db
from puzzles.errors import UsageError
from puzzles.ranges import arg, whole_numbers


def _branching(a) -> int:
    from experiments.studies import branching as B

    if not a.db:
        raise UsageError("selby branching: DB: a results store of branching.toml")
    by = B.exhausts(_db(a.db), a.experiment)
    if not by:
        raise UsageError(f"selby branching: {a.db}: no count cells of backtrack with a branch rule (branching.toml)")
    table, ex, verdict = B.site_vs_piece(by), B.exchange(by), B.exchange_verdict(by)
    if a.format == "json":
        return _json({"site_vs_piece": table, "exchange": ex, "exchange_verdict": verdict})
    held = [r["site beats piece"] for r in table]
    out = ["## Site against piece (nodes of one exhaust; >= at the limit)", "", B.markdown(table)]
    out.append(
        f"Most constrained site beats most constrained piece on {sum(h.startswith('holds') for h in held)} of "
        f"{len(held)} puzzles; fails on {held.count('fails')}; neither finished on {held.count('neither finished')}."
    )
    out += ["", "## The exchange argument (finished exhausts)", "", B.markdown(ex)]
    out.append(
        f"The rule of most deferral made the smallest tree on {verdict['most deferred is smallest']} of "
        f"{verdict['puzzles']} puzzles; median Spearman rho(deferral, nodes) {verdict['median rho(deferral, nodes)']} "
        f"over {verdict['puzzles with rho']} puzzles with three or more finished rules."
    )
    print("\n".join(out))
    return 0


def _beam_tree(a) -> int:
    from experiments.studies import beam_theory as T
    from experiments.studies.branching import markdown

    tree = T.Tree(a.depth, a.b0, a.b_end)
    r = T.trial(tree, a.width, a.seeds)
    if a.format == "json":
        return _json(r)
    print(
        f"Idealised tree: depth {tree.depth}, branching {tree.b0} falling to {tree.b_end}, N(0,1) increments; "
        f"{a.seeds} trees a policy; target T = {r['target']:.2f} (the width-{a.width} beam's median best)\n"
    )
    print(markdown(r["rows"]))
    return 0


def _beam_width(a) -> int:
    from experiments.studies import beam_theory as T

    widths = _ints(a.widths)
    t0, runs = time.monotonic(), []
    for s in range(a.seeds):
        runs += T.width_runs(
            a.rows, a.cols, a.frame_colors, a.inner_colors, widths, 1, a.budget, a.time_limit, first_board=s
        )
        if not a.quiet:
            print(f"selby beam-width: board {s + 1}/{a.seeds}  [{time.monotonic() - t0:.0f} s]", file=sys.stderr)
    rows = T.at_budget(runs, a.budget)
    if a.plot:
        title = (
            f"{a.rows}x{a.cols}, {a.frame_colors} frame and {a.inner_colors} inner colours, {a.seeds} boards a width"
        )
        T.plot_width(runs, a.budget, title, a.plot)
    head = (
        f"Beam (mode first) on {a.seeds} generated {a.rows}x{a.cols} boards, {a.frame_colors} frame and "
        f"{a.inner_colors} inner colours (board b from seed b; restarts: beam seeds 0, 1, 2, ... until solved or {a.budget:,.0f} nodes spent)"
    )
    return _table(a, {"runs": runs, "at_budget": rows}, head, rows)


def _board_study(a, runs_of, table_of, head: str) -> int:
    """A study on generated boards (diversity, cutoffs): its runs over the widths and boards, then its table."""
    runs = runs_of(a.rows, a.cols, a.frame_colors, a.inner_colors, _ints(a.widths), a.seeds, a.time_limit)
    rows = table_of(runs)
    return _table(a, {"runs": runs, "table": rows}, head, rows)


def _beam_diversity(a) -> int:
    from experiments.studies import beam_theory as T

    head = (
        f"Beam states' diversity on {a.seeds} generated {a.rows}x{a.cols} boards, {a.frame_colors} frame and "
        f"{a.inner_colors} inner colours, one run a board and a width, at the level three quarters down"
    )
    return _board_study(a, T.diversity_runs, T.diversity_table, head)


def _beam_cutoffs(a) -> int:
    from experiments.studies import beam_cutoffs as C

    head = (
        f"Beam against a depth-first search with fixed cutoffs (the worst score the beam kept at each level, of the "
        f"same board or of the next one) given the nodes the beam spent, on {a.seeds} generated {a.rows}x{a.cols} boards, "
        f"{a.frame_colors} frame and {a.inner_colors} inner colours (board b from seed b; beam seed 0)"
    )
    return _board_study(a, C.cutoff_runs, C.cutoff_table, head)


def _parity(a) -> int:
    from experiments.studies import parity as P
    from puzzles import catalog

    base = catalog.load("eternity1")
    table = P.piece_table([P.balances(pc.cells) for pc in base.pieces])
    whole = {}
    for name in ("eternity1", "eternity1-tortoise", "eternity1-pram", "eternity1-boat", "eternity1-boomerang"):
        q = catalog.load(name)
        whole[name] = P.passes(P.balances(q.region), (P.balances(pc.cells) for pc in q.pieces))
    excess = P.excess_exhausts(a.region_size, a.excess, a.states, a.seed, a.time_limit)
    exact = P.exact_states(a.region_size, a.states, a.seed, a.time_limit)
    out = {"pieces": table, "puzzles pass": whole, "excess-piece exhausts": excess, "exact states": exact}
    if a.format == "json":
        return _json(out)
    print(f"Eternity's {table['pieces']} pieces, balanced under each colouring (Pegg: 116, 89, 51):")
    print("  " + ", ".join(f"{c} {n}" for c, n in table["balanced"].items()))
    print("  |balances| (mirror, turn, both): " + ", ".join(f"{v} x{n}" for v, n in table["vectors"]))
    print(f"  every piece's three bits sum to 0 mod 2: {'yes' if table['bit sum even on every piece'] else 'NO'}"
          " (two independent bits: a random piece set matches a region 1 time in 4)")  # fmt: skip
    print("  (mirror, turn) bits: " + ", ".join(f"{v} x{n}" for v, n in table["bit pairs"]))
    print("the built-in puzzles pass: " + ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in whole.items()))
    e = excess
    print(
        f"excess-piece exhausts ({e['states']} states, region {a.region_size} pieces, {a.region_size + a.excess} "
        f"on offer, {e['finished']} finished): {e['tilings']} tilings, {e['tilings matching']} matching the parities; "
        f"{e['matching share of subsets']} of the {a.region_size}-subsets on offer match: factor {e['factor']} "
        "(seed 000: 4)"
    )
    x = exact
    print(
        f"exact states ({x['states']}, region {a.region_size} pieces cut by other pieces): {x['fail parity']} fail the "
        f"check, with {x['tilings of the failing states']} tilings; their exhausts' {x['nodes saved']:,} "
        f"nodes saved ({x['share of all nodes saved']:.0%} of all), against {x['nodes of the passing states']:,} for the others"
    )
    return 0


def _ints(text: str) -> list[int]:
    return whole_numbers(text, "selby: --widths", "widths are at least 1")


def _table(a, data: dict, head: str, rows: list[dict]) -> int:
    """A study's answer: ``data`` as JSON, or its heading and its table in markdown."""
    from experiments.studies.branching import markdown

    if a.format == "json":
        return _json(data)
    print(head + "\n")
    print(markdown(rows))
    return 0


def _json(obj) -> int:
    from eternity.commands.common import json_stream

    json.dump(obj, json_stream(), indent=1)
    print(file=json_stream())
    return 0


def cmd_selby(a) -> int:
    """Run `eternity selby ACTION` with the parsed arguments ``a``; returns the exit status."""
    return {
        "branching": _branching,
        "beam-tree": _beam_tree,
        "beam-width": _beam_width,
        "beam-diversity": _beam_diversity,
        "beam-cutoffs": _beam_cutoffs,
        "parity": _parity,
    }[a.action](a)


def add(sub) -> None:
    """Declare `eternity selby` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "selby",
        help="seed 000's claims about method: branching (site against piece, the exchange argument, from a run "
        "of branching.toml), the beam's theory on its idealised tree (beam-tree) and on generated boards "
        "(beam-width)",
    )
    s.add_argument(
        "action",
        choices=["branching", "beam-tree", "beam-width", "beam-diversity", "beam-cutoffs", "parity"],
        help="branching: tables from a run's exhausts; beam-tree: the idealised tree; beam-width: generated boards; beam-diversity: how alike the beam's states are; "
        "beam-cutoffs: a depth-first search with the beam's cutoffs at the beam's cost; "
        "parity: Eternity's parities, their factor on excess-piece exhausts and the exhausts they save",
    )
    s.add_argument("db", nargs="?", help="branching: a results store with backtrack count cells, option branch")
    s.add_argument("--experiment", metavar="NAME", help="branching: only this experiment's cells")
    s.add_argument("--width", type=arg(int, lo=2, hi=100_000), default=100, help="beam-tree: the beam's width")
    s.add_argument("--seeds", type=arg(int, lo=1, hi=10_000), default=10, help="trees (beam-tree) or boards a point")
    s.add_argument("--depth", type=arg(int, lo=2, hi=1000), default=40, help="beam-tree: the tree's depth")
    s.add_argument("--b0", type=arg(int, lo=1, hi=100), default=8, help="beam-tree: the branching at the root")
    s.add_argument("--b-end", type=arg(int, lo=1, hi=100), default=2, help="beam-tree: the branching at the end")
    s.add_argument(
        "--rows",
        type=arg(int, lo=3, hi=16),
        default=8,
        help="the board studies (beam-width, -diversity, -cutoffs): board rows",
    )
    s.add_argument("--cols", type=arg(int, lo=3, hi=16), default=8, help="the board studies: board columns")
    s.add_argument("--frame-colors", type=arg(int, lo=1, hi=64), default=3, help="the board studies: frame colours")
    s.add_argument("--inner-colors", type=arg(int, lo=1, hi=64), default=6, help="the board studies: inner colours")
    s.add_argument("--widths", default="64,256,1024,4096,16384", help="the board studies: beam widths, comma-separated")
    s.add_argument(
        "--budget", type=arg(float, lo=1.0), default=2e6, help="beam-width: the nodes a board's runs may spend"
    )
    s.add_argument(
        "--time-limit", type=arg(float, lo=0.1), default=60.0, help="the board studies and parity: seconds a run"
    )
    s.add_argument("--region-size", type=arg(int, lo=1, hi=100), default=8, help="parity: a state's region, in pieces")
    s.add_argument("--excess", type=arg(int, lo=0, hi=208), default=201, help="parity: pieces on offer beyond it")
    s.add_argument("--states", type=arg(int, lo=1, hi=10_000), default=8, help="parity: states of each kind")
    s.add_argument("--seed", type=arg(int, lo=0), default=0, help="parity: the states' seed")
    s.add_argument("--plot", metavar="PNG", help="beam-width: success against width, drawn to this file")
    s.add_argument("--quiet", action="store_true", help="no progress on standard error")
    s.add_argument("--format", choices=["md", "json"], default="md", help="md (the default) or json")
    s.set_defaults(func=cmd_selby, outputs={"plot": "image"})
