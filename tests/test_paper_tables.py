"""Tables a paper prints: columns chosen by name, a footnote that defines only the columns shown, LaTeX with
booktabs and a caption, instance names in natural order."""

from __future__ import annotations

from pathlib import Path

import pytest

from eternity.cli import main
from experiments.cells import _natural
from experiments.report import COLUMN_NOTES, table

RUNS = Path(__file__).resolve().parent.parent / "docs" / "runs"
QUICK = str(RUNS / "quick.sqlite")


def test_columns_are_chosen_by_name_and_the_footnote_defines_those_alone():
    out = table(QUICK, "md", columns=["family", "solver", "solved", "par2_solve_s"])
    header = next(ln for ln in out.splitlines() if ln.startswith("| family"))
    assert header == "| family | solver | solved | par2_solve_s |"
    notes = out.strip().splitlines()[-1]
    assert "solved: cells answered" in notes and "par2: mean" in notes
    for other in ("verified:", "claimed:", "wrong:", "vs_best:", "median_iqr:", "par2_ci:"):
        assert other not in notes, other
    full = table(QUICK, "md")
    shown = next(ln for ln in full.splitlines() if ln.startswith("| family")).strip("| ").split(" | ")
    full_notes = full.strip().splitlines()[-1]
    for c in shown:  # every column shown is defined, none that is not shown
        key = c.replace("_solve_s", "_s")
        if key in COLUMN_NOTES:
            assert COLUMN_NOTES[key] in full_notes, c
    assert "median_iqr:" not in full_notes or "median_iqr" in shown


def test_an_unknown_column_is_refused_with_the_names_there_are(capsys):
    assert main(["table", QUICK, "--columns", "family,nope"]) == 2
    err = capsys.readouterr().err
    assert "no column nope" in err and "par2_solve_s" in err and len(err.strip().splitlines()) == 1


def test_latex_is_booktabs_with_a_caption_and_escaped_text():
    out = table(QUICK, "latex", columns=["family", "solver", "solved", "par2_solve_s"], caption="Edge & poly_forms")
    lines = out.splitlines()
    assert lines[0] == "\\begin{table}[htbp]" and "\\caption{Edge \\& poly\\_forms}" in out
    assert "\\begin{tabular}{llrr}" in out
    assert out.index("\\toprule") < out.index("\\midrule") < out.index("\\bottomrule")
    assert "\\hline" not in out
    assert "par2\\_solve\\_s" in out and lines[-1] == "\\end{table}"


@pytest.mark.parametrize(
    "names, want",
    [
        (["i10", "i6", "i2"], ["i2", "i6", "i10"]),
        (["edge-5x5-c12", "edge-5x5-c4", "edge-10x10-c4"], ["edge-5x5-c4", "edge-5x5-c12", "edge-10x10-c4"]),
        (["10", "4", "a"], ["4", "10", "a"]),
    ],
)
def test_instances_sort_in_natural_order(names, want):
    assert sorted(names, key=_natural) == want


def test_every_cell_records_its_engines_and_machine_and_the_provenance_table_shows_them(tmp_path, capsys):
    cfg = tmp_path / "p.toml"
    cfg.write_text(
        'name = "p"\ntime_limit = 20.0\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-5"]\n'
        '[[solvers]]\nname = "sat"\nmode = "count"\n[[solvers]]\nname = "cpsat"\nmode = "count"\n'
    )
    db = tmp_path / "p.sqlite"
    assert main(["run", str(cfg), "--db", str(db), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["table", str(db), "--provenance", "--format", "json"]) == 0
    import importlib.metadata
    import json

    rows = {r["configuration"]: r for r in json.loads(capsys.readouterr().out)}
    assert f"python-sat {importlib.metadata.version('python-sat')}" in rows["sat/count"]["engines"]
    assert f"ortools {importlib.metadata.version('ortools')}" in rows["cpsat/count"]["engines"]
    for r in rows.values():
        assert "cores" in r["machine"] and "not stored" not in r["machine"] and r["hosts"]
