"""Generators plant a solution; the verifier accepts it and catches every broken join."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from eternity.cli import main
from puzzles.files import formats
from puzzles.kinds.edge import EdgePlacement
from puzzles.make import generate
from puzzles.verify import verify

sizes = st.tuples(st.integers(2, 6), st.integers(2, 6), st.integers(1, 4), st.integers(1, 6), st.integers(0, 10**6))


@settings(max_examples=40, deadline=None)
@given(sizes)
def test_planted_solution_verifies(args):
    p, planted = generate.edge_puzzle(*args)
    rep = verify(p, planted)
    assert rep.valid and rep.score == p.n_joins


@settings(max_examples=40, deadline=None)
@given(sizes, st.data())
def test_any_change_that_breaks_a_join_is_caught(args, data):
    p, planted = generate.edge_puzzle(*args)
    k = data.draw(st.integers(0, len(planted) - 1))
    r = data.draw(st.integers(1, 3))
    changed = list(planted)
    changed[k] = EdgePlacement(planted[k].cell, planted[k].piece, (planted[k].rotation + r) % 4)
    shown_before = p.placed(planted[k].piece, planted[k].rotation)
    shown_after = p.placed(changed[k].piece, changed[k].rotation)
    rep = verify(p, changed)
    assert rep.valid == (shown_before == shown_after)


@settings(max_examples=25, deadline=None)
@given(sizes)
def test_edge_round_trip(args):
    p, planted = generate.edge_puzzle(*args)
    q = formats.puzzle_from_dict(json.loads(json.dumps(formats.puzzle_to_dict(p))))
    assert q.pieces.tolist() == p.pieces.tolist() and (q.rows, q.cols) == (p.rows, p.cols)
    sol = formats.solution_from_dict(q, json.loads(json.dumps(formats.solution_to_dict(p, planted))))
    assert sorted(sol) == sorted(planted)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(2, 7), st.sampled_from([3, 4, 5]), st.integers(0, 1000))
def test_polyomino_planted(rows, cols, size, seed):
    if (rows * cols) % size:
        return
    p, planted = generate.polyomino_puzzle(rows, cols, size, seed)
    assert verify(p, planted).valid
    q = formats.puzzle_from_dict(formats.puzzle_to_dict(p))
    assert formats.puzzle_hash(q) == formats.puzzle_hash(p)
    sol = formats.solution_from_dict(q, formats.solution_to_dict(p, planted))
    assert verify(q, sol).valid
    assert not verify(q, sol[1:]).valid


def test_generate_is_reproducible():
    a, _ = generate.edge_puzzle(5, 5, 2, 3, seed=11)
    b, _ = generate.edge_puzzle(5, 5, 2, 3, seed=11)
    c, _ = generate.edge_puzzle(5, 5, 2, 3, seed=12)
    assert a.pieces.tolist() == b.pieces.tolist() != c.pieces.tolist()


def test_frame_colours_only_on_frame_joins():
    p, _ = generate.edge_puzzle(6, 7, 3, 5, seed=2)
    frame, inner = p.colour_classes()
    assert set(frame) <= {1, 2, 3} and set(inner) <= set(range(4, 9))


def test_cli_generate_verify_and_swap(tmp_path, capsys):
    pz, sol = tmp_path / "p.json", tmp_path / "s.json"
    assert (
        main(
            "generate edge --rows 6 --cols 6 --frame-colors 3 --inner-colors 5 --seed 7 -o".split()
            + [str(pz), "--planted", str(sol)]
        )
        == 0
    )
    assert main(["verify", str(pz), str(sol)]) == 0
    d = json.loads(sol.read_text())
    pl = d["placements"]
    i, j = 14, 21  # two inner cells
    pl[i]["piece"], pl[j]["piece"] = pl[j]["piece"], pl[i]["piece"]
    sol.write_text(json.dumps(d))
    capsys.readouterr()
    assert main(["verify", str(pz), str(sol)]) == 1
    out = capsys.readouterr().out
    assert "mismatched joins" in out and "INVALID" in out


def test_render_and_bucas(tmp_path):
    import xml.etree.ElementTree as ET

    sol, svg, url = tmp_path / "s.json", tmp_path / "b.svg", tmp_path / "u.txt"
    assert main(["export", "eternity2-clue1", "--to", "solution", "-o", str(sol)]) == 0
    assert main(["render", "eternity2-clue1", str(sol), "-o", str(svg)]) == 0
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and len(root) > 36 * 4
    assert main(["export", "eternity2-clue1", "--to", "bucas", "-o", str(url)]) == 0
    text = url.read_text()
    assert "board_edges=" in text and len(text.split("board_edges=")[1].split("&")[0].strip()) == 36 * 4
    assert main(["render", "pentomino-6x10", "-o", str(svg)]) == 0
    ET.parse(svg)


def test_a_fixed_symmetric_piece_may_be_named_by_any_turn_that_looks_the_same():
    """A fixed piece whose turns look alike is the same board in any of them (the counting convention):
    the CNF and CPMpy models name its first distinct turn, and the verifier takes it."""
    import solving
    from puzzles.kinds.edge import EdgePlacement, EdgePuzzle, Fixed
    from puzzles.verify import verify

    p = EdgePuzzle(rows=3, cols=3, pieces=[[1, 1, 1, 1]] * 9, fixed=[Fixed(4, 0, 3)])
    order = [1, 2, 3, 4, 0, 5, 6, 7, 8]
    assert verify(p, [EdgePlacement(c, q, 0) for c, q in enumerate(order)]).valid  # turn 0 looks like turn 3
    wrong = [EdgePlacement(c, q, 0) for c, q in enumerate(range(9))]  # piece 5 where piece 1 is fixed
    assert not verify(p, wrong).valid and "fixed piece 1" in " ".join(verify(p, wrong).problems)
    for name in ("sat", "cube", "cpsat", "edge-backtrack"):
        res, verified = solving.solve_verified(solving.get(name), p, "first", solving.Limits(time_s=30))
        assert res.status == "solved" and verified, name
