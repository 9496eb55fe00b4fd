"""The native backtrackers against the known counts and against each other."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from baseline.xcc.backtrack import count_xcc, split
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.estimates.symmetry import distinct_count
from puzzles.kinds.edge import EdgePuzzle, Fixed
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits, Status, solve_verified

QUEENS = {4: (2, 1), 5: (10, 2), 6: (4, 1), 7: (40, 6), 8: (92, 12), 9: (352, 46), 10: (724, 92)}


def count(name_or_puzzle, solver="backtrack", **opts):
    p = catalog.load(name_or_puzzle) if isinstance(name_or_puzzle, str) else name_or_puzzle
    r = solving.get(solver, opts).solve(p, mode="count")
    assert r.status in ("solved", "limit")
    return r.count


@pytest.mark.parametrize("n", sorted(QUEENS))
def test_queens(n):
    p = catalog.load(f"queens-{n}")
    r = solving.get("backtrack").solve(p, mode="all")
    assert r.count == QUEENS[n][0] == len(r.solutions)
    assert all(verify(p, s).valid for s in r.solutions)
    assert distinct_count(p, r.solutions) == QUEENS[n][1]


def test_pentomino_3x20():
    p = catalog.load("pentomino-3x20")
    r = solving.get("backtrack").solve(p, mode="all")
    assert r.count == 8 and distinct_count(p, r.solutions) == 2


@pytest.mark.slow
@pytest.mark.parametrize("box,total,distinct", [("6x10", 9356, 2339), ("5x12", 4040, 1010), ("4x15", 1472, 368)])
def test_pentomino_boxes(box, total, distinct):
    p = catalog.load(f"pentomino-{box}")
    r = solving.get("backtrack").solve(p, mode="all")
    assert r.count == total and distinct_count(p, r.solutions) == distinct


SLOW_ORDERS = [pytest.param(o, marks=pytest.mark.slow) for o in ("spiral", "frame-first", "mrv")]


@pytest.mark.parametrize("order", ["rowscan", "colscan"] + SLOW_ORDERS)
def test_owen_a_edge_backtrack(order):
    assert count("owen-a", "edge-backtrack", order=order) == 160


@pytest.mark.slow
def test_owen_a_backtrack():
    assert count("owen-a") == 160


def test_brendan_first_solutions_up_to_7x7():
    for name in catalog.names():
        if not name.startswith("brendan-"):
            continue
        w, h = map(int, name[8:].split("x"))
        if w > 7 or h > 7:
            continue
        p = catalog.load(name)
        r = solving.get("edge-backtrack").solve(p, mode="first", limits=solving.Limits(time_s=60))
        assert r.status == "solved", name
        assert verify(p, r.solutions[0]).valid, name


def test_clue1_first_solution_and_fixed_piece():
    p = catalog.load("eternity2-clue1")
    sol = catalog.known_solution("eternity2-clue1")

    p2 = EdgePuzzle(p.rows, p.cols, p.pieces, fixed=[Fixed(*sol[14]), Fixed(*sol[0])])
    for solver in ("edge-backtrack", "backtrack"):
        r = solving.get(solver).solve(p2, mode="first")
        assert r.status == "solved" and verify(p2, r.solutions[0]).valid


small_edge = st.tuples(
    st.integers(2, 3), st.integers(2, 4), st.integers(1, 2), st.integers(1, 2), st.integers(0, 10**6)
)


@settings(max_examples=30, deadline=None)
@given(small_edge, st.sampled_from(["rowscan", "colscan", "spiral", "frame-first", "mrv"]))
def test_backtrackers_agree_on_random_edge_puzzles(args, order):
    p, _ = generate.edge_puzzle(*args)
    # make symmetric and identical pieces likely: few colours already; also duplicate one piece
    a = count(p)
    b = count(p, "edge-backtrack", order=order)
    assert a == b and a >= 1


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_agree_with_identical_and_symmetric_pieces(seed):
    p, _ = generate.edge_puzzle(3, 3, 1, 1, seed)  # one colour each: many symmetric, identical pieces
    r = solving.get("backtrack").solve(p, mode="all")
    e = solving.get("edge-backtrack", {"order": "spiral"}).solve(p, mode="all")
    assert r.count == e.count
    assert distinct_count(p, r.solutions) == distinct_count(p, e.solutions)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 3))
def test_split_parts_sum_to_whole(seed, depth):
    p, _ = generate.edge_puzzle(3, 3, 1, 2, seed)
    x = p.to_xcc()
    whole = count_xcc(x)
    parts = split(x, depth)
    assert sum(count_xcc(x.restrict(prefix)[0]) for prefix in parts) == whole


def test_split_queens():
    x = catalog.load("queens-8").to_xcc()
    parts = split(x, 2)
    assert len(parts) > 8
    assert sum(count_xcc(x.restrict(pr)[0]) for pr in parts) == 92


def test_limits_stop_the_search():
    r = solving.get("edge-backtrack").solve(catalog.load("eternity2"), mode="first", limits=solving.Limits(time_s=0.5))
    assert r.status == "limit" and r.stats["nodes"] > 0
    r = solving.get("backtrack").solve(catalog.load("pentomino-6x10"), mode="count", limits=solving.Limits(nodes=5000))
    assert r.status == "limit"


def test_random_tie_breaking_gives_the_same_count():
    assert count("queens-7", seed=3) == 40


def test_unknown_option_and_mode():
    with pytest.raises(ValueError):
        solving.get("backtrack", {"nope": 1})
    with pytest.raises(ValueError):
        solving.get("edge-backtrack").check(catalog.load("queens-5"), "count")


def _walk(xcc, engine, seed=-1):
    from baseline.xcc.searches import make_search

    s = make_search(xcc, seed, engine)
    firsts = []
    while s.step(1 << 40, True) != 0:
        if len(firsts) < 3:
            firsts.append(s.current_options())
    return s.count, s.nodes, s.prof.tolist(), firsts


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["edge", "polyomino", "queens"]), st.integers(0, 10**6))
def test_engines_visit_the_same_tree(kind, seed):
    """Dancing links and bitsets: same count, same nodes per level, same first solutions
    (coloured secondary items in the edge puzzles, uncoloured ones in queens)."""
    if kind == "edge":
        p, _ = generate.edge_puzzle(3, 3, 1, 2, seed)
    elif kind == "polyomino":
        p, _ = generate.polyomino_puzzle(4, 5, 4, seed)
    else:
        p = catalog.load(f"queens-{4 + seed % 4}")
    x = p.to_xcc()
    assert _walk(x, "dlx") == _walk(x, "bitset")
    assert _walk(x, "dlx", seed % 7)[0] == _walk(x, "bitset", seed % 7)[0]


def test_bitset_engine_split_and_bad_engine():
    from baseline.xcc.searches import make_search

    x = catalog.load("queens-8").to_xcc()
    assert sum(count_xcc(x.restrict(pr)[0]) for pr in split(x, 3)) == 92
    assert make_search(x).engine == "bitset"
    with pytest.raises(ValueError, match="engine"):
        make_search(x, engine="nope")
    assert count("pentomino-3x20", engine="dlx") == count("pentomino-3x20", engine="bitset") == 8


def _one_unmatchable(seed: int) -> EdgePuzzle:
    """A 4x4 puzzle whose best board has exactly one mismatched join: one inner side
    of an inner piece gets a colour no other piece has."""
    import dataclasses

    p, sol = generate.edge_puzzle(4, 4, 2, 3, seed)
    pieces = p.pieces.copy()
    inner = next(q for q in range(p.n_pieces) if (pieces[q] > 0).all())
    pieces[inner, 0] = pieces.max() + 1
    return dataclasses.replace(p, pieces=pieces)


@pytest.mark.parametrize("order", ["rowscan", "spiral", "frame-first"])
def test_best_mode_proves_the_optimum(order):
    p = _one_unmatchable(7)
    r = solving.get("edge-backtrack", {"order": order}).solve(p, mode="best")
    assert r.status == "solved" and r.stats["proven"]
    assert r.best_score == p.n_joins - 1
    rep = verify(p, r.solutions[0])
    assert rep.score == r.best_score
    assert [s for _, s in r.stats["history"]] == sorted(s for _, s in r.stats["history"])
    # a solvable puzzle: the perfect board, found and verified
    q = catalog.load("brendan-4x4")
    r = solving.get("edge-backtrack").solve(q, mode="best")
    assert r.best_score == q.n_joins and verify(q, r.solutions[0]).valid


def test_best_mode_slips_bound_the_mismatches():
    p = _one_unmatchable(3)
    # no mismatch allowed at all before the last piece, one there: either a board with
    # exactly one mismatch or nothing
    r = solving.get("edge-backtrack", {"slips": str(p.n_cells)}).solve(p, mode="best")
    assert r.status in ("solved", "limit")
    if r.status == "solved":
        assert r.best_score == p.n_joins - 1
    # one mismatch allowed anywhere: the finished search refutes every better board, so its board is optimal
    r = solving.get("edge-backtrack", {"slips": "1"}).solve(p, mode="best")
    assert r.status == "solved" and r.optimal and r.best_score == p.n_joins - 1
    # too few: slips allowed only late do not cover a better board, so the board is not called optimal
    r = solving.get("edge-backtrack", {"slips": f"{p.n_cells - 1}"}).solve(p, mode="best")
    assert not r.optimal
    # two pieces that cannot match: no board within one slip, and that is a limit, not "unsatisfiable"
    q = _one_unmatchable(3)
    pieces = q.pieces.copy()
    second = [k for k in range(q.n_pieces) if (pieces[k] > 0).all()][-1]
    pieces[second, 2] = pieces.max() + 1
    import dataclasses

    q = dataclasses.replace(q, pieces=pieces)
    r = solving.get("edge-backtrack", {"slips": "1"}).solve(q, mode="best")
    assert r.status == "limit" and r.stats["no_board_within_slips"] and not r.solutions
    r = solving.get("edge-backtrack").solve(q, mode="best")
    assert r.status == "solved" and r.optimal and r.best_score <= q.n_joins - 2
    with pytest.raises(ValueError, match="slips"):
        solving.get("edge-backtrack", {"slips": "0"}).solve(p, mode="best")
    with pytest.raises(ValueError, match="static order"):
        solving.get("edge-backtrack", {"order": "mrv"}).solve(p, mode="best")


def test_backtrack_restarts_answer_like_one_search():
    from puzzles import catalog

    for name in ("queens-8", "pentomino-3x20"):
        p = catalog.load(name)
        res, ok = solve_verified(
            solving.get("backtrack", {"restarts": "luby", "unit": 1, "seed": 4}), p, "first", Limits(time_s=60)
        )
        assert res.status == Status.SOLVED and ok and res.stats["restarts"] >= 1
    res, _ = solve_verified(
        solving.get("backtrack", {"restarts": "luby", "unit": 5}), catalog.load("queens-3"), "first"
    )
    assert res.status == Status.UNSAT
    with pytest.raises(UsageError, match="restarts are for mode first"):
        solving.get("backtrack", {"restarts": "luby"}).solve(catalog.load("queens-4"), mode="count")


def test_the_antidiagonal_order_puts_each_cells_upper_and_left_neighbours_first():
    from puzzles import catalog
    from puzzles.kinds.orders import search_order

    p = catalog.load("brendan-4x4")
    order = search_order(p, "antidiagonal")
    assert sorted(order) == list(range(16))
    at = {x: i for i, x in enumerate(order)}
    for x in range(16):
        r, c = divmod(x, 4)
        assert (r == 0 or at[x - 4] < at[x]) and (c == 0 or at[x - 1] < at[x])
    counts = {
        o: solving.get("edge-backtrack", {"order": o}).solve(p, mode="count").count for o in ("rowscan", "antidiagonal")
    }
    assert counts["antidiagonal"] == counts["rowscan"] == 36
