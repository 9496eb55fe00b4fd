"""The encoding lab's runner: CNF files as instances, a row that sweeps encodings, rows restricted to families,
the engine's statistics in the table, and the instance-by-configuration pivot."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import solving
from encoders import catalogue
from eternity.cli import main
from eternity.commands.encode import dimacs
from experiments.cells import cells
from experiments.config import load_config
from puzzles.errors import InputError
from puzzles.files import formats
from puzzles.kinds.cnf_formula import read_cnf
from puzzles.make import generate


def _board(tmp_path: Path) -> tuple[Path, Path]:
    """A 5x5 Heule board file and the CNF of its heule-exp-pairwise encoding, gzipped."""
    p, planted = generate.edge_puzzle(5, 5, 2, 5, seed=2)
    p, _ = generate.solved_order(p, planted)
    b = tmp_path / "b.txt"
    formats.write_puzzle(p, b, "heule")
    c = tmp_path / "b.cnf.gz"
    c.write_bytes(gzip.compress(dimacs(catalogue.build("heule-exp-pairwise", p)).encode()))
    return b, c


def test_a_cnf_file_is_read_solved_and_checked_clause_by_clause(tmp_path):
    _, c = _board(tmp_path)
    f = formats.read_puzzle(c)
    assert f.kind == "cnf" and f.n_vars > 0
    res, verified = solving.solve_verified(solving.get("sat"), f, "first")
    assert res.status == solving.Status.SOLVED and verified
    from puzzles.verify import verify

    assert not verify(f, []).valid  # all false breaks a clause
    # stored as its file and digest; a changed file is refused
    d = formats.puzzle_to_dict(f)
    assert formats.puzzle_from_dict(d).clauses == f.clauses
    plain = tmp_path / "x.cnf"
    plain.write_text("p cnf 2 1\n1 2 0\n")
    d2 = formats.puzzle_to_dict(read_cnf(plain))
    plain.write_text("p cnf 2 1\n1 -2 0\n")
    with pytest.raises(InputError, match="changed"):
        formats.puzzle_from_dict(d2)


@pytest.mark.parametrize(
    "text,where",
    [("1 2 0\n", "line 1"), ("p cnf 1 1\n1 2 0\n", "line 2"), ("p cnf x 1\n", "line 1"), ("c only\n", "header")],
)
def test_a_bad_cnf_file_is_refused_in_one_line(tmp_path, text, where):
    f = tmp_path / "bad.cnf"
    f.write_text(text)
    with pytest.raises(InputError) as e:
        read_cnf(f)
    assert where in str(e.value)


def test_the_runner_sets_a_published_cnf_beside_the_encodings_of_its_board(tmp_path, capsys):
    _board(tmp_path)
    cfg = tmp_path / "lab.toml"
    cfg.write_text(
        'name = "lab"\nseed = 1\ntime_limit = 20.0\n'
        f'[[families]]\nkind = "cnf"\nname = "cnf"\nglob = "{tmp_path}/*.cnf.gz"\n'
        f'[[families]]\nkind = "files"\nname = "board"\nglob = "{tmp_path}/b.txt"\n'
        '[[solvers]]\nname = "sat"\nfamilies = ["cnf", "board"]\n'
        '[[solvers]]\nname = "sat"\nfamilies = ["board"]\nencoding = ["heule-exp-pairwise", "primal-support"]\n'
        '[[solvers]]\nname = "edge-backtrack"\n'
    )
    db = tmp_path / "lab.db"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "solved order" in err  # the board file lists its pieces as they lie
    rows = cells(str(db))
    # sat on both families, the sweep on the board only, edge-backtrack on the board (it takes no CNF)
    assert sorted((r["family"], r["config"]) for r in rows) == [
        ("board", "edge-backtrack/first"),
        ("board", "sat/first"),
        ("board", "sat[encoding=heule-exp-pairwise]/first"),
        ("board", "sat[encoding=primal-support]/first"),
        ("cnf", "sat/first"),
    ]
    assert all(r["status"] == "solved" and r["verified"] == 1 for r in rows)
    sized = {r["config"]: json.loads(r["engine_stats"]) for r in rows if r["family"] == "board" and r["engine_stats"]}
    cnf = next(json.loads(r["engine_stats"]) for r in rows if r["family"] == "cnf")
    # the published CNF and the workbench's own encoding of the board are the same formula
    assert cnf["vars"] == sized["sat[encoding=heule-exp-pairwise]/first"]["vars"]
    assert cnf["clauses"] == sized["sat[encoding=heule-exp-pairwise]/first"]["clauses"]
    assert main(["table", str(db)]) == 0
    header = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| family"))
    assert "mean_conflicts" in header and "mean_clauses" in header and "mean_propagations" in header
    assert main(["table", str(db), "--pivot"]) == 0
    out = capsys.readouterr().out
    assert "| family | instance | edge-backtrack/first |" in out
    solved = next(ln for ln in out.splitlines() if "| solved |" in ln)
    assert solved.count("1/1") == 3 and solved.count("2/2") == 1
    assert main(["table", str(db), "--pivot", "--by", "rows"]) == 2


def test_the_pivot_marks_unsolved_and_counts_par2(tmp_path, capsys):
    p, _ = generate.edge_puzzle(9, 9, 3, 9, seed=4)
    f = tmp_path / "hard.json"
    formats.write_puzzle(p, f)
    cfg = tmp_path / "t.toml"
    cfg.write_text(
        'name = "t"\nseed = 1\ntime_limit = 0.5\n'
        f'[[families]]\nkind = "files"\nname = "hard"\nglob = "{f}"\n'
        '[[solvers]]\nname = "sat"\noptions = { conflicts = 1 }\n'
    )
    db = tmp_path / "t.db"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["table", str(db), "--pivot", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert list(rows[0]) == ["family", "instance", "conflicts=1"]  # one solver and mode: the options name it
    assert rows[0]["conflicts=1"] == "T"
    assert rows[-2]["conflicts=1"] == "0/1" and rows[-1]["conflicts=1"] == 1.0


@pytest.mark.parametrize(
    "solvers,problem",
    [
        ('[[solvers]]\nname = "sat"\nencoding = ["nope"]\n', "unknown encoding 'nope'"),
        ('[[solvers]]\nname = "sat"\nencoding = ["direct"]\noptions = { encoding = "xcc" }\n', "give it once"),
        ('[[solvers]]\nname = "sat"\nfamilies = ["elsewhere"]\n', "'elsewhere'"),
        ('[[solvers]]\nname = "sat"\n[[solvers]]\nname = "sat"\nfamilies = ["e"]\n', "share the configuration"),
    ],
)
def test_a_bad_encoding_row_is_refused_naming_the_field(tmp_path, solvers, problem):
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        'name = "c"\nseed = 1\ntime_limit = 5.0\n'
        '[[families]]\nkind = "edge"\nname = "e"\nrows = 3\ncols = 3\nframe_colors = 2\ninner_colors = 2\n' + solvers
    )
    with pytest.raises(InputError, match=problem):
        load_config(str(cfg))


def test_rows_may_share_a_configuration_on_different_families(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        'name = "c"\nseed = 1\ntime_limit = 5.0\n'
        '[[families]]\nkind = "edge"\nname = "a"\nrows = 3\ncols = 3\nframe_colors = 2\ninner_colors = 2\n'
        '[[families]]\nkind = "edge"\nname = "b"\nrows = 3\ncols = 4\nframe_colors = 2\ninner_colors = 2\n'
        '[[solvers]]\nname = "sat"\nfamilies = ["a"]\n[[solvers]]\nname = "sat"\nfamilies = ["b"]\n'
    )
    assert len(load_config(str(cfg)).solvers) == 2


def test_a_cp_row_and_a_sat_row_sweep_named_models_in_one_table(tmp_path, capsys):
    cfg = tmp_path / "cp.toml"
    cfg.write_text(
        'name = "cp"\nseed = 1\ntime_limit = 20.0\n'
        '[[families]]\nkind = "edge"\nname = "e"\nrows = 4\ncols = 4\nframe_colors = 2\ninner_colors = 4\n'
        '[[solvers]]\nname = "cpsat"\nencoding = ["cpsat-table", "cpsat-placement"]\n'
        '[[solvers]]\nname = "sat"\nencoding = ["heule-all-card"]\noptions = { backend = "minicard" }\n'
    )
    db = tmp_path / "cp.db"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    rows = cells(str(db))
    assert sorted(r["config"] for r in rows) == [
        "cpsat[encoding=cpsat-placement]/first",
        "cpsat[encoding=cpsat-table]/first",
        "sat[backend=minicard,encoding=heule-all-card]/first",
    ]
    assert all(r["status"] == "solved" and r["verified"] == 1 for r in rows)
    assert main(["table", str(db)]) == 0
    header = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("| family"))
    assert "mean_constraints" in header and "mean_clauses" in header
    with pytest.raises(InputError, match="encoding"):
        bad = tmp_path / "bad.toml"
        bad.write_text(cfg.read_text().replace('"cpsat-table"', '"heule-all-card"'))
        load_config(str(bad))


def test_a_split_count_s_empty_parts_are_not_wrong_on_a_solvable_instance(tmp_path, capsys):
    """A part of a split count may hold no solution; only the whole, the parts summed, answers for the
    instance (a part was once marked wrong against the planted solution, and its whole with it)."""
    cfg = tmp_path / "split.toml"
    cfg.write_text(
        'name = "split"\nseed = 1\ntime_limit = 60.0\n'
        '[[families]]\nkind = "edge"\nname = "e"\nrows = 4\ncols = 4\nframe_colors = 2\ninner_colors = 4\n'
        '[[solvers]]\nname = "edge-backtrack"\nmode = "count"\nsplit_depth = 3\n'
        '[[solvers]]\nname = "backtrack"\nmode = "count"\n'
    )
    db = tmp_path / "split.db"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    assert "wrong" not in capsys.readouterr().err
    from experiments.store import Store

    rows = Store(db, readonly=True).results()
    parts = [r for r in rows if r["mode"] == "count-part"]
    assert any(r["status"] == "unsatisfiable" for r in parts)  # the case this is about
    assert not any(r["status"] == "wrong" for r in rows)
    whole = {r["solver"]: r["count"] for r in rows if r["mode"] == "count"}
    assert whole["edge-backtrack"] == whole["backtrack"] == sum(r["count"] or 0 for r in parts)


def test_a_cnf_solution_is_written_verified_and_refused_when_wrong(tmp_path, capsys):
    f = tmp_path / "t.cnf"
    f.write_text("p cnf 3 2\n1 -2 0\n2 3 0\n")
    sol = tmp_path / "sol.json"
    assert main(["solve", str(f), "-o", str(sol)]) == 0
    assert main(["verify", str(f), str(sol)]) == 0
    data = json.loads(sol.read_text())
    data["placements"] = [{"variable": 2}]  # x2 alone: breaks 1 -2
    sol.write_text(json.dumps(data))
    assert main(["verify", str(f), str(sol)]) == 1
    data["placements"] = [{"variable": 9}]
    sol.write_text(json.dumps(data))
    assert main(["verify", str(f), str(sol)]) == 2
    assert "placements.0.variable" in capsys.readouterr().err
    assert main(["render", str(f), "-o", str(tmp_path / "r.svg")]) == 2
