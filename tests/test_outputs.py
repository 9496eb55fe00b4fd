"""Every path out of the program: checked before work, written whole with the user's umask, never lost.

Each way an output can go wrong is reproduced here: the command exits 2 with one line naming the
option or file and the problem, and leaves no partial file behind; a solve whose answer cannot be
written at the end keeps it in a rescue file.
"""

import json
import os
import sqlite3
import stat

import pytest

from eternity.cli import main


def _err(capsys) -> str:
    err = capsys.readouterr().err
    lines = [ln for ln in err.strip().splitlines() if ln]
    assert len(lines) == 1 and lines[0].startswith("eternity: error:") and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", "queens-8", "-o", "/proc/x.json"], ["-o /proc/x.json", "cannot write"]),
        (["solve", "queens-8", "-o", "DIR"], ["-o", "is a directory"]),
        (["solve", "queens-8", "--svg", "/proc/x.svg"], ["--svg", "cannot write"]),
        ("generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 1 -o DIR".split(), ["-o", "is a directory"]),
        (["render", "queens-8", "-o", "/proc/q.svg"], ["-o", "cannot write"]),
        (["run", "CFG", "--db", "/proc/x.sqlite"], ["--db", "cannot write"]),
        (["run", "CFG", "--db", "DIR"], ["--db", "is a directory"]),
        (["table", "NOTDB"], ["not a results database"]),
        (["plot", "DB", "-o", "OUT/x.xyz"], ["-o", "not an image format"]),
        (["solve", "brendan-3x3", "--solver", "beam", "--opt", "width=-5"], ["option width", "outside its range 1.."]),
        (["solve", "brendan-3x3", "--solver", "beam", "--opt", "width=0"], ["option width", "outside its range"]),
        (["solve", "queens-8", "--time-limit", "-1"], ["--time-limit", "outside its range"]),
        (["solve", "queens-8", "--node-limit", "-3"], ["--node-limit", "outside its range"]),
        (
            ["generate", "polyform", "--rows", "4", "--cols", "5", "--size", "0", "-o", "OUT/p.json"],
            ["--size", "outside its range"],
        ),
        (
            "generate edge --rows 100000 --cols 3 --frame-colors 1 --inner-colors 1 -o OUT/e.json".split(),
            ["--rows", "2..256"],
        ),
        (
            "generate edge --rows 2000 --cols 2000 --frame-colors 1 --inner-colors 1 -o OUT/e.json".split(),
            ["--rows", "2..256"],
        ),
        (["generate", "polyform", "--grid", "nosuch", "-o", "OUT/p.json"], ["--grid", "'nosuch'"]),
        (["run", "EMPTYCFG", "--db", "OUT/e.sqlite"], ["families.none", "selects no instance"]),
        (["table", "FOREIGN"], ["not an eternity results database"]),
        (
            ["solve", "queens-5", "--solver", "sat", "--opt", "backend=kissat404", "--opt", "conflicts=10"],
            ["kissat404", "cannot be stopped by a conflict limit"],
        ),
    ],
)
def test_each_bad_output_or_value_is_one_line_and_exit_2(argv, words, tmp_path, capsys, db):
    out = tmp_path / "out"
    out.mkdir()
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        'name = "c"\nfamilies = [{kind = "builtin", name = "b", names = ["queens-4"]}]\n'
        'solvers = [{name = "backtrack"}]\n'
    )
    empty = tmp_path / "empty.toml"
    empty.write_text(
        'name = "e"\nfamilies = [{kind = "files", name = "none", glob = "/nonexistent/*.json"}]\n'
        'solvers = [{name = "backtrack"}]\n'
    )
    notdb = tmp_path / "notdb.sqlite"
    notdb.write_text("hello")
    foreign = tmp_path / "foreign.sqlite"
    con = sqlite3.connect(foreign)
    con.execute("CREATE TABLE t (a)")
    con.commit()
    con.close()
    names = {
        "DIR": str(tmp_path),
        "CFG": str(cfg),
        "EMPTYCFG": str(empty),
        "NOTDB": str(notdb),
        "FOREIGN": str(foreign),
        "DB": db,
    }
    argv = [names.get(a, a.replace("OUT", str(out))) for a in argv]
    assert main(argv) == 2
    line = _err(capsys)
    for w in words:
        assert w in line, line
    assert os.listdir(out) == []  # nothing written, not even half a file


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    d = tmp_path_factory.mktemp("db")
    cfg = d / "q.toml"
    cfg.write_text(
        'name = "q"\nfamilies = [{kind = "builtin", name = "b", names = ["queens-5"]}]\n'
        'solvers = [{name = "backtrack", mode = "count"}]\n'
    )
    assert main(["run", str(cfg), "--db", str(d / "q.sqlite"), "--quiet"]) == 0
    return str(d / "q.sqlite")


