"""The SQLite store: one row per instance, one row per finished cell.

WAL mode, each cell committed as it finishes; the cell key (instance,
solver, options, mode, repeat, limits) is the primary key, so a rerun skips
finished cells and a run killed with SIGKILL resumes without duplicates.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS instances (
    id TEXT PRIMARY KEY,          -- sha256 of the canonical puzzle
    experiment TEXT, family TEXT, name TEXT, kind TEXT,
    params TEXT,                  -- JSON: generator parameters
    puzzle TEXT,                  -- JSON puzzle file
    estimate REAL,                -- Owen's expected solutions (NULL until the model lands)
    class TEXT                    -- sub-critical / super-critical (NULL without an estimate)
);
CREATE TABLE IF NOT EXISTS results (
    key TEXT PRIMARY KEY,
    experiment TEXT, instance TEXT, family TEXT, solver TEXT, config TEXT, options TEXT,
    mode TEXT, repeat INTEGER, time_limit REAL,
    status TEXT, wall_s REAL, cpu_s REAL, peak_mb REAL, nodes INTEGER, conflicts INTEGER,
    count INTEGER, best_score INTEGER, verified INTEGER, message TEXT,
    versions TEXT, host TEXT, finished_at TEXT,
    detail TEXT,                  -- JSON: e.g. the piece sets of an excess-piece state's solutions
    load_s REAL, build_s REAL, search_s REAL   -- the solve's clocks (solving.solve_verified); NULL in older stores
);
"""

RESULT_COLUMNS = "key experiment instance family solver config options mode repeat time_limit status wall_s cpu_s peak_mb nodes conflicts count best_score verified message versions host finished_at detail load_s build_s search_s".split()
# columns later than the first; count_exact: a count beyond 64 bits, in decimal (``count`` holds it as a REAL,
# or NULL beyond a float's range)
ADDED = {
    "detail": "TEXT",
    "load_s": "REAL",
    "build_s": "REAL",
    "search_s": "REAL",
    "count_exact": "TEXT",
    "optimal": "INTEGER",
    "evidence": "TEXT",
    "engine_stats": "TEXT",
    "load_start": "REAL",
    "load_end": "REAL",
    "wait_s": "REAL",
    "cpu_core": "INTEGER",
    "cores_online": "INTEGER",
    "limit_clock": "TEXT",
}  # optimal: mode best, 1 when the score is proven the best possible; evidence: what an answer rests on
# the machine a cell ran on: the 1-minute load average at its start and end, the seconds its worker waited on
# the run queue for a core (Linux's schedstat), the core it ran on, the cores online; the clock its limit was on
MACHINE = ["load_start", "load_end", "wait_s", "cpu_core", "cores_online", "limit_clock"]
EXTRA = ["count_exact", "optimal", "evidence", "engine_stats", *MACHINE]  # written by ``add_result`` too
INT64 = (-(1 << 63), (1 << 63) - 1)
# SQLite's application id (the header's bytes 68-71) of every store this project creates: "eTrn"
APPLICATION_ID = 0x6554726E
INSTANCE_COLUMNS = ["id", "experiment", "family", "name", "kind", "params", "puzzle", "estimate", "class"]


def _ours(con: sqlite3.Connection) -> bool:
    """Whether an SQLite file is a store this project made: it carries the project's application id, or (a
    store made before the id was written) its two tables have every column of the first schema and no other."""
    if con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID:
        return True
    results = [r[1] for r in con.execute("PRAGMA table_info(results)")]
    instances = [r[1] for r in con.execute("PRAGMA table_info(instances)")]
    known = set(RESULT_COLUMNS) | set(ADDED)
    first = set(RESULT_COLUMNS) - set(ADDED)
    return first <= set(results) <= known and set(instances) == set(INSTANCE_COLUMNS)


def read_only(path: str | Path) -> sqlite3.Connection:
    """A connection that cannot change the file or leave one beside it.

    SQLite's ``mode=ro`` still creates ``-wal`` and ``-shm`` files next to a WAL database and leaves them;
    ``immutable=1`` opens the file as it is, with no lock and no side file.  Where a ``-wal`` file exists (a run
    is writing, or one was killed), its committed cells are only there, so the connection reads through it
    (``mode=ro``, which then creates nothing new)."""
    from urllib.parse import quote

    p = Path(path).absolute()
    live = Path(str(p) + "-wal").exists()
    return sqlite3.connect(f"file:{quote(str(p))}?{'mode=ro' if live else 'immutable=1'}", uri=True, timeout=60)


