"""`eternity tilability`: Selby's piece weights fitted from exhausts."""

from __future__ import annotations

import sys
from pathlib import Path

from puzzles.errors import UsageError
from puzzles.estimates.tilability_design import REGIONS, offer_limit
from puzzles.ranges import arg

SAMPLES = 400  # the default data size: split-half above 0.8 on generated puzzles (docs/results/tilability.md)


def cmd_tilability(a) -> int:
    """Run `eternity tilability` with the parsed arguments ``a``; returns the exit status."""
    from experiments.studies import tilability as T
    from puzzles import catalog

    if a.puzzle == "show":
        return _show(a)
    if a.weights is not None:
        raise UsageError(f"tilability: {a.puzzle}: one puzzle; `eternity tilability show WEIGHTS` shows a fit")
    if not a.output:
        raise UsageError("tilability: -o/--output: the weights file to write")
    try:
        base = catalog.load(a.puzzle)
    except Exception as e:  # noqa: BLE001 - InputError and friends: one line
        raise UsageError(f"tilability: {e}") from None
    if base.grid_name is None:
        raise UsageError(f"tilability: {a.puzzle}: expected a polyform puzzle (e.g. eternity1-boat)")
    if a.sizes:
        return _sizes(a, base)
    if len({len(pc.cells) for pc in base.pieces}) != 1:
        raise UsageError(f"tilability: {a.puzzle}: the model needs pieces of one size")
    if a.region_size >= offer_limit(len(base.pieces), a.region_size, a.regions):
        raise UsageError(
            f"tilability: --region-size {a.region_size} leaves no piece to offer beyond the region's: "
            f"{a.puzzle} has {len(base.pieces)} pieces"
            + (f", less the {a.region_size} that cut the region out" if a.regions == "apart" else "")
        )
    if a.excess is None:  # every piece the state can be offered: the most tilings per exhaust
        a.excess = offer_limit(len(base.pieces), a.region_size, a.regions) - a.region_size
    if a.region_size < 1 or a.excess < 1 or a.samples < 2:
        raise UsageError("tilability: --region-size and --excess must be at least 1, --samples at least 2")
    if a.region_size + a.excess > offer_limit(len(base.pieces), a.region_size, a.regions):
        raise UsageError(
            f"tilability: region size + excess = {a.region_size + a.excess} is more than the "
            f"{len(base.pieces)} pieces of {a.puzzle}"
            + (f" less the {a.region_size} that cut the region" if a.regions == "apart" else "")
        )
    stem = f"tilability-{Path(a.puzzle).stem}-k{a.region_size}+{a.excess}" + (
        "" if a.regions == "last" else f"-{a.regions}"
    )
    db = a.db or str(Path("results") / f"{stem}-s{a.seed}.sqlite")
    data = T.collect(
        a.puzzle,
        a.region_size,
        a.excess,
        a.samples,
        a.seed,
        db,
        jobs=a.jobs,
        time_limit=a.time_limit,
        executor=a.executor,
        show_progress=not a.quiet,
        regions=a.regions,
    )
    states = data.states
    if data.cut_short:
        print(
            f"tilability: {data.cut_short} exhausts did not finish (see {db}) and are left out; they are likely "
            "the states with the most tilings: raise --time-limit or lower --region-size",
            file=sys.stderr,
        )
    if T.too_few_regions(data):
        print(
            f"tilability: warning: only {data.distinct_regions} distinct regions in {len(states)} states, so the "
            "split halves share their regions and their agreement says little (a puzzle with few solutions: its "
            "partial tilings keep leaving the same region, and the weights then say which pieces they leave last)",
            file=sys.stderr,
        )
    if states and not any(s.count for s in states):
        print(
            f"tilability: none of the {len(states)} finished exhausts found a tiling (stored in {db}): the weights "
            "have nothing to be fitted on, and no file is written; offer more pieces (--excess) or cut other regions",
            file=sys.stderr,
        )
        return 1
    try:
        res = T.analyse(states, len(base.pieces), a.region_terms)
    except UsageError as e:
        raise UsageError(f"tilability: {e}") from None
    doc = T.weights_document(a.puzzle, a.region_size, a.excess, a.samples, a.seed, res, a.regions, data)
    from puzzles.files.formats import write_weights

    write_weights(doc, a.output)
    if a.plot:
        T.plot_weights(doc, a.plot)
    ranked = sorted(doc["weights"].items(), key=lambda kv: kv[1])
    held = doc["heldout_log_likelihood"]
    regions = "?" if data.distinct_regions is None else data.distinct_regions
    print(
        f"{doc['states']} exhausts ({regions} distinct regions), {doc['states_with_solutions']} with solutions, "
        f"{doc['solutions']} solutions; split-half rank correlation {doc['split_half_rank_correlation']:.3f}"
    )
    for k, v in held.items():
        print(f"held-out log-likelihood {k}: fitted {v['fitted']:.2f}  uniform {v['uniform']:.2f}")
    print(
        "worst pieces: "
        + ", ".join(f"{n} ({w:+.2f})" for n, w in ranked[:3])
        + "; best: "
        + ", ".join(f"{n} ({w:+.2f})" for n, w in ranked[::-1][:3])
    )
    print(
        f"weights written to {a.output}" + (f", plot to {a.plot}" if a.plot else "") + f"; exhausts in {db}",
        file=sys.stderr,
    )
    return 0


