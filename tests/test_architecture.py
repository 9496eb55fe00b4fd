"""The house keeps its shape: layer contracts, and a plug-in solver that needs no change elsewhere."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT = str(Path(sys.executable).parent / "lint-imports")
EXAMPLE = ROOT / "docs" / "examples" / "plugins" / "solver"
PACKAGES = ("puzzles", "solving", "baseline", "cpmodel", "encoders", "experiments", "eternity")


def _lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [LINT, "--config", str(cwd / "pyproject.toml"), "--no-cache"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
    )


def test_layer_contracts_are_kept():
    r = _lint(ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert "8 kept, 0 broken" in r.stdout


@pytest.mark.parametrize(
    "where, line",
    [
        ("puzzles/verify.py", "import baseline.xcc.backtrack"),  # the model imports a solver
        ("solving/verified.py", "from experiments import runner"),  # the solving layer imports the runner
        ("baseline/beam/run.py", "import cpmodel.solver"),  # one solver package imports another
        ("baseline/edge/tables.py", "import baseline.poly.engine"),  # one solver room leans on its sibling
        ("baseline/runtime/driver.py", "import baseline.xcc.dlx"),  # the shared floor imports a family
        ("baseline/beam/kernels.py", "import baseline.beam.run"),  # a kernel module imports its policy
        ("experiments/store.py", "import eternity.cli"),  # the runner imports the CLI
        ("puzzles/kinds/edge.py", "import puzzles.catalog"),  # a kind imports the room above it
        ("puzzles/files/heule_board.py", "import puzzles.kinds.polyform"),  # a reader imports a kind it does not read
        ("puzzles/files/weights_file.py", "import puzzles.kinds.edge"),  # the weights reader imports edge boards
        ("experiments/store.py", "import experiments.studies.endgame"),  # the runner imports a study
        ("experiments/cluster/cut.py", "import experiments.runner"),  # the cluster imports the runner
    ],
)
def test_a_broken_contract_fails(tmp_path, where, line):
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    f = tmp_path / where
    f.write_text(f.read_text() + f"\n{line}  # noqa\n")
    r = _lint(tmp_path)
    assert r.returncode != 0 and "BROKEN" in r.stdout.upper(), r.stdout[-2000:]


def _cycles(root: Path) -> list[list[str]]:
    """The import circles among the modules of the packages under ``root`` (``helpers/cycles.py``),
    in a process of their own, so that the packages are read from ``root``."""
    r = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "helpers" / "cycles.py"), *PACKAGES],
        cwd=root,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout)


def test_no_import_circle():
    assert _cycles(ROOT) == []


def test_an_import_circle_is_found(tmp_path):
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    f = tmp_path / "puzzles" / "data.py"  # catalog imports data: data importing catalog closes a circle
    f.write_text(f.read_text() + "\n\ndef _late():\n    from puzzles import catalog  # noqa\n")
    assert any({"puzzles.catalog", "puzzles.data"} <= set(c) for c in _cycles(tmp_path))


def test_the_documented_example_is_the_shipped_file():
    doc = (ROOT / "docs" / "howto" / "add-solver.md").read_text()
    assert '--8<-- "docs/examples/plugins/solver/example_solver.py"' in doc  # the site includes the file itself


@pytest.fixture
def example(tmp_path, monkeypatch):
    """The example solver installed as a package would be: an entry point on the path."""
    sys.path.insert(0, str(ROOT / "tests" / "helpers"))
    from plugin import install

    install(tmp_path / "site", {"example": "example_solver:Example"}, monkeypatch, [EXAMPLE])
    return "example"


def test_example_solver_through_the_cli(example, capsys):
    from eternity.cli import main

    assert main(["solvers", "--json"]) == 0
    assert example in {r["name"] for r in json.loads(capsys.readouterr().out)}
    assert main(["solve", "queens-6", "--solver", example, "--mode", "count", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "solved" and out["count"] == 4
    assert main(["solve", "queens-8", "--solver", example, "--mode", "count", "--distinct"]) == 0
    assert "count 92  distinct 12" in capsys.readouterr().out
    assert main(["solve", "brendan-3x3", "--solver", example, "--mode", "best"]) == 2  # refused: no mode best


def test_example_solver_through_the_runner(example, tmp_path):
    from experiments.runner import run
    from experiments.store import Store

    cfg = tmp_path / "ex.toml"
    cfg.write_text(f"""
