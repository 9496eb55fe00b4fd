"""Fuzzing every subcommand: random argument vectors, random bytes, JSON of the right shape with wrong
values, random TOML configs.  The property: an exit status from 0 to 3, never a traceback (an exception
escaping ``main``), never a partial output file.  Derandomised, so CI sees the same 2,000+ cases each run;
the vocabulary keeps every case small (tiny puzzles, short limits), so it runs in a minute or two.
"""

import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eternity.cli import main

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = dict(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    """Files the vocabulary names: good and bad puzzles, solutions, configs and databases."""
    d = tmp_path_factory.mktemp("fuzz")
    assert (
        main(
            "generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split()
            + [str(d / "e3.json"), "--planted", str(d / "e3sol.json")]
        )
        == 0
    )
    assert (
        main(
            "generate polyform --rows 2 --cols 5 --size 5 -o".split()
            + [str(d / "p.json"), "--planted", str(d / "psol.json")]
        )
        == 0
    )
    assert main(["commit", str(d / "e3.json"), str(d / "e3sol.json"), "-o", str(d / "e3commit.json")]) == 0
    assert (
        main(
            [
                "open",
                str(d / "e3.json"),
                str(d / "e3sol.json"),
                str(d / "e3commit.json"),
                "--side",
                "left",
                "-o",
                str(d / "e3half.json"),
            ]
        )
        == 0
    )
    assert (
        main(["prove", str(d / "e3.json"), str(d / "e3sol.json"), "--rounds", "3", "-o", str(d / "e3proof.json")]) == 0
    )
    (d / "bytes.bin").write_bytes(bytes(range(256)) * 3)
    (d / "empty.json").write_text("")
    (d / "trunc.json").write_text('{"format": "eternity/edge", "version": 1, "rows": 3, "cols"')
    (d / "dir").mkdir()
    cfg = d / "ok.toml"
    cfg.write_text(
        'name = "ok"\ntime_limit = 5.0\nfamilies = [{kind = "builtin", name = "b", names = ["queens-5"]}]\n'
        'solvers = [{name = "backtrack", mode = "count"}, {name = "sat", mode = "count"}]\n'
    )
    assert main(["run", str(cfg), "--db", str(d / "ok.sqlite"), "--jobs", "1", "--quiet"]) == 0
    con = sqlite3.connect(d / "foreign.sqlite")
    con.execute("CREATE TABLE t (a)")
    con.commit()
    con.close()
    return d


# the studies' defaults are sized for a user's minutes: small ones here, unless the case names its own
SMALL = {
    "selby": {"--seeds": "2", "--widths": "4,8", "--rows": "3", "--cols": "3", "--budget": "500", "--states": "1"},
    # a hunt runs until its budget: every fuzz case gets one of seconds, and slices of one
    "hunt": {"--budget": "2", "--slice": "1"},
}


def _run(argv: list[str], out_dir: Path) -> tuple[int, str]:
    argv = argv + [w for k, v in SMALL.get(argv[0], {}).items() if k not in argv for w in (k, v)]
    if argv[0] == "selby" and "--depth" not in argv and "--width" not in argv:
        argv += ["--depth", "6", "--width", "8"]
    err, out = io.StringIO(), io.StringIO()
    # in the output directory: a word taken as a file name (render -o queens-4) lands there, not in the repository
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out), contextlib.chdir(out_dir):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's --help exits 0 through SystemExit: allowed
            code = e.code if isinstance(e.code, int) else 2
    return code, err.getvalue()


def _check(argv: list[str], code: int, err: str, out_dir: Path) -> None:
    assert code in (0, 1, 2, 3), (argv, code, err[-500:])
    assert "Traceback" not in err, (argv, err[-2000:])
    if code == 2:
        lines = [ln for ln in err.strip().splitlines() if ln.startswith("eternity: error:")]
        assert lines, (argv, err[-500:])
    leftovers = [p.name for p in out_dir.iterdir() if p.name.startswith(".")]
    assert not leftovers, (argv, leftovers)  # a temporary file left behind is a partial output
    for p in out_dir.rglob("*"):  # what was written is whole, whatever its name says
        if not p.is_file() or p.name.endswith(("-wal", "-shm")):  # SQLite's own journal files
            continue
        data = p.read_bytes()
        assert data, (argv, p.name)  # never an empty file
        if data[:1] == b"{":
            json.loads(data)
        elif data.lstrip()[:4] in (b"<svg", b"<?xm"):
            assert data.rstrip().endswith(b"</svg>"), (argv, p.name)


