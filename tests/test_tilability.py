"""Selby's tilability model: the exact likelihood, the fit, and the command end to end."""

import itertools
import json
import math
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eternity.cli import main
from puzzles import catalog
from puzzles.estimates.tilability import (
    State,
    esp,
    esp_without,
    fit,
    log_likelihood,
    rank_correlation,
    sample_state,
    uniform_fit,
)
from puzzles.kinds.polyform import PolyformPuzzle
from puzzles.verify import verify


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.01, 5.0), min_size=1, max_size=8), st.integers(1, 8))
def test_elementary_symmetric_polynomials_by_brute_force(w, k):
    k = min(k, len(w))
    w = np.array(w)
    brute = sum(math.prod(c) for c in itertools.combinations(w, k))
    assert math.isclose(esp(w, k)[k], brute, rel_tol=1e-9)
    without = esp_without(w, k)
    for i in range(len(w)):
        rest = np.delete(w, i)
        want = sum(math.prod(c) for c in itertools.combinations(rest, k - 1)) if k - 1 <= len(rest) else 0.0
        assert math.isclose(without[i], want, rel_tol=1e-7, abs_tol=1e-9)


def _synthetic(true_l, m, n_states, n_offer, k, rng):
    """States whose solutions are Poisson draws from the model itself."""
    states = []
    for _ in range(n_states):
        pieces = sorted(rng.sample(range(len(true_l)), n_offer))
        sols = {}
        for X in itertools.combinations(pieces, k):
            lam = math.exp(m + sum(true_l[i] for i in X))
            n = int(np.random.default_rng(rng.randrange(1 << 30)).poisson(lam))
            if n:
                sols[X] = n
        states.append(State.from_sets(pieces, k, sols))
    return states


def test_fit_recovers_planted_weights_and_beats_uniform_held_out():
    rng = random.Random(4)
    true_l = np.array([rng.gauss(0, 1) for _ in range(15)])
    true_l -= true_l.mean()
    train = _synthetic(true_l, -2.0, 150, 9, 4, rng)
    test = _synthetic(true_l, -2.0, 150, 9, 4, rng)
    f = fit(train, 15)
    assert rank_correlation(f.weights, true_l) > 0.9
    assert abs(f.weights.mean()) < 1e-9
    u = uniform_fit(train, 15)
    assert log_likelihood(test, f.weights, f.m) > log_likelihood(test, u.weights, u.m)
    # split halves agree at this data size
    a, b = fit(train[0::2], 15), fit(train[1::2], 15)
    assert rank_correlation(a.weights, b.weights) > 0.8


def test_region_terms_ignore_how_tilable_each_region_is():
    # each state's region gets its own constant, far apart: one constant for all misreads them
    rng = random.Random(7)
    true_l = np.array([rng.gauss(0, 1) for _ in range(15)])
    true_l -= true_l.mean()
    train = [s for j in range(150) for s in _synthetic(true_l, [-4.0, 0.5][j % 2], 1, 9, 4, rng)]
    test = [s for j in range(150) for s in _synthetic(true_l, [-4.0, 0.5][j % 2], 1, 9, 4, rng)]
    f = fit(train, 15, per_state=True)
    assert rank_correlation(f.weights, true_l) > 0.9 and f.m == 0.0
    u = uniform_fit(train, 15, per_state=True)
    assert log_likelihood(test, f.weights, 0.0, True) > log_likelihood(test, u.weights, 0.0, True)
    a, b = fit(train[0::2], 15, per_state=True), fit(train[1::2], 15, per_state=True)
    assert rank_correlation(a.weights, b.weights) > 0.8
    # the conditional likelihood is the full one with each state's constant at its optimum
    s = next(x for x in test if x.count)
    n = s.count
    e_k = esp(np.exp(f.weights[s.pieces]), s.k)[s.k]
    assert math.isclose(
        log_likelihood([s], f.weights, math.log(n / e_k)) + n - n * math.log(n),
        log_likelihood([s], f.weights, 0.0, True),
        rel_tol=1e-9,
    )


def test_first_regions_are_what_k_pieces_cover_near_the_edge():
    from baseline.xcc.backtrack import random_prefix

    p = catalog.load("eternity1-tortoise")
    board = set(map(tuple, p.region))
    regions = set()
    for seed in range(4):
        state, chosen = sample_state(p, 3, 5, random.Random(seed), prefix=random_prefix, regions="first")
        cells = set(map(tuple, state.region))
        assert len(cells) == len(state.region) == 3 * len(p.pieces[0].cells) and cells <= board and len(chosen) == 8
        regions.add(frozenset(cells))
    assert len(regions) > 1  # unlike the regions a whole partial tiling leaves, these vary
    # apart: the cut's pieces are kept out of the state, so at most n - k pieces can be offered
    state, chosen = sample_state(p, 3, 39, random.Random(1), prefix=random_prefix, regions="apart")
    assert len(chosen) == 42 and len(state.region) == 3 * len(p.pieces[0].cells)
    left_out = [p.pieces[i] for i in range(len(p.pieces)) if i not in chosen]  # exactly the cutters: they tile it
    cutters = PolyformPuzzle(p.grid_name, state.region, left_out, p.mirror)
    import solving

    assert solving.get("backtrack").solve(cutters, mode="count").count >= 1
    with pytest.raises(ValueError, match="less the 3 that cut"):
        sample_state(p, 3, 40, random.Random(1), prefix=random_prefix, regions="apart")


