"""CP-SAT models: exact counts (enumeration parameters), agreement with backtrack, max-score."""

import json

import pytest
from helpers.agreement import count_with
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from puzzles import catalog
from puzzles.files import formats
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits, Status, solve_verified


def count(p, **opts):
    return count_with("cpsat", p, **opts)


def test_queens_8():
    assert count(catalog.load("queens-8")) == 92


def test_pentomino_3x20():
    assert count(catalog.load("pentomino-3x20")) == 8


@pytest.mark.slow
@pytest.mark.parametrize(
    "opts",
    [
        {"model": "xcc"},
        {"model": "placement"},
        {"model": "table"},
        {"model": "placement", "join": "int"},
        {"model": "placement", "symmetry": True},
    ],
)
def test_owen_a(opts):
    assert count(catalog.load("owen-a"), **opts) == 160


MODELS = [
    {"model": "xcc"},
    {"model": "placement"},
    {"model": "placement", "join": "sum", "redundant": True},
    {"model": "placement", "join": "int"},
    {"model": "table"},
]


@settings(max_examples=12, deadline=None)
@given(
    st.integers(2, 3),
    st.integers(2, 4),
    st.integers(1, 2),
    st.integers(1, 3),
    st.integers(0, 10**6),
    st.sampled_from(range(len(MODELS))),
)
def test_counts_equal_backtrack(r, c, f, i, seed, which):
    p, _ = generate.edge_puzzle(r, c, f, i, seed)
    expect = solving.get("backtrack").solve(p, mode="count").count
    assert count(p, **MODELS[which]) == expect


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_symmetry_breaking_multiplies_back(seed):
    p, _ = generate.edge_puzzle(3, 3, 2, 2, seed)
    assert count(p, model="placement", symmetry=True) == count(p, model="placement")


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_polyomino_counts_equal_backtrack(seed):
    p, _ = generate.polyomino_puzzle(4, 5, 4, seed)
    assert count(p) == solving.get("backtrack").solve(p, mode="count").count


def test_first_solution_verifies_with_each_model():
    p = catalog.load("eternity2-clue1")
    for model in ("xcc", "placement", "table"):
        r = solving.get("cpsat", {"model": model, "workers": 2}).solve(
            p, mode="first", limits=solving.Limits(time_s=60)
        )
        assert r.status == "solved" and verify(p, r.solutions[0]).valid, model


@pytest.mark.parametrize(
    "opts",
    [
        {"search": "fixed", "workers": 1},
        {"search": "fixed", "order": "spiral"},
        {"search": "portfolio", "workers": 2, "join": "onehot"},
        {"search": "portfolio", "workers": 2, "model": "table", "order": "frame-first"},
    ],
)
def test_search_strategies_solve_and_verify(opts):
    p, _ = generate.edge_puzzle(5, 5, 2, 3, 11)
    r = solving.get("cpsat", opts).solve(p, mode="first", limits=solving.Limits(time_s=60))
    assert r.status == "solved" and verify(p, r.solutions[0]).valid


def test_search_strategy_rejects_what_cannot_apply():
    p, _ = generate.edge_puzzle(4, 4, 2, 3, 1)
    with pytest.raises(ValueError, match="workers >= 2"):
        solving.get("cpsat", {"search": "portfolio", "workers": 1}).solve(p, mode="first")
    with pytest.raises(ValueError, match="edge-matching models"):
        solving.get("cpsat", {"search": "fixed", "model": "xcc"}).solve(p, mode="first")


def test_best_mode_scores_and_warm_start(tmp_path):
    from puzzles.files import formats

    p, planted = generate.edge_puzzle(4, 4, 2, 3, 5)
    hint = tmp_path / "h.json"
    formats.write_solution(p, planted, hint)
    r = solving.get("cpsat", {"hint": str(hint), "workers": 2}).solve(p, mode="best", limits=solving.Limits(time_s=30))
    assert r.best_score == p.n_joins
    rep = verify(p, r.solutions[0], allow_mismatch=True)
    assert rep.score == r.best_score and not rep.problems


def test_export_cpsat(tmp_path):
    from eternity.cli import main

    out = tmp_path / "m.pbtxt"
    assert main(["export", "owen-a", "--to", "cpsat", "-o", str(out), "--opt", "model=table"]) == 0
    text = out.read_text()
    assert "variables" in text and "table" in text


