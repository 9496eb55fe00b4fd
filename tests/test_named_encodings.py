"""The named encodings: Heule's size formulas, agreement of every encoding on small boards, his board files,
scrambling, and the commands that print and write them."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solving
from encoders import catalogue
from encoders.heule import AMOS, VARIANTS, Layout, heule_cnf
from puzzles.errors import InputError
from puzzles.files import formats
from puzzles.files.heule_board import looks_heule, parse_heule, to_heule
from puzzles.make import generate
from puzzles.make.scramble import scramble, scrambled_placements, solved_order_share
from puzzles.verify import verify as verify_solution


def board(rows=5, cols=6, frame=3, inner=5, seed=1):
    return generate.edge_puzzle(rows, cols, frame, inner, seed)


def _steps(n: int) -> int:
    """Auxiliary variables of Heule's at-most-one over n literals: one per three taken while more than four."""
    return 0 if n <= 4 else 1 + _steps(n - 2)


@pytest.mark.parametrize("rows,cols", [(3, 3), (4, 6), (7, 5)])
def test_heule_sizes_follow_their_formulas(rows, cols):
    p, _ = board(rows, cols, 3, 6, seed=rows * cols)
    a, b = (rows - 2) * (cols - 2), 2 * (rows + cols) - 8
    frame, inner = p.colour_classes()
    joins, on_frame = Layout(rows, cols).joins()
    sizes = [len(frame) if f else len(inner) for f in on_frame]
    assert len(joins) == 2 * rows * cols - rows - cols
    enc = {(v, m): heule_cnf(p, v, m) for v in VARIANTS for m in AMOS}
    base = 16 + a * a + b * b + sum(sizes)
    pair = lambda n: n * (n - 1) // 2  # noqa: E731
    cells = [4] * 4 + [b] * b + [a] * a  # each piece's cells
    for v in VARIANTS:
        assert enc[(v, "pairwise")].n_vars == base
        assert enc[(v, "card")].n_vars == base
        piece_amo = v in ("exp", "all")
        aux = sum(_steps(n) for n in sizes) + (sum(_steps(n) for n in cells) if piece_amo else 0)
        assert enc[(v, "aux")].n_vars == base + aux
        # pairwise against card: every at-most-one is C(n, 2) clauses against one cardinality line
        amos = sizes + (cells if piece_amo else [])
        assert enc[(v, "pairwise")].n_constraints - enc[(v, "card")].n_constraints == sum(pair(n) - 1 for n in amos)
        assert len(enc[(v, "card")].atmost) == len(amos)
    # exp adds at most one cell a piece
    assert enc[("exp", "pairwise")].n_constraints - enc[("compact", "pairwise")].n_constraints == sum(
        pair(n) for n in cells
    )
    # compact: the clauses every variant shares, counted part by part
    rim = 4 * 4 * 2 + b * b * 3
    alo = len(joins) + p.n_pieces + p.n_cells
    shared = alo + sum(pair(n) for n in sizes) + rim
    assert enc[("compact", "pairwise")].n_constraints > shared


def test_heule_layout_numbers_corners_border_and_inner_cells_as_his_encoder():
    cells = Layout(4, 5).class_cells()
    assert cells["corner"] == [0, 4, 15, 19]
    assert cells["edge"] == [1, 2, 3, 5, 10, 9, 14, 16, 17, 18]
    assert cells["inner"] == [6, 7, 8, 11, 12, 13]


def _count(p, **opts) -> int:
    res = solving.get("sat", opts).solve(p, mode="count", limits=solving.Limits(time_s=120))
    assert res.status == solving.Status.SOLVED, res.message
    return res.count


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.integers(3, 4),
    cols=st.integers(3, 4),
    frame=st.integers(1, 3),
    inner=st.integers(3, 6),
    seed=st.integers(0, 10_000),
)
def test_every_encoding_counts_small_boards_as_the_backtracker(rows, cols, frame, inner, seed):
    p, _ = generate.edge_puzzle(rows, cols, frame, inner, seed)
    truth = solving.get("edge-backtrack").solve(p, mode="count", limits=solving.Limits(time_s=60)).count
    if truth > 300:  # enumeration by blocking clauses: kept short
        return
    names = [n for n in catalogue.NAMED if catalogue.applies(n, p) and n != "direct-symmetry"]
    for name in names:
        assert _count(p, encoding=name) == truth, name


def test_cardinality_constraints_native_and_as_clauses_agree():
    p, _ = board(4, 4, 2, 3, seed=7)
    truth = solving.get("edge-backtrack").solve(p, mode="count").count
    assert _count(p, encoding="heule-all-card", backend="minicard") == truth
    assert _count(p, encoding="heule-all-card", backend="cadical195") == truth


