"""The beam's checkpoints: the frontier of the pass under way and the best board, written so that
a killed run resumes (``--checkpoint`` / ``--resume``).

The frontier is packed by ``codec`` (10 bits a tile on Eternity II); its fingerprint holds the
puzzle and every option that changes the search (``Option.fingerprint``).  Best boards resume
under any options: only the puzzle must be the same.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from baseline.beam import codec
from baseline.beam.options import OPTIONS
from baseline.runtime import checkpoint
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement
from solving.options import fingerprint_options

BEST_EVERY_S = 30.0
FRONTIER_EVERY_S = 60.0


class Snapshots:
    """The checkpoint part of ``BeamRun``."""

    if TYPE_CHECKING:  # a part of BeamRun: it reads the run's tables and state, which BeamRun sets

        def __getattr__(self, name: str) -> Any: ...

    def fingerprint(self) -> str:
        """The puzzle, the mode and every option that changes the search (``Option.fingerprint``)."""
        keep = fingerprint_options(OPTIONS, self.o)
        for name, off in (("forecast", 0.0), ("late_penalty", -1.0), ("late_at", 80)):
            if keep.get(name) == off:
                keep.pop(name, None)  # checkpoints written before these options existed still resume
        h = hashlib.sha256(
            self.p.pieces.tobytes() + json.dumps([self.p.rows, self.p.cols, keep, self.best], sort_keys=True).encode()
        )
        return h.hexdigest()[:16]

    def _frontier_name(self) -> str:
        """The frontier checkpoint's name: one a job."""
        return f"frontier{'' if self.job is None else self.job}"

    def save(self, d: Path, k: int, width: int, states) -> None:
        """Write the frontier of level ``k`` into the checkpoint folder ``d``, sealed, whole or not at all."""
        cands, mis, score = states.cands, states.mis, states.score
        pieces = self.s_piece16[cands[:, :k]]  # narrow: a million states' copies stay small
        rots = self.s_rot8[cands[:, :k]]
        packed = codec.pack(pieces, rots, self.p.n_pieces)
        checkpoint.save(
            d,
            self._frontier_name(),
            packed=packed,
            mis=mis,
            score=score,
            level=k,
            width=width,
            fingerprint=self.fingerprint(),
            bits_per_tile=codec.bits_per_tile(self.p.n_pieces),
        )

    def load(self, d: Path):
        """The checkpointed frontier of folder ``d``: (level, width, states); refused when its seal or fingerprint differs."""
        z = checkpoint.load(d, self._frontier_name(), self.fingerprint())
        k = int(z["level"])
        pieces, rots = codec.unpack(z["packed"], k, self.p.n_pieces)
        cands = np.zeros((pieces.shape[0], self.n), self.cdt)
        cands[:, :k] = self.lut[pieces, rots]
        return k, int(z["width"]), self.rebuild(k, cands, z["mis"].astype(np.int64), z["score"].astype(np.float64))

    def _frontier_width(self) -> int | None:
        """The width of the pass whose frontier the resume directory holds, when that pass was cut
        short (its level is below the board's end) and was written under these options; else None."""
        f = Path(self.o["resume"]) / f"{self._frontier_name()}.npz"
        try:
            with np.load(f) as z:
                if str(z["fingerprint"]) != self.fingerprint() or int(z["level"]) >= self.n:
                    return None
                return int(z["width"])
        except (OSError, KeyError, ValueError):
            return None

    def _save_best(self, force=False) -> None:
        """Every new best board into the checkpoint directory at once, before anything says it was found (a
        kill loses none): ``best.npz`` to resume from and ``best.url`` for the e2.bucas.name viewer, each
        written whole; ``best.svg``, with its mismatches in red, at most every ``BEST_EVERY_S`` and at the end
        (``force``), as drawing it costs more than the board."""
        ck = self.o["checkpoint"]
        now = time.perf_counter()
        if not ck or self.best_pl is None:
            return
        if getattr(self, "_saved_score", None) == self.best_score:
            if force and getattr(self, "_drawn_score", None) != self.best_score:
                self._draw_best(Path(ck), now)
            return
        from puzzles.files.outputs import atomic_write
        from puzzles.kinds.edge import bucas_url

        d = Path(ck)
        pl = np.array([(q.cell, q.piece, q.rotation) for q in self.best_pl], np.int64)
        checkpoint.save(
            d,
            f"best{'' if self.job is None else self.job}",
            placements=pl,
            score=self.best_score,
            fingerprint=self.puzzle_fingerprint(),
        )
        atomic_write(d / f"best{'' if self.job is None else self.job}.url", bucas_url(self.p, self.best_pl) + "\n")
        self._saved_score = self.best_score
        if force or now - getattr(self, "_drawn_at", -1e9) >= BEST_EVERY_S:
            self._draw_best(d, now)

    def _draw_best(self, d: Path, now: float) -> None:
        """``best.svg``: the best board drawn, its mismatches in red."""
        from puzzles.files.outputs import atomic_write
        from puzzles.files.render import render_edge

        atomic_write(d / f"best{'' if self.job is None else self.job}.svg", render_edge(self.p, self.best_pl))
        self._drawn_at, self._drawn_score = now, self.best_score

    def puzzle_fingerprint(self) -> str:
        """Best boards resume under any options: only the puzzle must be the same."""
        fixed = sorted(tuple(f) for f in self.p.fixed)
        return hashlib.sha256(
            self.p.pieces.tobytes() + json.dumps([self.p.rows, self.p.cols, fixed]).encode()
        ).hexdigest()[:16]

    def _start_board(self):
        """The board of option ``start``: read, verified complete and legal, and scored by the verifier."""
        from puzzles.files import formats
        from puzzles.verify import verify

        path = self.o["start"]
        pl = formats.read_solution(self.p, path)
        rep = verify(self.p, pl, allow_mismatch=True)
        if not (rep.complete and rep.legal):
            why = "; ".join(rep.problems[:2]) or "not a full board"
            raise UsageError(f"{path}: option start: the board is not a full legal board of this puzzle ({why})")
        return pl, int(rep.score)

    def _load_best(self):
        """The best checkpointed board in the resume directory (any job's), or None."""
        d = Path(self.o["resume"])
        found = None
        for f in sorted(d.glob("best*.npz")):
            z = checkpoint.load(d, f.stem, self.puzzle_fingerprint())
            pl = [EdgePlacement(int(c), int(q), int(r)) for c, q, r in z["placements"]]
            if found is None or int(z["score"]) > found[1]:
                found = (pl, int(z["score"]))
        if found is None and not any(d.glob("frontier*.npz")):
            raise UsageError(f"resume: {d}: no snapshot there")
        return found