name = "ex"
time_limit = 60.0
families = [{{kind = "builtin", name = "b", names = ["queens-6", "brendan-3x3"]}},
            {{kind = "edge", name = "e", rows = 3, cols = 3, frame_colors = 2, inner_colors = 2, instances = 2}}]
solvers = [{{name = "{example}", mode = "count"}}, {{name = "backtrack", mode = "count"}}]
""")
    db = str(tmp_path / "ex.sqlite")
    s = run(str(cfg), db, jobs=2, show_progress=False)
    assert s["cells"] == 8 and s["solved"] == 8
    store = Store(db)
    rows = store.results()
    store.close()
    by = {}
    for r in rows:
        by.setdefault(r["instance"], {})[r["solver"]] = r["count"]
    assert all(len(c) == 2 and len(set(c.values())) == 1 for c in by.values()), by


def test_example_solver_agrees_with_every_other(example):
    from helpers.agreement import assert_agreement

    from puzzles import catalog
    from puzzles.make import generate

    for p in (
        catalog.load("queens-5"),
        generate.edge_puzzle(3, 3, 2, 2, 11)[0],
        generate.polyomino_puzzle(3, 4, 4, 5)[0],
    ):
        got = assert_agreement(p)
        assert example in got


# ------------------------------------------------------------------------------------- one Puzzle interface

PUZZLE_CLASSES = r"(EdgePuzzle|PolyformPuzzle|QueensPuzzle|LatinPuzzle|MagicPuzzle)"
DISPATCH = [
    # a class test: isinstance(puzzle, EdgePuzzle), isinstance(p, (EdgePuzzle, ...))
    re.compile(r"isinstance\([^,()]+,\s*\(?\s*" + PUZZLE_CLASSES),
    # a kind string: puzzle.kind == "edge", p.kind != "polyform", self.p.kind in (...)
    re.compile(r"\b(p|puzzle|base|self\.p|self\.puzzle)\.kind\s*(==|!=|in\b|not\s+in\b)"),
]


def test_no_module_outside_the_model_switches_on_a_puzzles_class_or_kind():
    """The layers above ``puzzles`` ask a puzzle what it offers (``features``, ``grid_name``, ``to_xcc``)."""
    found = []
    for package in PACKAGES:
        if package == "puzzles":
            continue
        for path in (ROOT / package).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                if any(p.search(line) for p in DISPATCH):
                    found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_dispatch_check_finds_what_it_looks_for():
    lines = ["if isinstance(puzzle, EdgePuzzle):", "if p.kind == 'edge':", "x = self.p.kind in KINDS"]
    assert all(any(p.search(line) for p in DISPATCH) for line in lines)
    assert not any(p.search("if EDGES in puzzle.features:") for p in DISPATCH)


def test_every_registered_kind_declares_the_interface():
    import solving
    from puzzles.puzzle import FEATURES, KINDS, Puzzle, puzzle_class

    assert solving.KINDS == tuple(KINDS)
    for kind in KINDS:
        cls = puzzle_class(kind)
        assert cls.kind == kind
        assert cls.features and cls.features <= set(FEATURES), kind
        native = solving.solver_class(cls.native_solver)
        assert cls.features & native.TAKES, (kind, cls.native_solver)  # the default solver takes its own kind
        for attr in ("to_xcc", "canonical", "summary"):
            assert callable(getattr(cls, attr, None)), (kind, attr)
        assert "grid_name" in dir(cls) or "grid_name" in getattr(cls, "__dataclass_fields__", {}), kind
    from puzzles import catalog

    for name in ("queens-8", "owen-a", "pentomino-3x20", "court-cards", "magic-square-3"):
        assert isinstance(catalog.load(name), Puzzle), name


def test_a_solver_refuses_a_kind_it_does_not_take_naming_what_it_takes():
    import solving
    from puzzles import catalog
    from puzzles.errors import UsageError

    with pytest.raises(UsageError, match=r"does not solve queens puzzles \(it solves edge\)"):
        solving.get("edge-backtrack").check(catalog.load("queens-6"), "count")
    with pytest.raises(UsageError, match="does not solve magic puzzles"):
        solving.get("backtrack").check(catalog.load("magic-square-3"), "count")
    assert solving.solver_class("cpsat").kinds() == ("edge", "polyform", "queens", "latin", "magic")
