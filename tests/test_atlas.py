"""The atlas's instances and views: clue boards, boards proven unsolvable, tables a point of a sweep,
the phase, clues and map plots."""

from collections import Counter
from pathlib import Path

import pytest

import solving
from eternity.cli import main
from experiments.config import load_config
from experiments.families import EdgeFamily
from experiments.plots import point_winners
from experiments.report import table
from experiments.runner import run
from puzzles.make import generate
from puzzles.verify import verify

ROOT = Path(__file__).resolve().parent.parent


def _count(p) -> int:
    r, _ = solving.solve_verified(solving.get("edge-backtrack"), p, "count", solving.Limits(time_s=60))
    assert r.status.answered
    return r.count


def test_clue_boards_hold_their_planted_solution():
    p, planted = generate.edge_puzzle(6, 6, 3, 5, 11)
    for share in (0.0, 0.1, 0.25, 1.0):
        q = generate.with_clues(p, planted, share, 11)
        assert len(q.fixed) == round(share * 36)
        assert {f.cell for f in q.fixed} <= set(range(36))
        rep = verify(q, planted)
        assert rep.legal and rep.complete
    # a clue can only remove solutions: the fully given board has exactly the planted one
    assert _count(generate.with_clues(p, planted, 1.0, 11)) == 1
    assert _count(generate.with_clues(p, planted, 0.3, 11)) <= _count(p)


def test_swapped_sides_keep_every_colour_count():
    p, _ = generate.edge_puzzle(6, 6, 3, 6, 4)
    q = generate.swap_sides(p, 4)
    assert q is not None
    assert Counter(p.pieces.ravel().tolist()) == Counter(q.pieces.ravel().tolist())
    assert (p.pieces != q.pieces).sum() == 2
    assert generate.swap_sides(generate.edge_puzzle(2, 2, 1, 1, 0)[0], 0) is None  # no interior pieces


def test_family_sweeps_clues_and_keeps_plain_params():
    fam = EdgeFamily(kind="edge", name="c", rows=[5], cols=[5], frame_colors=[3], inner_colors=[5], clues=[0, 0.2])
    pairs = fam.puzzles(7)
    assert [("clues" in prm) for _, prm in pairs] == [False, True]  # a plain board's params are as before
    assert [len(p.fixed) for p, _ in pairs] == [0, 5]
    plain = EdgeFamily(kind="edge", name="c", rows=[5], cols=[5], frame_colors=[3], inner_colors=[5])
    assert plain.puzzles(7)[0][1] == pairs[0][1]


def test_unsat_family_boards_have_no_solution():
    fam = EdgeFamily(kind="edge", name="u", rows=[5], cols=[5], frame_colors=[3], inner_colors=[4, 6], unsat=True)
    pairs = fam.puzzles(3)
    assert len(pairs) == 2
    for p, prm in pairs:
        assert prm["unsat"] is True
        assert _count(p) == 0
        orig, _ = generate.edge_puzzle(5, 5, 3, prm["inner_colors"], prm["seed"])
        assert Counter(orig.pieces.ravel().tolist()) == Counter(p.pieces.ravel().tolist())


@pytest.mark.parametrize(
    "extra, field", [("clues = [0.5, 1.5]", "clues"), ("clues = []", "clues"), ("unsat = true\nclues = 0.1", "unsat")]
)
def test_bad_clue_and_unsat_fields_are_config_errors(tmp_path, capsys, extra, field):
    f = tmp_path / "bad.toml"
    f.write_text(
        'name = "b"\n[[families]]\nkind = "edge"\nname = "e"\nrows = [4]\ncols = [4]\nframe_colors = [2]\n'
        f'inner_colors = [3]\n{extra}\n[[solvers]]\nname = "edge-backtrack"\n'
    )
    assert main(["run", str(f), "--db", str(tmp_path / "x.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and field in err and "Traceback" not in err
    assert not (tmp_path / "x.sqlite").exists()


SWEEP = """
name = "sweep"
seed = 3
time_limit = 10.0
[[families]]
kind = "edge"
name = "e"
rows = [4, 5]
cols = [4]
frame_colors = [2]
inner_colors = [2, 3]
clues = [0, 0.25]
[[solvers]]
name = "edge-backtrack"
[[solvers]]
name = "sat"
"""


def test_tables_and_plots_a_point_of_the_sweep(tmp_path, capsys):
    cfg = tmp_path / "sweep.toml"
    cfg.write_text(SWEEP)
    db = str(tmp_path / "s.sqlite")
    run(str(cfg), db, jobs=1, show_progress=False)
    md = table(db, by="inner_colors")
    assert "| family | inner_colors | solver |" in md
    lines = [ln for ln in md.splitlines() if ln.startswith("| e |")]
    assert [ln.split("|")[2].strip() for ln in lines[:2]] == ["2", "2"]  # numbers in order, not as text
    clue_rows = table(db, by="clues", fmt="json")
    assert '"clues": 0.25' in clue_rows and '"clues": 0,' in clue_rows
    pk = table(db, view="peaks", fmt="json")
    import json

    got = json.loads(pk)["rows"]
    assert {(r["board"], r["solver"]) for r in got} == {
        (b, s) for b in ("4x4", "5x4") for s in ("edge-backtrack/first", "sat/first")
    }
    assert all(r["peak"] in (2, 3) and r["critical"] is not None for r in got)
    assert all(r["off_by"] == round(r["peak"] - r["critical"], 2) for r in got)
    assert main(["table", db, "--by", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err
    from experiments.store import Store

    s = Store(db)
    rows = [r for r in s.results()]
    s.close()
    w = point_winners(rows, "inner_colors")
    assert set(w) == {("4x4", 2), ("4x4", 3), ("5x4", 2), ("5x4", 3)}  # clue boards left out of the phase
    assert all(v["solved"] == 1 for v in w.values())
    assert set(point_winners(rows, "clues")) >= {("4x4", 0), ("4x4", 0.25)}
    for kind in ("phase", "clues", "map"):
        png = tmp_path / f"{kind}.png"
        assert main(["plot", db, "--kind", kind, "-o", str(png)]) == 0
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sweep_plots_need_a_sweep(tmp_path, capsys):
    cfg = tmp_path / "q.toml"
    cfg.write_text(
        'name = "q"\n[[families]]\nkind = "builtin"\nname = "b"\nnames = ["queens-6"]\n'
        '[[solvers]]\nname = "backtrack"\n'
    )
    db = str(tmp_path / "q.sqlite")
    run(str(cfg), db, jobs=1, show_progress=False)
    for kind in ("phase", "map"):
        assert main(["plot", db, "--kind", kind, "-o", str(tmp_path / "x.png")]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and kind in err
    assert not (tmp_path / "x.png").exists()


def test_atlas_configs_parse():
    for name in ("atlas.toml", "atlas_count.toml", "atlas_clues.toml", "atlas_unsat.toml", "atlas_peak.toml"):
        cfg = load_config(str(ROOT / "experiments" / "configs" / name))
        assert {s.name for s in cfg.solvers} <= set(solving.names())
    modes = {s.mode for s in load_config(str(ROOT / "experiments" / "configs" / "atlas_unsat.toml")).solvers}
    assert modes == {"count"}
