"""`eternity solve`: one puzzle, one registered solver, every answer verified."""

from __future__ import annotations

import json
import sys

import solving
from eternity.commands.common import EXIT_INVALID, EXIT_LIMIT, EXIT_OK, _live_progress, _opts, _out
from puzzles.errors import InputError, UsageError
from puzzles.puzzle import SCORED
from puzzles.ranges import arg


def cmd_solve(a) -> int:
    """Run `eternity solve` with the parsed arguments ``a``; returns the exit status."""
    import time

    import solving
    from puzzles import catalog
    from puzzles.kinds.cnf_formula import read_by

    # the time limit covers the reading of the puzzle too: a small compressed file may unpack to gigabytes
    with read_by(None if a.time_limit is None else time.monotonic() + a.time_limit):
        p = catalog.load(a.puzzle)
    name = a.solver or solving.default_solver(p)
    opts = _opts(a.opt)
    _refuse_what_does_not_apply(a, p)
    if a.executor == "dask":
        return _solve_on_dask(a, p, name, opts)
    if a.scheduler or a.workers or a.split_depth or a.recut is not None:
        raise UsageError("solve: --scheduler, --workers, --split-depth and --recut go with --executor dask")
    _refuse_a_checkpoint_over_another(a)
    if opts.get("diagram"):  # an output: never one of the inputs, nor another output
        from puzzles.files.outputs import refuse_overwriting_inputs

        outs = {"--opt diagram": str(opts["diagram"]), "-o": a.output, "--svg": a.svg}
        ins = [a.puzzle, str(opts.get("from_diagram") or "")]
        refuse_overwriting_inputs({k: v for k, v in outs.items() if v}, ins)
    for key in ("checkpoint", "resume"):
        if getattr(a, key):
            opts[key] = getattr(a, key)
    if (a.checkpoint or a.resume) and "checkpoint" not in getattr(solving.solver_class(name), "OPTIONS", {}):
        raise UsageError(f"solver {name} has no checkpoints (beam and backtrack have)")
    solver = solving.get(name, opts)
    samples = DEFAULT_SAMPLES if a.samples is None else a.samples
    limits = solving.Limits(
        time_s=a.time_limit, nodes=a.node_limit, solutions=samples if a.mode == "sample" else a.limit
    )
    # --distinct needs every solution: count by enumerating them
    mode = "all" if a.distinct and a.mode in ("count", "all") else a.mode
    if a.distinct and mode == "all":
        limits.solutions = None
    solver.check(p, mode)  # before the progress display: a refused request is one line
    progress, status_ctx = _live_progress(a)
    with status_ctx:
        try:  # a refusal found only now (slips, a foreign checkpoint) is a UsageError; anything else is a bug
            res, verified = solving.solve_verified(solver, p, mode, limits, progress)
        except Exception as e:
            if not isinstance(e, (InputError, UsageError)):
                e.add_note(f"solver {name}")  # the internal-error line names the solver
            raise
    if a.distinct and mode == "all" and res.status.answered:
        from puzzles.estimates.symmetry import distinct_count

        res.stats["distinct"] = distinct_count(p, res.solutions)
    if verified is False:
        print("eternity: error: a solver returned a solution the verifier rejects", file=sys.stderr)
        return EXIT_INVALID
    if res.measured.interrupted and res.solutions:  # Ctrl-C in mode best: the best board is kept
        return _keep_interrupted(a, p, res)
    if a.output and a.mode != "first" and a.mode != "best" and (res.solutions or res.count is not None):
        from puzzles.files import formats
        from puzzles.files.outputs import write_or_rescue

        # count, all, sample: every answer goes in the file (a solution file holds one board only)
        doc = {
            "format": "eternity/solutions",
            "version": 1,
            "puzzle": formats.puzzle_hash(p),
            "mode": a.mode,
            "status": res.status.value,
            "count": res.count,
        }
        # a solution a line, by json's C encoder (indent= takes the pure-Python one: ten seconds for 12,000)
        sols = ",\n  ".join(json.dumps(formats.solution_to_dict(p, s)["placements"]) for s in res.solutions)
        head = json.dumps(doc, indent=1)[:-2]
        write_or_rescue(a.output, head + ',\n "solutions": [\n  ' + sols + "\n ]\n}\n", "the solutions")
    if (a.output or a.svg or a.json) and res.solutions:  # pydantic and the renderer only when something is written
        from puzzles.files import formats
        from puzzles.files.outputs import write_or_rescue
        from puzzles.files.render import render

        if a.output and a.mode in ("first", "best"):  # a long solve's answer survives a failed write (a rescue copy)
            write_or_rescue(
                a.output, json.dumps(formats.solution_to_dict(p, res.solutions[0]), indent=1) + "\n", "the solution"
            )
        if a.svg:
            write_or_rescue(a.svg, render(p, res.solutions[0]), "the picture")
    if a.json:
        d = res.as_dict()
        if verified is not None:  # "verified" means a solution was checked: absent when there was none
            d["verified"] = verified
        d["solutions"] = (
            [formats.solution_to_dict(p, s)["placements"] for s in res.solutions[: 1 if a.show is None else a.show]]
            if res.solutions
            else []
        )
        if res.best_score is not None and res.solutions and SCORED in p.features:
            from puzzles.kinds.edge import bucas_url

            d["bucas_url"] = bucas_url(p, res.solutions[0])
        _out(d)
    else:
        line = res.status.value + (f" ({res.evidence})" if res.evidence else "")
        if a.mode == "sample" and res.solutions:  # the boards drawn are verified; the count beside them is not theirs
            line += f"  draws {len(res.solutions)}"
            if res.count is not None:
                line += f"  of count {res.count} ({res.stats.get('count_evidence', 'claimed by the solver')})"
        elif res.count is not None:
            line += f"  count {res.count}" + ("" if res.status != solving.Status.LIMIT else " (incomplete)")
        if res.measured.distinct is not None:
            line += f"  distinct {res.measured.distinct}"
        if res.best_score is not None:
            said = {True: " (proven optimal)", False: " (best so far)", None: ""}
            line += f"  best score {res.best_score}{said[res.optimal]}"
        if verified is not None:
            line += f"  verified {verified}"
        shown = {
            "load_s": res.load_s,
            "build_s": res.build_s,
            "search_s": res.search_s,
            **{
                k: v
                for k, v in (("nodes", res.measured.nodes), ("placements_per_s", res.measured.placements_per_s))
                if v is not None
            },
        }
        line += "  " + "  ".join(f"{k} {v:.3g}" if isinstance(v, float) else f"{k} {v}" for k, v in shown.items())
        print(line)
        if res.best_score is not None and res.solutions and SCORED in p.features:  # the board, for the viewer
            from puzzles.kinds.edge import bucas_url

            print(bucas_url(p, res.solutions[0]))
        if res.message:
            print(res.message, file=sys.stderr)
    if res.status == solving.Status.ERROR:
        return EXIT_INVALID
    return EXIT_LIMIT if res.status == solving.Status.LIMIT and not res.solutions else EXIT_OK