def test_heule_models_decode_to_verified_boards_with_fixed_pieces():
    p, planted = board(5, 5, 2, 4, seed=3)
    from puzzles.kinds.edge import EdgePuzzle, Fixed

    f = next(pl for pl in planted if pl.cell == 12)  # an inner cell
    q = EdgePuzzle(p.rows, p.cols, p.pieces, fixed=[Fixed(f.cell, f.piece, f.rotation)], name="fixed")
    res = solving.get("sat", {"encoding": "heule-exp-aux"}).solve(q, mode="first")
    assert res.status == solving.Status.SOLVED
    placed = {pl.cell: pl for pl in res.solutions[0]}
    assert placed[12].piece == f.piece
    assert verify_solution(q, res.solutions[0]).valid


def test_heule_board_files_round_trip_and_are_recognised(tmp_path):
    p, planted = board(5, 7, 3, 4, seed=2)
    p, planted = generate.solved_order(p, planted)
    text = to_heule(p)
    assert text.startswith("0\n") and looks_heule(text)
    q = parse_heule(text, "x.txt")
    assert (q.rows, q.cols) == (5, 7) and (q.pieces == p.pieces).all()
    f = tmp_path / "em.txt"
    f.write_text("2\n1 1 1 0\n3 4 20 1\n" + text.split("\n", 1)[1])
    r = formats.read_puzzle(f)
    assert [tuple(x) for x in r.fixed] == [(0, 0, 0), (2 * 7 + 3, 19, 1)]
    assert solved_order_share(r) == 1.0


@pytest.mark.parametrize(
    "text,where",
    [
        ("1\n9 9 1 0\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 0 0 1\n", "hint 1"),
        ("0\n0 1 1 0\n0 0 1 1\n1 1 0 0\n", "pieces"),
        ("0\n0 1 1\n", "line 2"),
        ("2\n1 1 1 0\n1 1 2 0\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 0 0 1\n", "hint 2"),  # one cell hinted twice
        ("2\n1 1 1 0\n2 2 1 0\n0 1 1 0\n0 0 1 1\n1 1 0 0\n1 0 0 1\n", "hint 2"),  # one piece hinted twice
    ],
)
def test_a_bad_heule_board_is_refused_naming_the_place(tmp_path, text, where):
    f = tmp_path / "bad.txt"
    f.write_text(text)
    with pytest.raises(InputError) as e:
        formats.read_puzzle(f)
    assert where in str(e.value)


def test_a_scrambled_board_keeps_its_solutions():
    p, planted = board(4, 5, 2, 4, seed=5)
    p, planted = generate.solved_order(p, planted)
    assert solved_order_share(p) == 1.0
    q = scramble(p, 3)
    assert solved_order_share(q) < 0.5
    assert verify_solution(q, scrambled_placements(p, 3, planted)).valid
    bt = solving.get("edge-backtrack")
    assert bt.solve(q, mode="count").count == bt.solve(p, mode="count").count


def _cli(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "eternity", *argv], capture_output=True, text=True, cwd=cwd)


def test_the_commands_write_warn_and_list(tmp_path):
    out = _cli(
        "generate", "edge", "--rows", "5", "--cols", "5", "--frame-colors", "2", "--inner-colors", "4",
        "--solved-order", "--format", "heule", "-o", "b.txt", cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    info = _cli("info", "b.txt", "--json", cwd=tmp_path)
    assert "solved order" in info.stderr and json.loads(info.stdout)["joins_matching_as_listed"] == 1.0
    assert _cli("scramble", "b.txt", "--seed", "2", "-o", "s.txt", cwd=tmp_path).returncode == 0
    assert looks_heule((tmp_path / "s.txt").read_text())
    assert "solved order" not in _cli("info", "s.txt", cwd=tmp_path).stderr
    enc = _cli("encode", "s.txt", "--encoding", "heule-exp-card", "-o", "s.knf", "--json", cwd=tmp_path)
    size = json.loads(enc.stdout)
    lines = (tmp_path / "s.knf").read_text().splitlines()
    assert next(ln for ln in lines if ln.startswith("p ")) == f"p knf {size['variables']} {size['clauses']}"
    assert lines[0] == "c eternity encoding heule-exp-card encoding=heule-exp-card"  # decode builds it again
    assert sum(1 for ln in lines if ln.startswith("k ")) == size["cardinality"] > 0
    table = json.loads(_cli("encodings", "s.txt", "--json", cwd=tmp_path).stdout)
    names = {r["encoding"] for r in table}
    assert {f"heule-{v}-{m}" for v in VARIANTS for m in AMOS} <= names and "primal-support" in names
    bad = _cli("encode", "s.txt", "--encoding", "nope", cwd=tmp_path)
    assert bad.returncode == 2 and "unknown encoding 'nope'" in bad.stderr and "Traceback" not in bad.stderr


def test_quadratic_encodings_are_refused_before_they_fill_the_memory():
    from encoders import cnf

    p, _ = board(12, 12, 3, 6)
    old = cnf.MAX_CLAUSES
    cnf.MAX_CLAUSES = 1000
    try:
        with pytest.raises(Exception, match="more than 1,000"):
            catalogue.build("primal-conflict", p)
    finally:
        cnf.MAX_CLAUSES = old
    assert math.isfinite(old)
