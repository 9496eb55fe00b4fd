"""The experiment runner: isolation, resume after SIGKILL, executors, config errors."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from eternity.cli import main
from experiments.report import summarise, table
from experiments.runner import run
from experiments.store import Store
from puzzles.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
HELPERS = str(Path(__file__).resolve().parent / "helpers")

SMALL = """
name = "small"
seed = 5
time_limit = 10.0
[[families]]
kind = "edge"
name = "e4"
rows = [4]
cols = [4]
frame_colors = [2]
inner_colors = [2, 4]
instances = 2
[[families]]
kind = "builtin"
name = "b"
names = ["queens-6"]
[[solvers]]
name = "backtrack"
mode = "count"
[[solvers]]
name = "edge-backtrack"
mode = "first"
options = { order = ["rowscan", "spiral"] }
"""


def _rows(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT key, status, solver, verified, count FROM results").fetchall()
    con.close()
    return rows


@pytest.fixture
def cfg(tmp_path):
    f = tmp_path / "small.toml"
    f.write_text(SMALL)
    return f


def test_run_table_and_verified(cfg, tmp_path):
    db = str(tmp_path / "r.sqlite")
    s = run(str(cfg), db, jobs=2, show_progress=False)
    rows = _rows(db)
    assert s["cells"] == len(rows) == 4 * 3 + 1
    assert all(st == "solved" for _, st, _, _, _ in rows)
    assert all(v == 1 for _, _, solver, v, _ in rows if solver == "edge-backtrack")
    csv = table(db, "csv")
    assert "backtrack/count" in csv and "edge-backtrack[order=spiral]/first" in csv and "virtual best" in csv
    # a rerun skips everything
    s2 = run(str(cfg), db, jobs=2, show_progress=False)
    assert s2["ran"] == 0 and len(_rows(db)) == len(rows)


def _install_doubles(tmp_path, monkeypatch):
    sys.path.insert(0, HELPERS)
    from plugin import install

    install(
        tmp_path / "site",
        {n: f"doubles:{n.capitalize()}" for n in ("hang", "hog", "crash", "suicide", "nap")},
        monkeypatch,
        [HELPERS],
    )


def test_a_count_that_contradicts_the_evidence_is_stored_as_wrong(tmp_path, monkeypatch):
    sys.path.insert(0, HELPERS)
    from plugin import install

    install(tmp_path / "site", {"overcount": "doubles:Overcount"}, monkeypatch, [HELPERS])
    f = tmp_path / "o.toml"
    f.write_text(
        'name = "o"\ntime_limit = 20.0\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-6"]\n'
        '[[solvers]]\nname = "overcount"\nmode = "count"\n[[solvers]]\nname = "backtrack"\nmode = "count"\n'
    )
    db = str(tmp_path / "o.sqlite")
    s = run(str(f), db, jobs=1, show_progress=False)
    assert len(s["wrong"]) == 1 and "overcount" in s["wrong"][0] and "evidence gives 4" in s["wrong"][0]
    st = Store(db)
    stored = st.results()
    st.close()
    by = {r["solver"]: r for r in stored}
    assert by["overcount"]["status"] == "wrong" and by["overcount"]["count"] == 5  # the answer it gave is kept
    assert by["overcount"]["evidence"] == "claimed by overcount"
    assert by["backtrack"]["status"] == "solved" and by["backtrack"]["evidence"] == "exhaustion"
    rows = {r["solver"]: r for r in summarise(stored)}
    assert rows["overcount/count"]["wrong"] == 1 and rows["overcount/count"]["solved"] == 0


@pytest.mark.timing
def test_hanging_crashing_killed_and_hungry_solvers_are_recorded(tmp_path, monkeypatch):
    """Each failure is recorded, its worker replaced, and every other cell answered."""
    _install_doubles(tmp_path, monkeypatch)
    f = tmp_path / "h.toml"
    f.write_text("""
name = "h"
time_limit = 2.0
memory_mb = 700
[[families]]
kind = "builtin"
name = "b"
names = ["queens-5", "queens-6"]
[[solvers]]
name = "hang"
[[solvers]]
name = "hog"
[[solvers]]
name = "crash"
[[solvers]]
name = "suicide"
[[solvers]]
name = "backtrack"
mode = "count"
""")
    db = str(tmp_path / "h.sqlite")
    t0 = time.time()
    s = run(str(f), db, jobs=2, show_progress=False)
    assert time.time() - t0 < 60 and s["cells"] == 10
    st = {}
    for _, status, solver, _, count in _rows(db):
        st.setdefault(solver, set()).add(status)
        if solver == "backtrack":
            assert count in (10, 4)
    assert st == {
        "hang": {"limit"},
        "hog": {"memout"},
        "crash": {"error"},
        "suicide": {"error"},
        "backtrack": {"solved"},
    }
    con = sqlite3.connect(db)
    msg = con.execute("SELECT message FROM results WHERE solver = 'suicide'").fetchone()[0]
    con.close()
    assert "killed by signal 9" in msg


NAPS = """
name = "naps"
seed = 5
time_limit = 10.0
families = [{kind = "edge", name = "e4", rows = 4, cols = 4, frame_colors = 2, inner_colors = [2, 3, 4], instances = 2}]
solvers = [{name = "nap", mode = "count"}, {name = "backtrack", mode = "count"}]
"""


def _run_killed(cfg, db, after_rows: int) -> int:
    """`eternity run` in a process of its own, SIGKILLed (that process alone) once ``after_rows`` rows
    are stored; the rows stored by then."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "eternity", "run", str(cfg), "--db", db, "--jobs", "1", "--quiet"],
        cwd=ROOT,
        env=dict(os.environ),
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            if os.path.exists(db) and len(_rows(db)) >= after_rows:
                break
        except sqlite3.OperationalError:  # the store is being created: no tables yet
            pass
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    return len(_rows(db))


