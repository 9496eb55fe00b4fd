"""Tables a reader can trust: no row left out in silence, evidence weighed in cross-checks, reads that never write.

A row that cannot run on this machine (its binary missing) is cells marked ``unavailable`` that name what to
install; a lying engine is the one marked ``wrong`` beside an honest count or a verified board; and reading a
results database, old schema or new, leaves it byte for byte as it was."""

import hashlib
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest

import solving
from encoders.external import locate
from eternity.cli import main
from experiments import report, runner
from experiments.store import Store

ROOT = Path(__file__).resolve().parent.parent
PROBE = "#!/bin/sh\nif grep -q '^p cnf 1 1$' \"$1\"; then echo 's SATISFIABLE'; echo 'v 1 0'; exit 10; fi\n"
REAL_SAT = locate("cadical") or locate("kissat")
needs_a_sat_binary = pytest.mark.skipif(REAL_SAT is None, reason="neither cadical nor kissat is installed")


def script(tmp_path, name: str, body: str) -> str:
    f = tmp_path / name
    f.write_text(PROBE + body + "\n")
    f.chmod(f.stat().st_mode | stat.S_IEXEC)
    return str(f)


def config(tmp_path, families: str, solvers: str, name="t") -> Path:
    f = tmp_path / f"{name}.toml"
    f.write_text(f'name = "{name}"\nseed = 3\ntime_limit = 20.0\n{families}\n{solvers}\n')
    return f


QUEENS = '[[families]]\nkind = "builtin"\nname = "q"\nnames = ["queens-6"]\n'
EDGE = '[[families]]\nkind = "edge"\nname = "e"\nrows = 3\ncols = 3\nframe_colors = 2\ninner_colors = 2\n'