def _inspect(path: Path) -> tuple[set[str], set[str], int, bool]:
    """The tables of an SQLite file, the columns of its results table, its number of results and whether it
    is a store this project made (``_ours``), read only; InputError naming the file when it is not SQLite or
    is damaged."""
    from puzzles.errors import InputError
    from puzzles.files.formats import refuse_special

    refuse_special(path)
    with open(path, "rb") as f:
        if f.read(16) != b"SQLite format 3\x00":
            raise InputError(path, None, "not a results database (not an SQLite file)")
    con = read_only(path)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        cols = {r[1] for r in con.execute("PRAGMA table_info(results)")}
        con.execute("PRAGMA quick_check").fetchall()
        n = con.execute("SELECT COUNT(*) FROM results").fetchone()[0] if "results" in tables else 0
        ours = _ours(con)
    except sqlite3.DatabaseError as e:
        raise InputError(path, None, f"a damaged or unreadable database, left untouched ({e})") from None
    finally:
        con.close()
    return tables, cols, n, ours


def check_readable(path: str | Path, empty_ok: bool = False) -> None:
    """Refuse, with one line naming the file, a path that is not a results database with results in it
    (``empty_ok``: or with none yet, as a run killed before its first cell leaves it)."""
    from puzzles.errors import InputError

    p = Path(path)
    if not p.is_file():
        raise InputError(path, None, "no such results database" if not p.exists() else "not a file")
    tables, cols, n, ours = _inspect(p)
    missing = sorted({"results", "instances"} - tables)
    if missing:
        raise InputError(
            path, None, f"an SQLite file, but not an eternity results database (no {' and no '.join(missing)} table)"
        )
    if not ours:
        raise InputError(
            path, None, "an SQLite file with a results table of other columns: not an eternity results database"
        )
    if n == 0 and not empty_ok:
        raise InputError(path, None, "no results yet (a run that stored no cell)")


def check_ours(path: str | Path) -> None:
    """Refuse, untouched, an existing file that is not one of our results databases: not SQLite,
    damaged (truncated), or SQLite with tables of its own (someone else's database)."""
    from puzzles.errors import InputError

    p = Path(path)
    if not p.is_file() or p.stat().st_size == 0:
        return
    tables, _, _, ours = _inspect(p)
    if tables and not ({"results", "instances"} <= tables and ours):
        raise InputError(
            path,
            None,
            "an SQLite database that is not an eternity results database; left untouched "
            f"(tables: {', '.join(sorted(tables)[:5])})",
        )


# what each stored column may hold: a number (finite; a time or a count not negative), text, JSON text
_NUMBERS = ("repeat", "time_limit", "wall_s", "cpu_s", "peak_mb", "nodes", "conflicts", "count", "best_score",
            "verified", "load_s", "build_s", "search_s", "optimal", "load_start", "load_end", "wait_s", "cpu_core",
            "cores_online", "estimate")  # fmt: skip
_FINITE = ("repeat", "time_limit", "wall_s", "cpu_s", "peak_mb", "nodes", "conflicts", "best_score", "verified",
           "load_s", "build_s", "search_s", "optimal", "wait_s", "cpu_core", "cores_online")  # fmt: skip
_NOT_NEGATIVE = ("time_limit", "wall_s", "cpu_s", "peak_mb", "nodes", "conflicts", "count", "load_s", "build_s",
                 "search_s", "wait_s")  # fmt: skip
_TEXTS = ("key", "experiment", "instance", "family", "solver", "config", "options", "mode", "status", "message",
          "versions", "host", "finished_at", "detail", "evidence", "engine_stats", "limit_clock", "class",
          "instance_name", "params", "count_exact")  # fmt: skip
_REQUIRED = ("key", "status", "mode", "time_limit")
_JSON_OBJECTS = ("options", "engine_stats", "params")