PUZZLES = "queens-4 queens-5 brendan-3x3 brendan-4x4 pentomino-3x20 nosuch FILE:e3.json FILE:p.json FILE:bytes.bin FILE:empty.json FILE:trunc.json FILE:dir FILE:missing.json".split()
NUMBERS = ["0", "1", "2", "3", "-1", "-5", "0.5", "1e9", "100000", "nan", "inf", "abc", ""]
OUTPUTS = ["OUT:a.json", "OUT:a.svg", "OUT:a.png", "OUT:a.xyz", "/proc/x.json", "OUT:", "OUT:sub/b.json"]
PICTURES = ["OUT:a.svg", "OUT:b.svg", "OUT:sub/c.svg"] + OUTPUTS  # render writes SVG: most names end in .svg
SOLUTIONS = ["FILE:e3sol.json", "FILE:psol.json", "FILE:bytes.bin", "FILE:trunc.json", "FILE:missing.json"]
PROOF_FILES = "FILE:e3commit.json FILE:e3half.json FILE:e3proof.json FILE:bytes.bin FILE:trunc.json FILE:missing.json FILE:e3sol.json".split()
DBS = ["FILE:ok.sqlite", "FILE:foreign.sqlite", "FILE:bytes.bin", "FILE:missing.sqlite", "FILE:dir"]


def _words(*pools):
    return st.lists(st.sampled_from(sorted({w for p in pools for w in p})), max_size=8)


