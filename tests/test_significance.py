"""Tables a reviewer accepts: spread, paired significance, a CPU clock with the cell's children, the machine's
load beside each cell, the pivot's marks, the reason an unavailable row gives."""

import json
import sqlite3

import pytest

from eternity.cli import main
from experiments.cells import overloaded
from experiments.compare import compare
from experiments.pivot import pivot
from experiments.report import table
from experiments.runner import run
from experiments.significance import bootstrap_mean, iqr, paired, wilcoxon_p
from experiments.worker import over_cpu_limit

CONFIG = """
name = "sig"
time_limit = 20.0
repeats = 2
families = [{kind = "builtin", name = "q", names = ["queens-6", "queens-7", "queens-8"]}]
solvers = [
  {name = "backtrack", mode = "count"},
  {name = "sat", mode = "count", options = {backend = ["cadical195", "minisat22"]}},
]
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    d = tmp_path_factory.mktemp("sig")
    cfg = d / "sig.toml"
    cfg.write_text(CONFIG)
    path = str(d / "sig.sqlite")
    run(str(cfg), path, jobs=1, show_progress=False)
    return path


def test_the_paired_statistics_say_what_they_should():
    # b takes ten times a's time on every one of 12 cells: a 10x speedup, significant, a tight interval
    a = {(f"i{k}", 0): (True, 0.1 * (k + 1)) for k in range(12)}
    b = {(f"i{k}", 0): (True, 1.0 * (k + 1)) for k in range(12)}
    p = paired("a", "b", a, b)
    assert p.pairs == 12 and p.a_faster == 12 and p.b_faster == 0
    assert p.speedup == pytest.approx(10.0) and p.speedup_ci == pytest.approx((10.0, 10.0))
    assert p.significant and p.p_value < 0.001
    # the same times in a shuffled pairing: no consistent winner, not significant
    c = {(f"i{k}", 0): (True, 0.1 * (k + 1) if k % 2 else 0.1 * (12 - k)) for k in range(12)}
    assert not paired("a", "c", a, c).significant
    # a cell only one answered
    d = {**b, ("i0", 0): (False, 40.0)}
    assert paired("a", "d", a, d).only_a == ["i0"]
    assert wilcoxon_p([1.0, 1.0], [1.0, 1.0]) is None  # all ties: no test
    assert iqr([1.0]) is None and iqr([1.0, 2.0, 3.0, 4.0]) == (1.75, 3.25)
    lo, hi = bootstrap_mean([1.0, 2.0, 3.0, 4.0])
    assert 1.0 <= lo < 2.5 < hi <= 4.0
    assert bootstrap_mean([1.0, 2.0, 3.0, 4.0]) == (lo, hi)  # seeded: the same table twice


def test_a_table_with_repeats_has_its_spread_and_each_row_its_significance(db):
    rows = json.loads(table(db, "json"))["rows"]
    mine = [r for r in rows if r["solver"] != "virtual best"]
    assert all(r["median_iqr"] and r["par2_ci"] for r in mine)
    marks = [r["vs_best"] for r in mine]
    assert marks.count("best") == 1 and all(m == "best" or "p=" in m or "ties" in m for m in marks)
    md = table(db)
    assert "median_iqr" in md.splitlines()[0] and "Wilcoxon" in md


def test_compare_prints_one_line_to_quote_and_json(db, capsys):
    assert main(["compare", db, "backtrack/count", "cadical195"]) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith("On 6 paired cells,") and "Wilcoxon" in last
    p = compare(db, "backtrack", "minisat22")
    assert p.pairs == 6 and not p.only_a and not p.only_b
    assert main(["table", db, "--compare", "backtrack", "minisat22", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["pairs"] == 6
    assert main(["compare", db, "sat", "backtrack"]) == 2  # 'sat' names two configurations
    assert "names 2 configurations" in capsys.readouterr().err
    assert main(["compare", db, "nosuch", "backtrack"]) == 2


def test_each_cell_stores_its_machine_and_a_cpu_clock_counting_its_children(db):
    con = sqlite3.connect(db)
    rows = con.execute("SELECT load_start, load_end, wait_s, cpu_core, cores_online, limit_clock, cpu_s FROM results")
    rows = rows.fetchall()
    con.close()
    assert rows and all(r[0] is not None and r[1] is not None and r[4] >= 1 and r[5] == "wall" for r in rows)
    assert all(r[3] is not None and r[2] is not None and r[2] >= 0 for r in rows)
    cpu = json.loads(table(db, "json", "cpu"))
    assert cpu["clock"] == "cpu" and all(r["par2_cpu_s"] is not None for r in cpu["rows"])


def test_a_cpu_limit_turns_an_answer_past_it_into_a_limit():
    row = {"status": "solved", "count": 3, "message": ""}
    over_cpu_limit(row, 12.0, 10.0)
    assert row["status"] == "limit" and row["count"] is None and "past the CPU limit" in row["message"]
    ok = {"status": "solved", "count": 3}
    over_cpu_limit(ok, 9.0, 10.0)
    assert ok["status"] == "solved"


def test_only_a_solve_the_wall_allowance_stopped_is_said_to_be():
    cut = {"status": "limit", "message": "x"}
    over_cpu_limit(cut, 4.0, 10.0, 30.5)
    assert cut["message"].startswith("stopped at its wall allowance (3 x the limit) after 4.00 s of CPU: x")
    own = {"status": "limit", "message": "no probe of 400 met a solution"}
    over_cpu_limit(own, 4.0, 10.0, 5.0)
    assert own["message"] == "no probe of 400 met a solution"


def test_overloaded_cells_are_flagged():
    assert overloaded({"wait_s": 0.5, "wall_s": 1.0})
    assert not overloaded({"wait_s": 0.01, "wall_s": 1.0})
    assert not overloaded({"wait_s": 0.01, "wall_s": 1.0, "load_start": 2.1, "cores_online": 2})
    assert overloaded({"load_start": 5.0, "load_end": 1.0, "cores_online": 2})
    assert not overloaded({})  # a store from before the machine was recorded


def test_the_pivot_marks_unsatisfiable_answers_and_says_why_a_row_is_unavailable(tmp_path):
    cfg = tmp_path / "u.toml"
    cfg.write_text("""
