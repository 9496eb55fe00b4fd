"""A hunt: an edge-matching board's best score searched for as long as it is let run, and no board lost.

Eternity II hunters run for days.  A hunt runs *slices*: one solve in mode best (the beam by default, any solver
with mode best and a ``seed`` option) of ``slice_s`` seconds with a seed of its own, ``jobs`` of them at once in
child processes, seed after seed, until its budget is spent or it is stopped.  Everything it knows lives in its
directory:

- ``hunt.json``: the puzzle, the solver and its options, the budget and the time spent, the seeds used (and
  those running when it was last stopped), the best score and its history, written whole at each change;
- ``best.sol.json`` and ``best.url``: the best board as a solution file and its e2.bucas.name link, written
  whole, after the independent verifier has scored it against a copy of the puzzle no solver held, *before*
  the live line says so: a SIGKILL right after a new best leaves that board on disk;
- ``slices/SEED/``: a running slice's checkpoint (the beam writes each of its new best boards there at once);
  the hunt polls it, and a hunt resumed after a kill takes the boards its killed slices left.

Run again on the same directory, a hunt resumes: the same puzzle and solver (refused otherwise), the seeds
used skipped, the budget left, the best board kept.  ``merge`` takes the best boards of several hunts (other
machines') into one, each verified again."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from puzzles.errors import InputError, UsageError

STATE = "hunt.json"
BEST = "best.sol.json"
POLL_S = 0.25
SAVE_EVERY_S = 5.0  # the time spent is written at least this often (a kill loses no more of the budget's count)


@dataclass
class Hunt:
    """What a hunt knows (``hunt.json``)."""

    puzzle: str  # the puzzle's name or file, as given
    digest: str  # the puzzle's hash: a resumed hunt must be on the same board
    solver: str = "beam"
    options: dict = field(default_factory=dict)
    slice_s: float = 600.0
    budget_s: float | None = None
    jobs: int = 1
    elapsed_s: float = 0.0
    next_seed: int = 0
    seeds: list[int] = field(default_factory=list)  # finished or taken over after a kill
    running: list[int] = field(default_factory=list)
    best_score: int | None = None
    best_seed: int | None = None
    history: list[list] = field(default_factory=list)  # [elapsed_s, score, seed]
    nodes: int = 0
    search_s: float = 0.0

    def as_dict(self) -> dict:
        """The record as ``hunt.json`` holds it."""
        return {"format": "eternity/hunt", "version": 1, **self.__dict__}


def parse_budget(text: str | None) -> float | None:
    """``12h``, ``90m``, ``45s`` or seconds; None or ``0`` for no budget (until stopped)."""
    if text is None or text in ("", "0", "none"):
        return None
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    t = text.strip().lower()
    try:
        v = float(t[:-1]) * units[t[-1]] if t[-1] in units else float(t)
    except (ValueError, IndexError):
        raise UsageError(f"hunt: --budget {text!r}: a time such as 12h, 90m, 600s or 600") from None
    if not v > 0 or v == float("inf"):
        raise UsageError(f"hunt: --budget {text!r}: a positive, finite time")
    return v


def load_state(d: Path) -> Hunt | None:
    """The hunt recorded in ``d`` (None when there is none yet); a file that is not a hunt's is refused."""
    f = d / STATE
    if not f.exists():
        return None
    try:
        doc = json.loads(f.read_text())
        if doc.pop("format", None) != "eternity/hunt":
            raise ValueError("not a hunt's record")
        doc.pop("version", None)
        return Hunt(**doc)
    except (ValueError, TypeError, OSError) as e:
        raise InputError(str(f), None, f"not a hunt's record ({e})") from None


def save_state(d: Path, h: Hunt) -> None:
    """The record written whole (write-then-rename)."""
    from puzzles.files.outputs import atomic_write

    atomic_write(d / STATE, json.dumps(h.as_dict(), indent=1) + "\n")


