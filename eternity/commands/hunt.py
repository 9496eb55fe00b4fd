"""`eternity hunt`: an edge-matching board's best score hunted until it is stopped or its budget is spent,
slice after slice of a best-mode solver with fresh seeds, every new best board verified and on disk before it
is announced; run again on the same directory, it resumes (``experiments.hunt``)."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from eternity.commands.common import EXIT_OK, _opts, _out
from puzzles.errors import UsageError


def cmd_hunt(a) -> int:
    """Run `eternity hunt` with the parsed arguments ``a``; returns the exit status."""
    import solving
    from experiments import hunt as H
    from puzzles import catalog
    from puzzles.files import formats
    from puzzles.puzzle import SCORED

    p = catalog.load(a.puzzle)
    if SCORED not in p.features:
        raise UsageError(f"hunt: {a.puzzle} is not a scored board (an edge-matching puzzle): nothing to hunt")
    d = Path(a.dir)
    if d.exists() and not d.is_dir():
        raise UsageError(f"hunt: --dir {a.dir}: not a directory")
    say = (lambda line: None) if a.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    if a.merge:
        best = H.merge(p, [Path(m) for m in a.merge], d, say)
        h = H.load_state(d)
        if a.json and h is not None:
            _out(H.describe(h, p.n_joins))
        else:
            print(f"merged {len(a.merge)} hunts into {d}: best {best}/{p.n_joins}")
        return EXIT_OK
    digest = formats.puzzle_hash(p)
    opts = _opts(a.opt)
    h = H.load_state(d) if d.exists() else None
    if h is None:
        name = a.solver or "beam"
        cls = solving.solver_class(name)
        if "best" not in getattr(cls, "MODES", ()):
            raise UsageError(f"hunt: solver {name} has no mode best")
        if "seed" not in getattr(cls, "OPTIONS", {}):
            raise UsageError(f"hunt: solver {name} has no seed option: its slices would all be the same search")
        if "seed" in opts:
            raise UsageError("hunt: the hunt gives each slice its own seed; leave --opt seed out")
        solving.get(name, opts)  # the options checked before anything is written
        h = H.Hunt(puzzle=a.puzzle, digest=digest, solver=name, options=opts, slice_s=a.slice, jobs=a.jobs,
                   budget_s=H.parse_budget(a.budget))  # fmt: skip
        d.mkdir(parents=True, exist_ok=True)
        H.save_state(d, h)
    else:
        if h.digest != digest:
            raise UsageError(f"hunt: {d} is a hunt of another puzzle ({h.puzzle}); give another --dir")
        if (a.solver and a.solver != h.solver) or (opts and opts != h.options):
            raise UsageError(f"hunt: {d} hunts with {h.solver} {h.options}; resume it as it is or give another --dir")
        if a.budget is not None:
            h.budget_s = H.parse_budget(a.budget)
        h.jobs = a.jobs
        h.puzzle = a.puzzle
        say(f"hunt: resuming {d}: {len(h.seeds)} slices done, {len(h.running)} taken over, best "
            f"{h.best_score if h.best_score is not None else '-'}, {H._hms(h.elapsed_s)} spent")  # fmt: skip
    hunter = H.Hunter(d, p, h, say)

    def stop(signum, frame):
        hunter.stop = True

    old = signal.signal(signal.SIGTERM, stop)
    try:
        hunter.run()
    except KeyboardInterrupt:  # the slices were stopped and their boards taken in run's finally
        pass
    finally:
        signal.signal(signal.SIGTERM, old)
    if a.json:
        _out(H.describe(h, p.n_joins))
    else:
        shown = "-" if h.best_score is None else f"{h.best_score}/{p.n_joins}"
        print(f"best {shown} ({d / H.BEST}), {len(h.seeds)} slices, {H._hms(h.elapsed_s)} in all")
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity hunt` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "hunt",
        help="hunt an edge-matching board's best score for hours or days: seed after seed, every best board kept",
        description="Slices of a best-mode solver (the beam by default), each with a fresh seed, JOBS at once, "
        "until the budget is spent or the hunt is stopped (Ctrl-C or SIGTERM). Every new best board is verified "
        "and written to DIR/best.sol.json and DIR/best.url before the live line says so. Run again with the same "
        "DIR, the hunt resumes: seeds used, budget left, best board. --merge takes other hunts' best boards.",
    )
    s.add_argument("puzzle")
    s.add_argument("--dir", required=True, help="the hunt's directory: its record, best board and running slices")
    s.add_argument("--solver", help="a solver with mode best and a seed option (default: beam)")
    s.add_argument("--opt", action="append")
    s.add_argument("--slice", type=float, default=600.0, help="seconds of one slice (one seed's solve)")
    s.add_argument("--budget", help="the hunt's time in all (12h, 90m, 600s; default: until stopped)")
    s.add_argument("--jobs", type=int, default=1, help="slices at once, each in its own process")
    s.add_argument("--merge", nargs="+", metavar="HUNT_DIR", help="merge these hunts' best boards into --dir")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_hunt)
