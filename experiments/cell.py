"""One cell (instance, solver configuration, repeat): the solve a worker runs for the runner.

``solve_cell(spec)`` parses the instance, runs the solver through
``solving.solve_verified`` (every solution checked before it is reported)
and returns the result row; it never raises.  Where it runs and under what
limits is ``experiments.worker``'s business.
"""

from __future__ import annotations

import os
import traceback

# what an engine reports of its work and of its input, kept beside the clocks (the tables' size and search columns)
# and an estimated count's measure (edge-estimate): the estimate, its standard error and 95% interval, the tree it
# estimates for the native exhaust and that exhaust's time, and how it was drawn
ENGINE_STATS = ("vars", "clauses", "constraints", "literals", "decisions", "propagations", "conflicts", "restarts",
                "estimate", "stderr", "low", "high", "tree_nodes", "native_s", "probes", "depth", "zero_probes")  # fmt: skip
# and the shape of a search's tree: nodes tried at each level (the b_i profile of an exhaust)
ENGINE_PROFILES = ("nodes_per_level",)


def engine_stats(stats: dict) -> str | None:
    """The engine's own statistics of a solve (``ENGINE_STATS``, ``ENGINE_PROFILES``), as JSON; None when it
    reports none."""
    import json

    kept = {k: stats[k] for k in ENGINE_STATS if isinstance(stats.get(k), (int, float))}
    kept |= {
        k: [int(v) for v in stats[k]]
        for k in ENGINE_PROFILES
        if isinstance(stats.get(k), list) and all(isinstance(v, int) for v in stats[k])
    }
    return json.dumps(kept, sort_keys=True) if kept else None


def solve_cell(spec: dict) -> dict:
    """The cell's solve, in this process: the result row, never an exception."""
    import importlib

    import solving
    from puzzles.files.formats import puzzle_from_dict

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
            "engine_stats": engine_stats(res.stats),
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