FLAGS = {
    "list": ["--json"],
    "solvers": ["--json"],
    "info": ["--json"] + PUZZLES,
    "enumerate": ["square", "triangle", "hexagon", "drafter", "nosuch", "--size", "--json", "--forms", "--dudes"]
    + NUMBERS,
    "solve": PUZZLES
    + "--solver backtrack edge-backtrack cpsat sat beam nosuch --mode first count all best --opt width=10 width=-5 width=0 order=mrv order=nosuch engine=dlx backend=kissat404 backend=minisat22 workers=2 seed=3 = nokey --distinct --time-limit --node-limit --limit --show --json --quiet -o --svg --checkpoint --resume".split()
    + NUMBERS
    + OUTPUTS,
    "verify": PUZZLES
    + SOLUTIONS
    + ["--score", "--json", "--commitment", "FILE:e3commit.json", "FILE:e3half.json", "--windows", "--window-time"]
    + ["2", "3", "9", "0.1", "x"],
    # no -o in the loose vocabularies: "-o FILE:e3sol.json" there would write over the world's own files
    "commit": PUZZLES + SOLUTIONS + OUTPUTS,
    "open": PUZZLES + SOLUTIONS + PROOF_FILES + ["--side", "left", "right", "x"] + OUTPUTS,
    "prove": PUZZLES + SOLUTIONS + ["--score", "--bits", "--rounds"] + NUMBERS[:8] + OUTPUTS,
    "check-proof": PUZZLES + PROOF_FILES,
    "render": PUZZLES + SOLUTIONS + ["--pieces", "-o"] + PICTURES,
    "generate": "edge polyform --rows --cols --frame-colors --inner-colors --seed --size --excess --grid square drafter nosuch --region hexagon:2 hexagon:x --dudes --hints --no-mirror -o --planted".split()
    + NUMBERS[:9]
    + OUTPUTS,
    "export": PUZZLES
    + "--to xcc dimacs cpsat bucas solution json nosuch --opt amo=ladder amo=nosuch -o".split()
    + OUTPUTS,
    "estimate": PUZZLES
    + "--order rowscan spiral nosuch --slips 1,2 x,y 0 --critical 5x5:2 4x4:1 axb 3x3:0 --seeds --json --plot".split()
    + NUMBERS[:6]
    + OUTPUTS,
    "decode": PUZZLES + ["--from", "--model", "-o"] + SOLUTIONS + OUTPUTS,
    # small values only: --max 10,000 values Grundy's game for seconds, a fuzz case should not
    "game": (
        "grundy snakes beaver foxgeese maharajah hexagon nosuch --max --misere-max --games --cards --steps --board "
        "--order --geese "
        "--foxes --first --start --strategy fox geese far any --men R N QRB P --json 0 1 2 4 5 30 x -2"
    ).split(),
    "checkerboard": "queens rooks3d halves queens3d nosuch --max --json --draw 0 1 5 8 30 x -2".split() + OUTPUTS,
    "table": DBS + ["--format", "md", "csv", "latex", "json", "nosuch", "--clock", "solve", "search", "total", "cpu"],
    "compare": DBS + ["backtrack", "sat", "x", "--clock", "cpu", "--format", "json", "--experiment"],
    "report": DBS + ["-o", "--clock", "cpu", "--config"] + OUTPUTS,
    "migrate": DBS,
    "hunt": PUZZLES
    + [
        "--dir",
        "--solver",
        "beam",
        "sat",
        "--opt",
        "width=4",
        "--slice",
        "--budget",
        "1",
        "2",
        "x",
        "-3",
        "--jobs",
        "--merge",
        "--json",
        "--quiet",
    ]
    + OUTPUTS,  # fmt: skip
    "board-state": PUZZLES + SOLUTIONS + ["eternity2", "--json"],
    "configs": ["--json", "x"],
    "encodings": ["queens-4", "owen-a", "FILE:p.json", "FILE:bytes.bin", "nosuch", "--json", "--amo", "--limit"],
    # small boards and budgets only: a harvest of Eternity's full board builds for 40 s
    "endgame": "harvest fates excess fit evaluate nosuch OUT:h OUT: FILE:p.json FILE:bytes.bin FILE:dir --puzzle eternity1-boat queens-4 --width --time-limit --from-left --probe-at --exhaust-at --weights --left 5 3,2 x --budget --reconnoitre --extra --seed --limit --score --quiet -o 0 1 2 3 -1".split()
    + OUTPUTS,
    "encode": ["queens-4", "owen-a", "FILE:p.json", "FILE:bytes.bin", "--encoding", "direct", "heule-all-card", "xcc"]
    + ["nosuch", "--json", "-o"]
    + OUTPUTS,
    "scramble": ["owen-a", "queens-4", "FILE:p.json", "FILE:bytes.bin", "--seed", "--name", "--format", "heule"]
    + ["json", "pieces", "x", "-o"]
    + OUTPUTS
    + NUMBERS[:4],
    "plot": DBS + ["--kind", "cactus", "hardness", "nosuch", "--clock", "total", "-o"] + OUTPUTS,
    "run": "FILE:ok.toml FILE:bytes.bin FILE:missing.toml --db --jobs --executor local nosuch --scheduler x --quiet".split()
    + DBS
    + OUTPUTS
    + NUMBERS[:6],
    "selby": DBS
    + "branching beam-tree beam-width x --experiment --width --seeds --depth --b0 --b-end --rows --cols --frame-colors --inner-colors --widths --budget --time-limit --quiet --format json md beam-diversity parity --states --region-size --excess --seed --plot".split()
    + OUTPUTS,
    "tilability": "queens-4 FILE:p.json FILE:bytes.bin --region-size --excess --samples --regions last first nosuch --seed --time-limit --jobs --db --plot --sizes --width --beam-seconds --per-level --band --quiet -o".split()
    + NUMBERS[:7]
    + OUTPUTS,
}