name = "u"
time_limit = 20.0
families = [{kind = "builtin", name = "b", names = ["queens-3", "queens-5"]}]
solvers = [{name = "backtrack", mode = "first"}, {name = "external", mode = "first", options = {cmd = "no-such-solver-binary"}}]
""")
    db = str(tmp_path / "u.sqlite")
    run(str(cfg), db, jobs=1, show_progress=False)
    out = pivot(db)
    assert " unsat |" in out  # queens-3 has no solution
    assert "\nU: external" in out
    assert "unavailable: external" in table(db)


def test_compare_pairs_each_instance_never_two_of_one_name(tmp_path):
    """A board as published and scrambled (two families, two instances of one name) makes two pairs, not one."""
    board = tmp_path / "b4.json"
    assert main(["export", "brendan-4x4", "--to", "json", "-o", str(board)]) == 0
    cfg = tmp_path / "two.toml"
    cfg.write_text(
        'name = "two"\ntime_limit = 20.0\n'
        f'families = [{{kind = "files", name = "scrambled", glob = "{board}", scramble = 1}}, '
        f'{{kind = "files", name = "published", glob = "{board}"}}]\n'
        'solvers = [{name = "backtrack", mode = "count"}, {name = "edge-backtrack", mode = "count"}]\n'
    )
    path = str(tmp_path / "two.sqlite")
    run(str(cfg), path, jobs=1, show_progress=False)
    names = {n for (n,) in sqlite3.connect(path).execute("SELECT name FROM instances")}
    assert len(names) == 1  # one name, two instances
    p = compare(path, "backtrack/count", "edge-backtrack/count")
    assert p.pairs == 2


def test_each_test_says_its_n_and_the_least_p_that_n_allows():
    """Three boards cannot give p below 0.25: the line says so, and the table's vs_best shows the floor."""
    from experiments.significance import paired, verdict

    a = {(f"i{k}", 0): (True, 1.0) for k in range(3)}
    b = {(f"i{k}", 0): (True, 2.0 + k) for k in range(3)}
    p = paired("A", "B", a, b)
    assert p.tested == 3 and p.p_floor == 0.25 and p.p_value >= 0.25
    line = verdict(p)
    assert "n = 3 differing pairs (the least n allows: 0.25), so no difference could be significant" in line
    b[("i0", 0)] = (False, 20.0)  # a censored cell: the commonly answered ones apart
    line = verdict(paired("A", "B", a, b))
    assert "on the 2 cells both answered, A is" in line