@pytest.mark.slow  # a minute of real exhausts; the planted-weights tests cover the fit in the default run
def test_weights_from_real_exhausts_favour_compact_pieces():
    """Seed 000: convex pieces tile well, wiggly ones badly.  On a generated puzzle (27 random
    4-drafters filling a hexagon), regions a partial tiling leaves, every piece on offer: the
    fitted weights rank the pieces by compactness (short outline), and predict new states'
    tilings better than uniform weights."""
    import solving
    from baseline.xcc.backtrack import random_prefix
    from puzzles.kinds.grids import get_grid
    from puzzles.kinds.partition import hexagon_region, region_puzzle

    p, _ = region_puzzle("drafter", hexagon_region(3), 4, seed=1)
    k, xcc, rng, states = 3, p.to_xcc(), random.Random(0), []
    for _ in range(60):
        state, chosen = sample_state(p, k, len(p.pieces) - k, rng, xcc, random_prefix)
        sets: dict = {}
        for sol in solving.get("backtrack").solve(state, mode="all").solutions:
            key = tuple(sorted(chosen[pl.piece] for pl in sol))
            sets[key] = sets.get(key, 0) + 1
        states.append(State.from_sets(chosen, k, sets))
    assert sum(1 for s in states if s.count) >= 10
    grid = get_grid("drafter")
    outline = np.array([sum(nb not in set(pc.cells) for c in pc.cells for nb in grid.neighbours(c)) for pc in p.pieces])
    assert len(set(outline)) > 1
    f = fit(states, len(p.pieces))
    assert rank_correlation(f.weights, -outline) > 0.5
    train, test = states[0::2], states[1::2]
    ft, u = fit(train, len(p.pieces)), uniform_fit(train, len(p.pieces))
    assert log_likelihood(test, ft.weights, ft.m) > log_likelihood(test, u.weights, u.m)


def test_sampled_state_has_more_pieces_than_its_region_needs():
    p = catalog.load("eternity1-boat")
    state, chosen = sample_state(p, 3, 4, random.Random(2))
    assert len(state.pieces) == 7 and len(state.region) == 3 * 36
    assert [pc.name for pc in state.pieces] == [p.pieces[i].name for i in chosen]
    assert set(map(tuple, state.region)) <= set(map(tuple, p.region))
    # the native partial search (what the runner uses) cuts a region of the same size
    from baseline.xcc.backtrack import random_prefix

    fast, _ = sample_state(p, 3, 4, random.Random(2), prefix=random_prefix)
    assert len(fast.region) == 3 * 36 and set(map(tuple, fast.region)) <= set(map(tuple, p.region))


def test_tilability_command_end_to_end(tmp_path, capsys, monkeypatch):
    out, db = tmp_path / "w.json", tmp_path / "t.sqlite"
    args = "tilability serenity --region-size 2 --excess 4 --samples 6 --seed 3 --db".split() + [
        str(db),
        "--quiet",
        "-o",
        str(out),
        "--plot",
        str(tmp_path / "w.png"),
    ]
    assert main(args) == 0
    doc = json.loads(out.read_text())
    assert doc["format"] == "eternity/weights" and doc["states"] == 6
    assert 1 <= doc["distinct_regions"] <= 6 and doc["exhausts_cut_short"] == 0
    assert set(doc["weights"]) == {pc.name for pc in catalog.load("serenity").pieces}
    assert (tmp_path / "w.png").stat().st_size > 0
    assert "split-half rank correlation" in capsys.readouterr().out
    # the store holds each exhaust's sufficient statistics: every tiling uses k pieces
    from experiments.store import Store

    store = Store(str(db))
    rows = [r for r in store.results() if r["status"] == "solved"]
    store.close()
    for r in rows:
        d = json.loads(r["detail"])
        assert d["tilings"] == r["count"] and sum(d["piece_uses"].values()) == 2 * d["tilings"]
        assert d["piece_sets"] is None  # the poly engine counts uses natively, it lists no tilings
    # a second run resumes from the store: nothing is sampled or exhausted again, the same weights come out
    import puzzles.estimates.tilability

    def no_sampling(*a, **k):
        raise AssertionError("a resumed run sampled a state again")

    monkeypatch.setattr(puzzles.estimates.tilability, "sample_state", no_sampling)
    assert main(args) == 0
    assert json.loads(out.read_text())["weights"] == doc["weights"]
    res = main(["solve", "serenity", "--solver", "beam", "--opt", f"weights={out}", "-o", str(tmp_path / "s.json")])
    assert res == 0
    from puzzles.files import formats

    p = catalog.load("serenity")
    assert verify(p, formats.read_solution(p, str(tmp_path / "s.json"))).valid