def _show(a) -> int:
    """``show WEIGHTS``: a fit's ranking with the talk's landmarks beside their ranks; ``--draw`` pictures the
    best and worst pieces as the talk's figure does."""
    import json

    from experiments.studies import landmarks as L

    if a.weights is None:
        raise UsageError("tilability show: which weights file? `eternity tilability show WEIGHTS`")
    from puzzles.files.file_input import read_text

    text = read_text(a.weights)  # capped and checked: /dev/zero or a pipe is refused in one line, not read forever
    try:
        doc = json.loads(text)
        ranked = L.ranking(doc)
    except (OSError, ValueError, KeyError, AttributeError, TypeError) as e:
        raise UsageError(f"tilability show: {a.weights}: not a weights file ({type(e).__name__}: {e})") from None
    n = len(ranked)
    print(f"{doc.get('puzzle')}: {n} pieces by fitted tilability, from {doc.get('states')} exhausts "
          f"(split-half rank correlation {doc.get('split_half_rank_correlation', float('nan')):.3f})")  # fmt: skip
    print("the talk's landmarks (seed 000):")
    print(f"  {'piece':>5} {'rank':>9} {'weight':>8}  talk's rank  what the talk says")
    for r in L.landmark_rows(doc):
        print(f"  {r['piece']:>5} {r['rank']:>4} of {n:<3} {r['weight']:+8.3f}  {r['talk_rank']:>11}  {r['talk']}")
    g = L.gaps(doc)
    print(f"gap from the best to the 2nd: {g['best_gap']:.3f} ({g['best_gap_x_median']:.1f} x the median gap "
          f"between neighbours, {g['median_gap']:.4f}); from the worst to the one above: {g['worst_gap']:.3f} "
          f"({g['worst_gap_x_median']:.1f} x)")  # fmt: skip
    top = ", ".join(f"{name} ({w:+.2f})" for _, name, w in ranked[: L.BEST])
    bottom = ", ".join(f"{name} ({w:+.2f})" for _, name, w in ranked[-L.WORST :])
    print(f"the {L.BEST} best: {top}")
    print(f"the {L.WORST} worst: {bottom}")
    if a.draw:
        L.draw(doc, a.draw)
        print(f"the {L.BEST} best and {L.WORST} worst pieces drawn to {a.draw}", file=sys.stderr)
    return 0


