"""Polyform puzzles drawn from a set and classed by its critical size, and sweeps around a critical point."""

import json
import sqlite3

import pytest

from eternity.cli import main
from experiments.config import config_from_dict
from experiments.runner import materialise
from experiments.studies.critical import cache_dir, classify_size, expected_solutions
from puzzles import verify

SMALL = {"critical_sizes": [3, 5, 7], "critical_regions": 3, "critical_probes": 20}


def _cfg(families, solvers=None, **top):
    return config_from_dict(
        {
            "name": "t",
            "seed": 7,
            "time_limit": 10.0,
            "families": families,
            "solvers": solvers or [{"name": "backtrack", "mode": "count", "options": {"engine": "poly"}}],
            **top,
        }
    )


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ETERNITY_CACHE_DIR", str(tmp_path / "cache"))


def test_a_pieces_family_plants_a_tiling_of_n_of_the_set_and_stores_the_critical_size():
    fam = {"kind": "pieces", "name": "pento", "set": "pentomino-6x10", "pieces": [3, 6, 9], "instances": 2, **SMALL}
    got = materialise(_cfg([fam]))
    assert [i.params["pieces"] for i in got] == [3, 3, 6, 6, 9, 9]
    for inst in got:
        from puzzles.files.formats import puzzle_from_dict

        p = puzzle_from_dict(inst.puzzle)
        assert len(p.pieces) == inst.params["pieces"] == len(p.region) // 5
        assert len({pc.name for pc in p.pieces}) == len(p.pieces)  # one copy each, from the set
        assert 4 < inst.params["critical"] < 11  # pentominoes: about 7 (docs/results/critical.md)
    assert any(cache_dir().glob("*.json"))  # measured once, kept
    again = materialise(_cfg([fam]))
    assert [i.puzzle for i in again] == [i.puzzle for i in got]  # the same seed, the same puzzles


def test_classes_follow_the_interval_of_the_critical_size():
    fit = {"pieces": 12, "critical_size_90": [6.5, 7.5], "selby_t_inf": 0.58, "selby_t_drift": 1.27}
    assert [classify_size(n, fit) for n in (6, 7, 8)] == ["sub-critical", "near-critical", "super-critical"]
    assert classify_size(200, {"pieces": 209, "critical_size_90": [None, None]}) == "sub-critical"  # beyond the set
    assert expected_solutions(3, fit) < 1 < expected_solutions(11, fit)


def test_a_run_classes_polyform_instances_and_sweeps_around_the_critical_point(tmp_path, capsys):
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        """
name = "classes"
seed = 3
time_limit = 10.0
[[families]]
kind = "pieces"
name = "pento"
set = "pentomino-6x10"
pieces = { critical = [-3, 0, 3] }
critical_sizes = [3, 5, 7, 9]
critical_regions = 3
critical_probes = 20
[[families]]
kind = "edge"
name = "e"
rows = 5
cols = 5
frame_colors = 3
inner_colors = { critical = [-1, 0, 1] }
[[solvers]]
name = "backtrack"
mode = "count"
options = { engine = "poly" }
"""
    )
    db = tmp_path / "r.sqlite"
    assert main(["run", str(cfg), "--db", str(db)]) == 0
    con = sqlite3.connect(db)
    rows = con.execute("SELECT family, class, params, estimate FROM instances").fetchall()
    poly = [(c, json.loads(p)) for f, c, p, _ in rows if f == "pento"]
    assert {c for c, _ in poly} == {"sub-critical", "near-critical", "super-critical"}
    crit = poly[0][1]["critical"]
    assert sorted(p["pieces"] for _, p in poly) == [round(crit) - 3, round(crit), round(crit) + 3]
    edge = sorted(json.loads(p)["inner_colors"] for f, _, p, _ in rows if f == "e")
    from puzzles.estimates.estimate import critical_size

    c5 = round(critical_size(5, 5, 3)["critical_inner_colors"])
    assert edge == [c5 - 1, c5, c5 + 1]
    # every count of a planted puzzle is at least one, and verified boards come back
    counts = con.execute("SELECT count FROM results r JOIN instances i ON i.id = r.instance WHERE i.family = 'pento'")
    assert all(c >= 1 for (c,) in counts)
    capsys.readouterr()
    assert main(["table", str(db), "--by", "pieces"]) == 0
    assert main(["table", str(db), "--peaks"]) == 0
    out = capsys.readouterr().out
    assert "pentomino-6x10" in out and f"{crit:.3g}"[:3] in out
    assert main(["plot", str(db), "--kind", "poly-phase", "-o", str(tmp_path / "p.png")]) == 0
    assert (tmp_path / "p.png").stat().st_size > 1000


@pytest.mark.parametrize(
    "fam, says",
    [
        ({"set": "queens-8"}, "not a polyform puzzle"),
        ({"set": "no-such"}, "neither a built-in puzzle"),
        ({"pieces": 12}, "pieces: 1 to 11"),
        ({"pieces": {"critical": "x"}}, "list of whole numbers"),
        ({"pieces": {"critical": [1], "step": 2}}, "unknown key 'step'"),
        ({"critical_sizes": [20]}, "critical_sizes: 1 to 11"),
    ],
)
def test_a_bad_pieces_family_is_one_line(fam, says):
    from puzzles.errors import InputError

    base = {"kind": "pieces", "name": "f", "set": "pentomino-6x10", "pieces": [4]}
    with pytest.raises(InputError, match=says):
        _cfg([{**base, **fam}])


def test_planted_puzzles_are_tilings_the_verifier_accepts():
    import solving
    from puzzles.files.formats import puzzle_from_dict

    fam = {"kind": "pieces", "name": "h", "set": "hexominoes-14x15", "pieces": [5], **SMALL}
    inst = materialise(_cfg([fam]))[0]
    p = puzzle_from_dict(inst.puzzle)
    r, ok = solving.solve_verified(solving.get("backtrack", {"engine": "poly"}), p, "first", solving.Limits(time_s=30))
    assert r.status == solving.Status.SOLVED and ok and verify.verify(p, r.solutions[0]).valid
