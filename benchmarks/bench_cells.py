"""What a runner cell costs besides its solve: warm workers against a fresh process per cell.

    .venv/bin/python benchmarks/bench_cells.py [--cells 200]

Runs ``--cells`` cells of a solver that returns at once (``instant``, a test
double installed as a plug-in) on ``queens-4``: once through one warm worker
(``experiments.worker.WarmWorker``, what the runner uses), once as a fresh
``python -m experiments.worker`` process per cell (what a cold cell costs:
start-up, imports, loading).  Prints milliseconds per cell, round trip as the
runner sees it, and the ratio.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "helpers"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=200)
    ap.add_argument("--cold", type=int, default=10, help="cells run as a fresh process each")
    a = ap.parse_args()
    site = Path(tempfile.mkdtemp())
    info = site / "eternity_bench_plugin-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: eternity-bench-plugin\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[eternity.solvers]\ninstant = doubles:Instant\n")
    os.environ["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT / "tests" / "helpers"), str(ROOT)])

    from experiments.worker import WarmWorker
    from puzzles import catalog
    from puzzles.files.formats import puzzle_to_dict

    spec = {
        "puzzle": puzzle_to_dict(catalog.load("queens-4")),
        "solver": "instant",
        "options": {},
        "mode": "first",
        "time_limit": 10.0,
        "memory_mb": 4096,
    }
    w = WarmWorker()
    w.run(spec)  # start the child and load the solver: not a cell's cost
    t0 = time.perf_counter()
    for _ in range(a.cells):
        row = w.run(spec)
        assert row["status"] == "limit", row
    warm = (time.perf_counter() - t0) / a.cells
    w.close()
    t0 = time.perf_counter()
    for _ in range(a.cold):
        subprocess.run(
            [sys.executable, "-m", "experiments.worker"],
            input=json.dumps(spec) + "\n",
            text=True,
            capture_output=True,
            check=True,
        )
    cold = (time.perf_counter() - t0) / a.cold
    print(f"warm worker : {warm * 1e3:7.2f} ms a cell ({a.cells} cells)")
    print(f"fresh process: {cold * 1e3:7.2f} ms a cell ({a.cold} cells)")
    print(f"ratio        : {cold / warm:7.1f}x")


if __name__ == "__main__":
    main()
