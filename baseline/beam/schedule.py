"""The beam's time and memory schedule in best mode: how wide each pass may be.

Two narrow passes fit a per-level time model (a fixed part plus a part per state); each
further pass is as wide as the time left and the memory allow.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np

from baseline.beam.frontier import PassEnd

PROBE_SHARE = 0.03  # budget schedule: a pass 8x wider measures again while it costs less than this of the time left


def _level_model(a, b):
    """Per level, time = fixed + per * states, fitted through two passes' (took, expanded)."""
    (t1, s1), (t2, s2) = a, b
    ds = np.where(s2 - s1 > 0, s2 - s1, 1.0)
    per = np.where(s2 - s1 > 0, np.maximum(t2 - t1, 0.0) / ds, t2 / np.maximum(s2, 1.0))
    fixed = np.maximum(t1 - per * s1, 0.0)
    return fixed, per


def _planned_width(model, left: float) -> int:
    """The widest pass the time model fits into 92% of ``left`` seconds."""
    fixed, per = float(model[0].sum()), float(model[1].sum())
    return int((0.92 * left - fixed) / max(per, 1e-9))


def available_memory() -> int | None:
    """Bytes the machine can still give (``MemAvailable``), or None where that is not known."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class Schedule:
    """The schedule's part of ``BeamRun``: calibration, the memory cap and the budgeted passes."""

    o: dict[str, Any]

    if TYPE_CHECKING:  # a part of BeamRun: it reads the run's tables and state, which BeamRun sets

        def __getattr__(self, name: str) -> Any: ...

    def _calibrate(self, t0, deadline) -> None:
        """The time model for tail passes after a resume: two narrow passes from the root, which
        neither read nor write checkpoints."""
        saved, self.o = self.o, {**self.o, "resume": "", "checkpoint": ""}
        try:
            runs = []
            for w in (32, 256):
                self._pass(w, deadline, None, t0, resume=False)
                runs.append(self._profile)
        finally:
            self.o = saved
        self._model = _level_model(*runs)

    def memory_width(self) -> int:
        """The widest pass the memory left holds, shared among ``jobs`` runs.  A state costs about
        5.5 times its frontier row (two frontiers, the children, the sort, the checkpoint's copies):
        measured 13.4 GB at width 700,000 on Eternity II with int64 rows, where two such jobs on
        24 GB met the out-of-memory killer, and 2.1 GB at width 300,000 with the int16 rows (1.1 KB,
        6.9 KB a state by this rule)."""
        avail = available_memory()
        if avail is None:
            return 1 << 40
        return max(256, int(0.8 * avail / (self._state_bytes() * self.share)))

    def _state_bytes(self) -> float:
        """What one state of a pass costs in memory, by the rule of ``memory_width``."""
        row = np.dtype(self.cdt).itemsize * self.n + self.p.n_pieces + 6 * np.dtype(self.rdt).itemsize * self.n_col + 24
        return 5.5 * row + 1024

    def _budget_passes(self, t0, deadline, progress, fill: bool = True):
        """Best mode with a time limit: two narrow passes (32 and 256 states) measure what a
        level costs, a fixed part plus a part per state; each further pass is as wide as the
        time left allows (and shrinks its width on the way when it falls behind), so the passes
        started finish and the budget is used.  With a long budget, passes 8x wider measure
        again first, while one costs under ``PROBE_SHARE`` of the time left (an hour: 2,048 and
        16,384 states; a minute: none).  ``fill``: nothing follows the passes (no repair phase), so
        the time a too-narrow wide pass leaves goes to another pass."""
        o = self.o
        cap = self._cap = min(o["max_width"] or 1 << 40, self.memory_width())  # grow stays within it too
        width, model, status = min(32, cap), None, PassEnd.DEAD
        runs: list[tuple[np.ndarray, np.ndarray]] = []  # each pass's per-level (took, expanded)
        widths: list[int] = []
        while True:
            tp = time.perf_counter()
            status = self._pass(width, deadline, progress, t0, resume=not runs, profile=model)
            self.stats.setdefault("passes", []).append((width, round(time.perf_counter() - tp, 2)))
            if status in (PassEnd.SOLUTION, PassEnd.LIMIT, PassEnd.PERFECT):
                return status
            if status == PassEnd.DEAD and getattr(self, "_exhausted", False):
                return status  # no level was cut: nothing can be placed, at any width
            runs.append(self._profile)
            widths.append(width)
            left = deadline - time.perf_counter()
            if len(runs) == 1:
                nxt = min(256, cap)
            else:
                if model is None or width >= 2 * widths[-2]:
                    # refitted only through passes of widths far apart: two passes of about one
                    # width (a pass again, below) give a model that noise decides
                    model = self._model = _level_model(runs[-2], runs[-1])
                fixed, per = model[0].sum(), model[1].sum()
                nxt = min(cap, _planned_width(model, left))
                probe = 8 * width
                if probe < nxt and fixed + per * probe < PROBE_SHARE * left:
                    # a long budget: measure again, wider, so that the model is fitted where the
                    # cut prunes as in the wide pass and where the threads run (not below PARALLEL_MIN)
                    nxt = probe
            if nxt < 2 * width:
                # a pass not twice as wide rarely finds a better board, but idle time never does:
                # unless the repair phase takes the rest, another pass (a new width, so new random
                # ties) uses it while one at least a quarter as wide as the widest fits; a model that
                # overestimated the cost of a state (a slow narrow pass) ends the wide pass early
                # and leaves that rest
                if not fill or nxt < max(widths) // 4:
                    return status
                while nxt in widths:
                    nxt -= 1
            width = nxt
