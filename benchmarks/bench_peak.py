"""The hardness peak: which configuration solves generated boards near the critical size.

    .venv/bin/python benchmarks/bench_peak.py [--db results/peak.sqlite] [--family F] [--solver LABEL] [--summary]
    .venv/bin/python benchmarks/bench_peak.py --unsat [SEED ...]     # boards with no solution: count vs cube

Runs ``experiments/configs/peak.toml`` through the runner (the same cells, store and
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
    rows = con.execute(
        "SELECT family, config, status, search_s, time_limit, message FROM results WHERE mode != 'count-part'"
    ).fetchall()
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
            cells.append(
                f"{solved}/{len(runs)}"
                + (f" ({unsat} unsat)" if unsat else "")
                + f", median {'' if real else '>'}{med:.1f} s"
            )
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    for c, w in sorted(winners.items()):
        out.append(f"\n{c}: answers by member: " + ", ".join(f"{m} {n}" for m, n in sorted(w.items())))
    return "\n".join(out)


def swapped(seed: int):
    """A planted 7x7 board, 3 frame and 8 inner colours, with one inner side of two inner pieces
    swapped: the colour counts stay, so counting alone cannot refute it (seeds 1-5: no solution)."""
    import numpy as np

    from puzzles.kinds.edge import EdgePuzzle
    from puzzles.make import generate

    p, _ = generate.edge_puzzle(7, 7, 3, 8, seed)
    rng = np.random.default_rng(seed)
    inner = [q for q in range(p.n_pieces) if (p.pieces[q] > 3).all()]
    while True:
        a, b = rng.choice(inner, 2, replace=False)
        sa, sb = rng.integers(4), rng.integers(4)
        if p.pieces[a, sa] != p.pieces[b, sb]:
            break
    pc = p.pieces.copy()
    pc[a, sa], pc[b, sb] = p.pieces[b, sb], p.pieces[a, sa]
    return EdgePuzzle(7, 7, pc, name=f"swapped-7x7-3-8-s{seed}")


def unsat(seeds: list[int], limit: float) -> None:
    """Each swapped board counted by the backtracker, then by cube-and-conquer (2 jobs, depth 4)."""
    import solving

    print("| board | edge-backtrack count | cube[jobs=2,depth=4] count |\n|---|---|---|")
    for seed in seeds:
        p = swapped(seed)
        cells = []
        for name, opts in (("edge-backtrack", {}), ("cube", {"jobs": 2, "depth": 4})):
            r, _ = solving.solve_verified(solving.get(name, opts), p, "count", solving.Limits(time_s=limit))
            cells.append(f"{r.status.value} in {r.stats['time_s']:.1f} s")
        print(f"| {p.name} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=str(ROOT / "experiments" / "peak.toml"))
    ap.add_argument("--db", default="results/peak.sqlite")
    ap.add_argument("--family", action="append")
    ap.add_argument("--solver", action="append")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--summary", action="store_true", help="print the table of what is stored, run nothing")
    ap.add_argument(
        "--unsat",
        type=int,
        nargs="*",
        metavar="SEED",
        help="instead: prove boards with no solution (swapped sides, seeds 1-5 by default) "
        "by the backtracker's count and by cube-and-conquer",
    )
    ap.add_argument("--seconds", type=float, default=900.0, help="--unsat: time limit per count")
    a = ap.parse_args()
    if a.unsat is not None:
        unsat(a.unsat or [1, 2, 3, 4, 5], a.seconds)
        return
    if not a.summary:
        from experiments.runner import run

        Path(a.db).parent.mkdir(parents=True, exist_ok=True)
        s = run(a.config, a.db, jobs=a.jobs, families=a.family, solvers=a.solver, show_progress=False)
        print(f"{s['ran']} cells run, {s['skipped']} already stored", file=sys.stderr)
    print(summary(a.db))


if __name__ == "__main__":
    main()
