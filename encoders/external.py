"""`external`: any SAT solver binary on the CNF encodings of ``cnf.py``.

The CNF goes to a file in DIMACS; the command runs on it under the cell's time
limit (its process group killed at the deadline); its answer is read in the SAT
competition's format (``s SATISFIABLE`` / ``s UNSATISFIABLE``, ``v`` lines,
exit codes 10 and 20) or MiniSat's (a result file: ``SAT`` then the literals).
Modes count and all run the solver again with a blocking clause per model.

A command is first asked a trivial CNF (one variable, one clause): a command
that is missing, or that does not answer it as a SAT solver, is refused before
any work in one line that says what is missing and how to install it.  A
solver that crashes or prints nonsense on the puzzle is an ``error`` with the
tail of its stderr; a model it returns is decoded and verified like every
answer.
"""

from __future__ import annotations

import os
import resource
import shlex
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from typing_extensions import override

from puzzles.errors import Unavailable, UsageError
from puzzles.puzzle import CNF, EXACT_COVER
from solving import BuildLate, Evidence, Limits, Option, SolverBase, SolveResult, Status, enumerated
from solving.tally import BogusModel, Tally

from . import drat
from .solver import CnfOptions, check_cnf, decoded, encode, late, vouched

# name -> (argv with {cnf} and {out}, where to get it)
KNOWN = {
    "cadical": ("cadical -q {cnf}", "Debian: apt-get install cadical"),
    "kissat": ("kissat -q {cnf}", "PyPI's passagemath-kissat: pip install 'eternity[engines]'"),
    "picosat": ("picosat {cnf}", "Debian: apt-get install picosat"),
    "minisat": ("minisat -verb=0 {cnf} {out}", "Debian: apt-get install minisat"),
    "cryptominisat": ("cryptominisat5 --verb 0 {cnf}", "Debian: apt-get install cryptominisat"),
    "glucose": ("glucose -verb=0 -model {cnf}", "Debian: apt-get install glucose"),
}

# Known solvers that write a DRAT proof of an "unsatisfiable" when given a file name after the CNF
PROOF_ARG = {"cadical": "{proof}", "kissat": "{proof}"}

# A binary that a Python distribution ships inside its wheel (not on PATH): name -> distribution
WHEELS = {"kissat": "passagemath-kissat"}


@lru_cache(maxsize=32)
def locate(word: str) -> str | None:
    """The path of a program: on PATH, or else inside the wheel that ships it (Kissat comes from PyPI's
    passagemath-kissat, which puts the binary in its package data rather than on PATH)."""
    found = shutil.which(word)
    if found or word not in WHEELS:
        return found
    try:
        files = metadata.files(WHEELS[word]) or []
    except metadata.PackageNotFoundError:
        return None
    for f in files:
        if f.name == word and f.parent.name == "bin":
            path = Path(str(f.locate()))
            if path.is_file() and os.access(path, os.X_OK):
                return str(path)
    return None


def program(cmd: str) -> str:
    """The program a command runs, as written: a known name's binary, or a command line's first word."""
    try:
        words = shlex.split(KNOWN[cmd][0] if cmd in KNOWN else cmd)
    except ValueError as e:  # an open quote
        raise UsageError(f"solver external: cmd {cmd!r} is not a command line ({e})") from None
    return words[0] if words else ""


def argv_of(cmd: str, cnf: str, out: str, proof: str | None = None) -> list[str]:
    """The command line: a known name, or a command whose words may hold {cnf}, {out} and {proof} (else the
    CNF file goes last). A program named without a path is looked up by ``locate``.  ``proof``: where the
    command writes its DRAT proof (a known solver that can is given the file; a command line says where
    with {proof}); None: no proof asked, and a {proof} word is dropped."""
    words = shlex.split(KNOWN[cmd][0] if cmd in KNOWN else cmd)
    if not words:
        raise UsageError("solver external: cmd is empty")
    if not any("{cnf}" in w for w in words):
        words.append("{cnf}")
    if proof is not None and cmd in PROOF_ARG:
        words.append(PROOF_ARG[cmd])
    if "/" not in words[0]:
        words[0] = locate(words[0]) or words[0]
    if proof is None:
        words = [w for w in words if "{proof}" not in w]
    return [w.replace("{cnf}", cnf).replace("{out}", out).replace("{proof}", proof or "") for w in words]


