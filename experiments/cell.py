"""One cell (instance, solver configuration, repeat), run in its own process.

``run_cell(spec)`` starts ``python -m experiments.cell`` with the spec on
stdin, a memory limit (RLIMIT_AS) and a hard wall-time limit, and always
returns a result row: a hung, crashing or memory-hungry solver becomes
``limit``, ``memout`` or ``error`` with its message, and the run goes on.
Every solution is checked by the verifier in the child before it is
reported.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
import traceback

GRACE_S = 5.0  # time the solver has beyond its own limit before it is killed


def _limit_memory(mb: int):
    def apply() -> None:
        b = int(mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return apply


def run_cell(spec: dict) -> dict:
    """Run one cell in a child process; never raises."""
    t0 = time.perf_counter()
    hard = float(spec["time_limit"]) * 1.5 + GRACE_S
    base = {"status": "error", "wall_s": None, "cpu_s": None, "peak_mb": None, "nodes": None, "conflicts": None,
            "count": None, "best_score": None, "verified": None, "message": ""}
    try:
        proc = subprocess.Popen([sys.executable, "-m", "experiments.cell"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=_limit_memory(spec["memory_mb"]), env=os.environ.copy())
        try:
            out, err = proc.communicate(json.dumps(spec), timeout=hard)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            base.update(status="limit", wall_s=time.perf_counter() - t0,
                        message=f"killed at the hard wall-time limit ({hard:.0f} s)")
            return base
        wall = time.perf_counter() - t0
        lines = [ln for ln in out.splitlines() if ln.startswith("{")]
        if proc.returncode == 0 and lines:
            row = json.loads(lines[-1])
            row.setdefault("wall_s", wall)
            return {**base, **row}
        tail = (err.strip().splitlines() or ["(no output)"])[-1][:300]
        memout = any(s in err for s in ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory"))
        base.update(status="memout" if memout else "error", wall_s=wall,
                    message=f"exit status {proc.returncode}: {tail}")
        return base
    except Exception as e:  # noqa: BLE001 - a cell must never take the run down
        base.update(message=f"runner: {e}", wall_s=time.perf_counter() - t0)
        return base


def solve_cell(spec: dict) -> dict:
    """The cell's solve, in this process: the result row, never an exception."""
    import importlib

    import solving
    from puzzles.formats import puzzle_from_dict

    row: dict = {}
    try:
        puzzle = puzzle_from_dict(spec["puzzle"], "instance")
        solver = solving.get(spec["solver"], spec.get("options") or {})
        res, verified = solving.solve_verified(solver, puzzle, spec["mode"],
                                               solving.Limits(time_s=float(spec["time_limit"])))
        row = {"status": res.status.value, "count": res.count, "best_score": res.best_score, "verified": verified,
               "nodes": res.stats.get("nodes"), "conflicts": res.stats.get("conflicts"), "message": res.message,
               "load_s": res.load_s, "build_s": res.build_s, "search_s": res.search_s}
        if spec.get("detail") and res.status.answered:  # the family's own statistics of the solutions
            module, _, fn = spec["detail"].partition(":")
            row["detail"] = getattr(importlib.import_module(module), fn)(puzzle, res.solutions)
    except MemoryError:
        row = {"status": "memout", "message": "MemoryError"}
    except Exception as e:  # noqa: BLE001 - a cell reports, it does not raise
        tb = traceback.extract_tb(e.__traceback__)[-1]
        row = {"status": "error", "message": f"{type(e).__name__}: {e} ({os.path.basename(tb.filename)}:{tb.lineno})"}
    return row


def _child() -> int:
    spec = json.loads(sys.stdin.read())
    t0 = time.perf_counter()
    row = solve_cell(spec)
    ru = resource.getrusage(resource.RUSAGE_SELF)
    row.update(wall_s=time.perf_counter() - t0, cpu_s=ru.ru_utime + ru.ru_stime, peak_mb=ru.ru_maxrss / 1024)
    print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(_child())
