"""The repair phase of best mode (``baseline.beam.repair``): it never loses a join, its window search is exact,
its assignment step reports what it changes, and the phase keeps or improves the beam's board."""

import itertools
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_e2_score import scrambled

import solving
from baseline.beam.repair import Repair, _touching, _window_search
from puzzles import catalog
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.integers(4, 6), st.integers(2, 5))
def test_repair_never_loses_a_join_and_keeps_the_rules(seed, size, inner):
    p, sol = generate.edge_puzzle(size, size, 2, inner, seed)
    board = scrambled(p, sol, seed)
    rep = Repair(p, seed, (3, 3))
    start = rep.score(*rep.board(board))
    seen = []
    out, score = rep.run(board, time.perf_counter() + 0.3, lambda pl, s: seen.append(s))
    v = verify(p, out, allow_mismatch=True)
    assert not v.problems and v.score == score >= start
    assert seen == sorted(seen) and (not seen or seen[-1] == score)


def test_window_search_is_exact_against_brute_force():
    p, sol = generate.edge_puzzle(5, 5, 2, 3, 11)
    rep = Repair(p)
    pc, rt = rep.board(scrambled(p, sol, 4))
    cells = np.array([6, 7, 11, 12], np.int64)  # a 2x2 window of inner cells
    pieces = pc[cells].copy()
    brute = 0
    for perm in itertools.permutations(pieces):
        for rots in itertools.product(range(4), repeat=4):
            pc2, rt2 = pc.copy(), rt.copy()
            pc2[cells], rt2[cells] = perm, rots
            brute = max(brute, _touching(cells, pc2, rt2, rep.col, rep.nb))
    win = np.full(p.n_cells, -1, np.int64)
    win[cells] = np.arange(4)
    best, _ = _window_search(
        cells, pieces, pc, rt, rep.col, rep.nb, rep.allowed, win, 10**9, 0, False, pc[cells].copy(), rt[cells].copy()
    )
    assert best == brute == _touching(cells, pc, rt, rep.col, rep.nb)


def test_assignment_step_reports_the_change_it_makes():
    p, sol = generate.edge_puzzle(8, 8, 3, 6, 2)
    rep = Repair(p, 1)
    pc, rt = rep.board(scrambled(p, sol, 2))
    for _ in range(20):
        before = rep.score(pc, rt)
        delta = rep.assign_step(pc, rt)
        assert delta >= 0 and rep.score(pc, rt) == before + delta
        assert sorted(pc) == list(range(p.n_pieces))  # still every piece once


@pytest.mark.timing  # its steps and tail passes happen within 8 s only on an idle machine
def test_repair_phase_improves_or_keeps_the_beam_board():
    p = catalog.load("eternity2-corners-1")
    s = solving.get("beam", {"repair": 0.5})
    s.warm(p, "best")
    r = s.solve(p, mode="best", limits=Limits(time_s=8))
    rp = r.stats["repair"]
    assert rp["to"] == r.best_score >= rp["from"]
    assert rp["assign_steps"] > 0 and rp["tail_passes"] > 0
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score


def test_the_exact_block_is_exact_against_the_window_search_and_never_loses():
    """A 2x2 block re-solved by CP-SAT (both formulations) reaches the exhaustive window search's optimum; on a
    scrambled board every block step keeps the rules and the score it reports."""
    from baseline.beam.repair_block import FORMULATIONS, ExactBlock
    from baseline.beam.repair_block import _touching as block_touching

    p, sol = generate.edge_puzzle(5, 5, 2, 3, 11)
    rep = Repair(p)
    pc, rt = rep.board(scrambled(p, sol, 4))
    cells = np.array([6, 7, 11, 12], np.int64)
    win = np.full(p.n_cells, -1, np.int64)
    win[cells] = np.arange(4)
    pc2, rt2 = pc.copy(), rt.copy()
    best, _ = _window_search(
        cells, pc[cells].copy(), pc2, rt2, rep.col, rep.nb, rep.allowed, win, 10**9, 0, False, pc[cells].copy(),
        rt[cells].copy(),
    )  # fmt: skip
    for model in FORMULATIONS:
        b = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, 30.0, 2, 2, 2, model)
        pc3, rt3 = pc.copy(), rt.copy()
        gain = b.step(pc3, rt3, None, cells)  # the same block as the window search's
        assert b.stats["block_optimal"] == 1
        assert (
            block_touching(cells, pc3, rt3, rep.col, rep.nb) == best == _touching(cells, pc, rt, rep.col, rep.nb) + gain
        )
    p, sol = generate.edge_puzzle(7, 7, 3, 5, 3)
    rep = Repair(p, 3, (3, 3), 1.0)
    pc, rt = rep.board(scrambled(p, sol, 3))
    _block_steps_keep_the_rules(p, rep, pc, rt, 6)


def _block_steps_keep_the_rules(p, rep, pc, rt, steps):
    """Block steps on a board: each reports its change exactly, every piece stays once, the board stays legal."""
    for _ in range(steps):
        before = rep.score(pc, rt)
        delta = rep.block_step(pc, rt)
        assert delta >= 0 and rep.score(pc, rt) == before + delta
        assert sorted(pc) == list(range(p.n_pieces))
    assert not verify(p, rep.placements(pc, rt), allow_mismatch=True).problems