def writes_proof(cmd: str) -> bool:
    """Whether the command writes a DRAT proof when asked: a known solver that can, or {proof} in the line."""
    return cmd in PROOF_ARG or "{proof}" in cmd


def parse_answer(stdout: str, out_file: str, code: int) -> tuple[bool | None, set[int]]:
    """(True: a model, False: unsatisfiable, None: no answer) and the true variables."""
    status = None
    lits: list[int] = []
    text = stdout
    if out_file and Path(out_file).is_file():  # MiniSat's result file
        text = stdout + "\n" + Path(out_file).read_text(errors="replace")
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("s "):
            word = s[2:].strip().upper()
            status = True if word == "SATISFIABLE" else False if word == "UNSATISFIABLE" else status
        elif s in ("SAT", "UNSAT"):
            status = s == "SAT"
        elif s.startswith("v ") or (status is True and s and s.lstrip("-").split(" ")[0].isdigit()):
            words = s.lstrip("v").split()
            if any(len(w) > 20 for w in words):  # not a variable: refused before int() reads it
                return None, set()
            try:
                lits.extend(int(w) for w in words)
            except ValueError:
                return None, set()
    if status is None and code in (10, 20):
        status = code == 10
    if status and not lits:
        return None, set()  # SATISFIABLE without a model is not an answer here
    return status, {x for x in lits if x > 0}


PROBE_S = 5.0  # a SAT solver answers a one-clause CNF in milliseconds; a command that does not is refused
MAX_OUTPUT = 256 * 2**20  # characters of stdout kept: a model of Eternity II's CNF is a few MB
STDERR_TAIL = 1 << 16  # characters of stderr kept (only its last line is shown)


def _drain(stream, keep: list[str], cap: int | None, over: threading.Event) -> None:
    """Read a pipe to its end: everything up to ``cap`` (then ``over`` is set and reading stops), or
    with ``cap`` None only its tail.  A command that prints without end (``yes``) can neither fill the
    memory nor hold the solve past its limit."""
    total = 0
    while chunk := stream.read(1 << 16):
        total += len(chunk)
        if cap is None:
            keep.append(chunk)
            if len(keep) > 2:
                keep[:] = ["".join(keep)[-STDERR_TAIL:]]
        elif total > cap:
            over.set()
            return
        else:
            keep.append(chunk)


PROOF_CAP = drat.MAX_PROOF_BYTES  # a proof file may grow to this; past it the solver is stopped (SIGXFSZ)


def _cap_files(pid: int) -> None:
    """Cap the files a running solver writes at PROOF_CAP (past it the kernel stops it with SIGXFSZ); set
    from outside (prlimit) rather than in a pre-exec hook, which is unsafe in a process with threads."""
    try:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (PROOF_CAP, PROOF_CAP))
    except OSError:  # it ended already (or may not be capped): nothing more to do
        pass


def run(
    cmd: str, dimacs: str, time_s: float | None, proof: list[bytes] | None = None
) -> tuple[bool | None, set[int], str]:
    """Run the solver on ``dimacs``; (answer, true variables, stderr tail). None: no answer in time.

    ``proof``: a list that receives the DRAT proof the command wrote for an "unsatisfiable" (the command
    writes it to a file capped at PROOF_CAP bytes; one that outgrows it ends with the answer None and the
    tail "proof too large")."""
    with tempfile.TemporaryDirectory(prefix="eternity-external-") as d:
        cnf, out, proof_file = os.path.join(d, "f.cnf"), os.path.join(d, "f.out"), os.path.join(d, "f.drat")
        Path(cnf).write_text(dimacs)
        argv = argv_of(cmd, cnf, out, proof_file if proof is not None else None)
        try:
            p = subprocess.Popen(
                argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                start_new_session=True, stdin=subprocess.DEVNULL,
            )  # fmt: skip
            if proof is not None:
                _cap_files(p.pid)
        except OSError as e:
            raise UsageError(f"solver external: cannot run {argv[0]!r} ({e.strerror})") from None
        outs: list[str] = []
        errs: list[str] = []
        over = threading.Event()
        readers = [
            threading.Thread(target=_drain, args=(p.stdout, outs, MAX_OUTPUT, over), daemon=True),
            threading.Thread(target=_drain, args=(p.stderr, errs, None, over), daemon=True),
        ]
        for t in readers:
            t.start()
        deadline = None if time_s is None else time.monotonic() + time_s
        stopped = False
        while p.poll() is None:
            if over.is_set() or (deadline is not None and time.monotonic() >= deadline):
                stopped = True
                break
            over.wait(0.05)
        _kill_group(p)  # also what it left running (a solver's own workers), whether it ended or not
        for t in readers:
            t.join(timeout=5)
        if over.is_set():
            return None, set(), f"it wrote more than {MAX_OUTPUT >> 20} MB without an answer"
        if stopped:
            return None, set(), ""
        if proof is not None and p.returncode == -signal.SIGXFSZ:
            return None, set(), "proof too large"
        answer, true = parse_answer("".join(outs), out, p.returncode)
        if answer is False and proof is not None and Path(proof_file).is_file():
            with open(proof_file, "rb") as f:
                proof.append(f.read(PROOF_CAP + 1))
        tail = ("".join(errs).strip().splitlines() or [""])[-1][:200]
        if answer is None:
            tail = tail or f"exit status {p.returncode}, no answer in SAT competition format"
        return answer, true, tail


