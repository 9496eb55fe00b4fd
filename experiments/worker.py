"""Warm cell workers: processes that load the solvers once and then run cell after cell.

A fresh process per cell pays Python's start-up, the imports and the numba
kernels' loading every time (most of a small cell's time).  A ``WarmWorker``
keeps one child process (``python -m experiments.worker``) and sends it
cells one at a time; the child loads each solver on its first cell (that
cell's ``load_s``) and keeps it.  Isolation stays what it was:

* a wall-time limit per cell (the solver's limit x 1.5 + ``GRACE_S``): past
  it the child is killed and the cell recorded as ``limit``;
* a memory limit (RLIMIT_DATA, the cell's ``memory_mb``: the memory a process writes, heap and
  private mappings; not RLIMIT_AS, which also counts address space reserved and never touched, and
  which the JVM-based engines (Choco through GraalVM) cannot start under): a ``MemoryError`` is
  recorded as ``memout`` and the child replaced; so is a child that dies
  (``memout`` when its last words say so, else ``error`` with them);
* the child runs in a process group of its own (a Ctrl-C at the terminal goes
  to the runner, which stops its workers) and dies with the thread that
  started it (``PR_SET_PDEATHSIG``), so a runner killed with SIGKILL leaves
  no worker behind.

Protocol: one JSON spec a line on the child's stdin; one JSON row a line on
a private copy of its stdout (its fd 1 is pointed at stderr, so what a
solver prints cannot break the protocol).  ``run_cell`` runs a cell in the
calling thread's worker: a thread pool of N threads is a pool of N warm
processes, and a Dask worker thread keeps its own in the same way.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO

GRACE_S = 5.0  # time the solver has beyond its own limit before it is killed
# A limit on CPU time (``limit_clock = "cpu"``): the solver's own limit is this many times the CPU limit in wall
# time, so that on a loaded machine the CPU limit, checked after the solve, is the one that decides.
CPU_WALL_ALLOWANCE = 3.0
MEMOUT_WORDS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")
_PR_SET_PDEATHSIG = 1


def _child_setup(memory_mb: int, core: int | None = None):
    def apply() -> None:
        b = int(memory_mb) * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_DATA, (b, b))
        if core is not None:  # a worker to a core, where there are as many workers as cores
            os.sched_setaffinity(0, {core})
        try:  # die with the thread that started us (Linux); elsewhere the runner's cleanup does it
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass

    return apply


def _empty_row() -> dict:
    return {
        "status": "error",
        "wall_s": None,
        "cpu_s": None,
        "peak_mb": None,
        "nodes": None,
        "conflicts": None,
        "count": None,
        "best_score": None,
        "verified": None,
        "message": "",
        "load_s": None,
        "build_s": None,
        "search_s": None,
    }


class WarmWorker:
    """One warm child process; ``run(spec)`` never raises and always returns a row."""

    def __init__(self, core: int | None = None) -> None:
        self.core = core  # the core the child is pinned to, or None
        self.proc: subprocess.Popen | None = None
        self.memory_mb: int | None = None
        self.err: IO[bytes] | None = None  # the child's stderr, a file (read back when it dies)
        self.buf = b""

    # ------------------------------------------------------------ process
    def _start(self, memory_mb: int) -> None:
        self.err = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "experiments.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.err,
            env=os.environ.copy(),
            preexec_fn=_child_setup(memory_mb, self.core),
            start_new_session=True,
        )
        self.memory_mb, self.buf = memory_mb, b""

    def close(self) -> None:
        """Stop the child (it finishes no cell: only called between cells or to replace it)."""
        if self.proc is not None:
            try:  # the child leads its own process group: whatever it started (a plug-in's process) ends with it
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            for f in (self.proc.stdin, self.proc.stdout):
                try:
                    if f is not None:
                        f.close()
                except OSError:
                    pass
            self.proc = None
        err, self.err = self.err, None
        if err is not None:
            try:
                err.close()
            except (OSError, ValueError):  # closed at once from the worker's thread (Ctrl-C during its cell)
                pass

    def _pipes(self) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
        """The running child's stdin, stdout, and the stderr file."""
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        assert self.err is not None
        return self.proc.stdin, self.proc.stdout, self.err

    def _last_words(self) -> tuple[str, str]:
        _, _, err = self._pipes()
        err.seek(0)
        text = err.read().decode(errors="replace")
        lines = [ln for ln in text.strip().splitlines() if ln.strip()]
        return (lines or ["(no output)"])[-1][:300], text

    def _read_line(self, deadline: float) -> bytes | None:
        """The child's next protocol line; None at the deadline; b"" when the child is gone."""
        fd = self._pipes()[1].fileno()
        while b"\n" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b""
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line

    # ------------------------------------------------------------ one cell
    def run(self, spec: dict) -> dict:
        """Run one cell in the warm child process and return its row (a replaced child on a crash or limit)."""
        row = _empty_row()
        t0 = time.perf_counter()
        try:
            if self.proc is None or self.proc.poll() is not None or self.memory_mb != spec["memory_mb"]:
                self.close()
                self._start(spec["memory_mb"])
            allowance = CPU_WALL_ALLOWANCE if spec.get("limit_clock", "wall") == "cpu" else 1.0
            hard = float(spec["time_limit"]) * allowance * 1.5 + GRACE_S
            stdin, _, err = self._pipes()
            err.seek(0)  # shared with the child: it writes this cell's stderr from the start
            err.truncate()
            stdin.write((json.dumps(spec) + "\n").encode())
            stdin.flush()
            line = self._read_line(time.monotonic() + hard)
            if line is None:
                self.close()
                row.update(
                    status="limit",
                    wall_s=time.perf_counter() - t0,
                    message=f"killed at the hard wall-time limit ({hard:.0f} s)",
                )
                return row
            if not line:
                assert self.proc is not None
                code = self.proc.wait()
                tail, text = self._last_words()
                memout = any(w in text for w in MEMOUT_WORDS)
                how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
                self.close()
                row.update(
                    status="memout" if memout else "error",
                    wall_s=time.perf_counter() - t0,
                    message=f"worker {how}: {tail}",
                )
                return row
            row.update(json.loads(line))
            if row["status"] == "memout":  # a MemoryError leaves the heap in doubt: a new child next time
                self.close()
            return row
        except Exception as e:  # noqa: BLE001 - a cell must never take the run down
            self.close()
            row.update(message=f"runner: {type(e).__name__}: {e}", wall_s=time.perf_counter() - t0)
            return row


