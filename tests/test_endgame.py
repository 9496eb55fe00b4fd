"""The end game's data: beam states harvested, their shape features, their fates, Selby's excess-piece
exhausts from them (held to an independent count), and the fit with region terms."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import solving
from baseline.poly.features import FEATURES, state_features
from experiments.studies import endgame
from puzzles import catalog
from puzzles.estimates.tilability import State, fit_shaped, shaped_log_likelihood
from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece
from solving import Limits


@pytest.fixture(scope="module")
def tortoise(tmp_path_factory):
    out = tmp_path_factory.mktemp("harvest")
    stats = endgame.harvest("eternity1-tortoise", out, 40, 60, {"width": 50, "per_parent": 1, "exhaust_at": 5})
    return out, stats, endgame.tables("eternity1-tortoise")


def _free_cells(tb, board):
    bits = np.unpackbits(board.view(np.uint8), bitorder="little")[: tb.n_sites]
    return [i for i in range(tb.n_sites) if not bits[i]]


def test_harvest_writes_each_level_and_features_read_the_shape(tortoise):
    out, stats, tb = tortoise
    levels = sorted(int(f.stem[4:]) for f in out.glob("left*.npz"))
    assert levels and max(levels) <= 40
    lv = endgame.load_level(out, levels[-1])
    assert lv["board"].shape[1] == tb.run.t.n_words and len(lv["chosen"]) == len(lv["board"]) == len(lv["score"])
    f = state_features(tb.run.t, lv["board"][:20])
    nbr = tb.run.t.nbr
    for board, row in zip(lv["board"][:20], f):
        free = set(_free_cells(tb, board))
        outline = sum(1 for s in free for y in nbr[s] if y == -1 or (y >= 0 and y not in free))
        assert row[FEATURES.index("outline")] == outline
        assert sum(row[FEATURES.index(n)] for n in ("sites_0", "sites_1", "sites_2", "sites_3_4", "sites_5_8")) <= len(
            free
        )
        assert row[FEATURES.index("components")] >= 1
    with pytest.raises(Exception, match="no states at 999"):
        endgame.load_level(out, 999)


def test_excess_exhausts_agree_with_an_independent_count(tortoise, tmp_path):
    """The region a beam state leaves, its own pieces and extra ones: the engine's count from the board's
    bitset equals backtracking over the same region and pieces built from scratch, piece by piece."""
    out, _, tb = tortoise
    p = catalog.load("eternity1-tortoise")
    left = 10
    lv = endgame.load_level(out, left)
    rows = list(endgame.excess(tb, lv, left, tmp_path / "excess.jsonl", extra=10, budget=10**7, limit=6))
    assert len(rows) == 6
    cells = sorted(map(tuple, p.region))
    for row in rows:
        board = lv["board"][row["index"]]
        region = [cells[tb.run.t.old_of[s]] for s in _free_cells(tb, board)]
        offered = sorted(row["own"] + row["offered"])
        assert len(row["own"]) == left
        sub = PolyformPuzzle(
            p.grid_name, region, [PolyPiece(p.pieces[i].name, p.pieces[i].cells) for i in offered], p.mirror
        )
        r = solving.get("backtrack", {"engine": "dlx"}).solve(sub, mode="all", limits=Limits(time_s=60))
        assert r.status == solving.Status.SOLVED or (r.count == 0 and row["tilings"] == 0)
        assert row["outcome"] != "undecided" and row["tilings"] == len(r.solutions)
        uses: dict[int, int] = {}
        for sol in r.solutions:
            for pl in sol:
                i = offered[pl.piece]
                uses[i] = uses.get(i, 0) + 1
        assert {int(k): v for k, v in row["uses"].items()} == uses
    assert any(r["tilings"] > 0 for r in rows)
    again = list(endgame.excess(tb, lv, left, tmp_path / "excess.jsonl", extra=10, budget=10**7, limit=6))
    assert again == rows and len((tmp_path / "excess.jsonl").read_text().splitlines()) == 6  # resumed, not rerun


def test_fates_and_concordance(tortoise, tmp_path):
    out, _, tb = tortoise
    lv = endgame.load_level(out, 24)
    rows = list(endgame.fates(tb, lv, 24, tmp_path / "fates.jsonl", budget=10**6))
    assert {r["outcome"] for r in rows} <= {"dead", "tiled"}
    assert all((r["fewest_left"] == 0) == (r["outcome"] == "tiled") for r in rows)
    assert endgame.concordance([1, 2, 3], [1, 2, 3]) == (1.0, 3)
    assert endgame.concordance([3, 2, 1], [1, 2, 3]) == (0.0, 3)
    assert endgame.concordance([1, 1, 1], [1, 2, 3]) == (0.5, 3)
    assert endgame.concordance([5, 1], [2, 2])[1] == 0


def test_fit_with_region_terms_recovers_a_planted_model():
    rng = np.random.default_rng(3)
    n, k, nb = 20, 3, 8
    l_true = rng.normal(0, 0.7, n)
    l_true -= l_true.mean()
    beta_true = np.array([0.8, -0.4])
    states, feats = [], []
    for _ in range(300):
        offered = sorted(rng.choice(n, nb, replace=False).tolist())
        f = rng.normal(0, 1, 2)
        uses: dict[int, int] = {}
        count = 0
        for X in itertools.combinations(offered, k):
            c = int(rng.poisson(np.exp(-1.5 + f @ beta_true + l_true[list(X)].sum())))
            count += c
            for i in X:
                uses[i] = uses.get(i, 0) + c
        states.append(State(offered, k, count, uses))
        feats.append(f)
    ft = fit_shaped(states, np.array(feats), n, ridge=0.01)
    assert np.allclose(ft.beta / ft.scale, beta_true, atol=0.1)
    assert np.corrcoef(ft.weights, l_true)[0, 1] > 0.95
    flat = fit_shaped(states, np.zeros((len(states), 2)), n, ridge=0.01)  # no region terms to use
    assert shaped_log_likelihood(states, np.array(feats), ft) > shaped_log_likelihood(states, np.zeros((300, 2)), flat)


def _score_file(path, p, beta):
    doc = {
        "format": "eternity/weights",
        "version": 1,
        "weights": {pc.name: 0.0 for pc in p.pieces},
        "m": 0.0,
        "region_terms": {
            "features": list(FEATURES),
            "beta": beta,
            "mean": [0.0] * len(FEATURES),
            "scale": [1.0] * len(FEATURES),
        },  # fmt: skip
    }
    path.write_text(__import__("json").dumps(doc))
    return str(path)


def test_the_beam_ranks_by_a_region_score(tmp_path):
    """A score of zeros ranks nothing differently (the same run, level for level); one that dislikes a long
    outline re-ranks the children from region_at on, and every tiling found is still verified."""
    p = catalog.load("eternity1-tortoise")
    base = {"width": 20, "per_parent": 1, "exhaust_at": 3}
    plain = solving.get("beam", base).solve(p, mode="first", limits=Limits(time_s=60))
    zero = _score_file(tmp_path / "zero.json", p, [0.0] * len(FEATURES))
    same = solving.get("beam", {**base, "region_score": zero, "region_at": 45}).solve(
        p, mode="first", limits=Limits(time_s=60)
    )
    assert same.stats["region_ranked"] > 0
    assert [lv["kept"] for lv in same.stats["levels"]] == [lv["kept"] for lv in plain.stats["levels"]]
    assert same.stats["deepest"] == plain.stats["deepest"]
    beta = [-1.0 if n == "outline" else 0.0 for n in FEATURES]
    shaped = _score_file(tmp_path / "outline.json", p, beta)
    r, ok = solving.solve_verified(
        solving.get("beam", {**base, "region_score": shaped, "region_at": 30}), p, "first", Limits(time_s=60)
    )
    assert r.stats["region_ranked"] > 0 and (ok or r.status != solving.Status.SOLVED)
    bad = tmp_path / "bad.json"
    bad.write_text('{"weights": {}}')
    with pytest.raises(Exception, match="not a score with region terms"):
        solving.get("beam", {**base, "region_score": str(bad)}).solve(p, mode="first", limits=Limits(time_s=5))


def test_a_score_fitted_on_fates_is_judged_held_out_and_read_by_the_beam(tortoise, tmp_path):
    out, _, tb = tortoise
    for left in (30, 29):
        list(endgame.fates(tb, endgame.load_level(out, left), left, out / "fates.jsonl", budget=10**5))
    res = endgame.fit_fates(tb, out, [30, 29], "data/eternity1/tilability_weights_k8_first_320.json")
    for left in ("30", "29"):
        row = res["heldout_concordance"][left]
        assert row["decided"] >= 20 and 0.0 <= row["old"] <= 1.0 and 0.0 <= row["new"] <= 1.0
    path = tmp_path / "score.json"
    path.write_text(__import__("json").dumps(res["document"]))
    w, region = endgame.read_score(tb, str(path))
    assert len(w) == 45 and region(np.zeros((2, len(FEATURES)))).shape == (2,)
    r = solving.get("beam", {"width": 20, "region_score": str(path), "region_at": 30}).solve(
        catalog.load("eternity1-tortoise"), mode="first", limits=Limits(time_s=60)
    )
    assert r.stats["region_ranked"] > 0


def test_the_critical_size_by_the_excess_route():
    """E(k) = k! t^k read back: t, and c where N! t^N first reaches 1."""
    from math import comb, factorial

    t, k = 0.03, 24
    per_state = factorial(k) * t**k * comb(90, k)  # the tilings of a 90-piece state with that E(k)
    rows = [{"outcome": "tiled", "left": k, "tilings": per_state, "own": list(range(24)), "offered": list(range(66))}]
    got = endgame.critical(rows * 5)
    assert abs(got["t"] - t) < 1e-9
    c = got["critical_size"]
    from math import lgamma, log

    assert lgamma(c + 1) + c * log(t) >= 0 > lgamma(c) + (c - 1) * log(t)


@pytest.mark.parametrize("damage", ["truncated", "no board", "wrong shape", "foreign record", "not json"])
def test_a_damaged_harvest_is_a_one_line_error(tmp_path, capsys, damage):
    """A harvest's files as a kill, a copy or another program leaves them: each is refused in one line, exit 2."""
    import io
    import json as _json

    import numpy as np

    from eternity.cli import main

    out = tmp_path / "h"
    out.mkdir()
    (out / "harvest.json").write_text(_json.dumps({"puzzle": "eternity1-tortoise"}))
    buf = io.BytesIO()
    np.savez_compressed(buf, board=np.zeros((3, 2), np.uint64))
    data = buf.getvalue()
    if damage == "truncated":
        (out / "left5.npz").write_bytes(data[: len(data) // 2])
    elif damage == "no board":
        np.savez_compressed(out / "left5.npz", other=np.zeros(3))
    elif damage == "wrong shape":
        np.savez_compressed(out / "left5.npz", board=np.zeros((3, 2), np.uint64))
    elif damage == "foreign record":
        (out / "harvest.json").write_text(_json.dumps({"puzzle": [1, 2]}))
    else:
        (out / "harvest.json").write_text("{ not json")
    assert main(["endgame", "fates", str(out), "--left", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "internal error" not in err, err
