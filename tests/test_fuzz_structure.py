"""The structural fuzzer: what ``test_fuzz`` does not reach.  Sizes and magnitudes at the edges of every
range and beyond, nesting depth, encodings (BOM, UTF-16, invalid UTF-8), special files, very long names,
and truncation of small valid files at every length, for every reader: puzzle, piece list, solution,
config, database, snapshot, commitment and proof, CNF and model.  The rule is the same as
``test_fuzz``'s: an exit status from 0 to 3, no traceback, no partial file, and no input changed.
Deterministic: every run checks the same cases (their number is asserted, so none silently vanish).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from test_fuzz import _check, _run, world  # noqa: F401 - the fixture is used by name

from eternity.cli import main

CASES: list[int] = []  # one entry a case run, for the total


def _digest(paths) -> dict:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths if p.is_file()}


def _try(argv: list[str], out: Path, inputs=()) -> None:
    before = _digest(inputs)
    code, err = _run(argv, out)
    _check(argv, code, err, out)
    assert _digest(inputs) == before, (argv, "an input changed")
    CASES.append(1)


def _lengths(n: int, most: int = 120) -> list[int]:
    """Every length of a small file; an even spread of a larger one."""
    return list(range(n)) if n <= most else sorted({n * k // most for k in range(most)})


@pytest.fixture()
def out(tmp_path):
    d = tmp_path / "out"
    d.mkdir()
    return d


READERS = {  # name -> (file in the world, argv with FILE where the mutated copy goes)
    "puzzle": ("e3.json", ["info", "FILE"]),
    "puzzle-solve": ("e3.json", ["solve", "FILE", "--time-limit", "1", "--quiet"]),
    "solution": ("e3sol.json", ["verify", "WORLD/e3.json", "FILE"]),
    "polyform": ("p.json", ["info", "FILE"]),
    "commitment": ("e3commit.json", ["verify", "WORLD/e3.json", "WORLD/e3half.json", "--commitment", "FILE"]),
    "half": ("e3half.json", ["verify", "WORLD/e3.json", "FILE", "--commitment", "WORLD/e3commit.json"]),
    "proof": ("e3proof.json", ["check-proof", "WORLD/e3.json", "FILE"]),
    "config": ("ok.toml", ["run", "FILE", "--db", "OUT/x.sqlite", "--family", "no-such-family", "--quiet"]),
}


def _argv(template: list[str], file: Path, world_dir: Path, out: Path) -> list[str]:
    return [a.replace("FILE", str(file)).replace("WORLD", str(world_dir)).replace("OUT", str(out)) for a in template]


@pytest.mark.parametrize("reader", sorted(READERS))
def test_truncated_at_every_length(reader, world, out):  # noqa: F811
    name, template = READERS[reader]
    data = (world / name).read_bytes()
    f = out.parent / f"t-{name}"
    for n in _lengths(len(data)):
        f.write_bytes(data[:n])
        _try(_argv(template, f, world, out), out, [f])


@pytest.mark.parametrize("reader", sorted(READERS))
def test_encodings(reader, world, out):  # noqa: F811
    name, template = READERS[reader]
    text = (world / name).read_text()
    f = out.parent / f"e-{name}"
    variants = [
        b"\xef\xbb\xbf" + text.encode(),
        text.encode("utf-16"),
        text.encode("utf-16-le"),
        text.encode("utf-16-be"),
        text.encode("utf-32"),
        b"\xff\xfe\xfd" + text.encode(),
        text.encode()[: len(text) // 2] + b"\xc3\x28\xa0\xa1" + text.encode()[len(text) // 2 :],
        text.encode().replace(b"\n", b"\r\n"),
        text.encode() + b"\x00" * 64,
        b"\x00" + text.encode(),
    ]
    for v in variants:
        f.write_bytes(v)
        _try(_argv(template, f, world, out), out, [f])


EDGES = [-1, 0, 2**31, 2**63, 10**20, 10**400, 1e308, 0.5, float("nan"), float("inf"), True, None, "x" * 100_000, []]


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:3]):  # the first few of a list: the same reader reads them all
            yield from _leaves(v, path + (i,))
    else:
        yield path


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


@pytest.mark.parametrize("reader", ["puzzle", "solution", "polyform", "commitment", "proof"])
def test_every_field_at_the_edges_of_its_range(reader, world, out):  # noqa: F811
    name, template = READERS[reader]
    base = json.loads((world / name).read_text())
    f = out.parent / f"m-{name}"
    paths = list(_leaves(base))[:24]
    for path in paths:
        for v in EDGES:
            doc = json.loads(json.dumps(base))
            _set(doc, path, v)
            f.write_text(json.dumps(doc, allow_nan=True))
            _try(_argv(template, f, world, out), out, [f])


def test_nesting_depth_and_sizes(world, out):  # noqa: F811
    f = out.parent / "deep.json"
    for text in [
        "[" * 100_000 + "]" * 100_000,
        '{"a":' * 50_000 + "1" + "}" * 50_000,
        json.dumps({"format": "eternity/edge", "version": 1, "rows": 3, "cols": 3, "pieces": [[[[[0]]]]] * 9}),
        json.dumps(
            {"format": "eternity/edge", "version": 1, "rows": 1000, "cols": 1000, "pieces": [[0, 0, 1, 1]] * 1000}
        ),
        json.dumps({"format": "eternity/edge", "version": 1, "rows": 3, "cols": 3, "pieces": [[1, 2, 3, 4]] * 50_000}),
        "1 2 3 4\n" * 50_000,
        "3 3\n" + "0 0 1 1\n" * 9 + "9" * 10_000 + "\n",
    ]:
        f.write_text(text)
        _try(["info", str(f)], out, [f])
    toml = out.parent / "deep.toml"
    for text in [
        "a = " + "[" * 10_000 + "]" * 10_000,
        'name = "' + "n" * 1_000_000 + '"\n',
        (world / "ok.toml").read_text().replace('"queens-5"', '"queens-5"' + ', "queens-5"' * 10_000),
    ]:
        toml.write_text(text)
        _try(["run", str(toml), "--db", str(out / "d.sqlite"), "--family", "none", "--quiet"], out, [toml])


def test_special_files_and_long_names(world, out):  # noqa: F811
    fifo = out.parent / "fifo"
    os.mkfifo(fifo)
    loop = out.parent / "loop"
    os.symlink(loop, loop)
    long_name = out.parent / ("n" * 250 + ".json")
    long_name.write_bytes((world / "e3.json").read_bytes())
    too_long = str(out.parent / ("n" * 5000 + ".json"))
    for path in [
        str(fifo),
        str(loop),
        "/dev/zero",
        "/dev/null",
        str(out.parent),
        str(long_name),
        too_long,
        str(out.parent / "missing.json"),
        "",
        " ",
        "-",
    ]:
        for template in (
            ["info", "FILE"],
            ["verify", "WORLD/e3.json", "FILE"],
            ["run", "FILE", "--db", "OUT/s.sqlite", "--quiet"],
            ["table", "FILE"],
            ["check-proof", "WORLD/e3.json", "FILE"],
            ["decode", "WORLD/e3.json", "--from", "FILE", "--model", "FILE", "-o", "OUT/d.json"],
            ["solve", "WORLD/e3.json", "--solver", "backtrack", "--resume", "FILE", "--quiet"],
        ):
            argv = [a.replace("FILE", path).replace("WORLD", str(world)).replace("OUT", str(out)) for a in template]
            _try(argv, out)


def test_damaged_databases_snapshots_cnf_and_models(world, out):  # noqa: F811
    db = (world / "ok.sqlite").read_bytes()
    f = out.parent / "t.sqlite"
    for n in _lengths(len(db), most=40):
        f.write_bytes(db[:n])
        _try(["table", str(f)], out, [f])
    assert main(["export", str(world / "e3.json"), "--to", "dimacs", "-o", str(out.parent / "e3.cnf")]) == 0
    cnf = (out.parent / "e3.cnf").read_bytes()
    model = out.parent / "m.txt"
    model.write_text("s SATISFIABLE\nv " + " ".join(str(i) for i in range(1, 40)) + " 0\n")
    c = out.parent / "t.cnf"
    for n in _lengths(len(cnf), most=40):
        c.write_bytes(cnf[:n])
        _try(
            ["decode", str(world / "e3.json"), "--from", str(c), "--model", str(model), "-o", str(out / "d.json")],
            out,
            [c, model],
        )
    for text in ["", "v", "v x 0", "s UNSATISFIABLE\n", "v " + "9" * 400 + " 0", "v -0 0", "v 1 " * 100_000]:
        model.write_text(text)
        _try(
            [
                "decode",
                str(world / "e3.json"),
                "--from",
                str(out.parent / "e3.cnf"),
                "--model",
                str(model),
                "-o",
                str(out / "d.json"),
            ],
            out,
            [model],
        )
    snap = out.parent / "snap"
    assert main(
        "solve pentomino-6x10 --solver backtrack --mode count --node-limit 20000 --opt".split()
        + [f"checkpoint={snap}", "--opt", "checkpoint_every=0.1", "--quiet"]
    ) in (0, 3)
    files = sorted(p for p in snap.iterdir() if p.is_file())
    assert files
    for p in files:
        data = p.read_bytes()
        for n in _lengths(len(data), most=12):
            p.write_bytes(data[:n])
            _try(
                "solve pentomino-6x10 --solver backtrack --mode count --node-limit 1000 --opt".split()
                + [f"resume={snap}", "--quiet"],
                out,
            )
        p.write_bytes(data)


def test_the_structural_fuzzer_ran_its_cases():
    """Runs last in this module: the case count, so a reader that silently stops being fuzzed is seen."""
    print(f"structural fuzzer: {len(CASES)} cases")
    assert len(CASES) >= 2400, len(CASES)
