"""One search across a Dask cluster: a solver's tree cut into parts, the parts run as tasks, a ledger of
what is done.

For a solver that splits (``CAN_SPLIT``: `backtrack`, `edge-backtrack`, `cube`), in modes first and count,
and in mode best for `edge-backtrack`: the best score so far is a Dask ``Variable`` on the scheduler, which
the client raises as parts report better boards and every part reads at its start and twice a second
(``Limits.incumbent``), so that its branch and bound prunes with the global incumbent; the final board is
the best of all parts, verified.  The parts of mode best have exact prefixes (the cut's cells match), so
its optimum is the best board whose first cells match, and the whole search ends at the time limit (each
part is given what is left of it) with the best board found by then.
The cut is the solver's own (``split_parts`` / ``part_options``): the first levels of its search filled
each possible way, each part an independent search.  The depth is the shallowest that gives every
worker ``PARTS_PER_WORKER`` parts or more, so that no worker holds the last part alone for long.

The ledger is a SQLite file (``ledger.sqlite`` in the checkpoint directory): the cut and, per part, its
answer.  A part is written once (its row is the proof that it is counted), so a worker killed mid-task
(Dask runs its task again elsewhere) or a client killed and resumed (``--resume``: the parts in the
ledger are not run again) never counts a part twice.  A first solution cancels the other parts.  Each
part's answer goes through the verifier on its worker (``solving.solve_verified``); the caller verifies
the final answer against the whole puzzle.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import solving
from experiments.cluster.dask_cluster import connect
from puzzles.errors import InputError, UsageError
from puzzles.puzzle import EDGES
from solving import Limits, SolveResult, Status
from solving.extras import require
from solving.portfolio import Portfolio

# Each part costs a Dask round trip: about 8 ms of its worker's time between parts and as much of the
# scheduler's, which on a small cluster shares the workers' cores.  Parts of a tenth of a second make
# that a tenth of the search (a 7x7 count on two workers, `benchmarks/bench_cluster.py`: 193 parts at
# 16 a worker, 1.76x one worker's rate; 28 parts at 8 a worker, 1.80x and 1.83x in two runs); the parts
# that hold too much are cut again while they run.
PARTS_PER_WORKER = 8
MAX_DEPTH = 64
LEDGER = "ledger.sqlite"


def cut_depth(solver, puzzle, workers: int, at_least: int | None = None) -> tuple[int, int]:
    """(depth, parts): the shallowest cut with at least ``at_least`` parts (default: PARTS_PER_WORKER a
    worker), or the deepest tried when the tree is too narrow for that."""
    want = at_least if at_least is not None else PARTS_PER_WORKER * max(1, workers)
    depth, n = 1, solver.split_parts(puzzle, 1)
    while n < want and depth < MAX_DEPTH:
        nxt = solver.split_parts(puzzle, depth + 1)
        if nxt <= n and nxt < want and depth > 4:  # the cut no longer widens
            break
        depth, n = depth + 1, nxt
    return depth, n


def shared_score(name: str):
    """A reader of the shared incumbent (the Dask ``Variable`` ``name``), for ``Limits.incumbent``: the best
    score reported so far, or None when none is or the scheduler does not answer at once."""
    from dask.distributed import Variable

    var = Variable(name)

    def ask() -> int | None:
        try:
            score = var.get(timeout=2.0)
        except Exception:  # the scheduler is slow or gone: search on with the bound it has
            return None
        return None if score is None or score < 0 else int(score)

    return ask


def run_part(
    puzzle_doc: dict,
    name: str,
    options: dict,
    mode: str,
    time_s: float | None,
    incumbent: str | None = None,
    until: float | None = None,
) -> dict:
    """One part on a worker: the solver with the part's options, its answer verified.  Mode best:
    ``incumbent`` names the shared best score, ``until`` the wall-clock time (``time.time``) at which
    the whole search ends."""
    from puzzles.files.formats import puzzle_from_dict, solution_to_dict

    puzzle = puzzle_from_dict(puzzle_doc)
    solver = solving.get(name, options)
    t0 = time.perf_counter()
    if until is not None:
        left = until - time.time()
        time_s = left if time_s is None else min(time_s, left)
        if time_s <= 0:
            return {"status": Status.LIMIT.value, "count": None, "solution": None, "verified": None, "nodes": 0,
                    "seconds": 0.0, "message": "the search's time was up before this part began", "score": None}  # fmt: skip
    ask = shared_score(incumbent) if incumbent else None
    res, verified = solving.solve_verified(solver, puzzle, mode, Limits(time_s=time_s, incumbent=ask))
    sol = solution_to_dict(puzzle, res.solutions[0]) if res.solutions else None  # as a solution file holds it
    return {"status": res.status.value, "count": res.count, "solution": sol, "verified": verified,
            "nodes": res.measured.nodes or 0, "seconds": time.perf_counter() - t0,
            "message": res.message, "score": res.best_score}  # fmt: skip


RECUT_S = 60.0  # a part that has run this long is cut again (its children one cell deeper run instead)
RECUT_LEVELS = 4  # at most this many cells below the cut's own depth; deeper parts run without a budget
RECUT_MIN_NODES = 10_000  # a part stopped before this much search (its set-up took the budget) is not cut again
RECUT = "recut"  # a ledger row of a part that was cut again: its children stand for it


def part_key(base: int, depth: int, index: int) -> int:
    """A part's key in the ledger: its index at the cut's own depth, else the depth above it in the high
    bits (a ledger written before re-cutting holds plain indices, and still resumes)."""
    return index if depth == base else (depth << 32) | index


def key_depth(base: int, key: int) -> tuple[int, int]:
    """(depth, index) of a part's key (``part_key``)."""
    return (base, key) if key < (1 << 32) else (key >> 32, key & 0xFFFFFFFF)


