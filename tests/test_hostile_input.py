"""Hostile input and real limits: outputs that would destroy inputs, special files, damaged and
foreign databases, counts beyond 64 bits, every mode's output complete, help that helps."""

import json
import os
import sqlite3
import sys
from pathlib import Path

import pytest

import solving
from eternity.cli import main
from experiments.store import RESULT_COLUMNS, Store


@pytest.fixture
def e3(tmp_path):
    assert (
        main(
            "generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split()
            + [str(tmp_path / "p.json"), "--planted", str(tmp_path / "s.json")]
        )
        == 0
    )
    return tmp_path


def one_line_exit_2(capsys, argv) -> str:
    capsys.readouterr()
    assert main(argv) == 2, argv
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("eternity: error:"), err
    return err[0]


def queens_config(path, head: str = "", names=("queens-5",), name: str = "c", mode: str | None = "count"):
    """A small experiment config over built-in queens puzzles, solved by backtrack, written to ``path``;
    ``head``: another top-level line (a time limit)."""
    lines = [f'name = "{name}"', *([head] if head else [])]
    listed = ", ".join(f'"{n}"' for n in names)
    lines.append(f'families = [{{kind = "builtin", name = "b", names = [{listed}]}}]')
    lines.append('solvers = [{name = "backtrack"' + (f', mode = "{mode}"' if mode else "") + "}]")
    path.write_text("\n".join(lines) + "\n")
    return path


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


def test_a_reader_that_goes_away_is_not_an_error():
    """`eternity ... | true`: the pipe is closed before the first line is written; no internal error."""
    import subprocess

    eternity = str(Path(sys.executable).parent / "eternity")
    for cmd in ("solve queens-6 --mode all", "solve queens-6 --solver cpmpy --mode count", "list"):
        r = subprocess.run(f"{eternity} {cmd} | true", shell=True, capture_output=True, text=True, timeout=120)
        assert "internal error" not in r.stderr and "Traceback" not in r.stderr, (cmd, r.stderr)


@pytest.mark.parametrize("name, says", [("sat", "CNF"), ("cube", "CNF"), ("cpsat", "CP-SAT model")])
def test_a_limit_that_passes_while_the_model_is_built_ends_the_solve(name, says):
    """Eternity II's CNF and CP-SAT model take seconds to build; a limit that passes meanwhile ends
    the solve there, as a limit (the build used to run to its end and the search after it)."""
    from puzzles import catalog

    res, _ = solving.solve_verified(solving.get(name), catalog.load("eternity2"), "first", solving.Limits(time_s=0.05))
    assert res.status == solving.Status.LIMIT and says in res.message
    assert res.solutions == [] and res.count is None


@pytest.mark.timing
@pytest.mark.parametrize("name", ["sat", "cube", "cpsat"])
def test_eternity2_model_building_keeps_the_time_limit(name):
    import time

    from puzzles import catalog

    p = catalog.load("eternity2")
    t0 = time.perf_counter()
    res, _ = solving.solve_verified(solving.get(name), p, "first", solving.Limits(time_s=2.0))
    assert res.status == solving.Status.LIMIT
    assert time.perf_counter() - t0 < 2.0 + 2.5  # a grace for the last step of the build


