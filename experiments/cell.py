"""One cell (instance, solver configuration, repeat): the solve a worker runs for the runner.

``solve_cell(spec)`` parses the instance, runs the solver through
``solving.solve_verified`` (every solution checked before it is reported)
and returns the result row; it never raises.  Where it runs and under what
limits is ``experiments.worker``'s business.
"""

from __future__ import annotations

import os
import traceback


def solve_cell(spec: dict) -> dict:
    """The cell's solve, in this process: the result row, never an exception."""
    import importlib

    import solving
    from puzzles.formats import puzzle_from_dict

    row: dict = {}
    try:
        puzzle = puzzle_from_dict(spec["puzzle"], "instance")
        solver = solving.get(spec["solver"], spec.get("options") or {})
        res, verified = solving.solve_verified(
            solver, puzzle, spec["mode"], solving.Limits(time_s=float(spec["time_limit"]))
        )
        row = {
            "status": res.status.value,
            "count": res.count,
            "best_score": res.best_score,
            "verified": verified,
            "nodes": res.measured.nodes,
            "conflicts": res.measured.conflicts,
            "message": res.message,
            "load_s": res.load_s,
            "build_s": res.build_s,
            "search_s": res.search_s,
            "optimal": None if res.optimal is None else int(res.optimal),
            "evidence": res.evidence,
        }
        if spec.get("detail") and res.status.answered:  # the family's own statistics of the solutions
            module, _, fn = spec["detail"].partition(":")
            row["detail"] = getattr(importlib.import_module(module), fn)(puzzle, res.solutions, res.count, res.stats)
    except MemoryError:
        row = {"status": "memout", "message": "MemoryError"}
    except Exception as e:  # noqa: BLE001 - a cell reports, it does not raise
        tb = traceback.extract_tb(e.__traceback__)[-1]
        row = {"status": "error", "message": f"{type(e).__name__}: {e} ({os.path.basename(tb.filename)}:{tb.lineno})"}
    return row