_local = threading.local()
_all: list[WarmWorker] = []
_all_lock = threading.Lock()
_pinned: list[int] = []  # the cores new workers are pinned to, in turn (empty: not pinned)


def pin_cores(jobs: int) -> None:
    """Pin each worker started from now on to a core of its own, where ``jobs`` is the number of cores this
    process may use (more than one); otherwise leave them to the scheduler.  Pinning keeps a cell's caches
    warm and two cells off one core."""
    try:
        mine = sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        mine = []
    _pinned[:] = mine if jobs > 1 and jobs == len(mine) else []


def run_cell(spec: dict) -> dict:
    """Run one cell in this thread's warm worker (started on first use); never raises."""
    w = getattr(_local, "worker", None)
    if w is None:
        with _all_lock:  # the core chosen and the worker counted at once: two threads never share a core
            w = _local.worker = WarmWorker(_pinned[len(_all) % len(_pinned)] if _pinned else None)
            _all.append(w)
    return w.run(spec)


def close_all() -> None:
    """Stop every worker this process started (the end of a run)."""
    with _all_lock:
        for w in _all:
            w.close()
        _all.clear()
    _local.__dict__.clear()


# ---------------------------------------------------------------- the child
def _peak_reset() -> None:
    try:  # Linux: reset the resident-set high-water mark, so VmHWM is this cell's peak
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _peak_mb() -> float:
    try:
        with open("/proc/self/status") as f:
            for ln in f:
                if ln.startswith("VmHWM:"):
                    return int(ln.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (forked solvers, outside binaries:
    each is waited for before a cell ends, so a cell's difference counts them)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _waited() -> float | None:
    """Seconds this process has waited on the run queue for a core (Linux's schedstat), or None."""
    try:
        with open("/proc/self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def _core() -> int | None:
    """The core this process last ran on (Linux), or None."""
    try:
        with open("/proc/self/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[36])
    except (OSError, IndexError, ValueError):
        return None


def _load() -> float | None:
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def over_cpu_limit(row: dict, cpu_s: float, limit: float, wall_s: float | None = None) -> None:
    """A cell whose limit is on CPU time: an answer that took more CPU than the limit is a limit (as benchexec
    counts it), and a solve its wall allowance stopped says so.  A solver that gave up on its own before the
    allowance (no estimate, a node limit) keeps its own reason alone."""
    import solving

    if cpu_s > limit and solving.answered(str(row.get("status"))):
        row["message"] = f"answered after {cpu_s:.2f} s of CPU, past the CPU limit of {limit:g} s; not counted"
        row.update(status="limit", count=None, best_score=None, verified=None)
    elif row.get("status") == "limit" and cpu_s <= limit and (wall_s is None or wall_s >= limit * CPU_WALL_ALLOWANCE):
        why = f"stopped at its wall allowance ({CPU_WALL_ALLOWANCE:g} x the limit) after {cpu_s:.2f} s of CPU"
        row["message"] = f"{why}: {row['message']}" if row.get("message") else why


def main() -> int:
    """A worker process's loop: read cells from stdin, write their rows to stdout."""
    proto = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # anything printed goes to stderr, never into the protocol
    from puzzles.files.formats import whole_numbers

    from .cell import solve_cell

    whole_numbers()  # a count of any size goes back to the runner exactly

    for line in sys.stdin:
        if not line.strip():
            continue
        spec = json.loads(line)
        _peak_reset()
        clock = spec.get("limit_clock", "wall")
        limit = float(spec["time_limit"])
        solve_spec = {**spec, "time_limit": limit * CPU_WALL_ALLOWANCE} if clock == "cpu" else spec
        load0, w0 = _load(), _waited()
        t0, c0 = time.perf_counter(), _cpu()
        row = solve_cell(solve_spec)
        row.update(wall_s=time.perf_counter() - t0, cpu_s=_cpu() - c0, peak_mb=_peak_mb())
        w1 = _waited()
        row.update(
            load_start=load0,
            load_end=_load(),
            wait_s=None if w0 is None or w1 is None else w1 - w0,
            cpu_core=_core(),
            cores_online=os.cpu_count(),
            limit_clock=clock,
        )
        if clock == "cpu":
            over_cpu_limit(row, row["cpu_s"], limit, row["wall_s"])
        _end_the_cells_processes()
        proto.write(json.dumps(row) + "\n")
    return 0


def _end_the_cells_processes() -> None:
    """Kill what the cell left running in this worker's process group (a plug-in's child, an engine's helper):
    a cell's processes end with the cell, never reparented to init to run on beside the next one."""
    me, group = os.getpid(), os.getpgid(0)
    try:
        pids = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    except OSError:  # no /proc: the runner's kill of the group at the end of the run does it
        return
    for pid in pids:
        if pid == me:
            continue
        try:
            if os.getpgid(pid) == group:
                os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
    while True:  # and the children of ours among them reaped, not left as zombies
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


if __name__ == "__main__":
    sys.exit(main())
