"""`eternity run CONFIG`: materialise instances, expand cells, run, store.

Instances are generated reproducibly from the config seed, stored once, and
each (instance, solver configuration, repeat) cell runs isolated in a warm
worker process (``worker.run_cell``): ``jobs`` of them on the local
executor, one per Dask worker on a cluster.  Cells already in the store are
skipped.
"""

from __future__ import annotations

import collections
import contextlib
import hashlib
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import solving
from experiments.crosscheck import ANSWERED_VALUES, _planted_refuted, disagreements  # noqa: F401
from puzzles.errors import InputError, Unavailable, UsageError
from puzzles.files.formats import puzzle_to_dict
from solving.extras import require

from .config import Config, config_from_dict, config_label, load_config
from .store import MACHINE, Store
from .worker import close_all, pin_cores, run_cell


@dataclass
class Instance:
    """One instance of a run: its id (the puzzle's hash), family, name, kind, parameters and puzzle file."""

    id: str
    family: str
    name: str
    kind: str
    params: dict
    puzzle: dict


# what a worker's row gives the store, besides the cell's own fields
ROW_FIELDS = (
    "status wall_s cpu_s peak_mb nodes conflicts count best_score message load_s build_s search_s optimal "
    "evidence engine_stats".split()
) + MACHINE


def classify(puzzle) -> tuple[float | None, str | None]:
    """Owen's expected number of solutions and the class, when the model is available."""
    from puzzles.estimates import estimate

    try:
        return estimate.classify(puzzle)
    except ValueError:  # a puzzle the model does not cover (polyforms, queens)
        return None, None


def materialise(cfg: Config, on_sample=None, known: dict | None = None) -> list[Instance]:
    """The config's instances, family by family (``experiments.families``); ``on_sample`` and
    ``known``: progress and stored states of the sampled families (``ExcessFamily.puzzles``)."""
    out = []
    for fam in cfg.families:
        for p, params in fam.puzzles(cfg.seed, on_sample, known):
            if p is None:  # a stored instance, reused as it is
                out.append(Instance(**params))
                continue
            out.append(Instance(fam.instance_id(p, params), fam.name, p.name, p.kind, params, puzzle_to_dict(p)))
    return out


def versions(solver: str | None = None, options: dict | None = None) -> str:
    """The versions a result was made with (Python, numpy, numba, eternity, the machine, the engines of its
    configuration: ``experiments.provenance``), stored beside it."""
    from .provenance import versions as made_with

    return made_with(solver, options)


def default_jobs() -> int:
    """Cells at a time when none is asked: every core but one, left to the runner and the machine (on a
    machine with other work, a cell that waits for a core measures the wait, and the tables flag it)."""
    return max(1, (os.cpu_count() or 1) - 1)


def how_it_measures(jobs: int, executor: str) -> str:
    """The run's first line: how many cells at a time on how many cores, and what each cell's times are."""
    cores = os.cpu_count() or 1
    where = "on a Dask cluster" if executor == "dask" else f"on {cores} cores"
    left = " (one core left to the runner and the machine)" if executor != "dask" and jobs < cores else ""
    return (f"run: {jobs} cell{'s' if jobs != 1 else ''} at a time {where}{left}; each cell measured in its warm "
            "worker process: wall time, CPU time of the process and its children, peak memory, and its wait for a "
            "core (a cell that waited is flagged overloaded)")  # fmt: skip


def cell_host(row: dict, host: str) -> str:
    """The host a cell ran on: the Dask worker's address where a cluster ran it, else this machine."""
    worker = row.get("worker")
    return f"{host} (worker {worker})" if isinstance(worker, str) and worker else host