def _kill_group(p: subprocess.Popen) -> None:
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    p.wait()


def installed() -> list[str]:
    """The known solvers whose binary is here (on PATH, or in the wheel that ships it)."""
    return [n for n in KNOWN if locate(program(n))]


@lru_cache(maxsize=32)
def probe(cmd: str) -> None:
    """Refuse, before any work, a command that is missing or does not answer a trivial CNF as a SAT solver."""
    name = program(cmd)
    if shutil.which(argv_of(cmd, "x", "y")[0]) is None:
        known = cmd if cmd in KNOWN else name if name in KNOWN else None
        how = f" ({KNOWN[known][1]})" if known else ""
        raise Unavailable(f"solver external: {name!r} is not installed or not on PATH{how}")
    answer, true, tail = run(cmd, "p cnf 1 1\n1 0\n", PROBE_S)
    if answer is not True or true != {1}:
        raise UsageError(
            f"solver external: {cmd!r} does not answer a one-clause CNF as a SAT solver "
            f"(expected 's SATISFIABLE' and 'v 1 0'){': ' + tail if tail else ''}"
        )


class ExternalOptions(CnfOptions):
    """The options of solver external (`eternity solvers NAME` lists them with their help)."""

    cmd = Option(
        str,
        "cadical",
        "a known solver (" + ", ".join(KNOWN) + ") or a command line; {cnf} "
        "stands for the CNF file (else it goes last), {out} for a result file",
    )
    certify = Option(
        bool,
        True,
        "have the solver write a DRAT proof (cadical, kissat, or {proof} in a command line) and check an "
        "unsatisfiable with it: checked, the answer is by certificate; without one it is the solver's claim",
    )


