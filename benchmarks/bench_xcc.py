"""Whole-process race on the XCC form of a puzzle: `eternity solve --solver backtrack`
against the peers that are installed (miniexact; xcover), in one run, as ratios.

    .venv/bin/pip install miniexact xcover     # optional peers
    .venv/bin/python benchmarks/bench_xcc.py [--puzzle pentomino-6x10] [--repeats 3]

Each peer reads `eternity export PUZZLE --to xcc` (Knuth's format).  Times
are whole processes, best of the repeats; ratios are against miniexact when
it is there.  "cold" runs first clear the numba cache, so they include JIT
compilation.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], env=None) -> tuple[float, str]:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t0
    if r.returncode not in (0, 10, 20):  # SAT-style exit codes: 10 found, 20 none
        return float("nan"), (r.stderr or r.stdout).strip().splitlines()[-1:][0] if (r.stderr or r.stdout) else "?"
    lines = r.stdout.strip().splitlines()
    return dt, (
        f"{len(lines)} lines of output, last: {lines[-1][:60]}" if len(lines) > 1 else (lines[-1] if lines else "")
    )


def xcover_count(path: str) -> None:
    from xcover import covers  # noqa: F401 - measured only when installed

    lines = [ln for ln in Path(path).read_text().splitlines() if ln and not ln.startswith("|")]
    items = lines[0].split()
    if "|" in items:
        k = items.index("|")
        primary, secondary = items[:k], items[k + 1 :]
    else:
        primary, secondary = items, []
    options = [ln.split() for ln in lines[1:]]
    from xcover import covers_bool  # noqa: F401

    n = sum(
        1
        for _ in covers(
            options, primary=primary, secondary=secondary, colored=any(":" in w for o in options for w in o)
        )
    )
    print(n)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--puzzle", default="pentomino-6x10")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    eternity = [sys.executable, "-m", "eternity"]
    tmp = tempfile.mkdtemp()
    xcc = os.path.join(tmp, "p.dlx")
    subprocess.run(eternity + ["export", a.puzzle, "--to", "xcc", "-o", xcc], check=True)
    runs = {"eternity backtrack": eternity + ["solve", a.puzzle, "--solver", "backtrack", "--mode", "count"]}
    mx = shutil.which("miniexact") or (
        str(Path(sys.executable).parent / "miniexact") if (Path(sys.executable).parent / "miniexact").exists() else None
    )
    if mx:
        runs["miniexact"] = [mx, "-c", "-e", xcc]  # Algorithm C, enumerate every solution
    try:
        import xcover  # noqa: F401

        runs["xcover"] = [sys.executable, __file__, "--xcover", xcc]
    except ImportError:
        pass
    # cold: JIT compile included (fresh numba cache dir)
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
    cold, out = timed(runs["eternity backtrack"], env)
    print(f"eternity backtrack, cold (compile included): {cold:.2f} s   [{out}]")
    best, search = {}, []
    for name, cmd in runs.items():
        ts = []
        for _ in range(a.repeats):
            dt, out = timed([c for c in cmd if c], env)
            ts.append(dt)
            m = re.search(r"search_s ([0-9.e+-]+)", out) if name == "eternity backtrack" else None
            if m:
                search.append(float(m.group(1)))
        best[name] = min(ts)
        print(f"{name:>20}: best {best[name]:.2f} s of {a.repeats}   [{out}]")
    if search:  # the solve's own clock: the search alone, what the tables rank by with --clock search
        print(f"{'eternity search_s':>20}: best {min(search):.3f} s of {len(search)} (inside the whole process above)")
        if "miniexact" in best:
            print(f"{'':>20}  {min(search) / best['miniexact']:.2f} x miniexact's whole process")
    print(f"{'JIT compile':>20}: {cold - best['eternity backtrack']:.2f} s (cold minus best warm run)")
    ref = best.get("miniexact")
    if ref:
        for name, t in best.items():
            print(f"{name:>20}: {t / ref:.2f} x miniexact")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--xcover":
        xcover_count(sys.argv[2])
    else:
        main()
