"""`edge-backtrack` (``baseline.edge``): its tables, value orders, restarts and merged identical pieces, against
the counts of the other solvers."""

import numpy as np
import pytest
from helpers.boards import broken, count, small
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from baseline.edge.tables import EdgeTables
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle, Fixed
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits, Status, solve_verified


def test_shuffled_tables_keep_every_key():
    p = generate.edge_puzzle(5, 5, 2, 4, 1)[0]
    t = EdgeTables(p, "rowscan")
    u = t.shuffled(np.random.default_rng(0))
    assert not np.array_equal(t.cand, u.cand)
    for a, b in zip(t.tab_ptr[:-1], t.tab_ptr[1:]):
        assert sorted(t.cand[a:b]) == sorted(u.cand[a:b])
    assert sorted(zip(t.s_piece, t.s_rot)) == sorted(zip(u.s_piece, u.s_rot))


@settings(max_examples=10, deadline=None)
@given(small, st.integers(0, 100), st.sampled_from(["rowscan", "spiral", "mrv"]))
def test_seeded_value_order_counts_alike(args, seed, order):
    *shape, pseed, _ = args
    p = generate.edge_puzzle(*shape, pseed)[0]
    assert count("edge-backtrack", p, seed=seed, order=order) == count("edge-backtrack", p, order=order)


def test_restarts_find_verified_solutions_and_prove_unsat():
    p = generate.edge_puzzle(5, 5, 2, 4, 11)[0]
    res, ok = solve_verified(
        solving.get("edge-backtrack", {"restarts": "luby", "unit": 50, "seed": 3}), p, "first", Limits(time_s=30)
    )
    assert res.status == Status.SOLVED and ok and res.stats["restarts"] >= 1
    q = next(
        b
        for b in (broken(generate.edge_puzzle(4, 4, 2, 3, k)[0], k) for k in range(50))
        if count("edge-backtrack", b)[1] == 0
    )
    # a restart that runs its tree out has proven it
    res, _ = solve_verified(solving.get("edge-backtrack", {"restarts": "luby", "unit": 10_000}), q, "first")
    assert res.status == Status.UNSAT
    with pytest.raises(UsageError, match="restarts are for mode first"):
        solving.get("edge-backtrack", {"restarts": "luby"}).solve(p, mode="count")


@settings(max_examples=25, deadline=None)
@given(small)
def test_merged_identical_pieces_count_alike_and_answer_verified(args):
    """One candidate per group of identical pieces: the same count (times the copies'
    permutations), a tree no larger, and first and best answers that the verifier accepts."""
    *shape, seed, breakit = args
    p = generate.edge_puzzle(*shape, seed)[0]
    if breakit:
        p = broken(p, seed)
    for order in ("rowscan", "mrv"):
        merged = solving.get("edge-backtrack", {"identical": "merge", "order": order})
        plain = solving.get("edge-backtrack", {"identical": "distinct", "order": order}).solve(
            p, mode="count", limits=Limits(time_s=60)
        )
        m = merged.solve(p, mode="count", limits=Limits(time_s=60))
        assert m.status == plain.status and m.count == plain.count
        if order == "rowscan":  # mrv may pick other cells, as the copies count once there
            assert m.stats["nodes"] <= plain.stats["nodes"]
        for mode in ("first", "best") if order == "rowscan" else ("first",):
            res, ok = solve_verified(merged, p, mode, Limits(time_s=60))
            if mode == "first":
                assert res.status == (Status.SOLVED if plain.count else Status.UNSAT)
            assert ok is not False


def test_merging_shrinks_the_tree_of_a_board_with_copies_and_keeps_fixed_twins_apart():
    p = generate.edge_puzzle(4, 5, 2, 2, 0)[0]  # 144 orderings of its identical pieces
    a = solving.get("edge-backtrack", {"identical": "merge"}).solve(p, mode="count")
    b = solving.get("edge-backtrack", {"identical": "distinct"}).solve(p, mode="count")
    assert a.count == b.count == 279936 and a.stats["nodes"] * 50 < b.stats["nodes"]
    a = solving.get("edge-backtrack", {"identical": "merge", "order": "mrv"}).solve(p, mode="count")
    b = solving.get("edge-backtrack", {"identical": "distinct", "order": "mrv"}).solve(p, mode="count")
    assert a.count == b.count == 279936 and a.stats["nodes"] * 50 < b.stats["nodes"]
    # pin a piece that has a twin: the twin stays free, the pinned copy stays put
    t = EdgeTables(p, "rowscan", merge=True)
    group = next(g for g in t.copies.values() if len(g) > 1)
    sol = solving.get("edge-backtrack").solve(p, mode="first").solutions[0]
    pin = next(pl for pl in sol if pl.piece == group[-1])
    q = EdgePuzzle(p.rows, p.cols, p.pieces, fixed=[Fixed(*pin)], name="pinned")
    m = count("edge-backtrack", q, identical="merge")
    assert m == count("edge-backtrack", q, identical="distinct") and m[1] > 0
    res, ok = solve_verified(solving.get("edge-backtrack"), q, "first", Limits(time_s=30))
    assert ok and any(pl.cell == pin.cell and pl.piece == pin.piece for pl in res.solutions[0])