def test_few_distinct_regions_are_flagged():
    from experiments.studies.tilability import Exhausts, too_few_regions

    states = [State([0, 1, 2], 1)] * 10
    assert too_few_regions(Exhausts(states, 0, 1)) and too_few_regions(Exhausts(states, 0, 4))
    assert not too_few_regions(Exhausts(states, 0, 9)) and not too_few_regions(Exhausts(states, 0, None))


def test_tilability_offers_every_other_piece_by_default(tmp_path, capsys):
    out = tmp_path / "w.json"
    assert (
        main(
            "tilability serenity --region-size 2 --samples 2 --seed 1 --db".split()
            + [str(tmp_path / "t.sqlite"), "--quiet", "-o", str(out)]
        )
        == 0
    )
    doc = json.loads(out.read_text())
    assert doc["excess"] == len(catalog.load("serenity").pieces) - 2 and doc["regions"] == "last"


def test_tilability_bad_arguments(tmp_path, capsys):
    assert main(["tilability", "owen-a", "-o", str(tmp_path / "w.json")]) == 2
    assert main(["tilability", "serenity", "--region-size", "6", "--excess", "5", "-o", str(tmp_path / "w.json")]) == 2
    assert not (tmp_path / "w.json").exists()
    assert capsys.readouterr().err.count("\n") == 2


def test_a_puzzle_whose_regions_cannot_be_sampled_is_a_clear_error(tmp_path, capsys):
    """A board with a lone drafter no piece can cover: every partial tiling dies at once, so the
    command stops after the first samples with one line, and leaves no files behind."""
    from puzzles.files.formats import write_puzzle
    from puzzles.kinds.grids import get_grid
    from puzzles.kinds.partition import hexagon_region, region_puzzle

    grid = get_grid("drafter")
    p, _ = region_puzzle("drafter", hexagon_region(2), 4, seed=1)
    region = set(map(tuple, p.region))
    unit = next(u for c in sorted(region) for u in grid.units(c) if set(u) <= region)
    p.region = sorted((region - set(unit)) | {(c[0] + 40, c[1] + 40) + tuple(c[2:]) for c in unit})
    write_puzzle(p, str(tmp_path / "lone.json"))
    db, out = tmp_path / "r" / "t.sqlite", tmp_path / "w.json"
    assert (
        main(
            [
                "tilability",
                str(tmp_path / "lone.json"),
                "--region-size",
                "2",
                "--samples",
                "50",
                "--db",
                str(db),
                "--quiet",
                "-o",
                str(out),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "region_size" in err and "first 5 samples" in err
    assert not out.exists() and not db.exists() and not db.with_suffix(".toml").exists()


@pytest.mark.parametrize("name", ["tilability_weights_k8_first_1280.json", "tilability_weights_k12_first_1280.json"])
def test_shipped_eternity_weights_rank_selbys_landmark_pieces(name):
    """The weights shipped in data/ (1,280 exhausts of 8 or 12 pieces' area on the full board) put
    Selby's "beast" (166) last and his "superpiece" (35) first, as [Selby2001] reports, cover every
    piece, and record a split-half agreement of at least 0.8 and a held-out gain over uniform."""
    doc = json.loads((Path(__file__).parent.parent / "data/eternity1" / name).read_text())
    w = doc["weights"]
    assert sorted(w, key=int) == [pc.name for pc in catalog.load("eternity1").pieces]
    ranked = sorted(w, key=lambda n: -w[n])
    assert ranked[0] == "35" and ranked[-1] == "166"
    assert doc["split_half_rank_correlation"] >= 0.8 and doc["states"] == 1280
    for way in doc["heldout_log_likelihood"].values():
        assert way["fitted"] > way["uniform"]


def test_exhausts_without_a_tiling_write_no_weights(tmp_path, capsys, monkeypatch):
    """Every exhaust finished and none found a tiling: nothing to fit, so no weights file (a file of zeros
    would read as a fit), exit 1 and the reason in one line."""
    from experiments.studies import tilability as T

    dead = T.Exhausts([State(list(range(6)), 2, 0, {}) for _ in range(4)], 0, 4)
    monkeypatch.setattr(T, "collect", lambda *a, **k: dead)
    out = tmp_path / "w.json"
    args = ["tilability", "serenity", "--region-size", "2", "--excess", "4", "--samples", "4", "--quiet"]
    assert main(args + ["--db", str(tmp_path / "t.sqlite"), "-o", str(out)]) == 1
    assert not out.exists() and "none of the 4 finished exhausts found a tiling" in capsys.readouterr().err


def test_show_prints_the_talks_landmarks_beside_their_ranks_and_draws_the_best_and_worst(tmp_path, capsys):
    from eternity.cli import main

    w = "data/eternity1/tilability_weights_k12_first_1280.json"
    png = tmp_path / "pieces.png"
    assert main(["tilability", "show", w, "--draw", str(png)]) == 0
    out = capsys.readouterr().out
    assert "35    1 of 209" in out and "166  209 of 209" in out and "the superpiece" in out
    assert png.stat().st_size > 10_000
    assert main(["tilability", "show", str(tmp_path / "nosuch.json")]) == 2
    assert main(["tilability", "eternity1-boat"]) == 2  # no -o: one line
