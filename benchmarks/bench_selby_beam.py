"""The polyform beam's parts from Selby's method, one at a time and together, at equal time.

    .venv/bin/python benchmarks/bench_selby_beam.py [--puzzle eternity1-pram] [--seconds 300]
        [--variants base look1 look2 tables all] [--repeats 1] [--width 1000] [--jobs 1] [--opt K=V ...]

Each variant is one ``eternity solve PUZZLE --solver beam`` process with the same time limit, starting
width and seed, the fitted 8-piece weights and diversity (``per_parent=1``, the settings of
docs/results/eternity1.md); a run that ends without a tiling is repeated four times wider while time
is left, so a costlier variant gets fewer, narrower passes in the same time.  Variants run in turn,
``--repeats`` rounds (seed = round), ``--jobs`` at once; ``--opt`` adds beam options to every variant
(on the full board: ``--opt probe_at=75 --opt probe_nodes=250``, as on the results page).  Reported: tiled or not, the deepest state
(pieces placed, beam or end-game), the widths reached, the children made, the tables' rejections.

Variants:

* ``base``: today's scoring (the next two sites checked, the touch check);
* ``look1``, ``look2``: Selby's lookahead, a child scored by its best descendant 1 or 2 placements on;
* ``tables``: the boundary tables over 16-cell windows (4 core cells);
* ``all``: lookahead 1 and the tables together.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WEIGHTS = ROOT / "data" / "eternity1" / "tilability_weights_k8_first_320.json"
VARIANTS = {
    "base": [],
    "look1": ["look=1"],
    "look2": ["look=2"],
    "tables": ["tables=16"],
    "all": ["look=1", "tables=16"],
}


def run(puzzle: str, variant: str, seconds: float, width: int, seed: int, extra: list[str]) -> dict:
    opts = [f"width={width}", "per_parent=1", f"weights={WEIGHTS}", f"seed={seed}", *extra, *VARIANTS[variant]]
    cmd = [str(ROOT / ".venv" / "bin" / "eternity"), "solve", puzzle, "--solver", "beam", "--json"]
    cmd += ["--time-limit", str(seconds)]
    for o in opts:
        cmd += ["--opt", o]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    d = json.loads(out.stdout)
    s = d.get("stats", {})
    return {
        "variant": variant,
        "seed": seed,
        "status": d.get("status"),
        "verified": d.get("verified"),
        "deepest": s.get("deepest"),
        "widths": s.get("widths"),
        "children": s.get("nodes"),
        "tables_rejected": s.get("tables_rejected", 0),
        "endgame_states": s.get("endgame_states"),
        "time_s": round(s.get("time_s", wall), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", default="eternity1-pram")
    ap.add_argument("--seconds", type=float, default=300)
    ap.add_argument("--width", type=int, default=1000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--opt", action="append", default=[], help="a beam option K=V added to every variant")
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    a = ap.parse_args()
    plan = [(v, r) for r in range(a.repeats) for v in a.variants]
    with ThreadPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(lambda vr: run(a.puzzle, vr[0], a.seconds, a.width, vr[1], a.opt), plan))
    print(f"| {a.puzzle}, {a.seconds:.0f} s | seed | tiled | deepest | widths | children | tables' rejections |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        tiled = "yes" if r["status"] == "solved" and r["verified"] else "no"
        print(
            f"| {r['variant']} | {r['seed']} | {tiled} ({r['time_s']} s) | {r['deepest']} | "
            f"{r['widths']} | {r['children']:,} | {r['tables_rejected']:,} |"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