SOLVERS = ["backtrack", "edge-backtrack", "cpsat", "sat", "beam", "nosuch"]
OPTS = "width=10 width=-5 width=0 order=mrv order=spiral order=nosuch engine=dlx engine=x backend=kissat404 backend=minisat22 workers=2 seed=3 amo=ladder model=xcc = nokey memo=true memo_mb=1 diagram=d.npz from_diagram=bytes.bin".split()
SHAPES = {  # command: (positional pools, {flag: value pool, or None for a switch})
    "list": ([], {"--json": None}),
    "solvers": ([], {"--json": None}),
    "info": ([PUZZLES], {"--json": None}),
    "enumerate": (
        [["square", "triangle", "hexagon", "drafter", "nosuch"]],
        {"--size": ["1", "3", "5", "0", "13", "x"], "--json": None, "--forms": None, "--dudes": None},
    ),
    "solve": (
        [PUZZLES],
        {
            "--solver": SOLVERS,
            "--mode": ["first", "count", "all", "best", "sample", "x"],
            "--opt": OPTS,
            "--samples": NUMBERS,
            "--distinct": None,
            "--node-limit": NUMBERS,
            "--limit": NUMBERS,
            "--show": NUMBERS,
            "--json": None,
            "--quiet": None,
            "-o": OUTPUTS,
            "--svg": OUTPUTS,
            "--checkpoint": ["OUT:ck", "OUT:a.json", "/proc/ck"],
            "--resume": ["OUT:ck", "FILE:dir"],
        },
    ),
    "verify": (
        [["FILE:e3.json"] * 4 + PUZZLES, ["FILE:e3sol.json"] * 4 + SOLUTIONS + ["FILE:e3half.json"]],
        {
            "--score": None,
            "--json": None,
            "--commitment": PROOF_FILES,
            "--windows": ["2", "3", "9", "x"],
            "--window-time": ["0.1", "0", "x"],
        },
    ),
    "commit": ([["FILE:e3.json"] * 12 + PUZZLES, ["FILE:e3sol.json"] * 8 + SOLUTIONS], {"-o": OUTPUTS}),
    "open": (
        [
            ["FILE:e3.json"] * 6 + ["nosuch", "FILE:p.json"],
            ["FILE:e3sol.json"] * 6 + ["FILE:psol.json"],
            ["FILE:e3commit.json"] * 6 + PROOF_FILES,
        ],
        {"--side": ["left", "right"] * 3 + ["x"], "-o": ["OUT:a.json"] * 6 + OUTPUTS},
    ),
    "prove": (
        [["FILE:e3.json"] * 12 + PUZZLES, ["FILE:e3sol.json"] * 8 + SOLUTIONS],
        {"--score": NUMBERS[:8], "--bits": NUMBERS[:8], "--rounds": ["1", "2", "0", "x", "2000"], "-o": OUTPUTS},
    ),
    "check-proof": ([["FILE:e3.json"] * 6 + PUZZLES, ["FILE:e3proof.json"] * 6 + PROOF_FILES], {}),
    "render": ([PUZZLES, SOLUTIONS], {"--pieces": None, "-o": PICTURES}),
    "generate": (
        [["edge", "polyform"]],
        {
            "--rows": NUMBERS[:9],
            "--cols": NUMBERS[:9],
            "--frame-colors": NUMBERS[:6],
            "--inner-colors": NUMBERS[:6],
            "--seed": NUMBERS[:6],
            "--size": NUMBERS[:6],
            "--excess": NUMBERS[:6],
            "--grid": ["square", "drafter", "nosuch"],
            "--region": ["hexagon:2", "hexagon:x", "eternity1-boat", "queens-4"],
            "--dudes": None,
            "--no-mirror": None,
            "-o": OUTPUTS,
            "--planted": OUTPUTS,
        },
    ),
    "export": (
        [PUZZLES],
        {
            "--to": ["xcc", "dimacs", "cpsat", "bucas", "solution", "json", "x"],
            "--opt": OPTS + ["solution=FILE:e3sol.json"],
            "-o": OUTPUTS,
        },
    ),
    "estimate": (
        [PUZZLES],
        {
            "--order": ["rowscan", "spiral", "nosuch", "FILE:bytes.bin"],
            "--slips": ["1,2", "x,y", "0", "4"],
            "--json": None,
            "--measure": None,
            "--plot": OUTPUTS,
            "--critical": ["4x4:1", "axb", "3x3:0", "5x5:2"],
        },
    ),
    "decode": ([PUZZLES], {"--from": SOLUTIONS, "--model": SOLUTIONS, "-o": OUTPUTS}),
    "game": (
        [["grundy", "snakes", "beaver", "foxgeese", "maharajah", "x"]],
        {
            "--board": ["4", "6", "5", "11", "x"],
            "--men": ["R", "N", "QRB", "P", ""],
            "--geese": ["1", "2", "3", "9"],
            "--foxes": ["1", "2", "3"],
            "--first": ["fox", "geese", "x"],
            "--start": ["far", "any", "x"],
            "--cards": ["1", "2", "0", "4", "x"],
            "--steps": ["50", "200", "10", "x"],
            "--max": ["1", "12", "40", "0", "x"],
            "--misere-max": ["5", "50", "x"],
            "--games": ["10", "0", "x"],
            "--strategy": None,
            "--json": None,
        },
    ),  # fmt: skip
    "checkerboard": (
        [["queens", "rooks3d", "halves", "queens3d", "x"]],
        {"--max": ["1", "8", "12", "0", "30", "x"], "--json": None, "--draw": ["OUT:q.png", "OUT:q.svg"] + OUTPUTS},
    ),
    "table": (
        [["FILE:ok.sqlite"] * 3 + DBS],
        {"--format": ["md", "csv", "latex", "json", "x"], "--clock": ["solve", "search", "total", "x"]},
    ),
    "migrate": ([["FILE:ok.sqlite"] * 3 + DBS], {}),
    "hunt": (
        [["brendan-3x3"] * 4 + ["FILE:e3.json"] * 3 + ["queens-4", "FILE:bytes.bin", "nosuch"]],
        {
            "--dir": ["OUT:h"] * 6 + ["OUT:", "FILE:p.json", "FILE:dir"],
            "--solver": ["beam"] * 4 + ["sat", "x"],
            "--opt": ["width=4"] * 4 + ["seed=3", "x"],
            "--budget": ["1", "2", "2", "x", "-3", "inf"],
            "--slice": ["1", "1", "0.5", "x"],
            "--jobs": ["1", "2"],
            "--merge": ["OUT:h", "FILE:dir", "FILE:p.json"],
            "--json": None,
            "--quiet": None,
        },
    ),
    "board-state": ([["eternity2", "brendan-3x3", "queens-4", "FILE:e3.json", "nosuch"], SOLUTIONS], {"--json": None}),
    "compare": (
        [["FILE:ok.sqlite"] * 3 + DBS, ["backtrack", "sat", "x"], ["backtrack", "sat", "x"]],
        {"--clock": ["solve", "cpu", "x"], "--format": ["md", "json", "x"]},
    ),
    "report": ([["FILE:ok.sqlite"] * 3 + DBS], {"-o": ["OUT:r.html"] + OUTPUTS, "--clock": ["solve", "cpu", "x"]}),
    "configs": ([], {"--json": None}),
    "encodings": ([["queens-4", "queens-5", "FILE:p.json", "FILE:bytes.bin", "x"]], {"--json": None}),
    "endgame": (
        [["harvest", "fates", "excess", "fit", "evaluate", "x"], ["OUT:h", "OUT:", "FILE:p.json", "FILE:bytes.bin"]],
        {
            "--puzzle": ["eternity1-boat", "queens-4", "FILE:p.json", "x"],
            "--width": ["1", "5", "0", "x"],
            "--time-limit": ["1", "2", "x"],
            "--from-left": ["5", "0"],
            "--left": ["5", "3,2", "x", "0"],
            "--budget": ["100", "0"],
            "--extra": ["1", "3", "0"],
            "--limit": ["2"],
            "--score": ["FILE:p.json", "FILE:bytes.bin", "FILE:missing.json"],
            "--weights": ["FILE:p.json", "FILE:missing.json"],
            "--quiet": None,
            "-o": OUTPUTS,
        },
    ),
    "encode": (
        [["owen-a", "queens-4", "FILE:p.json", "FILE:bytes.bin", "x"]],
        {"--encoding": ["direct", "heule-exp-aux", "xcc", "x"], "-o": ["OUT:a.cnf"] * 3 + OUTPUTS, "--json": None},
    ),
    "scramble": (
        [["owen-a", "FILE:p.json", "FILE:bytes.bin", "queens-4", "x"]],
        {
            "--seed": ["0", "7", "-1", "x"],
            "--format": ["heule", "json", "pieces", "x"],
            "-o": ["OUT:s.txt"] * 3 + OUTPUTS,
        },
    ),
    "plot": (
        [["FILE:ok.sqlite"] * 3 + DBS],
        {"--kind": ["cactus", "hardness", "x"], "--clock": ["total", "solve"], "-o": ["OUT:a.png"] * 4 + OUTPUTS},
    ),
    "run": (
        [["FILE:ok.toml", "FILE:bytes.bin", "FILE:missing.toml"]],
        {
            "--db": DBS + OUTPUTS,
            "--jobs": NUMBERS[:6],
            "--executor": ["local", "x"],
            "--scheduler": ["x"],
            "--quiet": None,
        },
    ),
    "selby": (
        [
            ["branching", "beam-tree", "beam-tree", "beam-width", "beam-width", "beam-diversity", "parity"],
            ["FILE:ok.sqlite"],
        ],
        {
            "--width": ["2", "8", "4"],
            "--seeds": ["1", "2"],
            "--depth": ["4", "5"],
            "--b0": ["3", "2"],
            "--b-end": ["1", "2"],
            "--rows": ["3", "4"],
            "--cols": ["3", "4"],
            "--frame-colors": ["2", "1"],
            "--inner-colors": ["3", "2"],
            "--widths": ["4,8", "2", "x"],
            "--budget": ["500", "100"],
            "--time-limit": ["2", "1"],
            "--experiment": ["branching", "x"],
            "--format": ["md", "json"],
            "--quiet": None,
            "--states": ["1"],
            "--plot": ["OUT:w.png"] + OUTPUTS,
            "--region-size": ["3", "4"],
            "--excess": ["2", "5"],
            "--seed": ["0", "1", "-1"],
        },
    ),
    "tilability": (
        [["queens-4", "FILE:p.json", "FILE:bytes.bin"]],
        {
            "--region-size": NUMBERS[:6],
            "--excess": NUMBERS[:6],
            "--samples": ["2", "3", "1", "x"],
            "--regions": ["last", "first", "x"],
            "--seed": NUMBERS[:4],
            "--jobs": ["1", "0"],
            "--db": OUTPUTS,
            "--plot": OUTPUTS,
            "--sizes": ["FILE:bytes.bin", "FILE:p.json", "FILE:missing.json"],
            "--width": ["1", "0", "x"],
            "--band": ["1", "0", "x"],
            "--quiet": None,
            "-o": OUTPUTS,
        },
    ),
}