class Hunter:
    """The hunt's loop: slices in child processes, their boards polled, verified and kept."""

    def __init__(self, d: Path, puzzle, h: Hunt, say=None):
        self.d, self.p, self.h = d, puzzle, h
        self.say = say or (lambda line: None)
        self.children: dict[int, tuple[subprocess.Popen, float]] = {}
        self.seen: dict[int, float] = {}  # slice seed -> mtime of its best board last read
        self.stop = False
        self.t_mark = time.monotonic()
        self.saved_at = 0.0

    # -------------------------------------------------------------- boards
    def offer(self, placements, seed: int) -> bool:
        """A board from a slice: scored by the verifier on a copy of the puzzle; kept when it beats the best
        (the file first, then the record, then the line)."""
        import copy

        from puzzles.files import formats
        from puzzles.files.outputs import atomic_write
        from puzzles.kinds.edge import bucas_url
        from puzzles.verify import verify

        rep = verify(copy.deepcopy(self.p), placements, allow_mismatch=True)
        if not (rep.legal and rep.complete) or rep.score is None:
            self.say(f"hunt: seed {seed} gave a board the verifier rejects ({'; '.join(rep.problems[:2])}): ignored")
            return False
        if self.h.best_score is not None and rep.score <= self.h.best_score:
            return False
        atomic_write(self.d / BEST, json.dumps(formats.solution_to_dict(self.p, placements), indent=1) + "\n")
        atomic_write(self.d / "best.url", bucas_url(self.p, placements) + "\n")
        self.tick()
        self.h.best_score, self.h.best_seed = int(rep.score), seed
        self.h.history.append([round(self.h.elapsed_s, 1), int(rep.score), seed])
        save_state(self.d, self.h)
        self.line(new=True)
        return True

    def _poll_slice(self, seed: int) -> None:
        """A running (or killed) slice's checkpointed best board, read when it changed."""
        import numpy as np

        from puzzles.kinds.edge import EdgePlacement

        f = self.d / "slices" / str(seed) / "best.npz"
        try:
            mtime = f.stat().st_mtime
        except OSError:
            return
        if self.seen.get(seed) == mtime:
            return
        self.seen[seed] = mtime
        try:
            with np.load(f, allow_pickle=False) as z:
                pl = [EdgePlacement(int(c), int(q), int(r)) for c, q, r in z["placements"]]
        except (OSError, ValueError, KeyError, EOFError) as e:  # caught mid-write is impossible (atomic): damaged
            self.say(f"hunt: {f}: unreadable ({type(e).__name__}); skipped")
            return
        self.offer(pl, seed)

    # -------------------------------------------------------------- slices
    def _start(self, seed: int, seconds: float) -> None:
        import solving

        sdir = self.d / "slices" / str(seed)
        if sdir.exists():
            shutil.rmtree(sdir)
        sdir.mkdir(parents=True)
        argv = [sys.executable, "-m", "eternity", "solve", self.h.puzzle, "--solver", self.h.solver, "--mode",
                "best", "--time-limit", f"{seconds:.3f}", "--json", "-o", str(sdir / "out.json")]  # fmt: skip
        opts = {**self.h.options, "seed": seed}
        argv += [x for k, v in opts.items() for x in ("--opt", f"{k}={v}")]
        if "checkpoint" in getattr(solving.solver_class(self.h.solver), "OPTIONS", {}):
            argv += ["--checkpoint", str(sdir)]
        out = open(sdir / "stdout.json", "wb")
        err = open(sdir / "stderr.txt", "wb")
        proc = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent)
        out.close()
        err.close()
        self.children[seed] = (proc, time.monotonic())
        self.h.running = sorted(self.children)
        save_state(self.d, self.h)

    def _finish(self, seed: int, code: int | None) -> None:
        """A slice that ended: its last checkpointed board and its answer taken, its directory removed."""
        from puzzles.files import formats

        sdir = self.d / "slices" / str(seed)
        self._poll_slice(seed)
        out = sdir / "out.json"
        if out.exists():
            try:
                self.offer(formats.read_solution(self.p, out), seed)
            except (InputError, UsageError) as e:
                self.say(f"hunt: seed {seed}: its board could not be read ({e})")
        try:
            doc = json.loads((sdir / "stdout.json").read_text() or "{}")
            self.h.nodes += int((doc.get("measured") or {}).get("nodes") or doc.get("stats", {}).get("nodes") or 0)
            self.h.search_s += float(doc.get("search_s") or 0.0)
        except (OSError, ValueError, TypeError, AttributeError):
            pass
        if code not in (0, 3, None):
            tail = (sdir / "stderr.txt").read_text(errors="replace").strip().splitlines()[-1:] if sdir.exists() else []
            self.say(f"hunt: seed {seed} ended with exit {code}: {tail[0][:200] if tail else '(no message)'}")
        shutil.rmtree(sdir, ignore_errors=True)
        self.children.pop(seed, None)
        self.h.seeds.append(seed)
        self.h.running = sorted(self.children)
        save_state(self.d, self.h)

    def take_over(self) -> None:
        """After a kill: the boards the slices that were running left, then those slices counted as used."""
        for seed in list(self.h.running):
            self._finish(seed, None)
        self.h.running = []

    # -------------------------------------------------------------- the loop
    def tick(self) -> None:
        """Count the time spent since the last tick."""
        now = time.monotonic()
        self.h.elapsed_s += now - self.t_mark
        self.t_mark = now

    def left(self) -> float | None:
        """Seconds of the budget left (None: no budget)."""
        return None if self.h.budget_s is None else self.h.budget_s - self.h.elapsed_s

    def line(self, new: bool = False) -> None:
        """The live line: the best joins, mismatches, slices, the search's rate, the time spent."""
        h = self.h
        best = "-" if h.best_score is None else f"{h.best_score}/{self.p.n_joins}"
        mis = "" if h.best_score is None else f"  mismatches {self.p.n_joins - h.best_score}"
        rate = f"  {h.nodes / h.search_s:,.0f} nodes/s" if h.search_s > 0 and h.nodes else ""
        mark = " (new best)" if new else ""
        self.say(f"hunt: best {best}{mis}{mark}  slices {len(h.seeds)} done, {len(self.children)} running{rate}  "
                 f"elapsed {_hms(h.elapsed_s)}" + ("" if h.budget_s is None else f" of {_hms(h.budget_s)}"))  # fmt: skip

    def run(self) -> Hunt:
        """Slices until the budget is spent or ``stop`` is set (SIGTERM) or Ctrl-C; each slice's boards taken."""
        self.take_over()
        last_line = 0.0
        try:
            while not self.stop:
                self.tick()
                left = self.left()
                while not self.stop and len(self.children) < self.h.jobs and (left is None or left > 1.0):
                    seed = self.h.next_seed
                    self.h.next_seed += 1
                    self._start(seed, self.h.slice_s if left is None else min(self.h.slice_s, left))
                for seed, (proc, _) in list(self.children.items()):
                    code = proc.poll()
                    self._poll_slice(seed)
                    if code is not None:
                        self._finish(seed, code)
                if not self.children and left is not None and left <= 1.0:
                    break
                now = time.monotonic()
                if now - self.saved_at > SAVE_EVERY_S:
                    save_state(self.d, self.h)
                    self.saved_at = now
                if now - last_line > 15.0:
                    self.line()
                    last_line = now
                time.sleep(POLL_S)
        finally:
            for proc, _ in list(self.children.values()):
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)  # the beam writes its best board when interrupted
            for seed, (proc, _) in list(self.children.items()):
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                self._finish(seed, proc.returncode)
            self.tick()
            save_state(self.d, self.h)
        self.line()
        return self.h