class External(SolverBase):
    """`external`: any SAT solver binary (DIMACS in, SAT competition output back) on the CNF encodings."""

    name = "external"
    TAKES = frozenset({EXACT_COVER, CNF})

    @override
    def engine(self) -> str:
        return program(self.opts.cmd).rsplit("/", 1)[-1]

    Options = ExternalOptions
    opts: ExternalOptions

    @override
    @classmethod
    def here(cls) -> str:
        found = installed()
        return (
            f"known solvers here: {', '.join(found) or 'none'} ("
            + "; ".join(f"{n} from PyPI's {d}" for n, d in WHEELS.items())
            + f"; Debian packages: {', '.join(n for n in KNOWN if n not in WHEELS)})"
        )

    @override
    def check(self, puzzle, mode: str) -> None:
        super().check(puzzle, mode)
        check_cnf(self, puzzle)
        probe(self.opts.cmd)

    @override
    def solve(self, puzzle, *, mode="first", limits: Limits | None = None, progress=None) -> SolveResult:
        self.check(puzzle, mode)
        limits = limits or Limits()
        t0 = time.perf_counter()
        deadline = None if limits.time_s is None else t0 + limits.time_s  # the build counts too
        try:
            built = encode(puzzle, self.opts.as_dict(), deadline)
        except BuildLate:
            return late(t0)
        enc = built.expanded()  # a CNF file: cardinality constraints as clauses
        head = f"p cnf {enc.n_vars} "
        body = "".join(" ".join(map(str, c)) + " 0\n" for c in enc.clauses + [[a] for a in enc.assumptions])
        n_clauses = len(enc.clauses) + len(enc.assumptions)
        build_s = time.perf_counter() - t0
        stats: dict[str, Any] = {
            "build_s": build_s,
            "vars": built.n_vars,
            "clauses": built.n_constraints + len(enc.assumptions),
            "literals": built.n_literals,
            "model": enc.model,
            "cmd": self.opts.cmd,
            "calls": 0,
        }
        want = limits.wanted(mode)
        solutions: list[list] = []
        blocked: list[list[int]] = []
        count, complete = 0, False
        tally = Tally(puzzle, enc.key)
        certify = self.opts.certify and writes_proof(self.opts.cmd)
        certificate = None
        t1 = time.perf_counter()
        while True:
            left = None if deadline is None else deadline - time.perf_counter()
            if left is not None and left <= 0:
                break
            extra = "".join(" ".join(map(str, c)) + " 0\n" for c in blocked)
            dimacs = head + f"{n_clauses + len(blocked)}\n" + body + extra
            proof: list[bytes] | None = [] if certify else None
            answer, true, tail = run(self.opts.cmd, dimacs, left, proof)
            stats["calls"] += 1
            if answer is None and tail == "proof too large":  # once more without one: the answer is a claim
                certify, proof = False, None
                stats["certificate"] = f"the proof outgrew {PROOF_CAP:,} bytes"
                left = None if deadline is None else deadline - time.perf_counter()
                answer, true, tail = run(self.opts.cmd, dimacs, left)
                stats["calls"] += 1
            if answer is None:
                if tail:  # it ended without an answer: a crash or nonsense
                    stats["time_s"] = time.perf_counter() - t1
                    return SolveResult(Status.ERROR, [], None, None, stats, f"external solver: {tail}")
                break  # the time limit
            if answer is False:
                complete = True
                if proof is not None:
                    certificate = self._certificate(enc, blocked, proof, stats, deadline)
                    if certificate is not None and certificate.late:  # not checked in time: the engine's claim
                        certificate = None
                    if certificate is not None and not certificate.ok:
                        stats["time_s"] = time.perf_counter() - t1
                        why = f"its proof of unsatisfiability does not check: {certificate.reason}"
                        return SolveResult(Status.ERROR, [], None, None, stats, f"external solver: {why}")
                break
            chosen = [v for v in enc.decision if v in true]
            count += 1
            if mode == "count":  # every model decoded and verified, none twice: the count is not its word
                try:
                    tally.add(decoded(puzzle, enc, chosen))
                except (BogusModel, IndexError, KeyError, ValueError) as e:
                    stats["time_s"] = time.perf_counter() - t1
                    return SolveResult(Status.ERROR, [], None, None, stats, f"external solver: {e}")
            elif want is None or len(solutions) < want:
                solutions.append(decoded(puzzle, enc, chosen))
            if want is not None and count >= want:
                break
            blocked.append(enc.blocking(chosen))
            if progress:
                progress({"solutions": count})
        stats["time_s"] = time.perf_counter() - t1 - stats.get("certificate_s", 0.0)  # the check is not the search
        res = enumerated(
            mode,
            complete=complete,
            solutions=solutions,
            count=count * enc.multiplier,
            stats=stats,
            wanted=None if want is None else want * enc.multiplier,
        )
        if res.status == Status.UNSAT and certificate is not None and certificate.ok:
            res.evidence = Evidence.CERTIFICATE.value
        return vouched(tally.stamp(res, self.engine(), certified=certificate is not None and certificate.ok), enc)

    @staticmethod
    def _certificate(enc, blocked: list[list[int]], proof: list[bytes], stats: dict, deadline: float | None):
        """The solver's DRAT proof checked against the CNF it was given, by ``deadline`` (None: it wrote none)."""
        if not proof or not proof[0]:
            stats["certificate"] = "the solver wrote no proof"
            return None
        return drat.certify(enc.clauses + [[a] for a in enc.assumptions] + blocked, proof[0], stats, deadline)