def test_sigkill_then_resume_gives_the_rows_of_an_uninterrupted_run(tmp_path, monkeypatch):
    _install_doubles(tmp_path, monkeypatch)
    cfg = tmp_path / "naps.toml"
    cfg.write_text(NAPS)
    killed, whole = str(tmp_path / "k.sqlite"), str(tmp_path / "w.sqlite")
    partial = _run_killed(cfg, killed, 2)
    assert 2 <= partial < 12
    run(str(cfg), killed, jobs=2, show_progress=False)
    run(str(cfg), whole, jobs=2, show_progress=False)
    key = lambda rows: sorted((k, st, solver, c) for k, st, solver, _, c in rows)  # noqa: E731
    assert len(_rows(killed)) == 12 and key(_rows(killed)) == key(_rows(whole))


def _descendants(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.split()
    kids: dict[int, list[int]] = {}
    for p, pp in zip(out[::2], out[1::2]):
        kids.setdefault(int(pp), []).append(int(p))
    found, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            found.append(k)
            todo.append(k)
    return found


def test_sigkill_of_the_runner_leaves_no_worker_alive(tmp_path, monkeypatch):
    _install_doubles(tmp_path, monkeypatch)
    cfg = tmp_path / "naps.toml"
    cfg.write_text(NAPS)
    db = str(tmp_path / "k.sqlite")
    proc = subprocess.Popen(
        [sys.executable, "-m", "eternity", "run", str(cfg), "--db", db, "--jobs", "2", "--quiet"],
        cwd=ROOT,
        env=dict(os.environ),
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline and len(_descendants(proc.pid)) < 2:
        time.sleep(0.05)
    workers = _descendants(proc.pid)
    assert len(workers) >= 2
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(1.0)
    alive = [
        p for p in workers if os.path.exists(f"/proc/{p}") and "Z" not in open(f"/proc/{p}/stat").read().split()[2]
    ]
    assert alive == []


@pytest.mark.slow
def test_dask_local_cluster_matches_local(cfg, tmp_path):
    a, b = str(tmp_path / "a.sqlite"), str(tmp_path / "b.sqlite")
    run(str(cfg), a, jobs=2, show_progress=False)
    run(str(cfg), b, jobs=2, executor="dask", show_progress=False)
    strip = lambda rows: sorted((k, s, c) for k, s, _, _, c in rows)  # noqa: E731
    assert strip(_rows(a)) == strip(_rows(b))


BAD = {
    "unknown solver": '[[solvers]]\nname = "nosuch"\n',
    "unknown option": '[[solvers]]\nname = "backtrack"\noptions = { colour = 3 }\n',
    "bad option value": '[[solvers]]\nname = "edge-backtrack"\noptions = { order = ["sideways"] }\n',
    "empty grid": '[[solvers]]\nname = "edge-backtrack"\noptions = { order = [] }\n',
    "bad mode": '[[solvers]]\nname = "backtrack"\nmode = "fastest"\n',
    "split outside count": '[[solvers]]\nname = "backtrack"\nmode = "first"\nsplit_depth = 2\n',
    "same configuration twice": '[[solvers]]\nname = "backtrack"\n[[solvers]]\nname = "backtrack"\n',
    "same label twice": '[[solvers]]\nname = "backtrack"\nlabel = "a"\n[[solvers]]\nname = "sat"\nlabel = "a"\n',
    "label on a grid": '[[solvers]]\nname = "edge-backtrack"\nlabel = "eb"\noptions = { order = ["rowscan", "spiral"] }\n',
}
FAMILY = '[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-5"]\n'


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_configs(tmp_path, capsys, case):
    f = tmp_path / "bad.toml"
    f.write_text('name = "x"\n' + FAMILY + BAD[case])
    db = tmp_path / "x.sqlite"
    assert main(["run", str(f), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(f) in err and "Traceback" not in err
    assert not db.exists()
    if case.startswith(("same", "label")):
        assert "share the configuration" in err or "names 2 configurations" in err


@pytest.mark.parametrize(
    "text",
    [
        'name = "x"\n[[solvers]]\nname = "backtrack"\n',  # no families
        'name = "x"\ntime_limit = "long"\n' + FAMILY + '[[solvers]]\nname = "backtrack"\n',  # wrong type
        'name = "x"\n[[families]]\nkind = "edge"\nname = "e"\nrows = []\ncols = [4]\nframe_colors = [2]\ninner_colors = [3]\n'
        '[[solvers]]\nname = "backtrack"\n',  # empty list
        'name = "x"\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["nope"]\n[[solvers]]\nname = "backtrack"\n',
        "name = \n",  # bad TOML
    ],
)
def test_more_bad_configs(tmp_path, capsys, text):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    assert main(["run", str(f), "--db", str(tmp_path / "x.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_plot_cactus(cfg, tmp_path):
    db = str(tmp_path / "p.sqlite")
    run(str(cfg), db, jobs=2, show_progress=False)
    png = tmp_path / "c.png"
    assert main(["plot", db, "--kind", "cactus", "-o", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["plot", db, "--kind", "hardness", "-o", str(png)]) == 0


def test_shipped_configs_parse_and_name_registered_solvers():
    from pathlib import Path

    import solving
    from experiments.config import load_config

    root = Path(__file__).resolve().parent.parent / "experiments" / "configs"
    shipped = sorted(root.glob("*.toml"))
    assert len(shipped) >= 12
    for path in shipped:
        cfg = load_config(str(path))
        assert cfg.families and {s.name for s in cfg.solvers} <= set(solving.names()), path.name
    quick = load_config(str(root / "quick.toml"))
    assert {s.name for s in quick.solvers} == set(solving.registry.own())  # every built-in solver runs in the main job


SPLIT = """
name = "split"
time_limit = 30.0
families = [
    {kind = "builtin", name = "b", names = ["queens-8"]},
]
solvers = [
    {name = "backtrack", mode = "count", split_depth = 1},
    {name = "backtrack", mode = "count", label = "plain"},
]
"""


def test_split_count_fans_out_and_adds_up(tmp_path):
    """A split count runs one cell per sub-problem (the Dask fan-out) and stores a whole
    row whose count is the plain count; the table shows wholes, not parts."""
    f = tmp_path / "split.toml"
    f.write_text(SPLIT)
    db = str(tmp_path / "s.sqlite")
    s = run(str(f), db, jobs=2, show_progress=False)
    con = sqlite3.connect(db)
    rows = con.execute("SELECT instance, mode, config, status, count, message FROM results").fetchall()
    con.close()
    parts = [r for r in rows if r[1] == "count-part"]
    wholes = {(r[0], r[2]): r for r in rows if r[1] == "count"}
    assert s["cells"] == len(parts) + 1 and len(parts) == 8  # the 8 ways to cover the first row
    assert {r[4] for k, r in wholes.items() if k[1] == "backtrack/count"} == {92}
    for inst in {k[0] for k in wholes}:
        assert wholes[(inst, "backtrack/count")][4] == wholes[(inst, "plain")][4]
        assert "8 parts at depth 1" in wholes[(inst, "backtrack/count")][5]
    assert "count-part" not in table(db, "csv")
    assert run(str(f), db, jobs=2, show_progress=False)["ran"] == 0  # resumable as usual


def test_a_run_can_select_families_and_solvers(tmp_path):
    from experiments.config import load_config
    from experiments.runner import select

    cfg = load_config(str(Path(__file__).parent.parent / "experiments" / "configs" / "peak.toml"))
    part = select(cfg, ["edge-7x7-3-7"], ["edge-backtrack", "cube[jobs=2]"])
    assert [f.name for f in part.families] == ["edge-7x7-3-7"]
    assert [s.label or s.name for s in part.solvers] == ["edge-backtrack", "edge-backtrack[luby]", "cube[jobs=2]"]
    assert {s.cores for s in part.solvers} == {1, 2}
    with pytest.raises(UsageError, match="no family 'x'"):
        select(cfg, ["x"], None)
    with pytest.raises(UsageError, match="no solver 'y'"):
        select(cfg, None, ["y"])


def test_cells_hold_their_cores():
    import threading

    from experiments.runner import _Cores

    cores, busy, peak = _Cores(2), [0], [0]
    lock = threading.Lock()

    def cell(n):
        with cores.held(n):
            with lock:
                busy[0] += min(n, 2)
                peak[0] = max(peak[0], busy[0])
            time.sleep(0.05)
            with lock:
                busy[0] -= min(n, 2)

    threads = [threading.Thread(target=cell, args=(n,)) for n in (2, 1, 1, 2, 1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2


def test_a_wide_cell_is_not_passed_over():
    import threading

    from experiments.runner import _Cores

    cores, started = _Cores(2), []
    first = threading.Event()

    def cell(tag, n, hold):
        with cores.held(n):
            started.append(tag)
            first.set()
            time.sleep(hold)

    a = threading.Thread(target=cell, args=("narrow-0", 1, 0.3))
    a.start()
    first.wait()
    wide = threading.Thread(target=cell, args=("wide", 2, 0.01))
    wide.start()
    time.sleep(0.05)  # the wide cell is queued; narrow ones that come later wait behind it
    rest = [threading.Thread(target=cell, args=(f"narrow-{i}", 1, 0.01)) for i in (1, 2, 3)]
    for t in rest:
        t.start()
    for t in [a, wide, *rest]:
        t.join()
    assert started[:2] == ["narrow-0", "wide"]
