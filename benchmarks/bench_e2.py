"""The Eternity II score, measured against a public study's figures.

    .venv/bin/python benchmarks/bench_e2.py [--seconds 60] [--variants 10] [--opt k=v ...]
    .venv/bin/python benchmarks/bench_e2.py --hour [--seconds 3600] [--jobs 2] [--checkpoint DIR]

Default: Eternity II with its five hint pieces and three random corners pinned
(``eternity2-corners-0`` .. ``-9``, seeded), ``beam --mode best`` for
``--seconds`` each on one core; every board goes through the verifier
(``eternity verify --score`` does the same); the mean, best and worst against
the study's 60-second figures.  ``--hour``: the long run on ``eternity2`` and
``eternity2-hints`` with ``jobs`` processes, checkpointed (kill it and run the
same command with ``--resume``: the best board so far is kept), printing the
e2.bucas.name URL of each best board.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import solving
from puzzles import catalog
from puzzles.verify import verify

# 60 s on one core, Eternity II with the five hints and three corners pinned (mean of their variants)
STUDY = {
    "beam search (the study's best)": 454.8,
    "adaptive large-neighbourhood search": 452.9,
    "Verhaard's solver": 440.8,
    "Blackwood's solver": 436.4,
}


def opts_of(pairs: list[str]) -> dict:
    out = {}
    for kv in pairs:
        k, _, v = kv.partition("=")
        out[k] = v
    return out


def run(name: str, solver: str, opts: dict, seconds: float) -> tuple[int, bool, float, dict]:
    p = catalog.load(name)
    s = solving.get(solver, opts)
    s.warm(p, "best")
    t0 = time.perf_counter()
    r = s.solve(p, mode="best", limits=solving.Limits(time_s=seconds))
    dt = time.perf_counter() - t0
    rep = verify(p, r.solutions[0], allow_mismatch=True)
    ok = not rep.problems and rep.score == r.best_score
    return rep.score, ok, dt, r.stats


def variants(a) -> None:
    opts = opts_of(a.opt)
    scores = []
    print(f"{a.solver} {opts or ''} --mode best, {a.seconds:g} s each, Eternity II, five hints + three corners")
    for seed in range(a.first, a.first + a.variants):
        score, ok, dt, st = run(f"eternity2-corners-{seed}", a.solver, opts, a.seconds)
        scores.append(score)
        rp = st.get("repair") or {}
        extra = f"  beam {rp['from']} -> repair {rp['to']}" if rp else ""
        if a.verbose:
            extra += f"  passes {st.get('passes')}  repair {rp}"
        print(f"eternity2-corners-{seed}: {score}/480  verified {ok}  {dt:5.1f} s{extra}", flush=True)
        if not ok:
            raise SystemExit(f"eternity2-corners-{seed}: the verifier rejects the board")
    mean = statistics.mean(scores)
    print(f"\nmean {mean:.1f}  best {max(scores)}  worst {min(scores)}  (n = {len(scores)})")
    for who, v in STUDY.items():
        print(f"  {who}: {v:.1f}  ({mean - v:+.1f})")


def hour(a) -> None:
    opts = {**opts_of(a.opt), "jobs": str(a.jobs)}
    for name in ("eternity2", "eternity2-hints"):
        ck = Path(a.checkpoint) / name
        o = {**opts, "checkpoint": str(ck)}
        if a.resume:
            o["resume"] = str(ck)
        score, ok, dt, st = run(name, a.solver, o, a.seconds)
        best = sorted(ck.glob("best*.url"))
        print(f"{name}: {score}/480  verified {ok}  {dt:.0f} s  jobs {st.get('job_scores')}", flush=True)
        for f in best:
            print(f"  {f.name}: {f.read_text().strip()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=None, help="per board (default 60; 3600 with --hour)")
    ap.add_argument("--variants", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="first variant seed")
    ap.add_argument("--solver", default="beam")
    ap.add_argument("--opt", action="append", default=[], metavar="K=V", help="solver option (repeatable)")
    ap.add_argument("--hour", action="store_true", help="the long run on eternity2 and eternity2-hints")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--checkpoint", default="results/e2-hour")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--verbose", action="store_true", help="print each run's passes and repair statistics")
    a = ap.parse_args()
    if a.seconds is None:
        a.seconds = 3600.0 if a.hour else 60.0
    hour(a) if a.hour else variants(a)


if __name__ == "__main__":
    main()