def sha(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_a_row_whose_binary_is_missing_is_cells_that_name_it(tmp_path, capsys):
    cfg = config(
        tmp_path,
        QUEENS,
        '[[solvers]]\nname = "backtrack"\n'
        '[[solvers]]\nname = "external"\noptions = { cmd = ["no-such-sat-solver {cnf}", "also-missing {cnf}"] }\n',
    )
    db = tmp_path / "t.sqlite"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "2 cells unavailable" not in err and "1 cells unavailable" in err and "'no-such-sat-solver'" in err
    rows = {r["config"]: r for r in Store(db, readonly=True).results()}
    assert len(rows) == 3
    missing = [r for r in rows.values() if r["solver"] == "external"]
    assert {r["status"] for r in missing} == {"unavailable"}
    assert all("is not installed" in r["message"] for r in missing)
    assert main(["table", str(db)]) == 0
    out = capsys.readouterr().out
    header = next(ln for ln in out.splitlines() if ln.startswith("| family"))
    assert "| unavailable |" in header
    line = next(ln for ln in out.splitlines() if "no-such-sat-solver" in ln)
    cells = dict(zip([c.strip() for c in header.split("|")], [c.strip() for c in line.split("|")]))
    assert (cells["cells"], cells["solved"], cells["errors"], cells["unavailable"]) == ("1", "0", "1", "1")
    assert cells["par2_solve_s"] == ""  # no time it never took
    # a rerun tries them again (still missing: still unavailable, never counted as stored answers)
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    assert "2 cells unavailable" not in capsys.readouterr().err
    assert len(Store(db, readonly=True).results()) == 3


def test_a_row_is_left_off_only_by_the_kinds_its_solver_declares(tmp_path):
    # edge-backtrack takes no queens: no cell, and that is by declaration, not by a failed check
    cfg = config(tmp_path, QUEENS + EDGE, '[[solvers]]\nname = "edge-backtrack"\n')
    cfg_obj = runner._config(str(cfg))[0]
    inst = runner.materialise(cfg_obj)
    cells = runner.cells(cfg_obj, inst)
    assert {c["family"] for c in cells} == {"e"}
    assert solving.solver_class("edge-backtrack").declines(runner._puzzle(inst[0]), "first")


@needs_a_sat_binary
def test_a_liar_beside_an_honest_count_is_the_one_marked_wrong(tmp_path, capsys):
    # one true model (from a real SAT solver), then "unsatisfiable" where there are more
    mark = tmp_path / "answered"
    liar = script(
        tmp_path,
        "liar",
        f'if [ -f {mark} ]; then echo "s UNSATISFIABLE"; exit 20; fi\ntouch {mark}\n{REAL_SAT} -q "$1"',
    )
    cfg = config(
        tmp_path,
        QUEENS,
        f'[[solvers]]\nname = "backtrack"\nmode = "count"\n'
        f'[[solvers]]\nname = "external"\nmode = "count"\noptions = {{ cmd = "{liar}" }}\n',
    )
    db = tmp_path / "t.sqlite"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err
    by = {r["solver"]: r for r in Store(db, readonly=True).results()}
    assert by["backtrack"]["status"] == "solved" and by["backtrack"]["count"] == 4
    assert by["backtrack"]["evidence"] == "exhaustion"
    assert by["external"]["status"] == "wrong", by["external"]
    assert by["external"]["evidence"] == "enumerated, complete as claimed by liar"
    assert "1 wrong answers" in err and "checked evidence gives 4 (exhaustion)" in err
    summary = {r["solver"]: r for r in report.summarise(Store(db, readonly=True).results())}
    assert summary["backtrack/count"]["solved"] == 1 and summary["backtrack/count"]["wrong"] == 0


def test_a_lying_unsatisfiable_beside_a_verified_board_is_wrong(tmp_path, capsys):
    liar = script(tmp_path, "liar", "echo 's UNSATISFIABLE'; exit 20")
    cfg = config(
        tmp_path,
        QUEENS,
        f'[[solvers]]\nname = "backtrack"\n[[solvers]]\nname = "external"\noptions = {{ cmd = "{liar}" }}\n',
    )
    db = tmp_path / "t.sqlite"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    assert "a verified board (backtrack/first) refutes it" in capsys.readouterr().err
    by = {r["solver"]: r for r in Store(db, readonly=True).results()}
    assert by["backtrack"]["status"] == "solved" and by["backtrack"]["verified"] == 1
    assert by["external"]["status"] == "wrong" and by["external"]["evidence"] == "claimed by liar"


def row(key, config, count, evidence, mode="count", status="solved", verified=None):
    return {"key": key, "config": config, "instance": "i", "mode": mode, "status": status, "count": count,
            "evidence": evidence, "verified": verified}  # fmt: skip


def test_evidence_is_weighed_not_counted():
    claim = "enumerated, complete as claimed by x"
    # the exhaustion outranks the enumeration whose completeness is a claim
    assert [k for k, *_ in runner.disagreements([row("a", "n", 192, "exhaustion"), row("b", "x", 16, claim)])] == ["b"]
    # models verified and distinct are a floor nothing outranks: a smaller exhaustion is the one at fault
    assert [k for k, *_ in runner.disagreements([row("a", "n", 4, "exhaustion"), row("b", "x", 8, claim)])] == ["a"]
    # three claims against one checked count: the checked count stands
    rows = [row("a", "n", 5, "exhaustion")] + [row(f"c{i}", f"c{i}", 6, "claimed by y") for i in range(3)]
    assert {k for k, *_ in runner.disagreements(rows)} == {"c0", "c1", "c2"}
    # a certified "no solution" is still refuted by a board the verifier accepted
    rows = [
        row("a", "b", None, "verified", "first", verified=1),
        row("u", "s", None, "certificate", "first", "unsatisfiable"),
    ]
    assert [k for k, *_ in runner.disagreements(rows)] == ["u"]
    # a best board refutes nothing (mismatches allowed)
    rows = [
        row("a", "b", None, "verified", "best", verified=1),
        row("u", "s", None, "claimed by z", "first", "unsatisfiable"),
    ]
    assert runner.disagreements(rows) == []


def test_every_read_leaves_a_database_byte_identical(tmp_path, capsys):
    old = tmp_path / "classics.sqlite"
    shutil.copy(ROOT / "docs" / "runs" / "classics.sqlite", old)  # written before the evidence column
    with sqlite3.connect(f"file:{old}?immutable=1", uri=True) as con:
        assert "evidence" not in {r[1] for r in con.execute("PRAGMA table_info(results)")}
    before = sha(old)
    import eternity

    assert main(["table", str(old)]) == 0
    assert main(["table", str(old), "--winners"]) == 0
    assert main(["table", str(old), "--format", "json"]) == 0
    assert main(["plot", str(old), "--kind", "cactus", "-o", str(tmp_path / "c.png")]) == 0
    assert len(eternity.results(old)) > 0 and len(eternity.summary(old)) > 0
    assert sha(old) == before
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("classics")) == ["classics.sqlite"]
    capsys.readouterr()
    assert main(["migrate", str(old)]) == 0
    assert "added the columns evidence" in capsys.readouterr().out
    assert sha(old) != before
    assert main(["migrate", str(old)]) == 0 and "already" in capsys.readouterr().out