def test_a_sparse_colour_label_does_not_size_the_tables():
    """Colours 1, 2, 3 and 2000 on a 5x5 board: the native solvers renumber them (the tables took 24 GB)."""

    p = generate.edge_puzzle(5, 5, 2, 3, 7)[0]
    sparse = EdgePuzzle(p.rows, p.cols, np.where(p.pieces == 3, 2000, p.pieces), name="sparse")
    assert EdgeTables(sparse.dense_colours(), "rowscan").n_col <= 8  # 0..5 and the base, not 2002
    assert np.unique(sparse.dense_colours().pieces).tolist() == [0, 1, 2, 3, 4, 5]
    assert p.dense_colours() is p  # colours already 1..k: the puzzle itself
    want = solving.get("edge-backtrack").solve(p, mode="count").count
    assert solving.get("edge-backtrack").solve(sparse, mode="count", limits=Limits(time_s=30)).count == want
    res = solving.get("beam", {"width": 64}).solve(sparse, mode="best", limits=Limits(time_s=60))
    assert res.status == "solved" and verify(sparse, res.solutions[0], allow_mismatch=True).legal


def test_candidate_tables_hold_exactly_the_arrangements_that_show_each_key():
    """``build_tables`` (numpy, sorted by key) against the definition, key by key, with and without
    merging, bordered and clue boards."""
    from baseline.edge.tables import build_tables
    from puzzles.make import generate

    p, planted = generate.edge_puzzle(5, 4, 2, 4, 9)
    for q in (p, generate.with_clues(p, planted, 0.3, 9)):
        for merge in (False, True):
            tab_base, tab_ptr, piece, rot, col, n_col = build_tables(q, merge)
            fixed = {f.piece for f in q.fixed}
            free = sorted(q.identical_groups()) if merge else [x for x in range(q.n_pieces) if x not in fixed]
            arr = [(x, r, q.placed(x, r)) for x in free for r in q.distinct_rotations(x)]
            for cls in range(16):
                out = [bool(cls >> s & 1) for s in range(4)]
                for K in range(16):
                    base = tab_base[cls * 16 + K]
                    if base < 0:
                        continue
                    sides = [s for s in range(4) if K >> s & 1]
                    by_key: dict[int, list] = {}
                    for x, r, c in arr:
                        if [c[s] == 0 for s in range(4)] == out:
                            by_key.setdefault(sum(c[s] * n_col**j for j, s in enumerate(sides)), []).append((x, r))
                    for key in range(n_col ** len(sides)):
                        want = by_key.get(key, [])
                        lo, hi = tab_ptr[base + key], tab_ptr[base + key + 1]
                        got = list(zip(piece[lo:hi].tolist(), rot[lo:hi].tolist()))
                        assert got == want
                        for i in range(lo, hi):
                            assert list(col[4 * i : 4 * i + 4]) == list(q.placed(int(piece[i]), int(rot[i])))


def test_a_board_of_many_real_colours_is_refused_before_its_tables_are_built(tmp_path, capsys):
    """827 colours on a 30x30 board: a static order's one-byte colours and mrv's four-sided tables
    (3.5 TiB of keys) are refused in one line, before anything is allocated (it once took 21 GB and
    ended in an internal error)."""
    from eternity.cli import main
    from puzzles.files.formats import write_puzzle
    from puzzles.make import generate

    p, _ = generate.edge_puzzle(30, 30, 3, 1000, 1)
    f = tmp_path / "many.json"
    write_puzzle(p, str(f))
    for argv, says in (
        (["--solver", "edge-backtrack"], "at most 255 colours"),
        (["--solver", "beam"], "at most 255 colours"),
        (["--solver", "edge-backtrack", "--opt", "order=mrv"], "GiB"),
    ):
        assert main(["solve", str(f), "--time-limit", "5", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err


def test_a_static_order_builds_only_the_tables_it_reads():
    from baseline.edge.tables import EdgeTables
    from puzzles.make import generate

    p, _ = generate.edge_puzzle(5, 5, 2, 3, 1)
    row, mrv = EdgeTables(p, "rowscan"), EdgeTables(p, "mrv")
    assert (row.tab_base >= 0).sum() < (mrv.tab_base >= 0).sum()
    for k in range(p.n_cells):  # every depth's table is there, with its subsets (K = 0: dep_all)
        assert row.dep_base[k] >= 0 and row.dep_all[k] >= 0


def test_mode_best_reports_a_perfect_first_board():
    """The first complete board of mode best may be perfect (exact matches are tried first): it ends the
    search at once and is the answer (it was once reported as no solution)."""
    from puzzles.make import generate
    from puzzles.verify import verify

    p, _ = generate.edge_puzzle(4, 4, 1, 1, 0)
    res = solving.get("edge-backtrack").solve(p, mode="best")
    assert res.status == "solved" and res.best_score == p.n_joins and res.optimal
    assert verify(p, res.solutions[0]).valid
    assert res.stats["history"][-1][1] == p.n_joins


@pytest.mark.parametrize("name,cut", [("brendan-4x4", 3.0), ("brendan-5x5", 3.0), ("brendan-6x4", 1.5)])
def test_owen_s_corner_fixing_keeps_the_count_and_cuts_the_tree(name, cut):
    """Seed 001: fixing a corner piece cuts the tree about 4x on a square board and 2x on a rectangle."""
    p = catalog.load(name)
    plain = solving.get("edge-backtrack").solve(p, mode="count")
    fixed = solving.get("edge-backtrack", {"symmetry": True}).solve(p, mode="count")
    assert fixed.count == plain.count and fixed.status == plain.status == solving.Status.SOLVED
    assert plain.stats["nodes"] / fixed.stats["nodes"] > cut
    first = solving.get("edge-backtrack", {"symmetry": True}).solve(p, mode="first")
    assert first.status == solving.Status.SOLVED


def test_corner_fixing_refuses_a_board_with_fixed_pieces():
    with pytest.raises(UsageError, match="symmetry=true"):
        solving.get("edge-backtrack", {"symmetry": True}).solve(catalog.load("eternity2"), mode="count")