REQUIRED = {
    "hunt": ["--dir"],
    "generate": ["-o", "--rows", "--cols", "--frame-colors", "--inner-colors"],
    "render": ["-o"],
    "commit": ["-o"],
    "open": ["--side", "-o"],
    "prove": ["-o"],
    "export": ["--to", "-o"],
    "decode": ["--from", "--model", "-o"],
    "plot": ["-o"],
    "report": ["-o"],
    "encode": ["--encoding"],
    "scramble": ["-o"],
}


@st.composite
def shaped(draw, command: str) -> list[str]:
    """A command in its usual shape (positionals, then flags with values), each value from a pool that
    mixes good and bad ones; now and then a positional is left out."""
    positional, flags = SHAPES[command]
    words = [draw(st.sampled_from(pool)) for pool in positional if draw(st.integers(0, 9))]
    chosen = [f for f in REQUIRED.get(command, ()) if draw(st.integers(0, 9))]
    rest = sorted(set(flags) - set(chosen))
    chosen += draw(st.lists(st.sampled_from(rest), unique=True, max_size=4)) if rest else []
    for flag in chosen:
        words.append(flag)
        if flags[flag] is not None:
            words.append(draw(st.sampled_from(flags[flag])))
    return words


def _resolve(words: list[str], world: Path, out: Path) -> list[str]:
    argv = []
    for w in words:
        if w.startswith("FILE:"):
            argv.append(str(world / w[5:]))
        elif w.startswith("OUT:"):
            argv.append(str(out / w[4:]) if w[4:] else str(out))
        else:
            argv.append(w)
    return argv


