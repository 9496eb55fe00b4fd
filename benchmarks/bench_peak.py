"""The hardness peak: which configuration solves generated boards near the critical size.

    .venv/bin/python benchmarks/bench_peak.py [--db results/peak.sqlite] [--family F] [--solver LABEL] [--summary]

Runs ``experiments/peak.toml`` through the runner (the same cells, store and
resume as ``eternity run``; ``--family`` and ``--solver`` run a part of it),
then prints, per family and configuration, how many of the puzzles were
solved within the limit (every answer verified), how many were proven
unsatisfiable, and the median and mean solve time over all puzzles (an
unsolved puzzle counts as the limit, so a median is a real one only when
at least half were solved: it is marked ``>`` otherwise).  ``--summary``
only prints the table of what is stored.
"""

import argparse
import sqlite3
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def summary(db: str) -> str:
    con = sqlite3.connect(db)
    rows = con.execute("SELECT family, config, status, search_s, time_limit, message FROM results "
                       "WHERE mode != 'count-part'").fetchall()
    con.close()
    by = defaultdict(list)
    winners = defaultdict(lambda: defaultdict(int))  # a portfolio's answers by member
    for fam, cfg, status, t, limit, msg in rows:
        by[(fam, cfg)].append((status, t, limit))
        if msg and msg.startswith("answered by "):
            winners[cfg][msg.removeprefix("answered by ").split(";")[0]] += 1
    configs = sorted({c for _, c in by})
    families = sorted({f for f, _ in by})
    out = ["| configuration | " + " | ".join(families) + " |", "|---|" + "---|" * len(families)]
    for c in configs:
        cells = []
        for f in families:
            runs = by.get((f, c))
            if not runs:
                cells.append("-")
                continue
            solved = sum(s == "solved" for s, _, _ in runs)
            unsat = sum(s == "unsatisfiable" for s, _, _ in runs)
            limit = max(lim for _, _, lim in runs)
            ts = sorted((t if s in ("solved", "unsatisfiable") and t is not None else limit) for s, t, _ in runs)
            med = statistics.median(ts)
            real = solved + unsat >= (len(runs) + 1) // 2 + (len(runs) % 2 == 0)
            cells.append(f"{solved}/{len(runs)}" + (f" ({unsat} unsat)" if unsat else "")
                         + f", median {'' if real else '>'}{med:.1f} s")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    for c, w in sorted(winners.items()):
        out.append(f"\n{c}: answers by member: " + ", ".join(f"{m} {n}" for m, n in sorted(w.items())))
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=str(ROOT / "experiments" / "peak.toml"))
    ap.add_argument("--db", default="results/peak.sqlite")
    ap.add_argument("--family", action="append")
    ap.add_argument("--solver", action="append")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--summary", action="store_true", help="print the table of what is stored, run nothing")
    a = ap.parse_args()
    if not a.summary:
        from experiments.runner import run

        Path(a.db).parent.mkdir(parents=True, exist_ok=True)
        s = run(a.config, a.db, jobs=a.jobs, families=a.family, solvers=a.solver, show_progress=False)
        print(f"{s['ran']} cells run, {s['skipped']} already stored", file=sys.stderr)
    print(summary(a.db))


if __name__ == "__main__":
    main()