def _checked(d: dict, path: str) -> dict:
    """One stored cell as the tables read it (its parameters parsed, an exact count of any size as an int),
    or ``InputError`` naming the file, the cell and the column of a value no run writes: a damaged or
    hand-edited store is refused in one line, never an internal error further on."""
    import math

    from puzzles.errors import InputError

    key = d.get("key")

    def bad(col: str, why: str) -> InputError:
        return InputError(path, f"cell {str(key)[:40]!r}, column {col}", f"{d.get(col)!r:.60} {why}")

    for col in _TEXTS:
        if d.get(col) is not None and not isinstance(d[col], str):
            raise bad(col, "is not text")
    parsed = {}
    for col in _JSON_OBJECTS:
        if d.get(col):
            try:
                parsed[col] = json.loads(d[col])
            except ValueError:
                raise bad(col, "is not JSON") from None
            if not isinstance(parsed[col], dict):
                raise bad(col, "is not a JSON object")
    exact = d.pop("count_exact", None)
    if exact is not None:
        if not exact.lstrip("-").isdigit():
            raise InputError(path, f"cell {str(key)[:40]!r}, column count_exact", f"{exact[:40]!r} is not a number")
        d["count"] = int(exact)
    for col in _NUMBERS:
        v = d.get(col)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise bad(col, "is not a number")
        if col in _FINITE and isinstance(v, float) and not math.isfinite(v):  # an estimate may be inf, no time
            raise bad(col, "is not a finite number")
        if col in _NOT_NEGATIVE and v < 0:
            raise bad(col, "is negative")
    d["params"] = parsed.get("params", {})
    return d


def require_table_fields(rows: list[dict], path: str) -> None:
    """What a table needs of every cell, which every run writes: its key, status, mode and a positive time
    limit (PAR-2 counts an unsolved cell at twice it); a cell without one is refused in one line."""
    from puzzles.errors import InputError

    for d in rows:
        for col in _REQUIRED:
            if d.get(col) is None:
                raise InputError(
                    path, f"cell {str(d.get('key'))[:40]!r}, column {col}", "missing (NULL), which no run writes"
                )
        if d["time_limit"] <= 0:
            raise InputError(
                path,
                f"cell {str(d.get('key'))[:40]!r}, column time_limit",
                f"{d['time_limit']!r} is not a positive time",
            )


def _writer_lock(path: str | Path) -> int:
    """An exclusive lock on the store for the process that writes to it (``flock``, apart from SQLite's own
    locks): a second run on the same store is refused with the reason, never run beside the first."""
    import fcntl

    from puzzles.errors import InputError

    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise InputError(
            path,
            None,
            "another eternity run is writing to this database now; run again once it has ended "
            "(its stored cells are then skipped), or give another --db",
        ) from None
    return fd