def cells(cfg: Config, instances: list[Instance], parsed: dict | None = None) -> list[dict]:
    """One cell per (instance, solver configuration, repeat); a count with ``split_depth`` becomes one cell per
    part, and its whole row is summed later.  ``parsed``: the instances' puzzle objects by id, when the caller
    has them already.

    No row is left out in silence.  A row is left off an instance only when its solver does not take that kind
    of puzzle or that mode at all, as it declares (``SolverBase.declines``).  A configuration that cannot run on
    this machine (a missing binary, extra or backend: ``Unavailable``) is still cells, marked ``unavailable``
    with what is missing and how to get it; the run stores them without running them, and a later run tries
    them again.  Any other refusal of a row's options refuses the whole run, before anything is stored."""
    out = []
    detail = {f.name: f.detail for f in cfg.families}
    classes = [solving.solver_class(spec.name) for spec in cfg.solvers]
    # every option combination of every row, as a solver: checked on each instance before any cell runs
    configured = [[solving.get(spec.name, opts) for opts in spec.expand()] for spec in cfg.solvers]
    for inst in instances:
        puzzle = (parsed or {}).get(inst.id) or _puzzle(inst)
        for row, (spec, cls) in enumerate(zip(cfg.solvers, classes)):
            if spec.families is not None and inst.family not in spec.families:  # the config says so
                continue
            if cls.declines(puzzle, spec.mode):  # a puzzle kind or mode this solver does not handle: no cell
                continue
            missing: dict[int, str] = {}
            for j, (opts, one) in enumerate(zip(spec.expand(), configured[row])):
                try:
                    one.check(puzzle, spec.mode)
                except Unavailable as e:  # not installed here: cells that say so
                    missing[j] = str(e)
                except UsageError as e:  # an option the row asks for does not apply here: the whole run is refused
                    label = spec.label or config_label(spec.name, opts, spec.mode)
                    raise UsageError(f"run: {cfg.name}: solvers[{row}] ({label}) on {inst.name}: {e}") from None
            usable = [one for j, one in enumerate(configured[row]) if j not in missing]
            n_parts = usable[0].split_parts(puzzle, spec.split_depth) if spec.split_depth and usable else 0
            for j, opts in enumerate(spec.expand()):
                for rep in range(cfg.repeats):
                    ident = {
                        "instance": inst.id,
                        "solver": spec.name,
                        "options": opts,
                        "mode": spec.mode,
                        "repeat": rep,
                        "time_limit": cfg.time_limit,
                    }
                    if cfg.limit_clock != "wall":  # a CPU limit is another cell (a wall cell keeps its old key)
                        ident["limit_clock"] = cfg.limit_clock
                    common = {
                        "family": inst.family,
                        "puzzle": inst.puzzle,
                        "memory_mb": cfg.memory_mb,
                        "cores": spec.cores,
                        "experiment": cfg.name,
                        "detail": detail.get(inst.family),
                        "config": spec.label or config_label(spec.name, opts, spec.mode),
                    }
                    if j in missing:
                        common["unavailable"] = missing[j]
                    if not n_parts or j in missing:
                        out.append({**ident, **common, "key": _key(ident)})
                        continue
                    # a split count: one cell per sub-problem; the whole row is added when all are in
                    whole = {**ident, "split_depth": spec.split_depth}
                    for i in range(n_parts):
                        part = {**ident, "options": {**opts, **configured[row][j].part_options(spec.split_depth, i)}}
                        out.append({**part, **common, "key": _key(part), "whole": {**whole, "key": _key(whole)}})
    return out


def select(cfg: Config, families: list[str] | None, solvers: list[str] | None) -> Config:
    """The part of a config a run was asked for: families by name, solver entries by label or name.
    A cell's key does not depend on the selection, so partial runs fill one store."""
    if families:
        unknown = sorted(set(families) - {f.name for f in cfg.families})
        if unknown:
            raise UsageError(
                f"run: no family {unknown[0]!r} in {cfg.name} (it has {', '.join(f.name for f in cfg.families)})"
            )
        cfg = cfg.model_copy(update={"families": [f for f in cfg.families if f.name in families]})
    if solvers:

        def tag(s):
            return {s.name, s.label} - {None}

        unknown = sorted(set(solvers) - set().union(*(tag(s) for s in cfg.solvers)))
        if unknown:
            raise UsageError(
                f"run: no solver {unknown[0]!r} in {cfg.name} "
                f"(labels: {', '.join(s.label or s.name for s in cfg.solvers)})"
            )
        cfg = cfg.model_copy(update={"solvers": [s for s in cfg.solvers if tag(s) & set(solvers)]})
    return cfg


def _size(puzzle: dict) -> int:
    return len(puzzle.get("pieces") or ()) or int(puzzle.get("n") or 0)


def longest_first(todo: list[dict]) -> list[dict]:
    """Cells likely to run longest first (counts, then larger puzzles), so that the run does not end
    with one worker busy on a long cell while the others idle: the order changes no result."""
    return sorted(todo, key=lambda c: (c["mode"] not in ("count", "all"), -_size(c["puzzle"])))


def _key(ident: dict) -> str:
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()


