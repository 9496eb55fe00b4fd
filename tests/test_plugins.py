"""The three plug-in kinds, as a researcher meets them: the example packages of docs/examples/plugins (a solver,
an encoding, a family of instances) installed outside the tree, compared with the built-in solvers in one
`eternity run`, every answer verified; a plug-in that lies is caught as `wrong`, and a broken one is named in
one line while every other solver still works."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples" / "plugins"

LIAR = '''
from solving import SolverBase, SolveResult, Status


class Liar(SolverBase):
    """`liar`: says every puzzle has no solution, and counts one more than there is."""

    name = "liar"
    MODES = ("first", "count")

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        if mode == "first":
            return SolveResult(Status.UNSAT, [], None, None, {"time_s": 0.0})
        from solving import get

        n = get("backtrack").solve(puzzle, mode="count").count
        return SolveResult(Status.SOLVED, [], n + 1, None, {"time_s": 0.0})
'''


def dist_info(site: Path, dist: str, group: str, entries: dict[str, str]) -> None:
    """What pip writes for a package that declares entry points (used for the test's own liar and wreck)."""
    info = site / f"{dist}-0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "".join(f"{n} = {t}\n" for n, t in entries.items()))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The three example packages built and installed by pip into a folder outside the tree, as into a fresh
    environment's site-packages (the workbench itself is the one the tests run on)."""
    site = tmp_path_factory.mktemp("site")
    for kind in ("solver", "encoding", "family"):
        build = tmp_path_factory.mktemp(f"build-{kind}")  # a copy: the build leaves nothing in docs/
        subprocess.run(["cp", "-r", str(EXAMPLES / kind), str(build)], check=True)
        r = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "--target", str(site),
             str(build / kind)],
            capture_output=True, text=True,
        )  # fmt: skip
        assert r.returncode == 0, r.stderr[-2000:]
    assert {p.name.split("-")[0] for p in site.glob("*.dist-info")} == {
        "eternity_example_solver",
        "eternity_example_encoding",
        "eternity_example_family",
    }
    (site / "liar_plugin.py").write_text(LIAR)
    dist_info(site, "liar_plugin", "eternity.solvers", {"liar": "liar_plugin:Liar"})
    return site


def eternity(site: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "eternity", *argv], env=env, capture_output=True, text=True, cwd=cwd)


