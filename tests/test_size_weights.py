"""Weights that depend on the pieces left (Selby's model parameters for every size): the beam's schedule
and its re-weighing of the frontier (baseline/beam/xcc.py), and the fit on the beam's states
(experiments/studies/size_weights.py, ``eternity tilability --sizes``)."""

import json

import numpy as np
import pytest

import solving
from eternity.cli import main
from puzzles import catalog
from solving import Limits

WEIGHTS = "data/eternity1/tilability_weights_k8_first_320.json"


def _levels(puzzle: str, weights: str, width: int = 300) -> list:
    r = solving.get("beam", {"width": width, "weights": weights}).solve(catalog.load(puzzle), limits=Limits(time_s=120))
    return [(lv["level"], lv["kept"], lv["children"], round(lv["best"], 6)) for lv in r.stats["levels"]], r


def _schedule(tmp_path, sizes: dict, name: str = "s.json", scale: float = 1.0):
    doc = json.loads(open(WEIGHTS).read())
    doc["weights"] = {k: v * scale for k, v in doc["weights"].items()}
    if sizes is not None:
        doc["sizes"] = {str(k): list(v) for k, v in sizes.items()}
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_schedule_of_one_scale_is_that_weight_set(tmp_path):
    """alpha = 2 at every size is the weights doubled: the same levels, the same best scores."""
    twice = _schedule(tmp_path, {n: (2.0, 0.0) for n in range(0, 30)}, "sched.json")
    doubled = _schedule(tmp_path, None, "doubled.json", scale=2.0)
    a, ra = _levels("eternity1-boat", twice)
    b, rb = _levels("eternity1-boat", doubled)
    assert a == b and len(a) > 3
    assert ra.status == rb.status


def test_the_frontier_is_re_weighed_exactly(tmp_path):
    """Moving from one size's weights to the next adds, to each state, the change of the weights of the
    pieces it placed; the state's score less its placed pieces' weights stays what it was."""
    from baseline.beam.options import OPTIONS
    from baseline.beam.xcc import XCCBeamRun

    path = _schedule(tmp_path, {10: (1.0, 0.0), 9: (0.5, 0.25)})
    o = {k: v.default for k, v in OPTIONS.items()} | {"weights": path}
    run = XCCBeamRun(catalog.load("eternity1-boat"), o)
    rng = np.random.default_rng(1)
    n_states = 5
    chosen = rng.integers(0, run.xcc.n_options, size=(n_states, 3))
    run.pieces_left = lambda row: 11.0  # children leave 10: the (1, 0) set
    score = rng.normal(size=n_states)
    s0 = run._resize(chosen, score.copy())
    assert run._size_key == 10 and np.allclose(run.opt_weight, -run.opt_l)
    rest = s0 - run.opt_weight[chosen].sum(axis=1)
    run.pieces_left = lambda row: 10.0  # children leave 9: the (0.5, 0.25) set
    s1 = run._resize(chosen, s0.copy())
    assert run._size_key == 9 and np.allclose(run.opt_weight, -(0.5 * run.opt_l + 0.25 * run.opt_l**2))
    assert np.allclose(s1 - run.opt_weight[chosen].sum(axis=1), rest)
    # a size beyond the schedule takes the nearest one
    run.pieces_left = lambda row: 40.0
    run._resize(chosen, s1)
    assert run._size_key == 10


def test_a_varying_schedule_tiles_the_boat(tmp_path):
    path = _schedule(tmp_path, {n: (1.0 - 0.02 * n, 0.01 * n) for n in range(0, 22)})
    _, r = _levels("eternity1-boat", path, width=500)
    assert r.status == "solved"
    from puzzles.verify import verify

    assert verify(catalog.load("eternity1-boat"), r.solutions[0]).valid


def test_the_fit_on_the_beams_states_writes_a_schedule_the_beam_reads(tmp_path, capsys):
    out = tmp_path / "sized.json"
    argv = ["tilability", "eternity1-tortoise", "--sizes", WEIGHTS, "--beam-seconds", "4", "--width", "60"]
    assert main([*argv, "--band", "5", "--per-level", "40", "--quiet", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "beam states" in printed and "held-out error" in printed
    doc = json.loads(out.read_text())
    assert doc["sizes_fit"]["states"] > 100 and doc["weights"] == json.loads(open(WEIGHTS).read())["weights"]
    sizes = {int(k): v for k, v in doc["sizes"].items()}
    assert min(sizes) <= 15 and max(sizes) >= 40 and sizes[min(sizes)] == [1.0, 0.0]
    _, r = _levels("eternity1-tortoise", str(out), width=200)
    assert r.status in ("solved", "limit")


def test_bad_schedules_are_one_line_errors(tmp_path, capsys):
    bad = _schedule(tmp_path, {})
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--opt", f"weights={bad}"]) == 2
    err = capsys.readouterr().err
    assert "sizes" in err and len(err.strip().splitlines()) == 1
    doc = json.loads(open(WEIGHTS).read()) | {"sizes": {"x": [1, 0]}}
    worse = tmp_path / "worse.json"
    worse.write_text(json.dumps(doc))
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--opt", f"weights={worse}"]) == 2
    err = capsys.readouterr().err
    assert "sizes" in err and len(err.strip().splitlines()) == 1


def test_the_cluster_beam_refuses_a_schedule(tmp_path):
    from baseline.beam.options import OPTIONS
    from baseline.beam.xcc import XCCBeamRun
    from puzzles.errors import UsageError

    path = _schedule(tmp_path, {5: (1.0, 0.0)})
    o = {k: v.default for k, v in OPTIONS.items()} | {"weights": path}
    with pytest.raises(UsageError, match="cluster"):
        XCCBeamRun(catalog.load("eternity1-boat"), o, expander=lambda *a: None)