DEFAULT_SAMPLES = 10
DEFAULT_RECUT_S = 60.0


def _refuse_what_does_not_apply(a, p=None) -> None:
    """A flag that the asked mode would ignore is refused with the reason: the user meant something by it."""
    rules = (
        (a.samples is not None and a.mode != "sample", "--samples goes with --mode sample"),
        (a.limit is not None and a.mode != "all", "--limit goes with --mode all"),
        (a.show is not None and not a.json, "--show goes with --json"),
        (a.distinct and a.mode not in ("count", "all"), "--distinct goes with --mode count or all"),
        (a.distinct and getattr(p, "kind", "") == "cnf", "--distinct counts boards up to symmetry; a formula has none"),
        (a.svg is not None and a.mode == "count", "--svg draws a solution, and mode count keeps none"),
    )
    for broken, why in rules:
        if broken:
            raise UsageError(f"solve: {why}")


def _refuse_a_checkpoint_over_another(a) -> None:
    """``--checkpoint DIR`` over a directory that holds a checkpoint already, without ``--resume DIR``: the
    same command run again after a kill would start afresh and replace hours of frontier and best board."""
    from pathlib import Path

    if not a.checkpoint or not Path(a.checkpoint).is_dir():
        return
    if a.resume and Path(a.resume).resolve() == Path(a.checkpoint).resolve():
        return
    held = sorted(f.name for f in Path(a.checkpoint).glob("*.npz"))
    if held:
        raise UsageError(
            f"solve: --checkpoint {a.checkpoint} holds a checkpoint already ({', '.join(held[:3])}): add --resume "
            f"{a.checkpoint} to go on from it, or give an empty directory to start afresh"
        )


def _keep_interrupted(a, p, res) -> int:
    """Write the best board of an interrupted best-mode run (to -o, or a file named in the message),
    then exit as an interrupted command does."""
    from puzzles.files import formats
    from puzzles.files.outputs import rescue, write_or_rescue

    text = json.dumps(formats.solution_to_dict(p, res.solutions[0]), indent=1) + "\n"
    if a.output:
        write_or_rescue(a.output, text, "the best board")
        where = a.output
    else:
        where = rescue(text, "best-board.json")
    print(f"eternity: interrupted: the best board so far (score {res.best_score}) is in {where}", file=sys.stderr)
    return 130