def test_the_examples_run_beside_the_built_in_solvers(site, tmp_path):
    cfg = tmp_path / "plugins.toml"
    cfg.write_text(
        'name = "plugins"\nseed = 1\ntime_limit = 60.0\n'
        '[[families]]\nkind = "plugin"\nfamily = "cut-rectangles"\nname = "cut"\n'
        "params = { rows = 3, cols = [4, 5], largest = 3 }\n"
        '[[families]]\nkind = "builtin"\nname = "q"\nnames = ["queens-6"]\n'
        '[[solvers]]\nname = "backtrack"\nmode = "count"\n'
        '[[solvers]]\nname = "example"\nmode = "count"\noptions = { choose = ["fewest", "first"] }\n'
        '[[solvers]]\nname = "sat"\nmode = "count"\noptions = { encoding = "xcc-pairwise" }\n'
        '[[solvers]]\nname = "sat"\nmode = "first"\noptions = { encoding = ["", "xcc-pairwise"] }\n'
        '[[solvers]]\nname = "liar"\nmode = "count"\n'
        '[[solvers]]\nname = "liar"\nmode = "first"\n'
    )
    db = tmp_path / "p.sqlite"
    r = eternity(site, "run", str(cfg), "--db", str(db), "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    r = eternity(site, "table", str(db), "--format", "json")
    rows = json.loads(r.stdout)["rows"]
    by = {(x["family"], x["solver"]): x for x in rows}
    for fam, cells in (("cut", 2), ("q", 1)):
        for conf in ("example[choose=fewest]/count", "example[choose=first]/count", "sat[encoding=xcc-pairwise]/count"):
            row = by[(fam, conf)]
            assert (row["cells"], row["solved"], row["wrong"], row["errors"]) == (cells, cells, 0, 0), (fam, row)
        row = by[(fam, "sat[encoding=xcc-pairwise]/first")]
        assert row["verified"] == cells and row["wrong"] == 0  # each board through the verifier
        assert by[(fam, "liar/count")]["wrong"] == cells and by[(fam, "liar/first")]["wrong"] == cells
        assert by[(fam, "backtrack/count")]["wrong"] == 0
    import sqlite3

    with sqlite3.connect(f"file:{db}?immutable=1", uri=True) as con:
        counts = {}
        for conf, inst, count in con.execute("SELECT config, instance, count FROM results WHERE mode = 'count'"):
            counts.setdefault(inst, {})[conf] = count
    for per in counts.values():  # the plug-ins agree with Algorithm C, the liar does not
        honest = {v for k, v in per.items() if not k.startswith("liar")}
        assert len(honest) == 1 and per["liar/count"] == honest.pop() + 1


def test_the_encoding_plugin_solves_and_counts_like_the_built_in_model(site):
    r = eternity(site, "solve", "pentomino-3x20", "--solver", "sat", "--opt", "encoding=xcc-pairwise", "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["status"] == "solved" and d["verified"] is True and d["stats"]["model"] == "xcc-pairwise"
    r = eternity(site, "solve", "queens-6", "--solver", "sat", "--opt", "encoding=xcc-pairwise", "--mode", "count")
    assert r.returncode == 0 and "count 4" in r.stdout
    r = eternity(site, "encodings", "queens-6", "--amo", "--json")
    sizes = {row["encoding"]: row for row in json.loads(r.stdout)}
    pairwise = sizes["xcc-pairwise"]
    assert pairwise["family"] == "plug-in"
    assert pairwise["variables"] == sizes["model=xcc amo=pairwise"]["variables"] and pairwise["clauses"] > 0
    r = eternity(site, "solve", "queens-6", "--solver", "sat", "--opt", "encoding=nosuch")
    assert r.returncode == 2 and "unknown encoding 'nosuch'" in r.stderr and "xcc-pairwise" in r.stderr


def test_a_broken_plugin_is_named_in_one_line_and_the_rest_work(site, tmp_path):
    wreck = tmp_path / "wreck"
    wreck.mkdir()
    (wreck / "wreck_plugin.py").write_text("import no_such_module_anywhere\n")
    (wreck / "odd_plugin.py").write_text("class Odd:\n    pass\n")
    dist_info(wreck, "wreck_plugin", "eternity.solvers", {"wreck": "wreck_plugin:Solver", "odd": "odd_plugin:Odd"})
    env_site = f"{wreck}{os.pathsep}{site}"
    r = eternity(Path(env_site), "solvers")
    assert r.returncode == 0
    assert "example" in r.stdout and "backtrack" in r.stdout and "wreck" not in r.stdout
    lines = r.stderr.strip().splitlines()
    assert any("solver wreck" in ln and "ModuleNotFoundError" in ln for ln in lines), r.stderr
    assert any("solver odd" in ln and "not a subclass of solving.SolverBase" in ln for ln in lines), r.stderr
    r = eternity(Path(env_site), "solve", "queens-6", "--solver", "wreck")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "is broken" in r.stderr
    r = eternity(Path(env_site), "solve", "queens-6", "--solver", "example", "--mode", "count")
    assert r.returncode == 0 and "count 4" in r.stdout


def test_a_family_given_parameters_it_does_not_take_is_refused_in_one_line(site, tmp_path):
    cfg = tmp_path / "bad.toml"
    cfg.write_text(
        'name = "bad"\nseed = 1\n[[families]]\nkind = "plugin"\nfamily = "cut-rectangles"\nname = "cut"\n'
        'params = { rows = 3, colour = 2 }\n[[solvers]]\nname = "backtrack"\n'
    )
    r = eternity(site, "run", str(cfg), "--db", str(tmp_path / "b.sqlite"), "--quiet")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "cut-rectangles refuses the parameters" in r.stderr and "colour" in r.stderr
    assert not (tmp_path / "b.sqlite").exists()


LYING = '''
from encoders.cnf import Encoding
from puzzles.puzzle import EXACT_COVER
from solving import Evidence, SolverBase, SolveResult, Status


class Boast(SolverBase):
    """`boast`: counts one more than there is and sets its own evidence; says "no solution" with a certificate."""

    name = "boast"
    MODES = ("first", "count")
    NATIVE = True

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        if mode == "first":
            return SolveResult(Status.UNSAT, [], None, None, {"time_s": 0.0}, evidence=Evidence.CERTIFICATE.value)
        from solving import get

        n = get("backtrack").solve(puzzle, mode="count").count
        return SolveResult(Status.SOLVED, [], n + 3, None, {"time_s": 0.0}, evidence=Evidence.EXHAUSTION.value)


class Triple:
    """An encoding that multiplies its count by 3 (a count_multiplier it has no right to)."""

    TAKES = {EXACT_COVER}

    def encode(self, puzzle):
        from encoders.cnf import xcc_cnf

        enc = xcc_cnf(puzzle.to_xcc())
        enc.multiplier = 3
        return enc


class Empty:
    """An encoding whose CNF has no model: an empty clause."""

    TAKES = {EXACT_COVER}

    def encode(self, puzzle):
        from encoders.cnf import xcc_cnf

        enc = xcc_cnf(puzzle.to_xcc())
        return Encoding(enc.clauses + [[1], [-1]], enc.n_vars, enc.decision)
'''


def test_lying_plugins_never_carry_the_strongest_labels_and_never_make_an_honest_row_wrong(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "lying_plugin.py").write_text(LYING)
    dist_info(site, "lying_solver", "eternity.solvers", {"boast": "lying_plugin:Boast"})
    dist_info(site, "lying_enc", "eternity.encodings", {"triple": "lying_plugin:Triple", "empty": "lying_plugin:Empty"})
    r = eternity(site, "solve", "queens-6", "--solver", "boast", "--mode", "count")
    assert "count 7" in r.stdout and "claimed by boast" in r.stdout and "exhaustion" not in r.stdout, r.stdout
    r = eternity(site, "solve", "queens-6", "--solver", "boast")
    assert "claimed by boast" in r.stdout and "certificate" not in r.stdout, r.stdout
    r = eternity(site, "solve", "queens-6", "--solver", "sat", "--opt", "encoding=triple", "--mode", "count")
    assert "count 12" in r.stdout and "(claimed by encoding triple)" in r.stdout, r.stdout
    argv = ("solve", "queens-6", "--solver", "sat", "--opt", "encoding=empty", "--opt", "certify=true")
    r = eternity(site, *argv)
    assert "unsatisfiable (certificate of encoding empty's CNF)" in r.stdout, r.stdout
    cfg = tmp_path / "lies.toml"
    cfg.write_text(
        'name = "lies"\ntime_limit = 60.0\n[[families]]\nkind = "builtin"\nname = "q"\nnames = ["queens-6"]\n'
        '[[solvers]]\nname = "backtrack"\nmode = "count"\n'
        '[[solvers]]\nname = "backtrack"\nmode = "first"\n'
        '[[solvers]]\nname = "boast"\nmode = "count"\n[[solvers]]\nname = "boast"\nmode = "first"\n'
        '[[solvers]]\nname = "sat"\nmode = "count"\noptions = { encoding = ["triple", "empty"] }\n'
    )
    db = tmp_path / "l.sqlite"
    r = eternity(site, "run", str(cfg), "--db", str(db), "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    import sqlite3

    with sqlite3.connect(f"file:{db}?immutable=1", uri=True) as con:
        got = {(c, m): (s, e) for c, m, s, e in con.execute("SELECT config, mode, status, evidence FROM results")}
    assert got[("backtrack/count", "count")] == ("solved", "exhaustion")
    assert got[("backtrack/first", "first")] == ("solved", "verified")
    for (conf, _), (status, evidence) in got.items():
        if not conf.startswith("backtrack"):
            assert status == "wrong" or "claimed by" in evidence or "certificate of encoding" in evidence, conf
    assert got[("boast/count", "count")][0] == "wrong" and got[("boast/first", "first")][0] == "wrong"


BROKEN = """
from solving import Option, SolverBase


class Raises(SolverBase):
    name = "raises"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        raise RuntimeError("the plug-in's own bug")


class Nothing(SolverBase):
    name = "nothing"

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        return None


class Mistyped(SolverBase):
    name = "mistyped"
    OPTIONS = {"depth": Option(int, "deep", "a default that is not an int")}


class FloatLits:
    TAKES = {"exact-cover"}

    def encode(self, puzzle):
        from encoders.cnf import xcc_cnf

        enc = xcc_cnf(puzzle.to_xcc())
        enc.clauses[0] = [float(x) for x in enc.clauses[0]]
        return enc


class NoPuzzle:
    def generate(self, seed, **params):
        return None


class Unsure:
    def generate(self, seed, **params):
        from puzzles import catalog

        return catalog.load("queens-5")

    def solvable(self, **params):
        raise ValueError("cannot say")
"""


@pytest.mark.parametrize(
    "argv,says",
    [
        (["solve", "queens-6", "--solver", "raises"], "solver raises (a plug-in) failed: RuntimeError"),
        (
            ["solve", "queens-6", "--solver", "nothing"],
            "solver nothing (a plug-in) is broken: solve() returned NoneType",
        ),
        (["solve", "queens-6", "--solver", "mistyped"], "option 'depth': its default does not fit"),
        (["solve", "queens-6", "--solver", "sat", "--opt", "encoding=floats"], "not a nonzero integer literal"),
    ],
)
def test_a_broken_plugin_is_named_as_the_plugins_failure(tmp_path, argv, says):
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_plugin.py").write_text(BROKEN)
    dist_info(site, "broken_solvers", "eternity.solvers",
              {n: f"broken_plugin:{n.capitalize()}" for n in ("raises", "nothing", "mistyped")})  # fmt: skip
    dist_info(site, "broken_enc", "eternity.encodings", {"floats": "broken_plugin:FloatLits"})
    r = eternity(site, *argv)
    out = r.stdout + r.stderr
    assert says in out and "internal error" not in out and r.returncode in (1, 2, 3), out


@pytest.mark.parametrize("family,says", [("nopuzzle", "returned NoneType"), ("unsure", "solvable() failed")])
def test_a_failing_family_plugin_stops_the_run_in_one_line_and_leaves_no_database(tmp_path, family, says):
    site = tmp_path / "site"
    site.mkdir()
    (site / "broken_plugin.py").write_text(BROKEN)
    dist_info(
        site,
        "broken_fam",
        "eternity.families",
        {"nopuzzle": "broken_plugin:NoPuzzle", "unsure": "broken_plugin:Unsure"},
    )
    cfg = tmp_path / "f.toml"
    cfg.write_text(
        f'name = "f"\ntime_limit = 10.0\n[[families]]\nkind = "plugin"\nfamily = "{family}"\nname = "x"\n'
        '[[solvers]]\nname = "backtrack"\nmode = "first"\n'
    )
    r = eternity(site, "run", str(cfg), "--db", str(tmp_path / "f.sqlite"), "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and says in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.glob("f.sqlite*"))


HANG = """
import time


class Forever:
    TAKES = {"exact-cover"}

    def encode(self, puzzle):
        while True:
            time.sleep(0.1)
"""


def test_an_encoding_that_never_returns_is_ended_by_the_time_limit(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "hang_plugin.py").write_text(HANG)
    dist_info(site, "hang_enc", "eternity.encodings", {"forever": "hang_plugin:Forever"})
    r = eternity(site, "solve", "queens-6", "--solver", "sat", "--opt", "encoding=forever", "--time-limit", "3")
    assert r.stdout.startswith("limit") and "the time limit passed while the CNF was being built" in r.stderr, r
    r = eternity(site, "encodings", "queens-6", "--limit", "3")
    assert r.returncode == 0 and "not built within 3 s" in r.stdout, r