class Store:
    """A results database.  Opened to write (``eternity run``, ``eternity migrate``), it is created when absent
    and brought to the current schema; opened ``readonly`` (the tables, plots and every other read), the file
    is never changed and a store of an older schema is read as it is, its missing columns read as NULL."""

    def __init__(self, path: str | Path, readonly: bool = False, empty_ok: bool = False):
        self.readonly, self.path = readonly, str(path)
        if readonly:
            check_readable(path, empty_ok)
            self.db = read_only(path)
            return
        check_ours(path)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        new = not Path(path).exists() or Path(path).stat().st_size == 0
        self._lock: int | None = _writer_lock(path)
        try:
            self.db = sqlite3.connect(str(path), timeout=60)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            # both tables and the id in one transaction: a second process never sees a store half made
            self.db.executescript(f"BEGIN IMMEDIATE; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; COMMIT;")
        except BaseException:
            if new:  # a store this call began (a full disk stopped it): removed whole, so the same command runs again
                for f in (Path(path), Path(f"{path}-wal"), Path(f"{path}-shm")):
                    f.unlink(missing_ok=True)
            os.close(self._lock)
            raise
        have = {r[1] for r in self.db.execute("PRAGMA table_info(results)")}
        for col, kind in ADDED.items():  # a store written before the column existed: its rows keep NULL
            if col not in have:
                try:
                    self.db.execute(f"ALTER TABLE results ADD COLUMN {col} {kind}")
                except sqlite3.OperationalError as e:  # two runs opening one new store: the other added it
                    if "duplicate column" not in str(e):
                        raise
        self.db.commit()

    def add_instance(self, row: dict) -> None:
        """Store an instance (once: a resumed run adds nothing)."""
        self.db.execute(
            "INSERT OR IGNORE INTO instances (id, experiment, family, name, kind, params, puzzle, estimate, class) "
            "VALUES (:id, :experiment, :family, :name, :kind, :params, :puzzle, :estimate, :class)",
            row,
        )

    def files_of(self, family: str) -> dict[str, str]:
        """The instances of ``family`` read from files: the file each was read from -> the instance's id."""
        out = {}
        for iid, params in self.db.execute("SELECT id, params FROM instances WHERE family = ?", (family,)):
            f = json.loads(params or "{}").get("file") if params else None
            if isinstance(f, str):
                out[f] = iid
        return out

    def commit(self) -> None:
        """Commit what was added."""
        self.db.commit()

    def done_keys(self) -> set[str]:
        """The cells a rerun skips: every stored one but those that could not run here (``unavailable``: a
        missing binary or extra), which a rerun tries again once it is installed."""
        return {k for (k,) in self.db.execute("SELECT key FROM results WHERE status IS NOT 'unavailable'")}

    def add_result(self, row: dict) -> None:
        """Store a finished cell, committed at once; a stored cell is kept (an ``unavailable`` one is replaced)."""
        row = dict(row)
        row["count_exact"] = None
        row["optimal"] = None if row.get("optimal") is None else int(row["optimal"])
        for c in ("evidence", "engine_stats", *MACHINE):  # absent from a row: NULL
            row[c] = row.get(c)
        n = row.get("count")
        if isinstance(n, int) and not INT64[0] <= n <= INT64[1]:  # SQLite's integers are 64-bit: keep it exact
            # the REAL is for SQL's sorting and sums; past a float's range (a count of thousands of
            # digits) it is NULL, and the text alone holds the number
            row["count"], row["count_exact"] = (float(n) if abs(n) < 1e308 else None), str(n)
        cols = ", ".join(RESULT_COLUMNS + EXTRA)
        vals = ", ".join(":" + c for c in RESULT_COLUMNS + EXTRA)
        # an unavailable cell that now ran is replaced; any other stored cell is kept as it is
        self.db.execute("DELETE FROM results WHERE key = ? AND status = 'unavailable'", (row["key"],))
        self.db.execute(f"INSERT OR IGNORE INTO results ({cols}) VALUES ({vals})", row)
        self.db.commit()

    def mark_wrong(self, key: str, why: str) -> None:
        """A stored answer found wrong (``Status.WRONG``): its status changes, the answer it gave stays in
        its count and its message says why, so nothing stored is lost."""
        self.db.execute(
            "UPDATE results SET status = 'wrong', message = ? || CASE WHEN message IS NULL OR message = '' "
            "THEN '' ELSE ' (' || message || ')' END WHERE key = ? AND status != 'wrong'",
            (why, key),
        )
        self.db.commit()

    def results(self) -> list[dict]:
        """Every stored cell, with its instance's class, estimate, parameters and name; older schemas read as NULL."""
        cur = self.db.execute(
            "SELECT r.*, i.class AS class, i.estimate AS estimate, i.params AS params, i.name AS instance_name "
            "FROM results r LEFT JOIN instances i ON r.instance = i.id"
        )
        names = [d[0] for d in cur.description]
        absent = dict.fromkeys(set(ADDED) - set(names))  # an older store, read as it is: NULL there
        out = []
        for row in cur:
            d = {**absent, **dict(zip(names, row))}
            out.append(_checked(d, self.path))
        return out

    def sampled_instances(self) -> dict[tuple, dict]:
        """Stored excess-piece states by (family, sample, seed): a resumed run reuses them instead
        of sampling again (minutes on Eternity's board)."""
        out = {}
        for row in self.db.execute("SELECT id, family, name, kind, params, puzzle FROM instances"):
            prm = json.loads(row[4]) if row[4] else {}
            if "sample" in prm and "seed" in prm:
                out[(row[1], prm["sample"], prm["seed"])] = {
                    "id": row[0],
                    "family": row[1],
                    "name": row[2],
                    "kind": row[3],
                    "params": prm,
                    "puzzle": json.loads(row[5]),
                }
        return out

    def close(self) -> None:
        """Close the database (and, opened to write, let another run write to it)."""
        self.db.close()
        lock: int | None = getattr(self, "_lock", None)
        self._lock = None
        if lock is not None:
            os.close(lock)