def open_parts(base_parts, done: dict, children) -> list[int]:
    """The parts still to run: the cut's parts not in the ledger and, for each part cut again, its
    children not in it, all the way down."""
    out, stack = [], list(base_parts)[::-1]
    while stack:
        key = stack.pop()
        row = done.get(key)
        if row is None:
            out.append(key)
        elif row["status"] == RECUT:
            stack.extend(children(key)[::-1])
    return out


class _Work:
    """What the collection needs to cut a part again: the submit function, the children of a part
    (None: no re-cutting), the time budget of a part, and the parts still open."""

    def __init__(self, submit, children, recut_s, open_keys: set[int]):
        self.submit, self.children, self.recut_s, self.open = submit, children, recut_s, open_keys
        self.recuts = 0


class Ledger:
    """The ledger of one distributed search: the cut (meta) and each part's answer, written once.

    Each part's row is sealed: a SHA-256 of the search's fingerprint and of the row (``seal``), so a ledger
    edited by hand (a count changed, a part added) is refused on resume instead of summed into the answer.
    A count that rests on parts read back from a ledger says so (evidence ``file``)."""

    @staticmethod
    def refusal(directory: str | Path, resume: bool) -> None:
        """Refuse, before any cluster starts, a directory that cannot hold or does not hold a ledger."""
        d = Path(directory)
        if d.exists() and not d.is_dir():
            raise UsageError(f"{'--resume' if resume else '--checkpoint'} {d}: not a directory")
        path = d / LEDGER
        if path.exists() and not resume:
            raise UsageError(f"{path}: a ledger is there already (--resume {d} continues it)")
        if resume and not path.exists():
            raise UsageError(f"--resume {d}: no ledger there ({LEDGER})")
        if path.exists():
            _check_ledger_file(path)

    def __init__(self, directory: str | Path, fingerprint: dict, resume: bool, depth: int | None = None):
        d = Path(directory)
        self.refusal(d, resume)
        self.path = d / LEDGER
        existed = self.path.exists()
        d.mkdir(parents=True, exist_ok=True)  # only once the request is known good: a refusal leaves nothing
        self.db = sqlite3.connect(self.path)
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS parts (part INTEGER PRIMARY KEY, status TEXT, count TEXT, "
            "nodes INTEGER, seconds REAL, solution TEXT, score INTEGER, seal TEXT)"
        )
        have = {r[1] for r in self.db.execute("PRAGMA table_info(parts)")}
        if existed and "seal" not in have:
            raise InputError(str(self.path), "parts", "written before ledgers were sealed: start the search afresh")
        got = dict(self.db.execute("SELECT key, value FROM meta"))
        if got:
            was = json.loads(got["fingerprint"])
            if was != fingerprint:
                diff = sorted(k for k in set(was) | set(fingerprint) if was.get(k) != fingerprint.get(k))
                said = "; ".join(f"{k}: {was.get(k)!r} there, {fingerprint.get(k)!r} here" for k in diff)
                raise UsageError(f"--resume {d}: the ledger is of another search ({said})")
        else:
            self.db.execute("INSERT INTO meta VALUES ('fingerprint', ?)", (json.dumps(fingerprint, sort_keys=True),))
            self.db.commit()
        self.fingerprint = fingerprint
        was_depth = self.depth()
        if resume and depth is not None and was_depth is not None and depth != was_depth:
            raise UsageError(
                f"--resume {d}: the search was cut at depth {was_depth}; --split-depth {depth} cannot change "
                "it (drop --split-depth, or start afresh in another directory)"
            )

    def _seal(self, part: int, values: tuple) -> str:
        text = json.dumps([self.fingerprint, part, *values], sort_keys=True, default=str)
        return hashlib.sha256(("eternity/ledger/1 " + text).encode()).hexdigest()

    def depth(self) -> int | None:
        """The depth of the cut this ledger was written for, or None before the first run."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'depth'").fetchone()
        return None if row is None else int(row[0])

    def keep_depth(self, depth: int) -> None:
        """Record that the parts are cut at ``depth``: a resume with another depth is refused."""
        self.db.execute("INSERT OR IGNORE INTO meta VALUES ('depth', ?)", (str(depth),))
        self.db.commit()

    def done(self) -> dict[int, dict]:
        """The parts answered so far, each checked against its seal (``InputError`` names an edited one)."""
        try:
            rows = self.db.execute(
                "SELECT part, status, count, nodes, seconds, solution, score, seal FROM parts"
            ).fetchall()
        except sqlite3.DatabaseError as e:
            raise InputError(str(self.path), None, f"a damaged ledger ({e})") from None
        out = {}
        for part, status, count, nodes, seconds, solution, score, seal in rows:
            if seal != self._seal(part, (status, count, nodes, seconds, solution, score)):
                raise InputError(
                    str(self.path), f"parts.{part}", "does not match its seal: the ledger was edited or damaged, "
                    "so its counts cannot be trusted (start the search afresh)"
                )  # fmt: skip
            try:
                out[part] = {"status": status, "count": None if count is None else int(count), "nodes": nodes,
                             "seconds": seconds, "solution": None if solution is None else json.loads(solution),
                             "score": score}  # fmt: skip
            except (ValueError, TypeError):
                raise InputError(str(self.path), f"parts.{part}", "not a part's answer") from None
        return out

    def record(self, part: int, row: dict) -> bool:
        """Write a part's answer once, sealed; False when it was there already (a task run twice)."""
        values = (row["status"], None if row["count"] is None else str(row["count"]), row["nodes"], row["seconds"],
                  None if row["solution"] is None else json.dumps(row["solution"]), row.get("score"))  # fmt: skip
        cur = self.db.execute(
            "INSERT OR IGNORE INTO parts VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (part, *values, self._seal(part, values))
        )
        self.db.commit()
        return cur.rowcount == 1

    def close(self) -> None:
        """Close the ledger's database."""
        self.db.close()