def _fresh_out(world: Path, tag: str) -> Path:
    out = world / "out" / tag
    if out.exists():
        for p in sorted(out.rglob("*"), reverse=True):
            p.unlink() if p.is_file() or p.is_symlink() else p.rmdir()
    out.mkdir(parents=True, exist_ok=True)
    return out


EXAMPLES = {
    "list": 20,
    "solvers": 10,
    "info": 120,
    "enumerate": 120,
    "solve": 420,
    "verify": 150,
    "render": 150,
    "generate": 250,
    "export": 150,
    "estimate": 100,
    "decode": 80,
    "game": 30,
    "checkerboard": 30,
    "table": 100,
    "compare": 40,
    "report": 20,
    "migrate": 20,
    "hunt": 12,
    "board-state": 10,
    "configs": 5,
    "encodings": 20,
    "endgame": 30,
    "encode": 30,
    "scramble": 30,
    "plot": 80,
    "run": 40,
    "tilability": 40,
    "selby": 30,
    "commit": 40,
    "open": 80,
    "prove": 40,
    "check-proof": 40,
}
JSON_CASES, BYTES_CASES, TOML_CASES = 300, 150, 200


@pytest.mark.parametrize("command", sorted(EXAMPLES))
def test_random_argument_vectors(world, command):
    """Random words of each subcommand's vocabulary, in random order (valid and not)."""
    words_of = FLAGS[command]
    limited = command in ("solve", "estimate", "run", "tilability", "endgame")

    @settings(max_examples=EXAMPLES[command], **SETTINGS)
    @given(st.one_of(_words(words_of), shaped(command), shaped(command)))
    def case(words):
        out = _fresh_out(world, command)
        argv = [command] + _resolve(words, world, out)
        if limited and "--time-limit" not in argv:
            argv += ["--time-limit", "2"] if command != "run" else []
        if command == "estimate" and "--critical" in argv:
            argv += ["--seeds", "1"]
        code, err = _run(argv, out)
        _check(argv, code, err, out)
        seen[code] = seen.get(code, 0) + 1

    seen: dict[int, int] = {}
    case()
    if command not in ("run", "tilability", "decode", "endgame"):
        assert seen.get(0, 0) + seen.get(1, 0) + seen.get(3, 0) > 0, seen  # some cases got past the checks