def _combine(store: Store, all_cells: list[dict], record) -> None:
    """Add the whole row of every split count whose parts are all stored: counts,
    nodes and times add up; solved only when every part finished."""
    groups: dict[str, list[dict]] = {}
    for c in all_cells:
        if "whole" in c:
            groups.setdefault(c["whole"]["key"], []).append(c)
    if not groups:
        return
    rows = {r["key"]: r for r in store.results()}
    for wkey, cells_ in groups.items():
        if wkey in rows or not all(c["key"] in rows for c in cells_):
            continue
        parts = [rows[c["key"]] for c in cells_]
        whole = {**{k: v for k, v in cells_[0].items() if k != "whole"}, **cells_[0]["whole"]}
        finished = all(solving.answered(r["status"]) for r in parts)
        total = sum(r["count"] or 0 for r in parts)
        status = (
            ("solved" if total else "unsatisfiable")
            if finished
            else next(r["status"] for r in parts if not solving.answered(r["status"]))
        )
        add = lambda f: sum(r[f] or 0 for r in parts)  # noqa: E731
        record(
            whole,
            {
                "status": status,
                "count": total,
                "wall_s": add("wall_s"),
                "cpu_s": add("cpu_s"),
                "nodes": add("nodes"),
                "peak_mb": max(r["peak_mb"] or 0 for r in parts),
                **{
                    c: add(c) if all(r[c] is not None for r in parts) else None
                    for c in ("load_s", "build_s", "search_s")
                },
                "message": f"{len(parts)} parts at depth {whole['split_depth']}",
            },
            False,
        )


def _one_per_content(instances: list[Instance]) -> list[Instance]:
    """The instances with one of each content (the id is the puzzle's hash): a second file with the same
    content (a ``.cnf`` and its ``.cnf.bz2``, a board listed twice) is said on stderr and left out."""
    seen: dict[str, Instance] = {}
    out = []
    for inst in instances:
        first = seen.get(inst.id)
        if first is None:
            seen[inst.id] = inst
            out.append(inst)
        elif inst.params != first.params:
            this, that = (str(i.params.get("file", i.name)) for i in (inst, first))
            print(f"warning: {this} has the same content as {that}: one instance", file=sys.stderr)
    return out


def _refuse_changed_files(db: str, instances: list[Instance]) -> None:
    """``InputError`` for a file whose stored instance has another content than the file has now."""
    store = Store(db, readonly=True, empty_ok=True)
    try:
        stored = {fam: store.files_of(fam) for fam in {inst.family for inst in instances}}
        for inst in instances:
            f = inst.params.get("file")
            if isinstance(f, str):
                was = stored[inst.family].get(f)
                if was is not None and was != inst.id and "scramble" not in inst.params:
                    raise InputError(
                        f, None, f"changed since {db} stored it (its content differs): restore it, or use another --db"
                    )
    finally:
        store.close()


def _warn_solved_order(instances: list[Instance], parsed: dict) -> None:
    """A line on stderr for each board listed in solved order: its times measure the file's order."""
    from puzzles.make.scramble import solved_order_warning
    from puzzles.puzzle import EDGES

    for inst in instances:
        p = parsed[inst.id]
        if EDGES in p.features:
            line = solved_order_warning(p, str(inst.params.get("file", inst.name)))
            if line:
                print(f"warning: {line} (or set scramble = SEED in its family)", file=sys.stderr)