def _sizes(a, base) -> int:
    """``--sizes W``: Selby's schedule of the weights W for every size, fitted on the beam's own states."""
    import json

    from experiments.studies import size_weights as S
    from puzzles.files.formats import read_weights, write_weights

    read_weights(base, a.sizes)  # a file for another puzzle, or no weights file: one line, before the beam runs
    doc = json.loads(Path(a.sizes).read_text())

    def told(info: dict) -> None:
        if not a.quiet:
            print(
                f"\rtilability: level {info['level']}, {info['pieces_left']} pieces left, {info['states']:,} states",
                end="",
                file=sys.stderr,
                flush=True,
            )

    data = S.collect(base, a.sizes, a.width, a.beam_seconds, a.per_level, a.seed, progress=told)
    if not a.quiet:
        print(file=sys.stderr)
    try:
        fitted = S.fit(data, a.band)
    except ValueError as e:
        raise UsageError(f"tilability --sizes: {e}: raise --beam-seconds or --width") from None
    out = S.document(doc, fitted, data, a.width, a.beam_seconds, a.band)
    write_weights(out, a.output)
    print(
        f"{len(data):,} beam states, {min(data.n_left)}-{max(data.n_left)} pieces left, "
        f"{data.seconds:.0f} s of beam; bands of {a.band} sizes:"
    )
    for b in fitted["bands"]:
        lo, hi = b["sizes"]
        al, be = fitted["sizes"][hi]
        held = (
            f"held-out error {b['mse_sized']:.4f} (sizes) against {b['mse_constant']:.4f} (one weight set)"
            if b["mse_sized"] is not None
            else "too few states to hold out"
        )
        print(f"  {lo:>3}-{hi:<3} {b['states']:>7,} states  step a {b['a']:+.4f} b {b['b']:+.4f}  "
              f"at {hi}: alpha {al:+.3f} beta {be:+.3f}  {held}")  # fmt: skip
    print(f"schedule written to {a.output}", file=sys.stderr)
    return 0


def add(sub) -> None:
    """Declare `eternity tilability` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("tilability", help="fit Selby's piece weights from excess-piece exhausts")
    s.add_argument(
        "puzzle",
        help="a polyform puzzle (built-in, e.g. eternity1-boat, or a file); or `show`, followed by a weights file: "
        "the fit's ranking with Selby's landmarks",
    )
    s.add_argument("weights", nargs="?", help="after `show`: the weights file to show")
    s.add_argument("--draw", metavar="PNG", help="with `show`: the 12 best and 5 worst pieces, as the talk's figure")
    s.add_argument(
        "--region-size", type=arg(int, 1, 1000), default=3, help="pieces the sampled regions hold (default 3)"
    )
    s.add_argument(
        "--excess",
        type=arg(int, 1, 100_000),
        help="pieces offered beyond the region size (default: all the puzzle's other pieces)",
    )
    s.add_argument(
        "--samples", type=arg(int, 2, 1_000_000), default=SAMPLES, help=f"states to exhaust (default {SAMPLES})"
    )
    s.add_argument(
        "--regions",
        choices=REGIONS,
        default="last",
        help="sampled regions: what a random partial tiling of the board leaves (last, the default), "
        "what the first pieces of one cover from a random edge of the board (first; any board "
        "size), or that with the state's pieces drawn from the others (apart). Most `first` "
        "solutions are the cutting pieces themselves: docs/results/tilability.md",
    )
    s.add_argument(
        "--region-terms",
        action="store_true",
        help="one constant per state (Selby's region terms): weights judge which pieces tile, not how "
        "many tilings a region has",
    )
    s.add_argument("--seed", type=arg(int, 0), default=0)
    s.add_argument("--time-limit", type=arg(float, 0.001), default=120.0, help="seconds per exhaust")
    s.add_argument("--jobs", type=arg(int, 1, 1024), help="exhausts at a time (default: the number of cores)")
    s.add_argument("--executor", choices=["local", "dask"], default="local")
    s.add_argument("--db", help="SQLite store of the exhausts (default results/tilability-...sqlite)")
    s.add_argument("--plot", help="PNG of the weights by rank")
    s.add_argument(
        "--sizes",
        metavar="WEIGHTS",
        help="instead of fitting weights: fit the weights file's schedule for every size (Selby's model "
        "parameters for larger regions) on the states of a beam run with it, and write the file with the schedule",
    )
    s.add_argument("--width", type=arg(int, 1, 10_000_000), default=1000, help="--sizes: the beam's width")
    s.add_argument("--beam-seconds", type=arg(float, 1.0), default=300.0, help="--sizes: the beam's time")
    s.add_argument("--per-level", type=arg(int, 10, 1_000_000), default=300, help="--sizes: children sampled a level")
    s.add_argument("--band", type=arg(int, 1, 1000), default=10, help="--sizes: sizes pooled into one fit")
    s.add_argument("--quiet", action="store_true")
    s.add_argument("-o", "--output", help="the weights file to write (required but with `show`)")
    s.set_defaults(func=cmd_tilability, outputs={"output": "file", "plot": "image", "db": "db", "draw": "image"})
