"""The hardness-peak machinery: support clauses, cube-and-conquer, restarts, the portfolio, races."""

import json
import os
import time
from pathlib import Path

import numpy as np
import pytest
from helpers.plugin import install
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver as PySat

import solving
from baseline.edge.tables import EdgeTables
from baseline.runtime.driver import luby
from encoders.cnf import direct_cnf
from encoders.cube import make_cubes
from puzzles import catalog, formats, generate
from puzzles.edge import EdgePuzzle, Fixed
from puzzles.errors import UsageError
from solving import Limits, Status, solve_verified
from solving.portfolio import parse_members
from solving.race import race

HELPERS = Path(__file__).parent / "helpers"


def broken(p: EdgePuzzle, seed: int) -> EdgePuzzle:
    """The planted puzzle with one inner colour of one piece changed: often no solution left."""
    rng = np.random.default_rng(seed)
    pieces = p.pieces.copy()
    q = int(rng.integers(p.n_pieces))
    sides = [s for s in range(4) if pieces[q, s] != 0]
    if sides:
        s = sides[int(rng.integers(len(sides)))]
        pieces[q, s] = 1 + (int(pieces[q, s]) % int(p.pieces.max()))
    return EdgePuzzle(p.rows, p.cols, pieces, name="broken")


def count(name: str, p, **opts) -> tuple[Status, int]:
    res, _ = solve_verified(solving.get(name, opts), p, "count", Limits(time_s=60))
    return res.status, res.count


small = st.tuples(
    st.integers(2, 4), st.integers(2, 4), st.integers(1, 2), st.integers(1, 4), st.integers(0, 10**6), st.booleans()
)
# what a CDCL enumeration (a blocking clause per solution) counts in seconds: at most some thousands
tiny = st.tuples(
    st.integers(2, 3), st.integers(2, 4), st.integers(1, 2), st.integers(2, 4), st.integers(0, 10**6), st.booleans()
)


@settings(max_examples=15, deadline=None)
@given(tiny, st.integers(0, 3), st.sampled_from([1, 2]))
def test_cube_counts_agree_with_the_backtracker(args, depth, jobs):
    *shape, seed, breakit = args
    p = generate.edge_puzzle(*shape, seed)[0]
    if breakit:
        p = broken(p, seed)
    want = count("edge-backtrack", p)
    got = count("cube", p, depth=depth, jobs=jobs)
    assert got == want
    if want[1] == 0:
        assert got[0] == Status.UNSAT  # all cubes refuted: a proof


def test_cube_proves_a_broken_puzzle_unsatisfiable():
    for seed in range(50):
        p = broken(generate.edge_puzzle(4, 4, 2, 3, seed)[0], seed)
        if count("edge-backtrack", p) == (Status.UNSAT, 0):
            break
    else:
        pytest.fail("no broken puzzle without solutions")
    res, _ = solve_verified(solving.get("cube", {"depth": 2}), p, "first", Limits(time_s=60))
    assert res.status == Status.UNSAT
    assert res.stats["refuted_cubes"] == res.stats["cubes"] > 1


def test_cubes_partition_the_solutions():
    p = generate.edge_puzzle(3, 4, 2, 2, 7)[0]
    enc = direct_cnf(p)
    cubes = make_cubes(p, enc, "rowscan", 3)
    assert len({tuple(c) for c in cubes}) == len(cubes)
    total = 0
    for cube in cubes:  # every solution extends exactly one cube
        with PySat(name="cadical195", bootstrap_with=enc.clauses) as s:
            for _m in s.enum_models(assumptions=cube):
                total += 1
    assert total == count("edge-backtrack", p)[1]
    assert len(make_cubes(p, enc, "rowscan", 0, target=5)) >= 5