def test_a_damaged_wal_database_is_refused_and_left_alone(tmp_path, capsys):
    db = tmp_path / "w.sqlite"
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE results (key TEXT)")
    con.execute("CREATE TABLE instances (id TEXT)")
    con.commit()
    con.close()
    data = bytearray(db.read_bytes())
    data[4096 + 100 :] = b"\xff" * (len(data) - 4096 - 100)
    db.write_bytes(bytes(data))
    before = sha(db)
    assert main(["table", str(db)]) == 2
    assert sha(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.sqlite"]


def test_a_results_table_of_other_columns_is_named_as_such(tmp_path, capsys):
    db = tmp_path / "other.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE results (a, b)")
    con.execute("CREATE TABLE instances (c)")
    con.execute("INSERT INTO results VALUES (1, 2)")
    con.commit()
    con.close()
    assert main(["table", str(db)]) == 2
    err = capsys.readouterr().err
    assert "results table of other columns" in err and "no results table" not in err


def test_the_summary_refuses_an_unknown_clock(tmp_path):
    import eternity

    with pytest.raises(ValueError, match="clock"):
        eternity.summary(ROOT / "docs" / "runs" / "classics.sqlite", clock="bogus")


def test_the_critical_size_cache_is_sealed(tmp_path, monkeypatch):
    """An edited interval, ``{}``, ``null`` or a missing field in a cached measurement is measured again, never
    used (it once reclassed instances, or failed the run with a KeyError)."""
    import json

    from experiments.studies import critical
    from puzzles import catalog

    monkeypatch.setenv("ETERNITY_CACHE_DIR", str(tmp_path))
    calls = []

    def measure(*args, **kw):
        calls.append(1)
        return {"pieces": 12, "critical_size_90": [5, 7]}

    monkeypatch.setattr(critical, "critical_size", measure)
    base = catalog.load("pentomino-6x10")
    got = critical.cached_critical_size(base, [3, 5], 2, 0, 2)
    assert got["critical_size_90"] == [5, 7] and len(calls) == 1
    assert critical.cached_critical_size(base, [3, 5], 2, 0, 2) == got and len(calls) == 1
    (path,) = (tmp_path / "critical").glob("*.json")
    edited = json.loads(path.read_text())
    edited["result"]["critical_size_90"] = [1, 2]
    for text in (json.dumps(edited), "{}", "[]", "null", json.dumps({**edited, "result": {"x": 1}})):
        path.write_text(text)
        assert critical.cached_critical_size(base, [3, 5], 2, 0, 2) == got
    assert len(calls) == 6