def _die_with_parent() -> None:
    from solving.race import die_with_parent

    os.setsid()
    die_with_parent()


def _hms(s: float) -> str:
    s = int(s)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def merge(puzzle, dirs: list[Path], out: Path, say=print) -> int | None:
    """The best of several hunts' boards (other machines'), each verified again, into ``out`` (a hunt
    directory: its best board and record are replaced only by a better board).  Returns the best score."""
    from puzzles.files import formats

    digest = formats.puzzle_hash(puzzle)
    out.mkdir(parents=True, exist_ok=True)
    h = load_state(out) or Hunt(puzzle=puzzle.name, digest=digest)
    if h.digest != digest:
        raise InputError(str(out / STATE), "digest", "a hunt of another puzzle")
    hunter = Hunter(out, puzzle, h, say)
    for d in dirs:
        f = d / BEST
        if not f.exists():
            raise InputError(str(d), None, f"no {BEST} there (not a hunt's directory, or a hunt with no board yet)")
        other = load_state(d)
        if other is not None and other.digest != digest:
            raise InputError(str(d / STATE), "digest", "a hunt of another puzzle")
        hunter.offer(formats.read_solution(puzzle, f), -1)
    save_state(out, h)
    return h.best_score


def describe(h: Hunt, n_joins: int) -> dict[str, Any]:
    """The hunt's record as the command line prints it with --json."""
    return {**h.as_dict(), "n_joins": n_joins, "mismatches": None if h.best_score is None else n_joins - h.best_score}
