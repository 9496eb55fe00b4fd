"""The beam's best mode beyond the passes: keeping the best board, the repair phase (tail passes
and large-neighbourhood steps) and independent jobs in parallel processes.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import numpy as np

from baseline.beam.frontier import PassEnd
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle


def _window_shape(spec: str) -> tuple[int, int]:
    try:
        h, w = (int(x) for x in spec.lower().split("x"))
    except ValueError:
        raise UsageError(f"solver beam: option window: {spec!r} is not HxW (like 2x3)") from None
    if not (1 <= h <= 4 and 1 <= w <= 4 and h * w >= 2):
        raise UsageError(f"solver beam: option window: {spec!r}: each side 1..4, at least two cells")
    return h, w


def _mismatches(p: EdgePuzzle, placements) -> int:
    """Mismatched joins between the placed cells of a partial board."""
    at = {pl.cell: p.placed(pl.piece, pl.rotation) for pl in placements}
    bad = 0
    for cell, cols in at.items():
        for side in (1, 2):
            nb = p.neighbour(cell, side)
            if nb in at and cols[side] != at[nb][(side + 2) % 4]:
                bad += 1
    return bad


class BestMode:
    """The best-mode part of ``BeamRun``."""

    best_score: Any  # the best board's score (None until the first board)

    if TYPE_CHECKING:  # a part of BeamRun: it reads the run's tables and state, which BeamRun sets

        def __getattr__(self, name: str) -> Any: ...

    def _better(self, placements, score, t0, progress, width=None, save=True) -> None:
        """A board from the beam or the repair: kept (and checkpointed) when it beats the best."""
        if self.best_score is not None and score <= self.best_score:
            return
        self.best_pl, self.best_score = placements, score
        self.history.append((round(time.perf_counter() - t0, 3), score))
        if save:  # on disk before anything says it was found: a kill after the line loses nothing
            self._save_best()
        if progress:
            progress({"score": score, **({"width": width} if width else {})})

    def _repair(self, t0, deadline, progress) -> None:
        """The repair phase: tail passes (the beam again over the last rows of the best board,
        wider, since fewer levels are left) alternating with large-neighbourhood steps
        (``repair.Repair``) on the best board, until the deadline."""
        from baseline.beam.repair import Repair

        rep = Repair(
            self.p,
            self.o["seed"],
            _window_shape(self.o["window"]),
            self.o["lns_s"],
            self.o["lns_model"],
            self.o["lns_shape"],
            self.o["lns_swap"],
        )
        start, total = self.best_score, deadline - time.perf_counter()
        tails = {"passes": 0, "better": 0}
        rng = np.random.default_rng([self.o["seed"], 0x7A11])

        def better(pl, score):
            self._better(pl, score, t0, progress)

        salt = 0
        while time.perf_counter() < deadline and self.best_score < self.p.n_joins:
            salt += 1
            if getattr(self, "_model", None) is not None and self.o["tail"] > 0:
                rows = int(rng.integers(2, self.o["tail"] + 1))
                slice_s = min(max(2.0, total / 6), deadline - time.perf_counter())
                before = self.best_score
                self._tail_pass(rows * min(self.p.cols, self.p.rows), slice_s, t0, progress, salt)
                tails["passes"] += 1
                tails["better"] += int(self.best_score > before)
            lns_s = min(max(1.0, total / 12), deadline - time.perf_counter())
            if lns_s > 0:
                rep.run(self.best_pl, time.perf_counter() + lns_s, better, block_share=self.o["lns"])
        self.stats["repair"] = {
            **rep.stats,
            "tail_passes": tails["passes"],
            "tail_better": tails["better"],
            "from": start,
            "to": self.best_score,
        }

    def _tail_pass(self, cells: int, seconds: float, t0, progress, salt) -> None:
        """The beam from the best board's first n - cells placements, as wide as ``seconds`` allow."""
        n = self.n
        k0 = max(1, n - cells)
        fixed, per = self._model
        width = int((0.9 * seconds - float(fixed[k0:].sum())) / max(float(per[k0:].sum()), 1e-9))
        if width < 2:
            return
        at = {pl.cell: pl for pl in self.best_pl}
        row = np.zeros((1, n), np.int64)
        for d in range(k0):
            pl = at[int(self.order[d])]
            row[0, d] = self.lut[pl.piece, pl.rotation]
        prefix = self.placements(np.concatenate([row[0, :k0], np.zeros(n - k0, np.int64)]))[:k0]
        mis = np.array([_mismatches(self.p, prefix)], np.int64)
        states = self.rebuild(k0, row, mis, np.zeros(1))
        deadline = time.perf_counter() + seconds
        res = self._one_run(width, deadline, None, t0, False, self._model, start_at=(k0, states), salt=salt)
        if res is not None and res[0] == PassEnd.BOARD:
            self._better(self.placements(res[1]), self.p.n_joins - res[2], t0, progress, width=width)