def test_cpsat_merged_copies_take_a_hint_that_names_any_copy(tmp_path):
    """A hint names pieces as the file has them; the merged model knows only each group's first piece."""
    p = generate.edge_puzzle(4, 4, 2, 3, 0)[0]
    sol = solving.get("edge-backtrack").solve(p, mode="first").solutions[0]
    groups = p.identical_groups()
    assert any(pl.piece != g[0] for g in groups.values() if len(g) > 1 for pl in sol if pl.piece in g)
    hint = tmp_path / "hint.json"
    hint.write_text(json.dumps(formats.solution_to_dict(p, sol)))
    res, ok = solve_verified(solving.get("cpsat", {"hint": str(hint)}), p, "first", Limits(time_s=30))
    assert res.status == Status.SOLVED and ok and res.stats["identical_orderings"] == 4


def _broken(size: int, seed: int):
    """A planted board with one inner side of one piece recoloured: its optimum is below the joins."""
    from puzzles.kinds.edge import EdgePuzzle

    p, _ = generate.edge_puzzle(size, size, 2, 3, seed)
    pieces = p.pieces.copy()
    inner = [q for q in range(len(pieces)) if (pieces[q] != 0).all()]
    q = inner[seed % len(inner)]
    pieces[q, seed % 4] = 1 + pieces[q, seed % 4] % int(pieces.max())
    return EdgePuzzle(size, size, pieces, name=f"broken-{seed}")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_best_mode_formulations_prove_one_optimum(seed):
    """The placement model, the table model (exact match variables) with and without the corner fixed, and
    MaxSAT prove the same best score, each board verified."""
    b = _broken(4, seed)
    scores = set()
    for name, opts in (
        ("cpsat", {"model": "placement"}),
        ("cpsat", {"model": "table"}),
        ("cpsat", {"model": "table", "symmetry": True}),
        ("maxsat", {}),
    ):
        res, ok = solve_verified(solving.get(name, opts), b, "best", Limits(time_s=60))
        assert ok and res.optimal, (name, opts, res.status)
        scores.add(res.best_score)
    assert len(scores) == 1


def test_table_best_mode_turns_a_hint_to_the_fixed_corner(tmp_path):
    """With the first corner piece fixed to A1, a hint is turned until that piece stands there: CP-SAT's first
    board is the hint's (a hint left unturned breaks the fixed corner, and the first board is a poorer one)."""
    from cpmodel.models import turned_board

    p, planted = generate.edge_puzzle(6, 6, 3, 6, 4)
    corner = min(q for q in range(p.n_pieces) if p.piece_class(q) == "corner")
    turn = next(t for t in range(4) if all(pl.cell != 0 for pl in turned_board(p, planted, t) if pl.piece == corner))
    board = turned_board(p, planted, turn)  # a perfect board without the fixed corner at A1
    assert verify(p, board).valid
    hint = tmp_path / "h.json"
    formats.write_solution(p, board, hint)
    res, ok = solve_verified(
        solving.get("cpsat", {"model": "table", "symmetry": True, "hint": str(hint)}), p, "best", Limits(time_s=20)
    )
    assert ok and res.best_score == p.n_joins
    assert any(pl.cell == 0 and pl.piece == corner for pl in res.solutions[0])
    # the hint as given to CP-SAT is a board of the model: fixed to it, the model is the perfect board
    from ortools.sat.python import cp_model

    s = solving.get("cpsat", {"model": "table", "symmetry": True, "hint": str(hint)})
    kind, model, _, main_vars, _ = s._build(p, "best")
    s._hint(p, model, kind, main_vars)
    fixed = cp_model.CpSolver()
    fixed.parameters.fix_variables_to_their_hinted_value = True
    assert fixed.solve(model) == cp_model.OPTIMAL and fixed.objective_value == p.n_joins


def test_best_mode_symmetry_needs_the_table_model():
    p, _ = generate.edge_puzzle(4, 4, 2, 3, 1)
    with pytest.raises(ValueError, match="model=table"):
        solving.get("cpsat", {"symmetry": True, "model": "placement"}).solve(p, mode="best")