@pytest.mark.parametrize(
    "argv",
    [
        ["estimate", "--critical", "100000x100000:3", "--seeds", "1"],  # 298 GiB asked for
        ["estimate", "--critical", "1001x1001:3", "--seeds", "1"],  # ran until stopped
        ["generate", "polyform", "--region", "hexagon:1000", "-o", "g.json"],  # ran until stopped
        ["enumerate", "drafter", "--size", "12"],  # ran until stopped
        ["enumerate", "square", "--size", "12"],
    ],
)
def test_sizes_that_would_run_for_hours_are_refused_at_once(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    err = one_line_exit_2(capsys, argv)
    assert "at most" in err or "expected 1 to" in err or "the side is 1 to" in err, err
    assert not (tmp_path / "g.json").exists()


def test_render_writes_svg_under_an_svg_name_only(e3, capsys):
    err = one_line_exit_2(capsys, ["render", str(e3 / "p.json"), "-o", str(e3 / "p.png")])
    assert "SVG" in err and not (e3 / "p.png").exists()


def test_a_slow_node_rate_keeps_a_short_time_limit():
    """A kernel whose nodes take 5 ms each (Eternity's 209 pieces take about 15): the first chunk is small,
    so a 0.2 s limit ends the search within 0.2 s and a chunk, not after a thousand nodes (5 s)."""
    import time

    from baseline.runtime.driver import drive
    from baseline.runtime.kernel import BUDGET

    done = [0]

    def step(budget):
        time.sleep(0.005 * budget)
        done[0] += budget
        return BUDGET

    t0 = time.perf_counter()
    drive(step, lambda: done[0], time_s=0.2, node_limit=None, progress=None, info=dict, on_stop=lambda c: True)
    assert time.perf_counter() - t0 < 1.0 and done[0] < 200


@pytest.mark.parametrize(
    "argv, says",
    [
        (["estimate", "owen-a", "--critical", "8x8:3"], "instead of a puzzle"),
        (["estimate", "--critical", "8x8:3", "--order", "spiral"], "--order is for edge-matching"),
        (["estimate", "--critical", "8x8:3", "--probes", "4"], "--probes is for polyform"),
        (["estimate", "owen-a", "--seeds", "2"], "--seeds is for --critical"),
        (["estimate", "owen-a", "--time-limit", "3"], "goes with --measure"),
        (["estimate", "owen-a", "--seed", "3"], "--seed is for polyform"),
        (["estimate", "pentomino-3x20", "--order", "spiral"], "--order is for edge-matching"),
        (["estimate", "pentomino-3x20", "--slips", "3"], "--slips is for edge-matching"),
    ],
)
def test_estimate_refuses_what_its_way_would_ignore(argv, says, capsys):
    """A flag the estimate would not use (a puzzle beside --critical, --probes on Owen's model) is
    refused with the reason, not ignored."""
    assert says in one_line_exit_2(capsys, argv)


@pytest.mark.parametrize(
    "axis, says",
    [
        ('{ start = 3, stop = 4, step = "x" }', 'rows: step: expected a whole number from 1, not "x"'),
        ("true", "rows: expected a whole number from 1 to 1000, a list of them, or {start, stop, step}, not true"),
        ("[3, 1.5]", "not 1.5"),
        ("2000", "not 2000"),
        ("{ start = 3, stop = 2000 }", "rows: stop: expected a whole number from 1 to 1000, not 2000"),
        ("{ start = 3, end = 4 }", "unknown key 'end'"),
    ],
)
def test_a_sweep_axis_is_refused_in_the_config_s_words(tmp_path, capsys, axis, says):
    """A misshapen axis gets one complaint in TOML's terms, not pydantic's complaint about the first
    form of the union it is not ("Input should be a valid list"), and true is not taken for 1."""
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        f'name = "c"\nfamilies = [{{kind = "edge", name = "e", rows = {axis}, cols = [3], frame_colors = [2], '
        'inner_colors = [3]}]\nsolvers = [{name = "edge-backtrack"}]\n'
    )
    err = one_line_exit_2(capsys, ["run", str(cfg), "--db", str(tmp_path / "r.sqlite")])
    assert says in err and "Input" not in err and "valid list" not in err, err


def test_validator_wording_speaks_of_the_file(tmp_path, capsys):
    f = tmp_path / "p.json"
    f.write_text(
        '{"format":"eternity/edge","version":1,"rows":2,"cols":2,"pieces":[[0,1,1],[0,0,1,1],[1,1,0,0],[1,0,0,1]]}'
    )
    assert one_line_exit_2(capsys, ["info", str(f)]).endswith("pieces.0: should have at least 4 items, not 3")
    cfg = queens_config(tmp_path / "c.toml", "time_limit = nan", mode=None)
    assert one_line_exit_2(capsys, ["run", str(cfg)]).endswith("time_limit: should be a finite number")