# JSON of the right shape with wrong values
FIELDS = {
    "format": st.sampled_from(["eternity/edge", "eternity/polyform", "eternity/queens", "eternity/solution", "x", 3]),
    "version": st.sampled_from([1, 2, 0, "1", None]),
    "rows": st.one_of(st.integers(-3, 2000), st.text(max_size=3), st.none()),
    "cols": st.one_of(st.integers(-3, 2000), st.floats(allow_nan=True)),
    "pieces": st.one_of(st.lists(st.lists(st.integers(-2, 5), max_size=5), max_size=12), st.text(max_size=4)),
    "fixed": st.lists(
        st.fixed_dictionaries(
            {
                "cell": st.sampled_from(["A1", "Z99", "", "I8"]),
                "piece": st.integers(-1, 300),
                "rotation": st.integers(-1, 5),
            }
        ),
        max_size=2,
    ),
    "grid": st.sampled_from(["square", "drafter", "nosuch", None]),
    "region": st.one_of(
        st.fixed_dictionaries({"cells": st.lists(st.lists(st.integers(-2, 4), min_size=2, max_size=3), max_size=6)}),
        st.text(max_size=3),
    ),
    "n": st.one_of(st.integers(-2, 70), st.text(max_size=2)),
    "puzzle": st.text(max_size=8),
    "placements": st.lists(
        st.one_of(
            st.lists(st.integers(-1, 9), max_size=3),
            st.fixed_dictionaries(
                {"cell": st.text(max_size=3), "piece": st.integers(-1, 12), "rotation": st.integers(-1, 4)}
            ),
        ),
        max_size=10,
    ),
    "mirror": st.sampled_from([True, False, "yes"]),
}


