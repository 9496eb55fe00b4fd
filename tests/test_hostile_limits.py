"""Hostile input and real limits, continued: time limits that hold while models are built, sizes that would
run for hours refused at once, full disks, foreign models and stores opened twice."""

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from helpers.hostile import edge_board_on_disk, one_line_exit_2, queens_config

import solving
from eternity.cli import main
from experiments.store import Store


@pytest.fixture
def e3(tmp_path):
    return edge_board_on_disk(tmp_path)


def test_a_reader_that_goes_away_is_not_an_error():
    """`eternity ... | true`: the pipe is closed before the first line is written; no internal error.  Solvers
    that compile no kernel: on a fresh machine with both cores busy, compiling the native searches' kernels
    once took more than the two minutes this test allows, and the test is about the pipe, not the speed."""
    import subprocess

    eternity = str(Path(sys.executable).parent / "eternity")
    for cmd in ("solve queens-6 --solver sat --mode all", "solve queens-6 --solver cpmpy --mode count", "list"):
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
        ["enumerate", "drafter", "--size", "9", "--forms"],  # the canonical growth: hours past 8
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

    drive(step, lambda: done[0], time_s=0.2, node_limit=None, progress=None, info=dict, on_stop=lambda c: True)
    assert 0 < done[0] < 200  # nodes slept through, not the clock read: a loaded machine only lowers the count


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

    from puzzles.kinds.edge import EdgePuzzle
    from puzzles.make import generate

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
    from puzzles.kinds import edge

    monkeypatch.setattr(edge, "MAX_CANDIDATES", 1000)
    err = one_line_exit_2(capsys, ["solve", "brendan-8x8", "--solver", name, "--time-limit", "5"])
    assert "5,776 placements" in err and "at most 1,000" in err


def test_a_command_that_floods_its_output_is_refused(capsys):
    """`yes` as a SAT solver writes without end: its output is capped and the command refused (it used
    to be read whole into memory, past any time limit)."""
    err = one_line_exit_2(capsys, ["solve", "queens-4", "--solver", "external", "--opt", "cmd=yes"])
    assert "'yes' does not answer" in err and "more than 256 MB" in err


def test_owen_s_model_is_refused_past_its_size_and_info_goes_on(capsys, monkeypatch):
    from puzzles.estimates import estimate

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
    from puzzles.make import generate

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


@pytest.mark.timing
def test_a_sample_of_ten_million_ends_with_its_limit_writing_included(tmp_path):
    """The draws stop early enough for the checks and the file: the command ends within the limit, its grace,
    and the loading that no limit counts (it once drew for the limit, then checked and wrote for 12 s more)."""
    import json
    import subprocess
    import sys
    import time

    out = tmp_path / "s.json"
    t0 = time.perf_counter()
    cmd = [sys.executable, "-m", "eternity", "solve", "dominoes-4x4", "--mode", "sample", "--samples", "10000000",
           "--time-limit", "5", "-o", str(out), "--json"]  # fmt: skip
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    d = json.loads(r.stdout)
    assert d["status"] == "limit" and len(json.loads(out.read_text())["solutions"]) > 0
    assert wall < 5 + solving.verified.grace(5) + d["load_s"] + 3.0  # 3 s: the interpreter and its imports


def test_unchecked_solutions_are_dropped_at_the_deadline_never_returned():
    """Event-driven: a deadline already past keeps the first 256 checked solutions of a sample and drops the
    rest, with the result a limit that says so."""
    import time

    from puzzles import catalog

    p = catalog.load("dominoes-4x4")
    res = solving.get("backtrack").solve(p, mode="sample", limits=solving.Limits(solutions=2000))
    assert len(res.solutions) == 2000
    ok = solving.check_answer(p, res, "sample", deadline=time.perf_counter() - 1)
    assert ok and len(res.solutions) == 256 and res.status == solving.Status.LIMIT
    assert res.stats["dropped_unchecked"] == 2000 - 256 and "dropped unchecked" in res.message
