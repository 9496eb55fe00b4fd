"""Hostile input and real limits: outputs that would destroy inputs, special files, damaged and
foreign databases, counts beyond 64 bits, every mode's output complete, help that helps."""

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from helpers.hostile import edge_board_on_disk, one_line_exit_2, queens_config

import solving
from eternity.cli import main
from experiments.store import RESULT_COLUMNS, Store


@pytest.fixture
def e3(tmp_path):
    return edge_board_on_disk(tmp_path)


def test_an_output_that_is_an_input_is_refused(e3, capsys):
    p = e3 / "p.json"
    before = p.read_bytes()
    assert "input" in one_line_exit_2(capsys, ["solve", str(p), "-o", str(p)])
    (e3 / "s.svg").write_bytes((e3 / "s.json").read_bytes())  # a solution file under a picture's name
    assert "input" in one_line_exit_2(capsys, ["render", str(p), str(e3 / "s.svg"), "-o", str(e3 / "s.svg")])
    assert "input" in one_line_exit_2(capsys, ["export", str(p), "--to", "json", "-o", str(p)])
    assert p.read_bytes() == before
    same = e3 / "same.json"
    assert "its own file" in one_line_exit_2(
        capsys,
        "generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split()
        + [str(same), "--planted", str(same)],
    )
    assert not same.exists()


def test_empty_names_special_files_and_wrong_picture_suffixes(e3, capsys):
    p = str(e3 / "p.json")
    for argv in (
        ["render", p, "-o", ""],
        ["export", p, "--to", "json", "-o", ""],
        ["solve", p, "-o", ""],
        ["solve", p, "--svg", ""],
    ):
        assert "empty file name" in one_line_exit_2(capsys, argv)
    fifo = e3 / "fifo"
    os.mkfifo(fifo)
    assert "not a regular file" in one_line_exit_2(capsys, ["solve", p, "-o", str(fifo)])
    loop = e3 / "loop"
    loop.symlink_to(loop)
    assert "loop" in one_line_exit_2(capsys, ["solve", p, "-o", str(loop)]).lower()
    assert ".svg" in one_line_exit_2(capsys, ["solve", p, "--svg", str(e3 / "out.png")])
    assert not (e3 / "out.png").exists()


def test_count_all_and_sample_outputs_are_complete(tmp_path):
    for mode, count, n in (("count", 92, 0), ("all", 92, 92), ("sample", 92, 7)):
        out = tmp_path / f"{mode}.json"
        samples = ["--samples", "7"] if mode == "sample" else []
        assert main(["solve", "queens-8", "--mode", mode, *samples, "-o", str(out), "--quiet"]) == 0
        d = json.loads(out.read_text())
        assert d["format"] == "eternity/solutions" and d["count"] == count and len(d["solutions"]) == n


def test_counts_beyond_64_bits_are_stored_and_tabled_exactly(tmp_path):
    big = 90366647359242240000
    s = Store(tmp_path / "r.sqlite")
    row = {c: None for c in RESULT_COLUMNS}
    row.update(key="k", experiment="x", status="solved", count=big, mode="count")
    s.add_result(row)
    row.update(key="k2", count=5)
    s.add_result(row)
    got = {r["key"]: r["count"] for r in s.results()}
    assert got == {"k": big, "k2": 5}
    s.close()


def test_a_foreign_or_damaged_database_is_refused_untouched(tmp_path, capsys):
    cfg = queens_config(tmp_path / "c.toml", "time_limit = 5.0")
    foreign = tmp_path / "foreign.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE results (a)")
    con.commit()
    con.close()
    before = foreign.read_bytes()
    assert "not an eternity results database" in one_line_exit_2(
        capsys, ["run", str(cfg), "--db", str(foreign), "--quiet"]
    )
    assert foreign.read_bytes() == before
    good = tmp_path / "good.sqlite"
    assert main(["run", str(cfg), "--db", str(good), "--quiet"]) == 0
    trunc = tmp_path / "trunc.sqlite"
    trunc.write_bytes(good.read_bytes()[:1500])
    line = one_line_exit_2(capsys, ["run", str(cfg), "--db", str(trunc), "--quiet"])
    assert "trunc.sqlite" in line