def test_candidates_are_counted_without_listing_them():
    """The size check before a model is built counts exactly what would be listed: bordered boards,
    clue boards and boards without a frame."""
    import numpy as np

    from puzzles import generate
    from puzzles.edge import EdgePuzzle

    for seed in range(6):
        p, planted = generate.edge_puzzle(4 + seed % 3, 5, 2, 2 + seed % 4, seed)
        for q in (p, generate.with_clues(p, planted, 0.3, seed)):
            assert q.n_candidates() == len(q.candidates())
        rng = np.random.default_rng(seed)
        free = EdgePuzzle(3, 4, rng.integers(1, 3, (12, 4)))
        assert free.n_candidates() == len(free.candidates())


@pytest.mark.parametrize("name", ["sat", "cpsat", "backtrack"])
def test_a_board_too_large_for_a_model_is_refused_before_it_is_built(name, capsys, monkeypatch):
    """A 300x300 board would have 3x10^10 placements: every model builder is refused at once, in one
    line (the limit is lowered here so that a small board shows it)."""
    from puzzles import edge

    monkeypatch.setattr(edge, "MAX_CANDIDATES", 1000)
    err = one_line_exit_2(capsys, ["solve", "brendan-8x8", "--solver", name, "--time-limit", "5"])
    assert "5,776 placements" in err and "at most 1,000" in err


def test_a_command_that_floods_its_output_is_refused(capsys):
    """`yes` as a SAT solver writes without end: its output is capped and the command refused (it used
    to be read whole into memory, past any time limit)."""
    err = one_line_exit_2(capsys, ["solve", "queens-4", "--solver", "external", "--opt", "cmd=yes"])
    assert "'yes' does not answer" in err and "more than 256 MB" in err


def test_owen_s_model_is_refused_past_its_size_and_info_goes_on(capsys, monkeypatch):
    from puzzles import estimate

    monkeypatch.setattr(estimate, "MAX_OWEN_JOINS", 50)
    assert main(["info", "brendan-8x8"]) == 0
    assert "not computed: Owen's model takes time quadratic" in capsys.readouterr().out
    assert "computed up to 50" in one_line_exit_2(capsys, ["estimate", "brendan-8x8"])


def test_counts_of_thousands_of_digits_are_printed_and_stored_exactly(tmp_path, capsys):
    """A 60x60 board of identical pieces has 5.3x10^10856 solutions: Python refuses to turn an int of
    more than 4,300 digits into text unless asked, so the JSON output and the store used to fail."""
    import math

    board = tmp_path / "same.json"
    gen = "generate edge --rows 60 --cols 60 --frame-colors 1 --inner-colors 1 -o".split()
    assert main([*gen, str(board)]) == 0
    capsys.readouterr()
    assert main(["solve", str(board), "--mode", "count", "--json", "--quiet"]) == 0
    count = json.loads(capsys.readouterr().out)["count"]
    # 4 corner pieces in 4 cells, 232 frame pieces in 232 cells, 3364 inner pieces in 3364 cells (an inner
    # piece's four turns look the same, and are one placement)
    assert count == math.factorial(4) * math.factorial(232) * math.factorial(3364)
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        f'name = "c"\nfamilies = [{{kind = "files", name = "f", glob = "{board}"}}]\n'
        'solvers = [{name = "edge-backtrack", mode = "count"}]\n'
    )
    db = str(tmp_path / "r.sqlite")
    assert main(["run", str(cfg), "--db", db, "--quiet"]) == 0
    assert [r["count"] for r in Store(db).results()] == [count]


def test_the_polyomino_cutter_gives_up_within_its_budget(capsys, monkeypatch, tmp_path):
    from puzzles import generate

    monkeypatch.setattr(generate, "MAX_CUT_WORK", 10_000)
    out = tmp_path / "g.json"
    argv = ["generate", "polyform", "--rows", "50", "--cols", "50", "--size", "50", "-o", str(out)]
    assert "within the cutter's budget" in one_line_exit_2(capsys, argv)
    assert not out.exists()