def _solve_on_dask(a, p, name: str, opts: dict) -> int:
    """`--executor dask`: the search cut into parts on a Dask cluster (``experiments.cluster.search``); the answer
    is verified against the whole puzzle and printed as a local solve's is."""
    import os

    from experiments.cluster.search import distributed_solve
    from puzzles.files import formats

    if a.distinct or a.mode not in ("first", "count", "best"):
        raise UsageError("solve --executor dask: modes first, count and best, without --distinct")
    limits = solving.Limits(time_s=a.time_limit)
    progress, status_ctx = _live_progress(a)
    with status_ctx:
        res = distributed_solve(
            p, name, opts, a.mode, limits, scheduler=a.scheduler, workers=a.workers or os.cpu_count() or 2,
            ledger_dir=a.checkpoint or a.resume, resume=bool(a.resume), depth=a.split_depth, progress=progress,
            recut_s=(DEFAULT_RECUT_S if a.recut is None else a.recut) or None,
        )  # fmt: skip
    verified = solving.check_answer(p, res, a.mode)  # the one acceptance rule of every answer
    if verified is False:
        print("eternity: error: a part returned a solution the verifier rejects", file=sys.stderr)
        return EXIT_INVALID
    if res.solutions:
        if a.output:
            from puzzles.files.outputs import write_or_rescue

            write_or_rescue(a.output, json.dumps(formats.solution_to_dict(p, res.solutions[0]), indent=1) + "\n",
                            "the solution")  # fmt: skip
    if a.json:
        d = res.as_dict()
        if verified is not None:
            d["verified"] = verified
        _out(d)
    else:
        line = res.status.value + (f" ({res.evidence})" if res.evidence else "")
        line += "" if res.count is None else f"  count {res.count}"
        if res.best_score is not None:
            line += f"  score {res.best_score}/{p.n_joins}"
        st = res.stats
        if "member" in st or "members" in st:  # a portfolio across the cluster
            line += f"  member {st.get('member', '-')} ({len(st['members'])} members, {st['workers']} workers)"
        elif "levels_split" in st:  # one beam, its levels expanded across the cluster
            line += f"  deepest {st['deepest']}  levels split {st['levels_split']} ({st['workers']} workers)"
            line += f"  nodes {st['nodes']}"
        else:
            line += f"  parts {st['parts_done']}/{st['parts']} (depth {st['depth']}, {st['workers']} workers)"
            line += f"  nodes {st['nodes']}"
        line += f"  time_s {st['time_s']:.3g}" + ("" if verified is None else f"  verified {verified}")
        print(line)
        if res.message:
            print(res.message, file=sys.stderr)
    if res.status == solving.Status.ERROR:
        return EXIT_INVALID
    return EXIT_LIMIT if res.status == solving.Status.LIMIT else EXIT_OK


def add(sub) -> None:
    """Declare `eternity solve` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("solve", help="solve a puzzle with a registered solver")
    s.add_argument("puzzle")
    s.add_argument("--solver")
    s.add_argument("--opt", action="append", metavar="K=V")
    s.add_argument(
        "--mode",
        default="first",
        choices=list(solving.MODES),
        help="first solution, count, all solutions, best board (edge matching), or sample: solutions "
        "drawn uniformly at random (backtrack's diagram of all solutions)",
    )
    s.add_argument(
        "--samples", type=arg(int, 1, 10**7), help=f"mode sample: how many to draw (default: {DEFAULT_SAMPLES})"
    )
    s.add_argument("--distinct", action="store_true", help="also count up to symmetry and identical pieces")
    s.add_argument("--time-limit", type=arg(float, 0.001), help="seconds")
    s.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="beam: write the frontier to DIR (every level, a wide one every 60 s); mode best also "
        "the best board (best.npz, best.svg with mismatches in red, best.url for e2.bucas.name)",
    )
    s.add_argument(
        "--resume", metavar="DIR", help="beam: continue from the frontier in DIR, or in mode best from its best board"
    )
    s.add_argument("--node-limit", type=arg(int, 1))
    s.add_argument("--limit", type=arg(int, 1), help="solutions to collect in mode all")
    s.add_argument("--show", type=arg(int, 0), help="solutions printed with --json (default: 1)")
    s.add_argument(
        "-o",
        "--output",
        help="modes first and best: the solution file; count, all and sample: every "
        "answer (format eternity/solutions: the count and all solutions)",
    )
    s.add_argument("--svg", help="the first solution as an SVG picture (a name ending in .svg)")
    s.add_argument("--json", action="store_true")
    s.add_argument(
        "--quiet",
        action="store_true",
        help="no progress (a live line on a terminal, else a log line every 15 s on stderr)",
    )
    s.add_argument(
        "--executor",
        choices=["local", "dask"],
        default="local",
        help="dask: one search across a Dask cluster, its tree cut into parts (modes first and count, solvers "
        "that split); --checkpoint DIR keeps a ledger of the parts done, --resume DIR continues it",
    )
    s.add_argument("--scheduler", metavar="ADDR", help="--executor dask: the scheduler (default: a local cluster)")
    s.add_argument("--workers", type=arg(int, 1, 1024), help="--executor dask, local cluster: workers (default: cores)")
    s.add_argument("--recut", metavar="S", type=arg(float, 0, 86400),
                   help="--executor dask, edge-backtrack first and count: a part that runs S seconds is stopped and "
                   "cut one cell deeper (default 60; 0: never)")  # fmt: skip
    s.add_argument("--split-depth", type=arg(int, 1, 64), help="--executor dask: cut at this depth (default: from the "
                   "tree's width, 8 parts a worker)")  # fmt: skip
    s.set_defaults(func=cmd_solve, outputs={"output": "file", "svg": "svg", "checkpoint": "dir"})