def _check_ledger_file(path: Path) -> None:
    """Refuse, untouched, a ledger file that is not an SQLite ledger (garbage, another database)."""
    with open(path, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise InputError(str(path), None, "not a ledger (not an SQLite file)")
    from urllib.parse import quote

    con = sqlite3.connect(f"file:{quote(str(path.absolute()))}?mode=ro", uri=True)  # a path, never read as a URI
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as e:
        raise InputError(str(path), None, f"a damaged ledger ({e})") from None
    finally:
        con.close()
    if not {"meta", "parts"} <= tables:
        raise InputError(str(path), None, "an SQLite file, but not a ledger of a distributed search")


def distributed_solve(
    puzzle,
    name: str,
    options: dict[str, Any],
    mode: str,
    limits: Limits,
    *,
    scheduler: str | None = None,
    workers: int = 2,
    ledger_dir: str | None = None,
    resume: bool = False,
    depth: int | None = None,
    progress: Callable[[dict], None] | None = None,
    client=None,
    recut_s: float | None = RECUT_S,
) -> SolveResult:
    """Modes first and count of a splitting solver, and mode best of edge-backtrack, its parts as Dask tasks
    (module docstring).  ``recut_s``: a part of a solver that can cut it again (``part_children``) that has
    run this long is stopped and its children one cell deeper are run in its place (None: never)."""
    from puzzles.files.formats import puzzle_hash, puzzle_to_dict

    if client is None:
        require("cluster", "--executor dask")
    if name == "portfolio":
        if ledger_dir:
            raise UsageError("--executor dask: a portfolio's members are whole searches, with no parts to record "
                             "(drop --checkpoint / --resume)")  # fmt: skip
        return _portfolio(puzzle, options, mode, limits, scheduler, workers, progress, client)
    if name == "beam" and EDGES not in puzzle.features and mode == "first":
        if ledger_dir:
            raise UsageError("--executor dask: the beam keeps its frontier with --opt checkpoint=DIR, not a ledger")
        from experiments.cluster.beam_cluster import cluster_beam

        return cluster_beam(
            puzzle, options, limits, scheduler=scheduler, workers=workers, progress=progress, client=client
        )
    cls = solving.solver_class(name)
    if not getattr(cls, "CAN_SPLIT", False):
        can = ", ".join(n for n in solving.registry.own() if getattr(solving.solver_class(n), "CAN_SPLIT", False))
        raise UsageError(f"--executor dask: solver {name} cannot split its search (these can: {can})")
    if mode not in ("first", "count") and not (mode == "best" and "best" in getattr(cls, "MODES", ())):
        raise UsageError(
            f"--executor dask: mode {mode} of {name} is not split (modes first and count are, and best for "
            "edge-backtrack)"
        )
    solver = solving.get(name, options)
    solver.check(puzzle, mode)
    if ledger_dir:
        Ledger.refusal(ledger_dir, resume)  # before a cluster starts: a bad directory is one line at once
    t0 = time.perf_counter()
    own = client is None
    cluster = None
    if own:
        client, cluster = connect(scheduler, workers)
    ledger = None
    try:
        n_workers = max(1, len(client.scheduler_info().get("workers", {})) or workers)
        fingerprint = {"puzzle": puzzle_hash(puzzle), "solver": name, "options": options, "mode": mode}
        if ledger_dir:
            ledger = Ledger(ledger_dir, fingerprint, resume, depth)
            depth = ledger.depth() or depth  # a resumed search keeps its cut
        if depth is None:
            depth, n_parts = cut_depth(solver, puzzle, n_workers)
        else:
            n_parts = solver.split_parts(puzzle, depth)
        if ledger is not None:
            ledger.keep_depth(depth)
        done = ledger.done() if ledger is not None else {}
        doc = puzzle_to_dict(puzzle)
        deadline = None if limits.time_s is None else t0 + limits.time_s
        part_children = getattr(solver, "part_children", None)  # a solver that can cut a part again
        recut = recut_s if recut_s and mode in ("first", "count") and part_children else None

        def children(key: int) -> list[int]:
            d, i = key_depth(depth, key)
            assert part_children is not None
            return [part_key(depth, d + 1, j) for j in part_children(puzzle, d, i)]

        todo = open_parts(range(n_parts), done, children)
        t0 = time.perf_counter()  # the clock of the search itself: the cluster is up and the cut is made
        shared, until = None, None
        if mode == "best":
            from dask.distributed import Variable

            shared = Variable(f"incumbent-{id(puzzle)}-{t0}", client=client)
            scores = [r["score"] for r in done.values() if r.get("score") is not None]
            # set before any part asks (a get that waits for a first value is logged as an error by the
            # scheduler when it times out); a resumed search starts from the best board in its ledger
            shared.set(max(scores, default=-1))
            until = None if deadline is None else time.time() + (deadline - time.perf_counter())
        futures: dict = {}

        def submit(key: int, budget: bool = True):
            d, i = key_depth(depth, key)
            opts = {**options, **solver.part_options(d, i)}
            time_s = limits.time_s
            if budget and recut is not None:
                time_s = recut if time_s is None else min(time_s, recut)
            fut = client.submit(run_part, doc, name, opts, mode, time_s, None if shared is None else shared.name,
                                until, key=f"part-{d}-{i}-{id(puzzle)}-{t0}", pure=False, retries=3)  # fmt: skip
            futures[fut] = key
            return fut

        for key in todo:
            submit(key)
        work = _Work(submit, children if recut is not None else None, recut, set(todo))
        res = _gather(futures, done, ledger, mode, depth, n_parts, deadline, progress, t0, n_workers, shared, work)
        res.evidence = solving.evidence_of(solver, res, mode)
        if done and res.evidence not in (None, solving.Evidence.VERIFIED):  # parts read back from the ledger
            res.evidence = solving.Evidence.FILE.value
        if res.solutions:  # a solution file's placements, back to the puzzle's own
            from puzzles.files.formats import solution_from_dict

            res.solutions = [solution_from_dict(puzzle, res.solutions[0])]
        return res
    finally:
        if ledger is not None:
            ledger.close()
        if own:
            client.close()
            if cluster is not None:
                cluster.close()


def _gather(futures, done, ledger, mode, depth, n_parts, deadline, progress, t0, n_workers, shared=None,
            work=None) -> SolveResult:  # fmt: skip
    """Collect the parts as they finish; a first solution, or the deadline, cancels the rest.  Mode best:
    every part runs to its end (the parts end by the deadline themselves) and a better board raises the
    shared incumbent.  A lost scheduler ends the collection with status limit: the ledger keeps what was
    done."""
    from concurrent.futures import CancelledError

    from dask.distributed import as_completed

    answers = dict(done)
    resumed = len(done)
    nodes = sum(int(r.get("nodes") or 0) for r in done.values())
    solution = next((r["solution"] for r in done.values() if r.get("solution")), None)
    best = max((r for r in done.values() if r.get("score") is not None), key=lambda r: r["score"], default=None)
    last = 0.0
    stats: dict[str, Any] = {"depth": depth, "parts": n_parts, "workers": n_workers, "resumed_parts": resumed,
                             "repeated_parts": 0}  # fmt: skip
    pending = as_completed(list(futures), with_results=False)
    stopped = None
    lost = None
    try:
        if not (mode == "first" and solution is not None):
            for fut in pending:
                i = futures[fut]
                row = fut.result()
                now = time.perf_counter()
                if (work is not None and work.children is not None and row["status"] == Status.LIMIT.value
                        and (deadline is None or now < deadline) and row["seconds"] >= 0.9 * work.recut_s):  # fmt: skip
                    # a big part: stop it and run its children one cell deeper in its place
                    shallow = key_depth(depth, i)[0] < depth + RECUT_LEVELS and row["nodes"] >= RECUT_MIN_NODES
                    kids = work.children(i) if shallow else []
                    if ledger is None or ledger.record(i, {**row, "status": RECUT, "count": None, "solution": None}):
                        nodes += row["nodes"]
                    work.open.discard(i)
                    if kids:
                        work.recuts += 1
                        for k in kids:
                            work.open.add(k)
                            pending.add(work.submit(k))
                    else:  # nothing deeper to cut on: the part runs again without a budget
                        work.open.add(i)
                        pending.add(work.submit(i, budget=False))
                    continue
                if work is not None:
                    work.open.discard(i)
                if ledger is None or ledger.record(i, row):
                    answers[i] = row
                    nodes += row["nodes"]
                else:
                    stats["repeated_parts"] += 1
                if row["status"] == Status.ERROR.value:
                    stopped = f"part {i}: {row['message']}"
                    break
                if mode == "first" and row["solution"]:
                    solution = row["solution"]
                    break
                if mode == "best" and row.get("score") is not None and (best is None or row["score"] > best["score"]):
                    best = row
                    shared.set(row["score"])
                if progress and now - last >= 0.5:
                    last = now
                    left = len(work.open) if work is not None else n_parts - len(answers)
                    rate = (len(answers) - resumed) / max(now - t0, 1e-9)
                    progress({"parts_done": len(answers), "parts_left": left, "placements_per_s": round(nodes / max(now - t0, 1e-9)),
                              "eta_s": round(left / rate, 1) if rate > 0 else None}
                             | ({"best_score": best["score"]} if best is not None else {}))  # fmt: skip
                if deadline is not None and now >= deadline and mode != "best":
                    stopped = "limit"
                    break
    except (OSError, CancelledError) as e:  # the scheduler is gone: a comm error, or its futures cancelled
        lost = f"{type(e).__name__}: {str(e)[:120]}"
    if lost is None:
        for fut in futures:
            if not fut.done():
                fut.cancel()
    took = time.perf_counter() - t0
    stats.update(nodes=nodes, time_s=took, parts_done=len(answers), placements_per_s=round(nodes / max(took, 1e-9)))
    answers = {k: r for k, r in answers.items() if r["status"] != RECUT}  # a part cut again: its children count
    if work is not None:
        stats["recuts"] = work.recuts
        n_parts = len(answers) + len(work.open)  # the parts of the cut as it stands, re-cut parts replaced
        stats.update(parts=n_parts, parts_done=len(answers))
    if lost is not None:  # what the ledger holds stays; a restarted scheduler and --resume go on from it
        return SolveResult(Status.LIMIT, [], None, None, stats,
                           f"the Dask scheduler was lost after {len(answers)} of {n_parts} parts ({lost}); "
                           "start it again and rerun with --resume on the checkpoint directory")  # fmt: skip
    if stopped and stopped != "limit":
        return SolveResult(Status.ERROR, [], None, None, stats, stopped)
    if mode == "best":
        finished = len(answers) == n_parts and all(solving.answered(r["status"]) for r in answers.values())
        stats["proven"] = finished  # the best board whose cut cells match, when every part finished
        if best is None:
            return SolveResult(Status.UNSAT if finished else Status.LIMIT, [], None, None, stats)
        stats["part_scores"] = sorted(
            (r["score"] for r in answers.values() if r.get("score") is not None), reverse=True
        )
        return SolveResult(Status.SOLVED, [best["solution"]], None, best["score"], stats, optimal=False)
    if mode == "first":
        if solution is not None:
            return SolveResult(Status.SOLVED, [solution], None, None, stats)
        complete = len(answers) == n_parts and all(r["status"] == Status.UNSAT.value for r in answers.values())
        return SolveResult(Status.UNSAT if complete else Status.LIMIT, [], None, None, stats)
    answered = [r for r in answers.values() if solving.answered(r["status"])]
    total = sum(int(r["count"] or 0) for r in answered)
    if len(answered) == n_parts:
        return SolveResult(Status.SOLVED if total else Status.UNSAT, [], total, None, stats)
    return SolveResult(Status.LIMIT, [], total, None, stats, f"{len(answered)} of {n_parts} parts counted")


def _portfolio(puzzle, options, mode, limits, scheduler, workers, progress, client) -> SolveResult:
    """A portfolio across the cluster: each member one Dask task (a worker killed has it run again
    elsewhere), the first verified answer wins and cancels the rest; in mode best every member runs to
    the limit and the best board wins."""
    from dask.distributed import as_completed

    from puzzles.files.formats import puzzle_to_dict, solution_from_dict

    port = solving.get("portfolio", options)
    assert isinstance(port, Portfolio)
    port.check(puzzle, mode)
    members = port.members(puzzle)
    own = client is None
    cluster = None
    if own:
        client, cluster = connect(scheduler, workers)
    try:
        doc = puzzle_to_dict(puzzle)
        t0 = time.perf_counter()
        futures = {}
        for k, (member, opts) in enumerate(members):
            fut = client.submit(run_part, doc, member, opts, mode, limits.time_s, key=f"member-{k}-{id(puzzle)}-{t0}",
                                pure=False, retries=3)  # fmt: skip
            futures[fut] = (k, member, opts)
        label = {k: member + (":" + ",".join(f"{a}={b}" for a, b in opts.items()) if opts else "")
                 for k, member, opts in futures.values()}  # fmt: skip
        won, rows = None, {}
        for fut in as_completed(list(futures)):
            k = futures[fut][0]
            row = rows[k] = fut.result()
            if progress:
                progress(
                    {"members_done": len(rows), "members": len(members), "last": label[k], "status": row["status"]}
                )
            if mode == "best":
                if row.get("score") is not None and (won is None or row["score"] > rows[won]["score"]):
                    won = k
                continue
            if solving.answered(row["status"]):
                won = k
                break
        for fut in futures:
            if not fut.done():
                fut.cancel()
        stats: dict[str, Any] = {"time_s": time.perf_counter() - t0, "members": [label[k] for k in sorted(label)],
                                 "workers": max(1, len(client.scheduler_info().get("workers", {})))}  # fmt: skip
        errors = [f"{label[k]}: {r['message']}" for k, r in rows.items() if r["status"] == Status.ERROR.value]
        if won is None:
            status = Status.ERROR if errors and len(errors) == len(rows) == len(members) else Status.LIMIT
            return SolveResult(status, [], None, None, stats, "; ".join(errors))
        row = rows[won]
        stats["member"] = label[won]
        sols = [solution_from_dict(puzzle, row["solution"])] if row["solution"] else []
        return SolveResult(Status(row["status"]), sols, row["count"], row.get("score"), stats)
    finally:
        if own:
            client.close()
            if cluster is not None:
                cluster.close()