def test_a_beam_wider_than_the_memory_is_refused(capsys, monkeypatch):
    from baseline.beam import schedule

    monkeypatch.setattr(schedule, "available_memory", lambda: 50 * 2**20)
    err = one_line_exit_2(capsys, ["solve", "eternity2", "--solver", "beam", "--opt", "width=100000"])
    assert "width 100,000 does not fit in the memory" in err and "use option width=" in err


@pytest.mark.parametrize(
    "flags, says",
    [
        (["--samples", "5"], "--samples goes with --mode sample"),
        (["--mode", "count", "--limit", "5"], "--limit goes with --mode all"),
        (["--show", "3"], "--show goes with --json"),
        (["--distinct"], "--distinct goes with --mode count or all"),
        (["--mode", "count", "--svg", "x.svg"], "mode count keeps none"),
        (["--recut", "5"], "go with --executor dask"),
    ],
)
def test_solve_refuses_flags_its_mode_would_ignore(flags, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert says in one_line_exit_2(capsys, ["solve", "queens-6", *flags])
    assert not (tmp_path / "x.svg").exists()


def test_two_runs_opening_one_new_store_both_go_on(tmp_path, monkeypatch):
    """Two `eternity run` started at once on a new database both saw a column missing and both added it:
    the second ended in an internal error ("duplicate column name").  Here the second sees the table as
    it was before the first added its columns."""
    from experiments import store

    connect = store.sqlite3.connect

    path = tmp_path / "r.sqlite"
    Store(path).close()  # the first run: the table with every column

    class Stale:  # the second run's view, read just before the first added the columns
        def __init__(self, con):
            self.con = con

        def execute(self, sql, *args):
            if sql.startswith("PRAGMA table_info(results)"):
                return [r for r in self.con.execute(sql) if r[1] not in store.ADDED]
            return self.con.execute(sql, *args)

        def __getattr__(self, name):
            return getattr(self.con, name)

    monkeypatch.setattr(store.sqlite3, "connect", lambda *a, **k: Stale(connect(*a, **k)))
    s = Store(path)
    s.close()


def test_a_region_as_large_as_the_puzzle_is_refused_for_what_it_is(capsys, tmp_path):
    """--region-size 1000 on an 8-piece puzzle was told "--excess must be at least 1" (the default excess
    had gone negative)."""
    argv = ["tilability", "serenity", "--region-size", "1000", "--samples", "2", "-o", str(tmp_path / "w.json")]
    assert "--region-size 1000 leaves no piece to offer" in one_line_exit_2(capsys, argv)


def test_run_on_a_scheduler_that_does_not_answer_is_one_line_and_no_database(capsys, tmp_path):
    """It was an internal error after Dask's 30 s, with an empty database left behind."""
    cfg = queens_config(tmp_path / "c.toml")
    db = tmp_path / "r.sqlite"
    argv = ["run", str(cfg), "--db", str(db), "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--quiet"]
    assert "no Dask scheduler answers there" in one_line_exit_2(capsys, argv)
    assert not db.exists()


def test_a_full_disk_under_the_results_is_said_not_called_a_bug(capsys, tmp_path, monkeypatch):
    """A full disk is the machine, not bad input and not a bug: one line naming the database, and the
    rows stored before are kept (it was an internal error)."""
    import sqlite3

    from experiments import store

    cfg = queens_config(tmp_path / "c.toml", names=("queens-5", "queens-6"))
    db = tmp_path / "r.sqlite"
    real = store.Store.add_result
    calls = []

    def full(self, row):
        calls.append(1)
        if len(calls) > 1:
            raise sqlite3.OperationalError("database or disk is full")
        real(self, row)

    monkeypatch.setattr(store.Store, "add_result", full)
    err = one_line_exit_2(capsys, ["run", str(cfg), "--db", str(db), "--quiet", "--jobs", "1"])
    assert str(db) in err and "disk is full" in err and "run the same command again" in err
    assert len(Store(db).results()) == 1


def test_decode_refuses_a_model_or_cnf_of_another_puzzle(capsys, tmp_path):
    """A CNF of another puzzle was decoded into an invalid board and written; a model naming variables the
    CNF does not have was blamed on the CNF ("no variable map")."""
    for name, rows in (("a", "3"), ("b", "4")):
        gen = ["generate", "edge", "--rows", rows, "--cols", "3", "--frame-colors", "1", "--inner-colors", "2"]
        assert main([*gen, "-o", str(tmp_path / f"{name}.json")]) == 0
        assert (
            main(["export", str(tmp_path / f"{name}.json"), "--to", "dimacs", "-o", str(tmp_path / f"{name}.cnf")]) == 0
        )
    model = tmp_path / "m.txt"
    model.write_text("s SATISFIABLE\nv 1 0\n")
    out = tmp_path / "d.json"
    decode = [
        "decode",
        str(tmp_path / "b.json"),
        "--from",
        str(tmp_path / "a.cnf"),
        "--model",
        str(model),
        "-o",
        str(out),
    ]
    assert "written for a different puzzle" in one_line_exit_2(capsys, decode)
    decode[1] = str(tmp_path / "a.json")
    model.write_text("s SATISFIABLE\nv 99999999 0\n")
    assert "names variable 99999999" in one_line_exit_2(capsys, decode)
    model.write_text("s SATISFIABLE\nv -1 -2 0\n")
    assert "sets none of the" in one_line_exit_2(capsys, decode)
    assert not out.exists()


def test_tilability_leaves_an_experiment_s_config_beside_its_database_untouched(capsys, tmp_path):
    """`tilability --db tiny.sqlite` wrote its own config over tiny.toml, the experiment's config."""
    mine = tmp_path / "tiny.toml"
    mine.write_text('name = "tiny"\n')
    argv = ["tilability", "serenity", "--region-size", "2", "--samples", "2", "--db", str(tmp_path / "tiny.sqlite")]
    assert "was not written by eternity tilability" in one_line_exit_2(capsys, [*argv, "-o", str(tmp_path / "w.json")])
    assert mine.read_text() == 'name = "tiny"\n' and not (tmp_path / "tiny.sqlite").exists()


def test_an_option_given_twice_with_two_values_is_refused(capsys):
    assert "option seed given twice ('1' and '2')" in one_line_exit_2(
        capsys, ["solve", "queens-5", "--opt", "seed=1", "--opt", "seed=2"]
    )


def test_the_same_checkpointed_command_again_does_not_replace_its_checkpoint(capsys, tmp_path):
    """After a kill, the same `--checkpoint DIR` command started afresh and replaced the frontier and the
    best board (an hour of beam, in mode best); it now says to add --resume DIR."""
    ck = tmp_path / "ck"
    argv = ["solve", "eternity2-clue1", "--solver", "beam", "--opt", "width=1000", "--checkpoint", str(ck), "--quiet"]
    assert main(argv) == 0
    before = {f.name: f.read_bytes() for f in ck.iterdir()}
    assert "--resume" in one_line_exit_2(capsys, argv)
    assert {f.name: f.read_bytes() for f in ck.iterdir()} == before
    assert main([*argv, "--resume", str(ck)]) == 0


def test_table_says_when_one_experiment_holds_cells_of_several_time_limits(tmp_path, capsys):
    """A config whose time limit changed between runs stores cells of both; the table pooled them silently."""
    cfg, db = tmp_path / "c.toml", str(tmp_path / "r.sqlite")
    for limit in ("5.0", "10.0"):
        queens_config(cfg, f"time_limit = {limit}")
        assert main(["run", str(cfg), "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["table", db]) == 0
    assert "2 time limits (5 s, 10 s)" in capsys.readouterr().err


def test_a_critical_sweep_that_would_run_for_minutes_is_refused(capsys):
    """32x32 with 1000 seeds ran silently for about 27 minutes."""
    err = one_line_exit_2(capsys, ["estimate", "--critical", "32x32:3", "--seeds", "1000"])
    assert "at most 40 seeds on a 32x32 board" in err