def test_readers_cap_what_they_read_and_take_a_byte_order_mark(e3, capsys):
    assert "larger than" in one_line_exit_2(capsys, ["info", "/dev/zero"])
    bom = e3 / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + (e3 / "p.json").read_bytes())
    assert main(["info", str(bom), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "edge"
    utf16 = e3 / "u16.json"
    utf16.write_bytes((e3 / "p.json").read_text().encode("utf-16"))
    assert main(["info", str(utf16)]) == 0


def test_version_and_the_bare_command(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("eternity ")
    assert main([]) == 0
    out = capsys.readouterr().out
    assert "solve" in out and "prove" in out and "commit" in out


@pytest.mark.parametrize(
    "line,field",
    [
        ("time_limit = inf", "time_limit"),
        ("time_limit = 1e300", "time_limit"),
        ("time_limit = nan", "time_limit"),
        ("memory_mb = 64", "memory_mb"),
        ("repeats = 100000", "repeats"),
    ],
)
def test_config_numbers_are_bounded(tmp_path, capsys, line, field):
    cfg = queens_config(tmp_path / "c.toml", line)
    assert field in one_line_exit_2(capsys, ["run", str(cfg), "--db", str(tmp_path / "r.sqlite")])
    assert not (tmp_path / "r.sqlite").exists()


@pytest.mark.parametrize(
    "family",
    [
        "rows = [100000], cols = [4], frame_colors = [2], inner_colors = [3]",
        ("rows = [4], cols = [4], frame_colors = [2], inner_colors = [3], instances = 1000000000"),
    ],
)
def test_family_sizes_are_bounded(tmp_path, capsys, family):
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        f'name = "c"\nfamilies = [{{kind = "edge", name = "e", {family}}}]\n'
        'solvers = [{name = "backtrack", mode = "count"}]\n'
    )
    one_line_exit_2(capsys, ["run", str(cfg), "--db", str(tmp_path / "r.sqlite")])


def test_slips_are_parsed_once_and_only_where_they_apply(capsys):
    assert "option slips" in one_line_exit_2(capsys, ["solve", "owen-a", "--opt", "slips=1,x", "--mode", "best"])
    assert "mode best" in one_line_exit_2(capsys, ["solve", "owen-a", "--opt", "slips=3"])


def test_a_bug_is_an_internal_error_not_bad_input(monkeypatch, capsys, tmp_path):
    from eternity import cli

    def broken(a):
        raise KeyError("a bug")

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    real = cli.build_parser

    def parser():
        ap = real()
        sub = next(a for a in ap._actions if a.dest == "command")
        sub.choices["info"].set_defaults(func=broken)
        return ap

    monkeypatch.setattr(cli, "build_parser", parser)
    assert cli.main(["info", "queens-4"]) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error in info" in err[0] and "KeyError" in err[0]
    [tb] = list(tmp_path.glob("eternity-internal-error-*.txt"))
    assert "Traceback" in tb.read_text()


def test_solvers_list_fits_80_columns_and_names_one_solver(capsys):
    assert main(["solvers"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert all(len(ln) <= 80 for ln in lines) and any(ln.startswith("backtrack ") for ln in lines)
    assert main(["solvers", "backtrack"]) == 0
    assert "memo_mb" in capsys.readouterr().out
    assert "no solver named" in one_line_exit_2(capsys, ["solvers", "nosuch"])


def test_numbers_in_puzzle_files_are_bounded(tmp_path, capsys):
    f = tmp_path / "big.json"
    f.write_text(
        '{"format":"eternity/edge","version":1,"rows":2,"cols":2,'
        '"pieces":[[0,100000000000000000000,3,0],[0,0,1,1],[1,1,0,0],[1,0,0,1]]}'
    )
    assert "pieces.0.1" in one_line_exit_2(capsys, ["info", str(f)])
    t = tmp_path / "big.txt"
    t.write_text("1 2\n0 5000 0 0\n0 0 0 5000\n")
    assert "colour above" in one_line_exit_2(capsys, ["info", str(t)])
    poly = tmp_path / "poly.json"
    poly.write_text(
        '{"format":"eternity/polyform","version":1,"grid":"square","region":{"cells":[[0,0],'
        '[0,1000000000000000000000000000000]]},"pieces":[{"name":"D","cells":[[0,0],[0,1]]}]}'
    )
    one_line_exit_2(capsys, ["solve", str(poly)])
    many = tmp_path / "many.json"
    many.write_text(
        '{"format":"eternity/polyform","version":1,"grid":"square","region":{"cells":[[0,0],[0,1]]},'
        '"pieces":[{"name":"D","cells":[[0,0],[0,1]],"count":1000000000}]}'
    )
    assert "count" in one_line_exit_2(capsys, ["info", str(many)])


def test_table_picks_one_experiment_and_says_when_it_pools(tmp_path, capsys):
    db = str(tmp_path / "r.sqlite")
    for name, puzzle in (("one", "queens-5"), ("two", "queens-6")):
        cfg = queens_config(tmp_path / f"{name}.toml", "time_limit = 5.0", (puzzle,), name)
        assert main(["run", str(cfg), "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["table", db]) == 0
    assert "2 experiments (one, two)" in capsys.readouterr().err
    assert main(["table", db, "--experiment", "two", "--format", "json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["rows"][0]["cells"] == 1 and not out.err
    assert "no experiment 'three'" in one_line_exit_2(capsys, ["table", db, "--experiment", "three"])


def test_every_argument_of_every_command_has_help():
    import argparse

    from eternity.cli import build_parser

    missing = []

    def walk(parser, name):
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(sub, f"{name} {sub_name}".strip())
            elif not action.help and not isinstance(action, argparse._HelpAction):
                missing.append(f"{name} {action.option_strings or action.dest}")

    walk(build_parser(), "")
    assert not missing, missing


def test_ctrl_c_in_beam_best_mode_keeps_the_best_board(tmp_path, monkeypatch, capsys):
    from baseline.beam.run import BeamRun

    real = BeamRun._pass

    def interrupted_pass(self, *args, **kwargs):  # Ctrl-C arrives as soon as a pass has kept a board
        status = real(self, *args, **kwargs)
        if self.best_pl is not None:
            raise KeyboardInterrupt
        return status

    monkeypatch.setattr(BeamRun, "_pass", interrupted_pass)
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "eternity2", "--solver", "beam", "--mode", "best", "--opt", "width=256", "--quiet"]) == 130
    err = capsys.readouterr().err
    [kept] = list(tmp_path.glob("best-board.rescued-*.json"))
    assert "interrupted" in err and str(kept.name) in err
    assert main(["verify", "eternity2", str(kept), "--score"]) == 0
    out = tmp_path / "b.json"
    assert main("solve eternity2 --solver beam --mode best --opt width=256 -o".split() + [str(out), "--quiet"]) == 130
    assert json.loads(out.read_text())["placements"]


@pytest.mark.timing
def test_cube_generation_stops_at_the_deadline_and_refuses_too_many(monkeypatch):
    import time

    from encoders import cube
    from puzzles import catalog
    from puzzles.errors import UsageError

    p = catalog.load("brendan-8x8")
    enc = solving.get("cube", {"depth": 12}).encode(p)
    t0 = time.monotonic()
    assert cube.make_cubes(p, enc, "rowscan", 12, 100, deadline=t0 + 0.3) is None
    assert time.monotonic() - t0 < 3
    monkeypatch.setattr(cube, "MAX_CUBES", 50)
    with pytest.raises(UsageError, match="more than 50 cubes"):
        cube.make_cubes(p, enc, "rowscan", 6)


def test_beam_refuses_options_that_do_not_apply():
    from puzzles import catalog
    from puzzles.errors import UsageError

    beam = solving.get
    with pytest.raises(UsageError, match="threads is for edge puzzles, not polyform"):
        beam("beam", {"threads": 8}).check(catalog.load("pentomino-6x10"), "first")
    with pytest.raises(UsageError, match="weights is for polyform"):
        beam("beam", {"weights": "w.json"}).check(catalog.load("eternity2-clue1"), "first")
    with pytest.raises(UsageError, match="repair is for mode best"):
        beam("beam", {"repair": 0.5}).check(catalog.load("eternity2-clue1"), "first")
    beam("beam", {"repair": 0.5, "width": 10}).check(catalog.load("eternity2-clue1"), "best")


CTRL_C = """
name = "ctrlc"
seed = 1
time_limit = 60.0
families = [
    {kind = "edge", name = "small", rows = [3], cols = [3], frame_colors = [1], inner_colors = [1, 2], instances = 2},
    {kind = "edge", name = "long", rows = [8], cols = [8], frame_colors = [2], inner_colors = [2], instances = 2},
]
solvers = [
    {name = "edge-backtrack", mode = "count"},
]
"""


@pytest.mark.timing
def test_ctrl_c_on_run_stores_what_finished_and_stops_at_once(tmp_path):
    """Ctrl-C: the finished cells are stored, the run says it stops, the running cells are not awaited, and
    the same command resumes."""
    import signal
    import sqlite3
    import subprocess
    import time

    cfg, db = tmp_path / "c.toml", tmp_path / "c.sqlite"
    cfg.write_text(CTRL_C)
    cmd = [str(Path(sys.executable).parent / "eternity"), "run", str(cfg), "--db", str(db), "--quiet", "--jobs", "3"]
    # Ctrl-C as a terminal gives it: SIGINT at its default (a shell without job control starts background
    # commands with SIGINT ignored, and Python then keeps it ignored, as nohup asks)
    restore = lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)  # noqa: E731
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, preexec_fn=restore)
    # the two long counts (minutes each) go first and hold two workers; the third stores the small cells
    for _ in range(600):
        time.sleep(0.1)
        if db.exists():
            try:
                if sqlite3.connect(db).execute("SELECT COUNT(*) FROM results").fetchone()[0] >= 4:
                    break
            except sqlite3.Error:
                pass
    time.sleep(1.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    err = p.communicate(timeout=60)[1]
    waited = time.monotonic() - t0
    assert p.returncode == 130, err
    assert "stopping" in err and "resume" in err, err
    assert waited < 10, f"Ctrl-C took {waited:.1f} s"  # the long cells are stopped, not awaited
    rows = sqlite3.connect(db).execute("SELECT family, status FROM results").fetchall()
    assert sorted(rows) == [("small", "solved")] * 4, rows