def run(
    config: str | os.PathLike | Config | Mapping[str, Any],
    db: str,
    jobs: int | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    show_progress: bool = True,
    families: list[str] | None = None,
    solvers: list[str] | None = None,
) -> dict:
    """Run every solver row of ``config`` on every instance of its families into the store ``db``; cells already
    stored are skipped (a stopped run goes on).  ``config``: a TOML file's path, its contents as a dict, or a
    ``Config``.  Returns the run's summary (cells run, skipped, failed; wrong answers caught)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from puzzles.files import outputs
    from solving.progress import LogLines

    outputs.check(db, "db", "db")  # a directory, a device or a place that cannot be written: refused first
    cfg, config_path = _config(config)
    cfg = select(cfg, families, solvers)
    log = LogLines(f"eternity run {Path(config_path).name}") if show_progress and not sys.stderr.isatty() else None
    show_progress = show_progress and sys.stderr.isatty()  # rich draws bars on a terminal; elsewhere, log lines
    known = {}
    if Path(db).is_file() and Path(db).stat().st_size:  # a resumed run: the states sampled before are reused
        try:
            with closing(Store(db, readonly=True, empty_ok=True)) as before:
                known = before.sampled_instances()
        except InputError:  # not ours (refused below, untouched)
            pass
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        disable=not show_progress,
        transient=True,
    ) as bar:
        task = bar.add_task(f"{cfg.name}: instances", total=None)

        def sampled(name: str, done: int, total: int) -> None:
            bar.update(task, description=f"{name}: sampling states", completed=done, total=total)
            if log:
                log({"family": name, "sampled": f"{done}/{total}"})

        instances = materialise(cfg, sampled, known)
    for fam in cfg.families:  # an empty family is a mistake (a glob that matches nothing), not an empty result
        if not any(inst.family == fam.name for inst in instances):
            glob = getattr(fam, "glob", None)
            raise InputError(
                config_path,
                f"families.{fam.name}",
                "selects no instance" + (f" (no file matches {glob!r})" if glob else ""),
            )
    instances = _one_per_content(instances)
    cells(cfg, instances)  # every row's options checked on every instance: a refused row leaves no database
    if executor == "dask":  # so does a cluster whose extra is not installed
        require("cluster", "--executor dask")
    if executor == "dask" and scheduler:  # a scheduler that does not answer leaves no database either
        from experiments.cluster.dask_cluster import connect

        connect(scheduler, 1)[0].close()
    jobs = jobs or default_jobs()
    if executor == "dask" and not scheduler:  # nor does a local cluster too large for the machine
        from experiments.cluster.dask_cluster import check_local_workers

        check_local_workers(jobs, "--jobs")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 4096:
        raise UsageError(f"jobs: {jobs!r} is not a number of processes 1..4096")
    if Path(db).exists():  # a file the store read before, changed since: refused, never a second instance
        _refuse_changed_files(db, instances)
    by_name = {f.name: f for f in cfg.families}  # asked before the store: a plug-in that fails leaves no database
    solvable = {inst.id: by_name[inst.family].solvable(inst.params) for inst in instances}
    store = Store(db)  # after the instances: a config that cannot be sampled leaves no database behind
    try:
        parsed = {inst.id: _puzzle(inst) for inst in instances}
        _warn_solved_order(instances, parsed)
        family = {f.name: f for f in cfg.families}
        for inst in instances:
            est, cls = family[inst.family].classify(inst.params) or classify(parsed[inst.id])
            store.add_instance(
                {
                    "id": inst.id,
                    "experiment": cfg.name,
                    "family": inst.family,
                    "name": inst.name,
                    "kind": inst.kind,
                    "params": json.dumps(inst.params),
                    "puzzle": json.dumps(inst.puzzle),
                    "estimate": est,
                    "class": cls,
                }
            )
        store.commit()
        all_cells = cells(cfg, instances, parsed)
        done = store.done_keys()
        absent = [c for c in all_cells if "unavailable" in c and c["key"] not in done]
        todo = longest_first([c for c in all_cells if c["key"] not in done and "unavailable" not in c])
        if (show_progress or log) and todo:  # the run's first line, once its input is accepted: how it measures
            print(how_it_measures(jobs, executor), file=sys.stderr)
        host, vers = socket.gethostname(), {}
        summary: dict = {
            "cells": len(all_cells),
            "skipped": len(all_cells) - len(todo) - len(absent),
            "ran": 0,
            "solved": 0,
            "unavailable": {},  # why -> cells: a row that cannot run here, stored as such, never left out
        }
        summary["wrong"] = []
        names = {inst.id: inst.name for inst in instances}

        def record(cell: dict, row: dict, ran: bool = True) -> None:
            full = {
                k: cell.get(k)
                for k in ("key", "experiment", "instance", "family", "solver", "config", "mode", "repeat", "time_limit")
            }
            if "whole" in cell:  # a part of a split count: kept out of the tables, summed into the whole
                full["mode"] = "count-part"
            full["options"] = json.dumps(cell["options"], sort_keys=True)
            full.update({k: row.get(k) for k in ROW_FIELDS})
            full["detail"] = json.dumps(row["detail"]) if row.get("detail") is not None else None
            full["verified"] = None if row.get("verified") is None else int(bool(row["verified"]))
            made = (cell["solver"], full["options"])
            if made not in vers:  # each configuration's engines asked once a run
                vers[made] = versions(cell["solver"], cell["options"])
            full.update(versions=vers[made], host=cell_host(row, host), finished_at=time.strftime("%Y-%m-%dT%H:%M:%S"))
            wrong = _planted_refuted(full, solvable.get(cell["instance"]))
            if wrong:
                full["status"], full["message"] = solving.Status.WRONG.value, wrong
                summary["wrong"].append(f"{full['config']} on {names.get(cell['instance'], cell['instance'])}: {wrong}")
            store.add_result(full)
            if ran:
                summary["ran"] += 1
                summary["solved"] += solving.answered(str(full.get("status", "")))

        for cell in absent:  # stored at once, never run; a later run tries them again (``add_result`` replaces them)
            record(cell, {"status": solving.Status.UNAVAILABLE.value, "message": cell["unavailable"]}, False)
            summary["unavailable"][cell["unavailable"]] = summary["unavailable"].get(cell["unavailable"], 0) + 1
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            disable=not show_progress,
            transient=False,
        ) as bar:
            task = bar.add_task(f"{cfg.name}: {summary['skipped']} done before", total=len(todo))
            for cell, row in _execute(todo, jobs, executor, scheduler):
                record(cell, row)
                bar.update(task, advance=1, description=f"{cfg.name}: solved {summary['solved']}/{summary['ran']}")
                if log:
                    log(
                        {
                            "cells": f"{summary['ran']}/{len(todo)}",
                            "answered": summary["solved"],
                            "stored before": summary["skipped"],
                        }
                    )
        _combine(store, all_cells, record)
        for key, config, inst_id, why in disagreements(store.results()):
            store.mark_wrong(key, why)
            summary["wrong"].append(f"{config} on {names.get(inst_id, inst_id)}: {why}")
    finally:  # a run stopped by an error (a full disk) lets the store go: the same command runs again
        store.close()
    return summary


def _puzzle(inst: Instance):
    from puzzles.files.formats import puzzle_from_dict

    return puzzle_from_dict(inst.puzzle)


def _config(config: str | os.PathLike | Config | Mapping[str, Any]) -> tuple[Config, str]:
    """(the config, the name its errors are said under): a TOML file read, a dict or a Config taken as it is."""
    if isinstance(config, Config):
        return config, f"<config {config.name}>"
    if isinstance(config, Mapping):
        return config_from_dict(dict(config), "<config>"), "<config>"
    return load_config(os.fspath(config)), os.fspath(config)


def _run_on_worker(cell: dict) -> dict:
    """A cell on a Dask worker, its row naming the worker (the cell's host in the store)."""
    row = run_cell(cell)
    try:
        from dask.distributed import get_worker

        row["worker"] = get_worker().address
    except (ImportError, ValueError):
        pass
    return row


def _execute(todo: list[dict], jobs: int, executor: str, scheduler: str | None):
    """Yield (cell, row) as cells finish, on the chosen executor."""
    if not todo:
        return
    if executor == "dask":
        from dask.distributed import Client
        from dask.distributed import as_completed as dask_completed

        from experiments.cluster.dask_cluster import connect, local_cluster

        cluster = None
        if scheduler:
            client, _ = connect(scheduler, jobs)  # one that does not answer: one line within the timeout
        else:
            cluster = local_cluster(jobs)
            client = Client(cluster)
        try:
            futures = {client.submit(_run_on_worker, c, key=f"cell-{c['key']}", pure=False): c for c in todo}
            for fut in dask_completed(futures):
                yield futures[fut], fut.result()
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
        return
    cores = _Cores(jobs)
    pin_cores(jobs if all(c.get("cores", 1) == 1 for c in todo) else 0)

    def run(cell: dict) -> dict:
        with cores.held(cell.get("cores", 1)):
            return run_cell(cell)

    pool = ThreadPoolExecutor(max_workers=jobs)
    futures = {pool.submit(run, c): c for c in todo}
    given: set = set()
    try:
        for fut in as_completed(futures):
            given.add(fut)
            yield futures[fut], fut.result()
    except KeyboardInterrupt:
        # Ctrl-C: the cells that finished are stored (also those done while we were told), the running
        # ones are stopped now rather than awaited, and the run says so; a rerun resumes from the store
        done = [f for f in futures if f.done() and f not in given and not f.cancelled() and f.exception() is None]
        print(
            f"eternity run: stopping: {len(done)} more finished cells stored, the running ones stopped; "
            "run the same command again to resume",
            file=sys.stderr,
        )
        pool.shutdown(wait=False, cancel_futures=True)
        for f in done:
            yield futures[f], f.result()
        raise
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        close_all()


class _Cores:
    """The local executor's cores: a cell holds ``cores`` of them (at most all) while it runs.
    Cells get their cores in the order they asked (first come, first served), so a wide cell is
    not passed over for ever by narrow ones."""

    def __init__(self, n: int):
        self.n, self.free = n, n
        self.cond = threading.Condition()
        self.queue: collections.deque = collections.deque()

    @contextlib.contextmanager
    def held(self, want: int):
        want = max(1, min(want, self.n))
        me = object()
        with self.cond:
            self.queue.append(me)
            self.cond.wait_for(lambda: self.queue[0] is me and self.free >= want)
            self.queue.popleft()
            self.free -= want
            self.cond.notify_all()
        try:
            yield
        finally:
            with self.cond:
                self.free += want
                self.cond.notify_all()