def test_a_solved_answer_that_cannot_be_written_is_kept(tmp_path, monkeypatch, capsys):
    """The output was fine when checked, and failed at the end (a full disk, say): the answer goes to a
    rescue file and the one-line error names it."""
    from puzzles.files import outputs

    real = outputs.atomic_write

    def failing(path, text):
        if str(path).endswith("answer.json"):
            raise OSError(28, "No space left on device")
        return real(path, text)

    monkeypatch.setattr(outputs, "atomic_write", failing)
    monkeypatch.chdir(tmp_path)
    assert main(["solve", "queens-8", "-o", str(tmp_path / "answer.json")]) == 2
    line = _err(capsys)
    assert "No space left on device" in line and "rescued" in line
    rescued = [p for p in tmp_path.iterdir() if "rescued" in p.name]
    assert len(rescued) == 1
    doc = json.loads(rescued[0].read_text())
    assert doc["format"] == "eternity/solution" and len(doc["placements"]) == 8


def test_files_follow_the_umask(tmp_path, db):
    old = os.umask(0o022)
    try:
        out = tmp_path
        cmds = [
            "generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split()
            + [str(out / "g.json"), "--planted", str(out / "s.json")],
            ["solve", "queens-6", "-o", str(out / "q.json"), "--svg", str(out / "q.svg"), "--quiet"],
            ["render", "queens-6", str(out / "q.json"), "-o", str(out / "r.svg")],
            ["export", "queens-6", "--to", "xcc", "-o", str(out / "q.dlx")],
            ["plot", db, "-o", str(out / "c.png")],
        ]
        for argv in cmds:
            assert main(argv) == 0, argv
        for name in ("g.json", "s.json", "q.json", "q.svg", "r.svg", "q.dlx", "c.png"):
            assert stat.S_IMODE((out / name).stat().st_mode) == 0o644, name
        assert stat.S_IMODE(os.stat(db).st_mode) == 0o644
    finally:
        os.umask(old)


def test_verified_is_absent_when_there_is_nothing_to_check(capsys):
    assert main(["solve", "queens-6", "--mode", "count", "--json"]) == 0
    assert "verified" not in json.loads(capsys.readouterr().out)
    assert main(["solve", "queens-6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verified"] is True
    assert main(["solve", "brendan-8x8", "--node-limit", "5"]) == 3
    assert "verified" not in capsys.readouterr().out


def test_progress_is_logged_when_stderr_is_not_a_terminal(monkeypatch, capsys):
    from solving import progress

    monkeypatch.setattr(progress, "EVERY_S", 0.0)
    assert main(["solve", "brendan-8x8", "--time-limit", "1.5"]) == 3
    err = capsys.readouterr().err
    assert "eternity solve brendan-8x8: [" in err and "placements" in err
    assert main(["solve", "brendan-8x8", "--time-limit", "1.5", "--quiet"]) == 3
    assert "eternity solve brendan-8x8: [" not in capsys.readouterr().err


def test_validator_messages_name_the_field_as_the_file_does(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'name = "x"\nfamilies = [{kind = "edge", name = "a", rows = [0], cols = [3], frame_colors = [1], '
        'inner_colors = [1]}]\nsolvers = [{name = "backtrack"}]\n'
    )
    assert main(["run", str(bad), "--db", str(tmp_path / "b.sqlite")]) == 2
    line = _err(capsys)
    assert "families.0.rows.0" in line and "list[" not in line and "constrained" not in line
    js = tmp_path / "bad.json"
    js.write_text('{"format": "eternity/edge", "name": "abc')
    assert main(["info", str(js)]) == 2
    assert "invalid JSON: unterminated string starting here" in _err(capsys)


def test_every_numeric_solver_option_declares_a_range():
    import solving

    for name in solving.names():
        for key, opt in solving.solver_class(name).OPTIONS.items():
            if opt.kind in (int, float):
                assert opt.lo is not None or opt.hi is not None, f"{name}: option {key} has no declared range"
