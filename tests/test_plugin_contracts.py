"""What a plug-in solver cannot do to an answer, a store or the machine, whatever its code does: change the
puzzle it is given (the verifier holds its own copy), print on stdout under ``--json``, leave a process behind
its cell, or move a relative output by changing the working directory; and the store's faults that cost
nothing: two runs on one store, a read that writes, a store this project did not make."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_plugins import dist_info

PLUGINS = '''
import os
import subprocess

import numpy as np

from solving import SolverBase, SolveResult, Status, get


class Mutator(SolverBase):
    """`mutator`: swaps the board's pieces for four corners, then solves what it made of it."""

    name = "mutator"
    MODES = ("first",)

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        puzzle.pieces = np.array([(0, 1, 1, 0), (0, 0, 1, 1), (1, 0, 0, 1), (1, 1, 0, 0)])
        puzzle.__post_init__()
        return get("edge-backtrack").solve(puzzle, mode="first")


class Spawner(SolverBase):
    """`spawner`: starts a long process of its own, notes its pid, and answers."""

    name = "spawner"
    MODES = ("first",)

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        child = subprocess.Popen(["sleep", "300"])
        with open(os.environ["SPAWNED"], "a") as f:
            f.write(f"{child.pid}\\n")
        return get("edge-backtrack").solve(puzzle, mode="first")


class Mover(SolverBase):
    """`mover`: changes the working directory, prints on stdout, and answers."""

    name = "mover"
    MODES = ("first",)

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        os.chdir(os.environ["ELSEWHERE"])
        print("a plug-in's chatter on stdout")
        return get("edge-backtrack").solve(puzzle, mode="first")