def test_a_boards_windows_proven_optimal(tmp_path, capsys):
    """The planted solution of a generated board: every window is optimal; a scrambled board has windows
    CP-SAT improves, and ``verify --windows`` reports the same as the function."""
    import json

    from baseline.beam.repair import proven_windows
    from eternity.cli import main
    from puzzles.files import formats

    p, sol = generate.edge_puzzle(6, 6, 2, 4, 5)
    got = proven_windows(p, sol, 3, 10.0)
    assert got["windows"] == 4 and got["optimal"] == 4 and got["improvable"] == 0
    bad = scrambled(p, sol, 1)
    worse = proven_windows(p, bad, 3, 10.0)
    assert worse["improvable"] > 0 and worse["gain"] > 0
    pf, sf = tmp_path / "p.json", tmp_path / "s.json"
    formats.write_puzzle(p, str(pf))
    formats.write_solution(p, bad, str(sf))
    capsys.readouterr()
    assert main(["verify", str(pf), str(sf), "--score", "--windows", "3", "--window-time", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["windows"] == worse
    assert main(["verify", str(pf), str(sf), "--windows", "3"]) == 2  # --score needed


def test_every_block_shape_frees_cells_around_a_mismatch_and_never_loses():
    """Each shape frees distinct movable cells, about k x k of them, the chosen mismatch among them (the
    ``worst`` shape: cells at mismatches first); ``swap`` adds cells outside the block; every step keeps the
    rules and reports its change."""
    from baseline.beam.repair import _mismatched
    from baseline.beam.repair_block import SHAPES, ExactBlock, _ends

    p, sol = generate.edge_puzzle(8, 8, 3, 5, 7)
    rep = Repair(p, 2)
    pc, rt = rep.board(scrambled(p, sol, 7))
    bad = _mismatched(pc, rt, rep.col, rep.nb)
    ends = set(_ends(pc, rt, bad, rep.col, rep.nb).tolist())
    assert bad.size and set(bad.tolist()) <= ends
    for shape in SHAPES:
        for k in (3, 4, 5):
            b = ExactBlock(
                p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, 1.0, k, k, k, "maxsat", shape
            )
            for _ in range(10):
                cells = b._block(pc, rt, bad)
                assert len(set(cells.tolist())) == len(cells) and rep.movable[cells].all()
                assert k * k // 2 <= len(cells) <= k * k + p.cols
                assert ends & set(cells.tolist())
                if shape == "worst":
                    assert set(cells.tolist()) <= ends or ends <= set(cells.tolist())
            wide = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, 1.0, 3, 3, 3,
                              "maxsat", shape, swap=3)  # fmt: skip
            assert len(wide._block(pc, rt, bad)) > 3 * 3 // 2
    for shape in SHAPES:
        rep = Repair(p, 5, (3, 3), 0.3, "maxsat", shape, 2)
        _block_steps_keep_the_rules(p, rep, pc.copy(), rt.copy(), 2)


def test_a_scattered_block_is_exact_against_brute_force():
    """Cells that are not neighbours, and a pair that is, re-solved by each formulation: the optimum of every
    permutation and turn of their pieces."""
    from baseline.beam.repair_block import FORMULATIONS, ExactBlock

    p, sol = generate.edge_puzzle(6, 6, 2, 3, 4)
    rep = Repair(p)
    pc, rt = rep.board(scrambled(p, sol, 9))
    cells = np.array([7, 8, 16, 27], np.int64)  # inner cells: 7 and 8 neighbours, the rest apart
    brute = 0
    for perm in itertools.permutations(pc[cells]):
        for rots in itertools.product(range(4), repeat=4):
            pc2, rt2 = pc.copy(), rt.copy()
            pc2[cells], rt2[cells] = perm, rots
            brute = max(brute, _touching(cells, pc2, rt2, rep.col, rep.nb))
    for model in FORMULATIONS:
        b = ExactBlock(p.rows, p.cols, rep.col, rep.nb, rep.allowed, rep.movable, rep.rng, 30.0, 2, 2, 2, model)
        pc3, rt3 = pc.copy(), rt.copy()
        gain = b.step(pc3, rt3, None, cells)
        assert b.stats["block_optimal"] == 1
        assert _touching(cells, pc3, rt3, rep.col, rep.nb) == brute == _touching(cells, pc, rt, rep.col, rep.nb) + gain


@pytest.mark.timing  # the repair reaches its blocks within 6 s only on an idle machine
def test_the_block_options_reach_the_repair_and_bad_ones_are_refused():
    """``lns_shape``, ``lns_swap`` and ``lns_model`` from the solver's options drive the repair's blocks; an
    unknown shape is refused before the run."""
    import pytest

    p = catalog.load("eternity2-corners-1")  # no perfect board in seconds: the repair runs
    s = solving.get("beam", {"repair": 0.6, "lns": 1.0, "lns_s": 0.3, "lns_shape": "worst", "lns_swap": 2})
    s.warm(p, "best")
    r = s.solve(p, mode="best", limits=Limits(time_s=6))
    rp = r.stats["repair"]
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score == rp["to"] >= rp["from"]
    assert rp["block_steps"] > 0 and rp["block_cells"] > 0
    with pytest.raises(Exception, match="lns_shape"):
        solving.get("beam", {"lns_shape": "hexagon"})