def test_a_shipped_config_runs_by_name_from_any_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["configs"]) == 0
    assert "quick" in capsys.readouterr().out
    db = tmp_path / "q.sqlite"
    args = ["run", "quick", "--db", str(db), "--family", "classics", "--solver", "backtrack", "--quiet"]
    assert main(args) == 0
    assert {r["experiment"] for r in Store(db, readonly=True).results()} == {"quick"}
    assert (
        main(
            [
                "run",
                "experiments/configs/quick.toml",
                "--db",
                str(db),
                "--family",
                "classics",
                "--solver",
                "backtrack",
                "--quiet",
            ]
        )
        == 0
    )
    assert "already stored" in capsys.readouterr().err
    assert main(["run", "nosuch", "--db", str(db)]) == 2
    assert "nor a shipped config" in capsys.readouterr().err


def test_a_broken_extra_is_named_in_one_line(tmp_path):
    """An extra that is installed but fails to import (here a stand-in package that raises) is a usage error
    that names the package that failed, for a solver, an export and a cluster alike; never an internal error,
    and never another package blamed."""
    import os
    import subprocess
    import sys

    for name in ("cpmpy", "dask", "distributed"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(f"raise ImportError('{name} is broken here')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cfg = config(tmp_path, QUEENS, '[[solvers]]\nname = "backtrack"\n')
    cases = {
        "cpmpy": ["solve", "queens-6", "--solver", "cpmpy"],
        "export": ["export", "queens-6", "--to", "opb", "-o", str(tmp_path / "q.opb")],
        "dask": ["run", str(cfg), "--db", str(tmp_path / "d.sqlite"), "--executor", "dask", "--quiet"],
    }
    for what, argv in cases.items():
        r = subprocess.run([sys.executable, "-m", "eternity", *argv], env=env, capture_output=True, text=True)
        assert r.returncode == 2, (what, r.stderr)
        line = r.stderr.strip().splitlines()[-1]
        assert "installed but fails to import" in line and "is broken here" in line, (what, line)
        assert "ortools" not in line
    assert not (tmp_path / "d.sqlite").exists() and not (tmp_path / "q.opb").exists()


def cell(config, status, t, instance="i", limit=20.0, params=None):
    return {"family": "f", "class": "c", "config": config, "status": status, "build_s": 0.0, "search_s": t,
            "wall_s": t, "time_limit": limit, "nodes": None, "verified": None, "evidence": None,
            "instance": instance, "repeat": 0, "best_score": None, "optimal": None, "params": params or {}}  # fmt: skip


def test_the_median_of_a_row_that_mostly_timed_out_is_above_the_limit():
    rows = [cell("none", "limit", 20.0, f"i{k}") for k in range(3)]
    rows += [cell("some", "solved", 1.0, "i0"), cell("some", "limit", 20.0, "i1"), cell("some", "limit", 20.0, "i2")]
    rows += [cell("most", "solved", 1.0, "i0"), cell("most", "solved", 3.0, "i1"), cell("most", "limit", 20.0, "i2")]
    by = {r["solver"]: r for r in report.summarise(rows)}
    assert by["none"]["median_s"] == "> 20" and by["none"]["par2_s"] == 40.0  # never 40, a time it never took
    assert by["some"]["median_s"] == "> 20" and by["most"]["median_s"] == 3.0
    assert by["virtual best"]["median_s"] == 3.0


def test_peaks_says_no_peak_where_points_tie():
    def swept(config, colours, status, t):
        return cell(
            config,
            status,
            t,
            f"{config}{colours}",
            params={"rows": 6, "cols": 6, "frame_colors": 3, "inner_colors": colours},
        )

    rows = [swept("dead", k, "limit", 20.0) for k in (4, 5, 6)]  # every point timed out
    rows += [swept("live", 4, "solved", 1.0), swept("live", 5, "solved", 9.0), swept("live", 6, "solved", 2.0)]
    by = {r["solver"]: r for r in report.peaks(rows)}
    assert by["dead"]["peak"] == "no peak" and by["dead"]["off_by"] is None
    assert by["live"]["peak"] == 5