'''

NO_SOLUTION = {"format": "eternity/edge", "version": 1, "name": "none", "rows": 2, "cols": 2,
               "pieces": [[0, 1, 1, 1]] * 4, "fixed": []}  # fmt: skip
SOLVABLE = {"format": "eternity/edge", "version": 1, "name": "corners", "rows": 2, "cols": 2,
            "pieces": [[0, 1, 1, 0], [0, 0, 1, 1], [1, 0, 0, 1], [1, 1, 0, 0]], "fixed": []}  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    site = tmp_path_factory.mktemp("contracts-site")
    (site / "contract_plugins.py").write_text(PLUGINS)
    entries = {n: f"contract_plugins:{n.capitalize()}" for n in ("mutator", "spawner", "mover")}
    dist_info(site, "contract_plugins", "eternity.solvers", entries)
    return site


def eternity(site: Path, *argv: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "PYTHONPATH": str(site), **env}
    return subprocess.run([sys.executable, "-m", "eternity", *argv], env=full, capture_output=True, text=True, cwd=cwd)


def test_a_plugin_that_changes_its_puzzle_is_checked_against_the_puzzle_as_asked(site, tmp_path):
    (tmp_path / "none.json").write_text(json.dumps(NO_SOLUTION))
    r = eternity(site, "solve", "none.json", "--solver", "mutator", cwd=tmp_path)
    assert "verified" not in r.stdout.split("\n")[0] or "verified False" in r.stdout, r.stdout
    assert r.returncode == 1 and "verifier rejects" in r.stderr, (r.stdout, r.stderr)


def test_a_plugins_prints_and_working_directory_change_touch_neither_json_nor_output(site, tmp_path):
    (tmp_path / "p.json").write_text(json.dumps(SOLVABLE))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = eternity(site, "solve", "p.json", "--solver", "mover", "--json", "-o", "out.json", cwd=tmp_path,
                 ELSEWHERE=str(elsewhere))  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["status"] == "solved"  # stdout is the JSON alone
    assert "chatter" in r.stderr
    assert (tmp_path / "out.json").is_file() and not (elsewhere / "out.json").exists()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_plugins_process_ends_with_its_cell(site, tmp_path):
    (tmp_path / "p.json").write_text(json.dumps(SOLVABLE))
    cfg = tmp_path / "spawn.toml"
    cfg.write_text('name = "spawn"\ntime_limit = 20.0\n[[families]]\nkind = "files"\nname = "f"\nglob = "p.json"\n'
                   '[[solvers]]\nname = "spawner"\n')  # fmt: skip
    spawned = tmp_path / "spawned.txt"
    r = eternity(site, "run", str(cfg), "--db", "s.sqlite", "--quiet", cwd=tmp_path, SPAWNED=str(spawned))
    assert r.returncode == 0, r.stderr[-2000:]
    pids = [int(x) for x in spawned.read_text().split()]
    assert pids
    time.sleep(0.5)
    assert not any(_alive(p) for p in pids), f"left running: {pids}"


def test_two_runs_on_one_store_the_second_refused_with_the_reason(tmp_path):
    from experiments.store import Store

    db = tmp_path / "r.sqlite"
    first = Store(db)
    try:
        with pytest.raises(Exception, match="another eternity run is writing"):
            Store(db)
    finally:
        first.close()
    Store(db).close()  # free again once the first has ended


def test_reads_leave_the_store_as_it_was_and_read_paths_not_uris(tmp_path):
    """Every read command on a copy of a committed store (in WAL mode, named with URI characters): the
    directory's listing and the file's bytes are the same after."""
    runs = Path(__file__).resolve().parent.parent / "docs" / "runs"
    for name in ("we#ird.sqlite", "sp%41ce.sqlite", "q?x.sqlite"):
        d = tmp_path / name.replace("%", "p").replace("#", "h").replace("?", "q")
        d.mkdir()
        db = d / name
        db.write_bytes((runs / "owen_counts.sqlite").read_bytes())
        before = sorted(os.listdir(d)), db.read_bytes()
        for argv in (["table", str(db)], ["plot", str(db), "--kind", "owen", "-o", str(tmp_path / "o.png")],
                     ["plot", str(db), "--kind", "cactus", "-o", str(tmp_path / "c.png")],
                     ["compare", str(db), "native", "sampled"]):  # fmt: skip
            r = subprocess.run([sys.executable, "-m", "eternity", *argv], capture_output=True, text=True, cwd=d)
            assert "Traceback" not in r.stderr and r.returncode in (0, 2), (argv, r.stderr)
            assert (sorted(os.listdir(d)), db.read_bytes()) == before, argv


def test_migrate_and_every_read_refuse_a_lookalike_store_untouched(tmp_path):
    db = tmp_path / "theirs.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE results (key, experiment, status, theirs)")
    con.execute("CREATE TABLE instances (id, other)")
    con.execute("INSERT INTO results VALUES ('k', 'e', 'solved', 1)")
    con.commit()
    con.close()
    before = db.read_bytes()
    for argv in (["migrate", str(db)], ["table", str(db)], ["report", str(db), "-o", str(tmp_path / "r.html")]):
        r = subprocess.run([sys.executable, "-m", "eternity", *argv], capture_output=True, text=True)
        assert r.returncode == 2 and "not an eternity results database" in r.stderr, (argv, r.stderr)
    assert db.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["theirs.sqlite"]


@pytest.mark.parametrize("name", ["queens-5", "eternity2-clue1", "pentomino-3x20", "dominoes-4x4"])
def test_the_verifier_rejects_garbage_placements_with_a_verdict_not_a_crash(name):
    from puzzles import catalog
    from puzzles.verify import verify

    p = catalog.load(name)
    for garbage in (["garbage"], [None], [(1, 2)], [object()], [{"a": 1}], "xx", [(1.5, "a", 3)], [(10**30, 0, 0)]):
        rep = verify(p, garbage)
        assert not rep.valid, garbage  # (1, 2) is a legal queen, one of five: not a board


def test_the_reports_data_survives_a_hostile_name_and_a_count_of_442_digits(tmp_path):
    """An instance named ``<!--<script>`` put the page's data element in the parser's double-escaped state (no
    sorting, filtering or details); a 442-digit count reached the page as a number JavaScript reads as Infinity."""
    pytest.importorskip("plotly", reason="the report extra is not installed")
    from experiments.html_report import write

    runs = Path(__file__).resolve().parent.parent / "docs" / "runs"
    db = tmp_path / "h.sqlite"
    db.write_bytes((runs / "quick.sqlite").read_bytes())
    con = sqlite3.connect(db)
    con.execute("UPDATE instances SET name = '<!--<script>' WHERE rowid = 1")
    con.execute("UPDATE results SET count = NULL, count_exact = ?, status = 'solved', mode = 'count' WHERE rowid = 2",
                ("7" * 442,))  # fmt: skip
    con.commit()
    con.close()
    out = write(str(db), tmp_path / "r.html")
    page = out.read_text()
    start = page.index('id="cells">') + len('id="cells">')
    data = page[start : page.index("</script>", start)]
    assert "<" not in data
    cells = [c for group in json.loads(data) for c in group["cells"]]
    assert any(c["instance"] == "<!--<script>" for c in cells)
    assert any(c["count"] == "7" * 442 for c in cells)
