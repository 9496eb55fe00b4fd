"""`eternity endgame`: the end game's data from the beam's own states, Selby's score fitted on them, its test."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from puzzles.errors import UsageError
from puzzles.ranges import arg, whole_numbers

WEIGHTS = "eternity1/tilability_weights_k8_first_320.json"  # in the shipped data (``puzzles.data``)


def _levels(text: str) -> list[int]:
    return whole_numbers(text, "endgame: --left", "pieces left are at least 1", "50,40,30")


def _say(quiet: bool):
    last = [0.0]

    def told(info: dict) -> None:
        if quiet or time.monotonic() - last[0] < 2.0:
            return
        last[0] = time.monotonic()
        print("endgame: " + " ".join(f"{k}={v}" for k, v in info.items() if k not in ("own", "offered", "uses")),
              file=sys.stderr, flush=True)  # fmt: skip

    return told


def cmd_endgame(a) -> int:
    """Run `eternity endgame ACTION` with the parsed arguments ``a``; returns the exit status."""
    from experiments.studies import endgame as E

    out = Path(a.dir)
    if a.weights is None:  # the shipped fit, wherever the command runs from
        from puzzles.data import data_dir

        a.weights = str(data_dir() / WEIGHTS)
    if a.action == "harvest":
        if not a.puzzle:
            raise UsageError("endgame harvest: --puzzle is required (e.g. --puzzle eternity1)")
        if out.exists() and not out.is_dir():
            raise UsageError(f"endgame: {out}: not a folder")
        opts = {"width": a.width, "per_parent": 1, "probe_at": a.probe_at, "probe_nodes": 250,
                "weights": a.weights, "exhaust_at": a.exhaust_at}  # fmt: skip
        stats = E.harvest(a.puzzle, out, a.from_left, a.time_limit, opts, _say(a.quiet))
        print(json.dumps({"deepest": stats.get("deepest"), "status": stats["status"], "message": stats["message"],
                          "levels": sorted(int(f.stem[4:]) for f in out.glob("left*.npz"))}))  # fmt: skip
        return 0
    meta = out / "harvest.json"
    if not meta.exists():
        raise UsageError(f"endgame: {out}: no harvest there (run `eternity endgame harvest {out}` first)")
    try:
        puzzle = json.loads(meta.read_text())["puzzle"]
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise UsageError(f"endgame: {meta}: not a harvest's record") from None
    if not isinstance(puzzle, str):
        raise UsageError(f"endgame: {meta}: puzzle: {puzzle!r} is not a puzzle's name")
    tb = E.tables(puzzle)
    if a.action == "fates":
        summary = {}
        for left in _levels(a.left):
            rows = list(E.fates(tb, E.load_level(out, left, tb), left, out / "fates.jsonl", a.budget, a.reconnoitre,
                                _say(a.quiet), a.limit))  # fmt: skip
            summary[left] = E.fate_summary(rows)
        print(json.dumps(summary, indent=1))
        return 0
    if a.action == "excess":
        summary = {}
        for left in _levels(a.left):
            rows = list(E.excess(tb, E.load_level(out, left, tb), left, out / "excess.jsonl", a.extra, a.budget, a.seed,
                                 a.reconnoitre, a.limit, _say(a.quiet)))  # fmt: skip
            summary[left] = E.excess_summary(rows)
        print(json.dumps(summary, indent=1))
        return 0
    if a.action in ("fit", "fit-fates"):
        if a.action == "fit":
            res = E.fit_score(tb, out, _levels(a.left), a.extra, a.weights)
        else:
            res = E.fit_fates(tb, out, _levels(a.left), a.weights)
        doc = res.pop("document")
        if a.output:
            from puzzles.files.formats import atomic_write

            atomic_write(a.output, json.dumps(doc, indent=1))
        print(json.dumps(res, indent=1))
        return 0
    if a.action == "evaluate":
        res = E.evaluate(tb, out, _levels(a.left), a.weights, a.score)
        print(json.dumps(res, indent=1))
        return 0
    raise UsageError(f"endgame: no action {a.action!r}")


def add(sub) -> None:
    """Declare `eternity endgame` and its arguments."""
    s = sub.add_parser(
        "endgame",
        help="Eternity's end game: beam states harvested, their fates, excess-piece exhausts, a score fitted and tested",
    )
    s.add_argument(
        "action",
        choices=["harvest", "fates", "excess", "fit", "fit-fates", "evaluate"],
        help="harvest: run the beam and keep its states; fates: exhaust them; excess: Selby's excess-piece "
        "exhausts of their regions; fit: the score with region terms on the excess exhausts; fit-fates: on the "
        "fates, judged held out; evaluate: old score against new on the fates",
    )
    s.add_argument("dir", help="the folder of one harvest (its states, fates and exhausts)")
    s.add_argument("--puzzle", help="harvest: a polyform puzzle, built-in or a file (e.g. eternity1)")
    s.add_argument("--width", type=arg(int, 1, 10_000_000), default=2000, help="harvest: the beam's width")
    s.add_argument("--time-limit", type=arg(float, 1.0), default=3600.0, help="harvest: seconds of beam")
    s.add_argument(
        "--from-left", type=arg(int, 1), default=60, help="harvest: keep the levels with this many pieces left or fewer"
    )
    s.add_argument(
        "--probe-at", type=arg(int, 0), default=75, help="harvest: the beam's probes from this many pieces left"
    )
    s.add_argument(
        "--exhaust-at", type=arg(int, 0), default=20, help="harvest: the beam's end game at this many pieces left"
    )
    s.add_argument(
        "--weights",
        default=None,
        help=f"harvest: the beam's weights; fit, evaluate: today's weights (default: the shipped {WEIGHTS})",
    )
    s.add_argument(
        "--left", default="50,40,30", help="fates, excess, fit, evaluate: the levels, as pieces left (e.g. 50,40,30)"
    )
    s.add_argument("--budget", type=arg(int, 1), default=200_000, help="fates, excess: nodes a state, at most")
    s.add_argument("--reconnoitre", type=arg(int, 0, 2), default=2, help="fates, excess: Selby's reconnoitre depth")
    s.add_argument("--extra", type=arg(int, 1), default=66, help="excess, fit: pieces offered beyond a region's own")
    s.add_argument("--seed", type=arg(int, 0), default=0, help="excess: the draw of the extra pieces")
    s.add_argument("--limit", type=arg(int, 1), help="fates, excess: states a level, at most, spread over the frontier")
    s.add_argument("--score", help="evaluate: the fitted score (written by fit -o)")
    s.add_argument("-o", "--output", help="fit, fit-fates: write the fitted score (JSON) here")
    s.add_argument("--quiet", action="store_true", help="no progress lines")
    s.set_defaults(func=cmd_endgame, outputs={"output": "file"})
