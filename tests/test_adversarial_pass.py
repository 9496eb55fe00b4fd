"""The adversarial pass: the command line tried as a new user and as an adversary would, case by case,
each in its own process, against the promises of docs/guide/conventions.md.

Every case is checked for what holds of every command:

- no traceback, whatever the input (an internal error names its report file, exit 70);
- bad input is one line on stderr, ``eternity: error: ...``, exit 2, and no output file written;
- a time limit holds (the run ends within the limit plus a start-up margin);
- an input is never changed or replaced (its bytes are the same after the run);
- an output that was promised exists, whole (JSON parses, a picture has its format's header);

and some cases for more (a count written whole, a number stored exactly).  The classes follow the
defects this pass found once: numbers without a bound, outputs that destroy inputs or vanish, damaged
inputs, limits that do not hold, words.  Slow (a few minutes on 2 cores): ``pytest -m slow
tests/test_adversarial_pass.py -s`` prints the count of cases and of violations.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ETERNITY = [sys.executable, "-m", "eternity"]
START_MARGIN = 12.0  # seconds a run may take beyond its time limit (start-up, imports, writing)
CAP = 90.0  # no case takes longer than this; past it, the case is a violation (a limit that did not hold)


@dataclass
class Case:
    argv: list[str]
    expect: str = "any"  # "bad": exit 2 one line; "ok": exit 0; "any": no traceback, a known exit code
    limit: float | None = None  # the wall-clock bound (the time limit asked for plus the margin)
    inputs: list[str] = field(default_factory=list)  # files whose bytes must stay as they were
    outputs: list[str] = field(default_factory=list)  # files an exit 0 must leave whole
    absent: list[str] = field(default_factory=list)  # files that must not exist afterwards (no half-written output)
    stdout_json: bool = False  # stdout must parse as JSON (on exit 0)
    note: str = ""
    serial: bool = False  # runs alone and in order, before the rest (it makes files later cases read)
    says: str = ""  # text stdout must hold (the answer itself, not only its form)
    never: str = ""  # text neither stdout nor stderr may hold
    exit: int | None = None  # the exit status the case must end with


def _digest(path: Path) -> str | None:
    try:
        if path.is_fifo():
            return "fifo"
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    except OSError:
        return None


def _whole(path: Path) -> str | None:
    """None when the output is whole, else why not."""
    if path.is_fifo():
        return None
    if not path.is_file() or path.stat().st_size == 0:
        return "missing or empty"
    data = path.read_bytes()
    if path.suffix == ".json":
        try:
            json.loads(data)
        except ValueError as e:
            return f"not JSON ({e})"
    if path.suffix == ".svg" and b"<svg" not in data[:2000]:
        return "not SVG"
    if path.suffix == ".png" and not data.startswith(b"\x89PNG"):
        return "not PNG"
    return None


def check(case: Case, work: Path) -> list[str]:
    """Run one case in ``work``; the promises it broke."""
    before = {p: _digest(work / p) for p in case.inputs}
    t0 = time.perf_counter()
    try:
        out = subprocess.run(
            ETERNITY + case.argv, cwd=work, capture_output=True, text=True, timeout=case.limit or CAP,
            stdin=subprocess.DEVNULL, env={**os.environ, "COLUMNS": "100"},
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return [f"still running after {case.limit or CAP:.0f} s"]
    wall = time.perf_counter() - t0
    broken = []
    if "Traceback" in out.stderr or "Traceback" in out.stdout:
        broken.append("traceback: " + out.stderr.strip().splitlines()[-1][:160])
    if out.returncode not in (0, 1, 2, 3, 70):
        broken.append(f"exit {out.returncode}")
    if out.returncode == 2:
        lines = [x for x in out.stderr.splitlines() if x.strip()]
        if len(lines) != 1 or not lines[0].startswith("eternity: error:"):
            broken.append(f"bad input not one line: {lines[:3]}")
        for p in case.outputs:
            if p not in case.inputs and (work / p).exists() and not (work / p).is_fifo():
                broken.append(f"exit 2 left output {p}")
    if case.expect == "bad" and out.returncode != 2:
        broken.append(f"expected bad input (exit 2), got {out.returncode}: {out.stderr.strip()[-160:]}")
    if case.expect == "ok" and out.returncode != 0:
        broken.append(f"expected exit 0, got {out.returncode}: {out.stderr.strip()[-160:]}")
    if case.limit is not None and wall > case.limit:
        broken.append(f"took {wall:.1f} s against a bound of {case.limit:.0f} s")
    for p, d in before.items():
        if _digest(work / p) != d:
            broken.append(f"input {p} changed")
    if out.returncode == 0:
        for p in case.outputs:
            why = _whole(work / p)
            if why:
                broken.append(f"output {p}: {why}")
        if case.stdout_json:
            try:
                json.loads(out.stdout)
            except ValueError:
                broken.append("stdout is not JSON")
    for p in case.absent:
        if (work / p).exists():
            broken.append(f"{p} exists")
    if case.says and case.says not in out.stdout:
        broken.append(f"stdout lacks {case.says!r}: {out.stdout.strip()[-160:]!r}")
    if case.never and (case.never in out.stdout or case.never in out.stderr):
        broken.append(f"says {case.never!r}")
    if case.exit is not None and out.returncode != case.exit:
        broken.append(f"expected exit {case.exit}, got {out.returncode}: {out.stderr.strip()[-160:]}")
    return broken


# ----------------------------------------------------------------------------------------------- the world


def _edge(rows, cols, pieces, **extra):
    return {"format": "eternity/edge", "version": 1, "rows": rows, "cols": cols, "pieces": pieces, **extra}


def _random_board(n: int, seed: int, colours: int = 7) -> dict:
    """An n x n bordered board cut from random joins (a planted solution), its pieces shuffled."""
    import random

    r = random.Random(seed)
    h = [[r.randint(1, colours) for _ in range(n)] for _ in range(n + 1)]
    v = [[r.randint(1, colours) for _ in range(n + 1)] for _ in range(n)]
    pieces = [
        [
            0 if i == 0 else h[i][j],
            0 if j == n - 1 else v[i][j + 1],
            0 if i == n - 1 else h[i + 1][j],
            0 if j == 0 else v[i][j],
        ]
        for i in range(n)
        for j in range(n)
    ]
    r.shuffle(pieces)
    return _edge(n, n, pieces)


def make_world(w: Path) -> None:
    """The files a user (and an adversary) would hand the commands."""
    run = lambda *a: subprocess.run(ETERNITY + list(a), cwd=w, check=True, capture_output=True)  # noqa: E731
    run("generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "3",
        "--seed", "1", "-o", "e3.json", "--planted", "e3.sol.json")  # fmt: skip
    run("generate", "edge", "--rows", "6", "--cols", "6", "--frame-colors", "2", "--inner-colors", "2",
        "--seed", "1", "-o", "e6.json")  # fmt: skip
    run("generate", "polyform", "--rows", "4", "--cols", "5", "--size", "4", "--seed", "1", "-o", "poly.json")
    good = json.loads((w / "e3.json").read_text())
    pieces = good["pieces"]

    def put(name, obj):
        (w / name).write_text(obj if isinstance(obj, str) else json.dumps(obj))

    big = [[0, 10**20, 1, 0]] + pieces[1:]
    put("huge-colour.json", {**good, "pieces": big})
    put("huge-colour.txt", "\n".join(" ".join(map(str, p)) for p in big))
    put("million-colour.json", {**good, "pieces": [[0, 10**6, 1, 0]] + pieces[1:]})
    put("colour-2-31.json", {**good, "pieces": [[0, 2**31, 1, 0]] + pieces[1:]})
    put("negative-colour.json", {**good, "pieces": [[0, -5, 1, 0]] + pieces[1:]})
    put("float-colour.json", {**good, "pieces": [[0, 1.5, 1, 0]] + pieces[1:]})
    put("short-piece.json", {**good, "pieces": [[0, 1, 1]] + pieces[1:]})
    put("too-few.json", {**good, "pieces": pieces[:-1]})
    put("rows-huge.json", {**good, "rows": 10**9})
    put("rows-zero.json", {**good, "rows": 0})
    put("count-huge.json", {**good, "pieces": [{"colors": pieces[0], "count": 10**9}] + pieces[1:]})
    put("count-7.json", {**good, "pieces": [{"colors": pieces[0], "count": 10**7}] + pieces[1:]})
    put("fixed-bad-cell.json", {**good, "fixed": [{"cell": "Z99", "piece": 0, "rotation": 0}]})
    put("fixed-bad-piece.json", {**good, "fixed": [{"cell": "A1", "piece": 99, "rotation": 0}]})
    put("fixed-bad-rot.json", {**good, "fixed": [{"cell": "A1", "piece": 0, "rotation": 7}]})
    put("unknown-format.json", {**good, "format": "eternity/nosuch"})
    put("version-9.json", {**good, "version": 9})
    put("bom.json", "\ufeff" + json.dumps(good))
    put("empty.json", "")
    put("array.json", [1, 2, 3])
    put("null.json", "null")
    put("deep.json", "[" * 100_000 + "]" * 100_000)
    put("truncated.json", json.dumps(good)[:40])
    put("latin1.json", "")
    (w / "latin1.json").write_bytes(b'{"format": "eternity/edge", "name": "\xe9"}')
    (w / "binary.bin").write_bytes(bytes(range(256)) * 64)
    poly = json.loads((w / "poly.json").read_text())
    put("poly-far.json", {**poly, "region": {"cells": [[10**30, 0], [0, 1]]}})
    put("poly-neg.json", {**poly, "region": {"cells": [[-1, -1]]}})
    sol = json.loads((w / "e3.sol.json").read_text())
    put("sol-wrong-puzzle.json", {**sol, "puzzle": "0" * 64})
    put("sol-short.json", {**sol, "placements": sol["placements"][:2]})
    put("sol-garbage.json", {"format": "eternity/solution", "placements": "x"})
    put("b256.json", _random_board(256, 1))  # the largest board a file may hold: every solver within its limit
    put("b300.json", _random_board(300, 2))  # one past it
    put("same-60.json", _random_board(60, 3, colours=1))  # one colour: 10^10856 solutions, counted in a second
    (w / "weights-cut.json").write_text('{"weights": [1, 2')
    # configs
    base = (Path(__file__).resolve().parents[1] / "experiments" / "configs" / "quick.toml").read_text()
    put("quick.toml", base)
    tiny = (
        'name = "tiny"\nseed = 1\nrepeats = 1\ntime_limit = 5.0\n\n[[families]]\nkind = "edge"\nname = "e"\n'
        "rows = [3]\ncols = [3]\nframe_colors = [2]\ninner_colors = [3]\ninstances = 1\n\n"
        '[[solvers]]\nlabel = "native"\nname = "edge-backtrack"\n'
    )
    put("tiny.toml", tiny)
    for name, old, new in [
        ("inf.toml", "time_limit = 5.0", "time_limit = inf"),
        ("huge-limit.toml", "time_limit = 5.0", "time_limit = 1e300"),
        ("nan-limit.toml", "time_limit = 5.0", "time_limit = nan"),
        ("neg-limit.toml", "time_limit = 5.0", "time_limit = -1"),
        ("rows-big.toml", "rows = [3]", "rows = [100000]"),
        ("inst-big.toml", "instances = 1", "instances = 1e9"),
        ("inst-float.toml", "instances = 1", "instances = 1.5"),
        ("mem-small.toml", "time_limit = 5.0", "time_limit = 5.0\nmemory_mb = 64"),
        ("bool-grid.toml", "rows = [3]", 'rows = { start = 3, stop = 4, step = "x" }'),
        ("bad-solver.toml", '"edge-backtrack"', '"nosuch"'),
        ("bad-kind.toml", 'kind = "edge"', 'kind = "nosuch"'),
        ("no-families.toml", "[[families]]", "[[nothing]]"),
        ("bad-option.toml", 'name = "edge-backtrack"\n', 'name = "edge-backtrack"\noptions = { order = "x" }\n'),
        ("unknown-key.toml", "repeats = 1", "repeats = 1\nrepetitions = 2"),
    ]:
        put(name, tiny.replace(old, new))
    put("big-count.toml", tiny.replace("rows = [3]\ncols = [3]", "rows = [6]\ncols = [6]")
        .replace("inner_colors = [3]", "inner_colors = [2]").replace("time_limit = 5.0", "time_limit = 2.0")
        .replace('name = "edge-backtrack"\n', 'name = "edge-backtrack"\nmode = "count"\n'))  # fmt: skip
    put("broken.toml", "name = [unclosed")
    family = (
        'kind = "edge"\nname = "e"\nrows = [3]\ncols = [3]\nframe_colors = [2]\ninner_colors = [3]\ninstances = 1\n'
    )
    put("glob-dev.toml", tiny.replace(family, 'kind = "files"\nname = "f"\nglob = "/dev/zero"\n'))
    put("same-60.toml", tiny.replace(family, 'kind = "files"\nname = "f"\nglob = "same-60.json"\n')
        .replace('name = "edge-backtrack"\n', 'name = "edge-backtrack"\nmode = "count"\n'))  # fmt: skip
    put("axis-bool.toml", tiny.replace("rows = [3]", "rows = true"))
    put("axis-big.toml", tiny.replace("rows = [3]", "rows = [300]"))
    put(
        "many-solvers.toml",
        tiny + "".join(f'\n[[solvers]]\nlabel = "n{i}"\nname = "edge-backtrack"\n' for i in range(500)),
    )
    # databases
    (w / "truncated.sqlite").write_bytes(b"SQLite format 3\x00" + b"\x00" * 50)
    con = sqlite3.connect(w / "foreign.sqlite")
    con.execute("create table results (x)")
    con.execute("insert into results values (1)")
    con.commit()
    con.close()
    # snapshots, special files
    (w / "snap-empty").mkdir()
    (w / "snap-empty" / "frontier.npz").write_bytes(b"")
    (w / "snap-trunc").mkdir()
    (w / "snap-trunc" / "frontier.npz").write_bytes(b"PK\x03\x04" + b"\x00" * 10)
    os.mkfifo(w / "fifo")
    os.symlink("loop-b", w / "loop-a")
    os.symlink("loop-a", w / "loop-b")
    (w / "ro").mkdir()
    (w / "ro" / "tiny.toml").write_text(tiny)
    (w / "ro").chmod(stat.S_IRUSR | stat.S_IXUSR)


# ----------------------------------------------------------------------------------------------- the cases

FILES = ["e3.json", "e3.sol.json", "e6.json", "poly.json"]


def cases() -> list[Case]:
    cs: list[Case] = []
    add = cs.append
    ins = FILES
    # the README's ways in, as a new user types them
    for argv, outs in [
        (["--version"], []),
        (["list"], []),
        (["solvers"], []),
        (["solvers", "edge-backtrack"], []),
        (["info", "e3.json"], []),
        (["info", "eternity2"], []),
        (["solve", "e3.json"], []),
        (["solve", "e3.json", "-o", "out.json"], ["out.json"]),
        (["solve", "e3.json", "--svg", "out.svg"], ["out.svg"]),
        (["solve", "e3.json", "--mode", "count"], []),
        (["solve", "e3.json", "--mode", "count", "-o", "count.json"], ["count.json"]),
        (["solve", "queens-8", "--mode", "all", "-o", "all.json"], ["all.json"]),
        (["solve", "e3.json", "--json"], []),
        (["solve", "poly.json"], []),
        (["solve", "queens-8", "--mode", "count"], []),
        (["solve", "e3.json", "--solver", "cpsat"], []),
        (["solve", "e3.json", "--solver", "sat"], []),
        (["solve", "e3.json", "--solver", "beam"], []),
        (["solve", "e6.json", "--mode", "best", "--time-limit", "2"], []),
        (["verify", "e3.json", "e3.sol.json"], []),
        (["render", "e3.json", "e3.sol.json", "-o", "pic.svg"], ["pic.svg"]),
        (["export", "e3.json", "--to", "dimacs", "-o", "e3.cnf"], ["e3.cnf"]),
        (["export", "e3.json", "--to", "mzn", "-o", "e3.dzn"], ["e3.dzn"]),
        (["export", "e3.json", "--to", "wcnf", "-o", "e3.wcnf"], ["e3.wcnf"]),
        (["export", "e3.json", "--to", "opb", "-o", "e3.opb"], ["e3.opb"]),
        (["export", "e3.json", "--to", "lp", "-o", "e3.lp"], ["e3.lp"]),
        (["export", "e3.json", "--to", "bucas", "--opt", "solution=e3.sol.json", "-o", "e3.url"], ["e3.url"]),
        (["estimate", "e6.json"], []),
        (["estimate", "--critical", "8x8:3"], []),
        (["estimate", "poly.json", "--time-limit", "3"], []),
        (["enumerate", "square", "--size", "5"], []),
        (["run", "tiny.toml", "--db", "tiny.sqlite"], ["tiny.sqlite"]),
        (["table", "tiny.sqlite"], []),
        (["table", "tiny.sqlite", "--format", "csv"], []),
        (["plot", "tiny.sqlite", "-o", "cactus.png"], ["cactus.png"]),
    ]:
        add(Case(argv, "ok", limit=CAP, inputs=ins, outputs=outs, note="readme", serial=True))
    add(Case(["table", "tiny.sqlite", "--format", "json"], "ok", stdout_json=True, note="readme", serial=True))
    add(Case(["solve", "e3.json", "--json"], "ok", stdout_json=True, inputs=ins, note="readme"))

    # numbers without an upper bound
    for f in ["huge-colour.json", "huge-colour.txt", "million-colour.json", "colour-2-31.json",
              "negative-colour.json", "float-colour.json", "short-piece.json", "too-few.json", "rows-huge.json",
              "rows-zero.json", "count-huge.json", "count-7.json", "fixed-bad-cell.json", "fixed-bad-piece.json",
              "fixed-bad-rot.json", "poly-far.json", "poly-neg.json"]:  # fmt: skip
        for cmd in (["info"], ["solve", "--time-limit", "3"], ["render", "-o", f"{f}.svg"], ["estimate"]):
            argv = [cmd[0], f, *cmd[1:]]
            outs = [f"{f}.svg"] if cmd[0] == "render" else []
            add(Case(argv, "any", limit=3 + START_MARGIN, inputs=[f], outputs=outs, note="numbers"))
        for solver in ("edge-backtrack", "beam", "cpsat", "sat"):
            add(Case(["solve", f, "--solver", solver, "--time-limit", "3"], limit=3 + START_MARGIN, inputs=[f],
                     note="numbers"))  # fmt: skip
    for toml in ["inf.toml", "huge-limit.toml", "nan-limit.toml", "neg-limit.toml", "rows-big.toml",
                 "inst-big.toml", "inst-float.toml", "mem-small.toml", "bool-grid.toml", "bad-solver.toml",
                 "bad-kind.toml", "no-families.toml", "bad-option.toml", "unknown-key.toml", "broken.toml"]:  # fmt: skip
        db = toml.replace(".toml", ".sqlite")
        add(Case(["run", toml, "--db", db], "bad", limit=30, inputs=[toml], outputs=[db], absent=[db],
                 note="numbers"))  # fmt: skip
    for crit in ["100000x100000:3", "1001x1001:3", "0x5:3", "5x5:-1", "5x5", "axb:3", "5x5:1e9"]:
        add(Case(["estimate", "--critical", crit, "--seeds", "1"], "bad", limit=20, note="numbers"))
    for argv in [
        ["generate", "polyform", "--grid", "hexagon", "--region", "hexagon:1000", "-o", "g.json"],
        ["enumerate", "drafter", "--size", "9", "--forms"],
        ["enumerate", "square", "--size", "100"],
        ["generate", "edge", "--rows", "100000", "--cols", "3", "--frame-colors", "2", "--inner-colors", "2",
         "-o", "g.json"],
        ["generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "0", "--inner-colors", "2", "-o", "g.json"],
        ["generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "10000000000",
         "-o", "g.json"],
        ["solve", "queens-100000"],
        ["solve", "dominoes-1000x1000", "--mode", "count"],
        ["solve", "e3.json", "--time-limit", "inf"],
        ["solve", "e3.json", "--time-limit", "nan"],
        ["solve", "e3.json", "--time-limit", "-3"],
        ["solve", "e3.json", "--node-limit", "-1"],
        ["solve", "queens-8", "--mode", "all", "--limit", "0"],
        ["solve", "e3.json", "--mode", "sample", "--samples", "100000000000"],
        ["prove", "e3.json", "e3.sol.json", "--rounds", "100000000", "-o", "p.proof"],
        ["prove", "e3.json", "e3.sol.json", "--bits", "0", "-o", "p.proof"],
        ["generate", "polyform", "--region", "hexagon:17", "-o", "g.json"],
        ["enumerate", "hexagon", "--size", "11"],
        ["estimate", "--critical", "33x33:3"],
        [],
    ]:  # fmt: skip
        add(Case(argv, "any", limit=30, inputs=ins, note="numbers"))
    for _ in range(2):  # a count above 2^63 stored, and the rerun finds it stored
        add(Case(["run", "big-count.toml", "--db", "bc.sqlite"], "ok", limit=60, outputs=["bc.sqlite"],
                 note="numbers", serial=True))  # fmt: skip
    add(Case(["table", "bc.sqlite", "--format", "json"], "ok", stdout_json=True, note="numbers", serial=True))

    # outputs that destroy inputs or vanish
    for argv in [
        ["solve", "e3.json", "-o", "e3.json"],
        ["solve", "e3.json", "--svg", "e3.json"],
        ["generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "3",
         "-o", "e3.json", "--planted", "e3.json"],
        ["generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "3",
         "-o", "same.json", "--planted", "same.json"],
        ["render", "e3.json", "e3.sol.json", "-o", "e3.sol.json"],
        ["render", "e3.json", "-o", "e3.json"],
        ["export", "e3.json", "--to", "dimacs", "-o", "e3.json"],
        ["decode", "e3.json", "--from", "e3.json", "--model", "e3.sol.json", "-o", "e3.sol.json"],
        ["prove", "e3.json", "e3.sol.json", "-o", "e3.sol.json"],
        ["plot", "tiny.sqlite", "-o", "tiny.sqlite"],
        ["run", "tiny.toml", "--db", "tiny.toml"],
    ]:  # fmt: skip
        add(Case(argv, "bad", limit=30, inputs=ins + ["tiny.sqlite", "tiny.toml"], note="outputs"))
    ro_out = [] if os.geteuid() == 0 else ["ro/x.json"]  # root writes into a read-only folder
    for opt in (["-o", ""], ["--svg", ""], ["-o", "fifo"], ["-o", "loop-a"], ["--svg", "pic.png"], ["-o", "."],
                *(["-o", x] for x in ro_out), *(["--svg", x] for x in ro_out)):  # fmt: skip
        add(Case(["solve", "e3.json", *opt], "bad", limit=30, inputs=ins + ["fifo"], note="outputs"))
    for cmd in (["render", "e3.json"], ["export", "e3.json", "--to", "xcc"],
                ["generate", "edge", "--rows", "3", "--cols", "3", "--frame-colors", "2", "--inner-colors", "3"],
                ["plot", "tiny.sqlite"], ["prove", "e3.json", "e3.sol.json"]):  # fmt: skip
        for out in ("", "fifo", "loop-a", ".", *ro_out):
            add(Case([*cmd, "-o", out], "bad", limit=30, inputs=ins + ["fifo"], note="outputs"))
    add(Case(["render", "e3.json", "-o", "pic.png"], "bad", limit=30, note="outputs"))
    add(Case(["tilability", "serenity", "--region-size", "2", "--samples", "2", "--db", "tiny.sqlite", "-o", "w.json"],
             "bad", limit=30, inputs=["tiny.toml", "tiny.sqlite"], note="outputs"))  # fmt: skip
    if os.geteuid() != 0:  # root writes into a read-only folder
        add(Case(["run", "tiny.toml"], "bad", limit=30, note="outputs (read-only folder)"))  # run in ro/, below
    add(Case(["solve", "e3.json", "--mode", "count", "-o", "c2.json"], "ok", outputs=["c2.json"], note="outputs"))
    add(Case(["solve", "queens-6", "--mode", "all", "-o", "a2.json"], "ok", outputs=["a2.json"], note="outputs"))

    # inputs that are damaged
    add(Case(["run", "tiny.toml", "--db", "new/fresh.sqlite"], "ok", limit=30, outputs=["new/fresh.sqlite"],
             note="inputs"))  # fmt: skip
    for db in ("truncated.sqlite", "foreign.sqlite", "binary.bin", "e3.json", "fifo", "loop-a", "nosuch.sqlite"):
        if db != "nosuch.sqlite":  # a new database is made where none is
            add(Case(["run", "tiny.toml", "--db", db], "bad", limit=30, inputs=[db], note="inputs"))
        add(Case(["table", db], "bad", limit=30, inputs=[db], note="inputs"))
        add(Case(["plot", db, "-o", "p.png"], "bad", limit=30, inputs=[db], absent=["p.png"], note="inputs"))
    for snap in ("snap-empty", "snap-trunc", "nosuch-dir", "e3.json"):
        add(Case(["solve", "e6.json", "--solver", "beam", "--resume", snap, "--time-limit", "3"], "bad", limit=30,
                 note="inputs"))  # fmt: skip
    for f in ("/dev/zero", "/dev/null", "empty.json", "array.json", "null.json", "deep.json", "truncated.json",
              "latin1.json", "binary.bin", "fifo", "loop-a", ".", "unknown-format.json", "version-9.json",
              "nosuch.json"):  # fmt: skip
        for cmd in (["info", f], ["solve", f], ["verify", "e3.json", f], ["verify", f, "e3.sol.json"],
                    ["render", f, "-o", "r.svg"], ["export", f, "--to", "dimacs", "-o", "r.cnf"], ["estimate", f]):  # fmt: skip
            add(Case(cmd, "bad", limit=20, absent=["r.svg", "r.cnf"], note="inputs"))
    add(Case(["info", "bom.json"], "ok", note="inputs"))
    add(Case(["solve", "bom.json"], "ok", note="inputs"))
    for s in ("sol-wrong-puzzle.json", "sol-garbage.json"):
        add(Case(["verify", "e3.json", s], "bad", note="inputs"))
        add(Case(["render", "e3.json", s, "-o", f"{s}.svg"], "bad", absent=[f"{s}.svg"], note="inputs"))
    add(Case(["verify", "e3.json", "sol-short.json"], "any", note="inputs"))  # a partial board: exit 1, not bad input
    add(Case(["render", "e3.json", "sol-short.json", "-o", "short.svg"], "ok", outputs=["short.svg"], note="inputs"))

    # limits that do not hold
    for solver, opts in [
        ("cube", ["--opt", "depth=12"]),
        ("edge-backtrack", []),
        ("edge-backtrack", ["--opt", "restarts=luby"]),
        ("beam", []),
        ("cpsat", []),
        ("sat", []),
        ("portfolio", []),
        ("backtrack", []),
    ]:
        for lim in ("1", "3"):
            add(Case(["solve", "eternity2", "--solver", solver, *opts, "--time-limit", lim],
                     limit=float(lim) + START_MARGIN + 6, note="limits"))  # fmt: skip
    for lim in ("1", "3"):
        add(Case(["solve", "eternity1", "--time-limit", lim], limit=float(lim) + START_MARGIN, note="limits"))
        add(Case(["estimate", "eternity1-pram", "--time-limit", lim], limit=float(lim) + START_MARGIN, note="limits"))
        add(Case(["solve", "eternity2", "--mode", "best", "--time-limit", lim], limit=float(lim) + START_MARGIN,
                 note="limits"))  # fmt: skip
        add(Case(["solve", "eternity2", "--mode", "count", "--time-limit", lim], limit=float(lim) + START_MARGIN,
                 note="limits"))  # fmt: skip
        add(Case(["solve", "count-7.json", "--time-limit", lim], limit=float(lim) + START_MARGIN, note="limits"))
        add(Case(["solve", "colour-2-31.json", "--solver", "beam", "--time-limit", lim],
                 limit=float(lim) + START_MARGIN, note="limits"))  # fmt: skip

    # large boards, outside commands and generators that ran past any limit, numbers of thousands of digits
    for solver in ("edge-backtrack", "beam", "sat", "cpsat", "cube", "cpmpy", "minizinc", "external", "backtrack",
                   "portfolio"):  # fmt: skip
        add(Case(["solve", "b256.json", "--solver", solver, "--time-limit", "3"], limit=3 + START_MARGIN,
                 inputs=["b256.json"], note="large"))  # fmt: skip
    for mode in ("best", "count"):
        add(Case(["solve", "b256.json", "--mode", mode, "--time-limit", "3"], limit=3 + START_MARGIN, note="large"))
    add(Case(["solve", "b256.json", "--solver", "beam", "--mode", "best", "--time-limit", "3"],
             limit=3 + START_MARGIN, note="large"))  # fmt: skip
    for argv in (["info", "b256.json"], ["estimate", "b256.json"], ["render", "b256.json", "-o", "b256.svg"],
                 ["export", "b256.json", "--to", "dimacs", "-o", "b256.cnf"], ["info", "same-60.json"]):  # fmt: skip
        add(Case(argv, limit=20, inputs=["b256.json"], note="large"))
    for argv in (["info", "b300.json"], ["solve", "b300.json"], ["run", "axis-big.toml", "--db", "ab.sqlite"],
                 ["run", "axis-bool.toml", "--db", "ax.sqlite"],
                 ["solve", "e3.json", "--solver", "external", "--opt", "cmd=yes"],
                 ["generate", "polyform", "--rows", "50", "--cols", "50", "--size", "50", "-o", "g.json"],
                 ["estimate", "e6.json", "--critical", "8x8:3"], ["estimate", "poly.json", "--order", "spiral"],
                 ["estimate", "e6.json", "--probes", "10"], ["estimate", "--critical", "8x8:3", "--seed", "2"],
                 ["solve", "poly.json", "--solver", "beam", "--opt", "weights=weights-cut.json"],
                 ["solve", "poly.json", "--solver", "beam", "--opt", "weights=/dev/zero"],
                 ["solve", "eternity2", "--solver", "beam", "--opt", "width=10000000", "--time-limit", "3"]):  # fmt: skip
        add(Case(argv, "bad", limit=30, inputs=ins, absent=["g.json"], note="large"))
    add(Case(["solve", "same-60.json", "--mode", "count", "--json"], "ok", stdout_json=True, limit=30, note="large"))
    add(Case(["solve", "same-60.json", "--mode", "count", "-o", "same-60.count.json"], "ok", limit=30,
             outputs=["same-60.count.json"], note="large"))  # fmt: skip
    add(Case(["run", "same-60.toml", "--db", "s60.sqlite"], "ok", limit=60, outputs=["s60.sqlite"], note="large",
             serial=True))  # fmt: skip
    add(Case(["table", "s60.sqlite", "--format", "json"], "ok", stdout_json=True, note="large", serial=True))
    for argv in (["run", "glob-dev.toml", "--db", "gd.sqlite"],
                 ["run", "many-solvers.toml", "--db", "ms.sqlite"],
                 ["solve", "e3.json", "--solver", "external", "--opt", "cmd=sleep 100", "--time-limit", "2"],
                 ["solve", "e3.json", "--solver", "external", "--opt", "cmd=cat", "--time-limit", "2"]):  # fmt: skip
        add(Case(argv, limit=60, note="large"))

    # words
    for opt in ["slips=1,x", "order=nosuch", "nosuch=1", "restarts=", "=3", "seed=abc", "unit=0", "unit=-5",
                "seed=1e99", "kernel=gpu", "profile=maybe", "split_depth=-1", "identical=none"]:  # fmt: skip
        for mode in ("first", "best", "count"):
            add(Case(["solve", "e3.json", "--opt", opt, "--mode", mode], "bad", limit=20, note="words"))
    for argv in [
        ["solve", "e3.json", "--solver", "nosuch"],
        ["solve", "e3.json", "--solver", "cpmpy", "--opt", "backend=nosuch"],
        ["solve", "e3.json", "--solver", "external", "--opt", "cmd=nosuch-binary"],
        ["solve", "e3.json", "--solver", "external", "--opt", "cmd=true"],
        ["solve", "e3.json", "--solver", "minizinc", "--opt", "solver=nosuch"],
        ["solve", "e3.json", "--mode", "nosuch"],
        ["solve", "poly.json", "--mode", "best"],
        ["solve", "e3.json", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--solver", "edge-backtrack"],
        ["solve", "e3.json", "--executor", "dask", "--solver", "cpsat"],
        ["export", "e3.json", "--to", "nosuch", "-o", "x"],
        ["table", "tiny.sqlite", "--by", "nosuch"],
        ["table", "tiny.sqlite", "--experiment", "nosuch"],
        ["plot", "tiny.sqlite", "--kind", "nosuch", "-o", "x.png"],
        ["generate", "nosuch"],
        ["nosuch"],
        ["solvers", "nosuch"],
        ["estimate"],
        ["info"],
        ["check-proof", "e3.json", "e3.sol.json"],
        ["open", "e3.json", "e3.sol.json"],
        ["commit", "e3.json", "nosuch.json", "-o", "c.json"],
    ]:  # fmt: skip
        add(Case(argv, "bad", limit=30, inputs=ins, note="words"))
    return cs


@pytest.mark.slow
@pytest.mark.timeout(3600)
def test_the_adversarial_pass(tmp_path):
    digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the outputs hold exact counts of thousands of digits, which JSON allows
    try:
        _the_pass(tmp_path)
    finally:
        sys.set_int_max_str_digits(digits)


def _the_pass(tmp_path):
    make_world(tmp_path)
    all_cases = cases()
    ro = [c for c in all_cases if c.note == "outputs (read-only folder)"]

    def one(c: Case):
        broke = check(c, tmp_path / "ro" if c in ro else tmp_path)
        if broke:  # as it happens: the pass takes minutes
            print("  eternity", " ".join(c.argv), "->", "; ".join(broke), flush=True)
        return c, broke

    # cases that make shared files run alone, first, in order; the rest two at a time (2 cores)
    results = [one(c) for c in all_cases if c.serial]
    with ThreadPoolExecutor(2) as pool:
        results += list(pool.map(one, [c for c in all_cases if not c.serial]))
    broken = [(c, b) for c, b in results if b]
    by_class: dict[str, int] = {}
    for c, _ in broken:
        by_class[c.note] = by_class.get(c.note, 0) + 1
    print(f"\nadversarial pass: {len(all_cases)} cases, {len(broken)} broke a promise {by_class}")
    (tmp_path / "ro").chmod(0o755)
    assert not broken