def test_support_clauses_propagate_what_the_plain_encoding_cannot():
    """Arc consistency: with a placement assumed, unit propagation rules out more placements."""
    p = generate.edge_puzzle(4, 4, 2, 3, 3)[0]
    plain, strong = direct_cnf(p, support=False), direct_cnf(p, support=True)
    assert len(strong.clauses) > len(plain.clauses)
    more = 0
    for v in list(plain.decision)[:40]:
        with (
            PySat(name="minisat22", bootstrap_with=plain.clauses) as a,
            PySat(name="minisat22", bootstrap_with=strong.clauses) as b,
        ):
            ok_a, lits_a = a.propagate(assumptions=[v])
            ok_b, lits_b = b.propagate(assumptions=[v])
            fa = {x for x in lits_a if abs(x) in plain.decision}
            fb = {x for x in lits_b if abs(x) in strong.decision}
            # what the strong encoding fixed at level 0 is not propagated again: its negation fails at once
            fb |= {x for x in fa - fb if not b.propagate(assumptions=[-x])[0]}
            assert not ok_a or not ok_b or fa <= fb
            more += len(fb) > len(fa) or (ok_a and not ok_b)
    assert more > 0


def test_luby_sequence():
    assert [luby(i) for i in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


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


def test_portfolio_records_the_member_that_answered():
    p = generate.edge_puzzle(5, 5, 2, 4, 11)[0]
    res, ok = solve_verified(
        solving.get("portfolio", {"members": "edge-backtrack:order=spiral;sat"}), p, "first", Limits(time_s=60)
    )
    assert res.status == Status.SOLVED and ok
    assert res.stats["member"] in ("edge-backtrack:order=spiral", "sat")
    assert res.message == f"answered by {res.stats['member']}"
    res, _ = solve_verified(solving.get("portfolio", {"jobs": 3}), p, "count", Limits(time_s=60))
    assert res.count == count("edge-backtrack", p)[1]
    assert len(res.stats["members"]) == 3


@pytest.mark.timing
def test_portfolio_outlives_a_crashing_member_and_kills_a_hanging_one(tmp_path, monkeypatch):
    install(tmp_path, {"hang": "doubles:Hang", "crash": "doubles:Crash"}, monkeypatch, [HELPERS])
    p = generate.edge_puzzle(4, 4, 2, 3, 2)[0]
    t = time.monotonic()
    res, ok = solve_verified(
        solving.get("portfolio", {"members": "hang;crash;edge-backtrack"}), p, "first", Limits(time_s=60)
    )
    assert res.status == Status.SOLVED and ok and res.stats["member"] == "edge-backtrack"
    assert time.monotonic() - t < 20
    res, _ = solve_verified(solving.get("portfolio", {"members": "crash"}), p, "first", Limits(time_s=10))
    assert res.status == Status.ERROR and "boom" in res.message
    res, _ = solve_verified(solving.get("portfolio", {"members": "hang"}), p, "first", Limits(time_s=1))
    assert res.status == Status.LIMIT


@pytest.mark.parametrize(
    "spec, err",
    [
        ("nosuch", "unknown solver|no solver"),
        ("portfolio", "its own member"),
        ("edge-backtrack:order", "expected KEY=VALUE"),
        ("cube:jobs=0", "jobs"),
        ("", "no members"),
    ],
)
def test_portfolio_refuses_bad_members(spec, err):
    p = generate.edge_puzzle(3, 3, 2, 2, 1)[0]
    with pytest.raises((UsageError, ValueError), match=err):
        solving.get("portfolio", {"members": spec}).check(p, "first")


def test_member_specs_parse():
    assert parse_members("a:x=1,y=two; b") == [("a", {"x": "1", "y": "two"}), ("b", {})]


@pytest.mark.timing
def test_race_reports_a_dead_child_and_stops_at_the_settling_answer():
    def dies(stop):
        os._exit(3)

    def slow(stop):
        time.sleep(30)
        return "slow"

    def quick(stop):
        return "quick"

    t = time.monotonic()
    out = race([dies, slow, quick], settles=lambda r: r == "quick")
    assert time.monotonic() - t < 10
    by = {o.index: o for o in out}
    assert by[2].result == "quick"
    assert by[0].error.startswith("process died") or by[0].error.startswith("stopped")
    assert by[1].error == "stopped before it reported"


def test_a_run_can_select_families_and_solvers(tmp_path):
    from experiments.config import load_config
    from experiments.runner import select

    cfg = load_config(str(Path(__file__).parent.parent / "experiments" / "peak.toml"))
    part = select(cfg, ["edge-7x7-3-7"], ["edge-backtrack", "cube[jobs=2]"])
    assert [f.name for f in part.families] == ["edge-7x7-3-7"]
    assert [s.label or s.name for s in part.solvers] == ["edge-backtrack", "edge-backtrack[luby]", "cube[jobs=2]"]
    assert {s.cores for s in part.solvers} == {1, 2}
    with pytest.raises(UsageError, match="no family 'x'"):
        select(cfg, ["x"], None)
    with pytest.raises(UsageError, match="no solver 'y'"):
        select(cfg, None, ["y"])


def test_cells_hold_their_cores():
    import threading

    from experiments.runner import _Cores

    cores, busy, peak = _Cores(2), [0], [0]
    lock = threading.Lock()

    def cell(n):
        with cores.held(n):
            with lock:
                busy[0] += min(n, 2)
                peak[0] = max(peak[0], busy[0])
            time.sleep(0.05)
            with lock:
                busy[0] -= min(n, 2)

    threads = [threading.Thread(target=cell, args=(n,)) for n in (2, 1, 1, 2, 1, 5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert peak[0] == 2


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


def test_a_wide_cell_is_not_passed_over():
    import threading

    from experiments.runner import _Cores

    cores, started = _Cores(2), []
    first = threading.Event()

    def cell(tag, n, hold):
        with cores.held(n):
            started.append(tag)
            first.set()
            time.sleep(hold)

    a = threading.Thread(target=cell, args=("narrow-0", 1, 0.3))
    a.start()
    first.wait()
    wide = threading.Thread(target=cell, args=("wide", 2, 0.01))
    wide.start()
    time.sleep(0.05)  # the wide cell is queued; narrow ones that come later wait behind it
    rest = [threading.Thread(target=cell, args=(f"narrow-{i}", 1, 0.01)) for i in (1, 2, 3)]
    for t in rest:
        t.start()
    for t in [a, wide, *rest]:
        t.join()
    assert started[:2] == ["narrow-0", "wide"]


def test_portfolio_reports_its_members_depth_and_progress(tmp_path):
    """A polyform portfolio that ends at its limit: how deep each member got (and the deepest),
    and each member's progress lines, marked with its label."""
    from solving.progress import LogLines

    log = tmp_path / "progress.txt"
    with open(log, "a") as stream:
        res, _ = solve_verified(
            solving.get("portfolio", {"members": "backtrack:engine=poly;backtrack:engine=poly,sweep=270"}),
            catalog.load("eternity1-pram"),
            "first",
            Limits(time_s=3),
            LogLines("pf", every=0.5, stream=stream),
        )
    assert res.status == Status.LIMIT
    deep = res.stats["member_deepest"]
    assert set(deep) == {"backtrack:engine=poly", "backtrack:engine=poly,sweep=270"}
    assert all(d > 20 for d in deep.values()) and res.stats["deepest"] == max(deep.values())
    text = log.read_text()
    assert "member backtrack:engine=poly " in text and "member backtrack:engine=poly,sweep=270" in text


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


@pytest.mark.parametrize("name", ["sat", "cube", "cpsat"])
def test_merged_copies_in_the_cnf_count_alike_with_fewer_models(name):
    p = generate.edge_puzzle(4, 4, 2, 3, 0)[0]  # 4 orderings of its identical pieces, 96 solutions
    merged = solving.get(name, {"identical": "merge"})
    res, ok = solve_verified(merged, p, "count", Limits(time_s=60))
    plain = solve_verified(solving.get(name, {"identical": "distinct"}), p, "count", Limits(time_s=60))[0]
    assert res.count == plain.count == count("edge-backtrack", p)[1] == 96
    assert res.stats["vars"] < plain.stats["vars"]
    res, ok = solve_verified(merged, p, "first", Limits(time_s=60))
    assert res.status == Status.SOLVED and ok


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