@settings(max_examples=JSON_CASES, **SETTINGS)
@given(
    st.dictionaries(st.sampled_from(sorted(FIELDS)), st.none(), max_size=8).flatmap(
        lambda keys: st.fixed_dictionaries({k: FIELDS[k] for k in keys})
    ),
    st.sampled_from(["info", "solve", "verify", "render", "export"]),
)
def test_json_of_the_right_shape_with_wrong_values(world, doc, command):
    out = _fresh_out(world, "json")
    f = out / "in.json"
    f.write_text(json.dumps(doc))
    if command == "verify":
        argv = ["verify", str(world / "e3.json"), str(f)]
    elif command == "render":
        argv = ["render", str(f), "-o", str(out / "r.svg")]
    elif command == "export":
        argv = ["export", str(f), "--to", "json", "-o", str(out / "x.json")]
    elif command == "solve":
        argv = ["solve", str(f), "--time-limit", "2"]
    else:
        argv = ["info", str(f)]
    code, err = _run(argv, out)
    f.unlink()
    _check(argv, code, err, out)


@settings(max_examples=BYTES_CASES, **SETTINGS)
@given(st.binary(max_size=300), st.sampled_from(["info", "verify", "run", "table", "solve"]))
def test_random_bytes(world, data, command):
    out = _fresh_out(world, "bytes")
    f = out / ("in.toml" if command == "run" else "in.sqlite" if command == "table" else "in.json")
    f.write_bytes(data)
    argv = {
        "info": ["info", str(f)],
        "verify": ["verify", "queens-4", str(f)],
        "run": ["run", str(f), "--db", str(out / "r.sqlite"), "--quiet"],
        "table": ["table", str(f)],
        "solve": ["solve", str(f), "--time-limit", "1"],
    }[command]
    code, err = _run(argv, out)
    f.unlink()
    _check(argv, code, err, out)


TOML_VALUES = st.sampled_from(
    [
        '"x"',
        "1",
        "-1",
        "0",
        "2.5",
        "true",
        "[]",
        "[1, 2]",
        '["queens-4"]',
        "{}",
        "{start = 2, stop = 3}",
        "{start = 3, stop = 2}",
        '"/nonexistent/*.json"',
    ]
)
FAMILY_KEYS = "kind name rows cols frame_colors inner_colors instances names glob size puzzle region_size excess samples regions nosuch".split()
KINDS = st.sampled_from(['"edge"', '"builtin"', '"files"', '"polyform"', '"excess"', '"nosuch"'])


@st.composite
def configs(draw) -> str:
    lines = []
    for key in draw(
        st.lists(
            st.sampled_from(["name", "seed", "repeats", "time_limit", "memory_mb", "nosuch"]), unique=True, max_size=5
        )
    ):
        lines.append(f"{key} = {draw(TOML_VALUES)}")
    for _ in range(draw(st.integers(0, 2))):
        lines.append("[[families]]")
        lines.append(f"kind = {draw(KINDS)}")
        for key in draw(st.lists(st.sampled_from(FAMILY_KEYS[1:]), unique=True, max_size=6)):
            lines.append(f"{key} = {draw(TOML_VALUES)}")
    for _ in range(draw(st.integers(0, 2))):
        lines.append("[[solvers]]")
        lines.append("name = " + draw(st.sampled_from(['"backtrack"', '"sat"', '"nosuch"', "1"])))
        for key in draw(
            st.lists(st.sampled_from(["mode", "options", "label", "split_depth", "nosuch"]), unique=True, max_size=3)
        ):
            lines.append(f"{key} = {draw(TOML_VALUES)}")
    return "\n".join(lines) + "\n"


@settings(max_examples=TOML_CASES, **SETTINGS)
@given(configs())
def test_random_toml_configs(world, text):
    out = _fresh_out(world, "toml")
    f = out / "c.toml"
    f.write_text(text)
    argv = ["run", str(f), "--db", str(out / "c.sqlite"), "--quiet", "--jobs", "1"]
    code, err = _run(argv, out)
    f.unlink()
    _check(argv, code, err, out)


def test_the_fuzz_covers_every_subcommand_with_2000_cases():
    from eternity.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert set(sub.choices) == set(FLAGS) == set(EXAMPLES) == set(SHAPES)
    assert sum(EXAMPLES.values()) + JSON_CASES + BYTES_CASES + TOML_CASES >= 2000
