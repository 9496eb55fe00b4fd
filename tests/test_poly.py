"""The `poly` exhaust engine (Selby's site search over bitsets) against Algorithm C.

Its site choice differs from dancing links', so only what must not depend on
the tree is compared: solution counts, the set of solutions, the per-piece
use counts it keeps natively, and a paused search resumed from a snapshot.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import solving
from baseline.runtime.kernel import DONE, NO_BOUND, SOLUTION
from baseline.xcc.backtrack import piece_uses_of
from baseline.xcc.searches import PolySearch, make_search
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.estimates.tilability import piece_uses
from puzzles.kinds.partition import hexagon_region, region_puzzle
from puzzles.make import generate


def _all(search, budget=NO_BOUND) -> list[frozenset] | None:
    """Every solution, or None when the search needs more than ``budget`` nodes."""
    out = []
    while True:
        code = search.step(max(1, budget - search.nodes), True)
        if code == DONE:
            return out
        if code != SOLUTION:
            return None
        out.append(frozenset(search.current_options()))


def _check(p, sites=None, **kw):
    x = p.to_xcc()
    ref = _all(make_search(x, engine="dlx"), 200_000)
    assume(ref is not None and len(ref) <= 5_000)  # a puzzle small enough to list
    if sites is not None:
        kw["sites"] = sites
    got = _all(make_search(x, engine="poly", grid=p.grid_name, **kw))
    assert len(got) == len(set(got)) == len(ref)
    assert set(got) == set(ref)
    return x, ref


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from([(3, 4, 4), (2, 6, 4), (4, 5, 5), (3, 3, 3), (4, 4, 4)]),
    st.integers(0, 10**6),
    st.sampled_from([1, 3, 12]),
)
def test_poly_finds_the_same_solutions_on_random_polyominoes(shape, seed, sites):
    _check(generate.polyomino_puzzle(*shape, seed)[0], sites)


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from([(3, 4, 4), (4, 5, 5), (4, 4, 4), (5, 6, 5)]),
    st.integers(0, 10**6),
    st.sampled_from([1, 2]),
    st.sampled_from([1, 4]),
)
def test_the_reconnoitre_finds_the_same_solutions(shape, seed, depth, recon_sites):
    """Selby's reconnoitre changes which site a node branches on and prunes nodes whose best site dies within
    its depth: never a solution (the last placements of a board included, where the tree ends early)."""
    _check(generate.polyomino_puzzle(*shape, seed)[0], recon=depth, recon_sites=recon_sites)


def test_the_reconnoitre_shrinks_the_pentominoes_tree_and_is_asked_for_by_name():
    p = catalog.load("pentomino-3x20")
    x = p.to_xcc()
    nodes = []
    for depth in (0, 1, 2):
        s = make_search(x, engine="poly", grid=p.grid_name, recon=depth)
        while s.step(10**6, False) != DONE:
            pass
        assert s.count == 8
        nodes.append(s.nodes)
    assert nodes[2] < nodes[1] < nodes[0], nodes
    with pytest.raises(UsageError, match="needs engine poly"):
        make_search(x, engine="dlx", recon=1)
    res, ok = solving.solve_verified(
        solving.get("backtrack", {"engine": "poly", "reconnoitre": 2}), p, "count", solving.Limits(time_s=60)
    )
    assert res.count == 8


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from([1, 2]))
def test_the_reconnoitre_counts_drafter_regions_with_excess_pieces(seed, excess, depth):
    """Eternity's geometry, spare pieces on offer (so a site's options die for want of their piece too)."""
    _check(region_puzzle("drafter", hexagon_region(2), 6, seed, excess)[0], recon=depth)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10**6), st.integers(0, 3), st.booleans())
def test_poly_counts_drafter_regions_with_excess_pieces_and_their_piece_uses(seed, excess, randomize):
    p = region_puzzle("drafter", hexagon_region(2), 6, seed, excess)[0]  # 8 pieces of 6 drafters
    x, ref = _check(p)
    s = PolySearch(x, seed if randomize else -1, p.grid_name)
    while s.step(NO_BOUND, False) != DONE:
        pass
    assert s.count == len(ref)
    native = piece_uses_of(p, x, s.tag_uses())
    sols = [[x.decode[k] for k in sol] for sol in ref]
    expect = piece_uses(p, sols)["piece_uses"]
    assert native == expect
    detail = piece_uses(p, [], s.count, {"piece_uses": native})
    assert detail["tilings"] == len(ref) and detail["piece_uses"] == expect


@pytest.mark.parametrize("near", [0, 3, 6])
@pytest.mark.parametrize(
    "make",
    [
        lambda: generate.polyomino_puzzle(4, 5, 4, 3)[0],
        lambda: region_puzzle("drafter", hexagon_region(2), 6, 5, 2)[0],
        lambda: region_puzzle("triangle", [(a, b, t) for a in range(3) for b in range(2) for t in (0, 1)], 4, 1, 1)[0],
        lambda: region_puzzle("hexagon", [(a, b) for a in range(3) for b in range(4)], 3, 2, 1)[0],
    ],
    ids=["square", "drafter", "triangle", "hexagon"],
)
def test_a_sites_count_skips_only_options_that_clash(make, near):
    """The options ``_count`` finds at a site, its classes skipped whole when they cover a covered
    cell near it, are exactly those covering the site that miss the board and whose piece is unused."""
    from baseline.poly import engine as poly
    from baseline.poly import tables as poly_tables

    p = make()
    x = p.to_xcc()
    t = poly_tables.build(x, grid=p.grid_name, near=near)
    new = np.empty(x.n_items, np.int64)
    new[t.old_of] = np.arange(x.n_items)
    opts = [set(new[x.opt_items[x.opt_ptr[q] : x.opt_ptr[q + 1]]].tolist()) for q in range(x.n_options)]
    rng = np.random.default_rng(near)
    out = np.zeros(x.n_options + 1, np.int64)
    for _ in range(12):
        covered: set = set()
        for q in rng.permutation(x.n_options)[: rng.integers(0, 4) * 3]:
            if not opts[q] & covered:
                covered |= opts[q]
        board = np.zeros(t.n_words, np.uint64)
        for i in covered:
            board[i >> 6] |= np.uint64(1) << np.uint64(i & 63)
        for s in range(t.n_sites):
            if s in covered:
                continue
            k = poly._count(
                s,
                10**9,
                board,
                t.sg_ptr,
                t.s_near,
                t.c_info,
                t.g_ptr,
                t.g_tag,
                t.e_opt,
                t.e_lmask,
                t.ow_ptr,
                t.ow_idx,
                t.ow_mask,
                out,
            )
            want = {q for q in range(x.n_options) if s in opts[q] and not opts[q] & covered}
            assert sorted(out[:k].tolist()) == sorted(want)


def test_poly_counts_the_pentominoes_in_3x20():
    p = catalog.load("pentomino-3x20")
    res, _ = solving.solve_verified(solving.get("backtrack", {"engine": "poly"}), p, "count", solving.Limits())
    assert res.count == 8  # 2 distinct, times the box's 4 symmetries
    first, verified = solving.solve_verified(solving.get("backtrack", {"engine": "poly"}), p, "first", solving.Limits())
    assert first.status == solving.Status.SOLVED and verified is True


def test_poly_solves_an_eternity_region_and_reports_piece_uses():
    p = catalog.load("eternity1-tortoise")
    res, verified = solving.solve_verified(
        solving.get("backtrack", {"engine": "poly"}), p, "count", solving.Limits(time_s=60)
    )
    assert res.status == solving.Status.SOLVED and res.count == 2
    assert sum(res.stats["piece_uses"].values()) == 2 * 45


def test_a_paused_poly_search_resumes_from_its_snapshot(tmp_path):
    p = generate.polyomino_puzzle(4, 5, 5, 3)[0]
    x = p.to_xcc()
    whole = make_search(x, engine="poly", grid=p.grid_name)
    while whole.step(NO_BOUND, False) != DONE:
        pass
    a = make_search(x, engine="poly", grid=p.grid_name)
    a.step(max(1, whole.nodes // 2), False)
    a.save(tmp_path, "count", [])
    b = make_search(x, engine="poly", grid=p.grid_name)
    b.load(tmp_path, "count")
    while b.step(NO_BOUND, False) != DONE:
        pass
    assert b.count == whole.count and b.nodes == whole.nodes


def test_a_long_poly_run_draws_its_deepest_board(tmp_path, monkeypatch):
    import baseline.xcc.backtrack

    monkeypatch.setattr(baseline.xcc.backtrack, "PICTURE_EVERY_S", 0.0)
    p = catalog.load("eternity1-tortoise")
    res = solving.get("backtrack", {"engine": "poly", "checkpoint": str(tmp_path)}).solve(
        p, mode="first", limits=solving.Limits(time_s=60)
    )
    assert res.status == solving.Status.SOLVED
    svg = (tmp_path / "deepest.svg").read_text()
    assert svg.startswith("<svg") and svg.count("<polygon") == len(p.region)
    assert "#f4f4f4" not in svg  # the deepest board is the solution: no empty cell


def test_the_portfolio_runs_poly_from_two_sides_on_polyforms():
    port = solving.get("portfolio", {"jobs": 2})
    assert port.members(catalog.load("eternity1-boat")) == [
        ("backtrack", {"engine": "poly"}),
        ("backtrack", {"engine": "poly", "sweep": "270"}),
    ]


def test_the_polyform_beam_checkpoints_its_frontier_and_resumes(tmp_path):
    p = catalog.load("eternity1-tortoise")
    opts = {"width": 200, "seed": 1}
    res = solving.get("beam", {**opts, "checkpoint": str(tmp_path)}).solve(
        p, mode="first", limits=solving.Limits(time_s=120)
    )
    assert res.status == solving.Status.SOLVED
    assert (tmp_path / "frontier.npz").exists() and (tmp_path / "best.svg").read_text().startswith("<svg")
    again, verified = solving.solve_verified(
        solving.get("beam", {**opts, "resume": str(tmp_path)}), p, "first", solving.Limits(time_s=120)
    )
    assert again.status == solving.Status.SOLVED and verified is True
    assert again.stats["levels"] == []  # it went straight to the end-game from the stored survivors

    with pytest.raises(ValueError, match="other options"):
        solving.get("beam", {"width": 300, "seed": 1, "resume": str(tmp_path)}).solve(p, mode="first")


def test_a_polyform_beam_killed_in_its_end_game_resumes_at_the_next_survivor(tmp_path, monkeypatch):
    """The end-game writes which survivor comes next; a resume does not redo the failed ones."""
    from baseline.beam import xcc as beam_xcc

    p = catalog.load("eternity1-tortoise")
    opts = {"width": 200, "seed": 1, "exhaust_at": 30}  # 47 survivors; the 8th completes
    real = beam_xcc.XCCBeamRun._endgame
    seen = []

    class Killed(Exception):
        pass

    def failing(self, prefix, stats, *rest):
        seen.append(tuple(prefix))
        if len(seen) == 3:
            raise Killed  # as a SIGKILL would stop it, during the third exhaust
        return None

    monkeypatch.setattr(beam_xcc, "FRONTIER_EVERY_S", 0.0)
    monkeypatch.setattr(beam_xcc.XCCBeamRun, "_endgame", failing)
    with pytest.raises(Killed):
        solving.get("beam", {**opts, "checkpoint": str(tmp_path)}).solve(p, mode="first", limits=solving.Limits())
    assert int(np.load(tmp_path / "frontier.npz")["endgame_next"]) == 2
    resumed = []

    def recording(self, prefix, stats, *rest):
        resumed.append(tuple(prefix))
        return real(self, prefix, stats, *rest)

    monkeypatch.setattr(beam_xcc.XCCBeamRun, "_endgame", recording)
    again, verified = solving.solve_verified(
        solving.get("beam", {**opts, "resume": str(tmp_path)}), p, "first", solving.Limits(time_s=120)
    )
    assert resumed[0] == seen[2]  # the interrupted survivor first, not survivor 0 again
    assert again.status == solving.Status.SOLVED and verified is True


def test_the_polyform_beam_picture_is_the_deepest_board_of_the_solve(tmp_path, monkeypatch):
    """A wider rerun starts from level 1 again; best.svg must not fall back to its shallow boards."""
    from baseline.beam import xcc as beam_xcc

    drawn = []
    monkeypatch.setattr(beam_xcc, "PICTURE_EVERY_S", 0.0)
    monkeypatch.setattr(beam_xcc.XCCBeamRun, "_picture", lambda self, row: drawn.append(len(row)))
    p = catalog.load("eternity1-tortoise")
    res = solving.get("beam", {"width": 1, "seed": 1, "checkpoint": str(tmp_path)}).solve(
        p, mode="first", limits=solving.Limits(time_s=120)
    )
    assert len(res.stats["widths"]) > 1  # width 1 died, so the solve widened and started over
    assert drawn and drawn == sorted(drawn)


def test_eternity_s_pieces_are_dodecadudes_and_the_polydrafters_match_seed_002(capsys):
    """Seed 002: 209 pieces of 12 drafters, none with a 30 degree corner or a hole; and the polydrafters without
    holes number 6, 14, 64, 237, 1014 for 2 to 6 drafters."""
    import json

    from eternity.cli import main

    assert main(["info", "eternity1", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["pieces_with_30_degree_corners"] == 0 and info["pieces_with_holes"] == 0
    for n, want in ((2, 6), (3, 14), (4, 64), (5, 237), (6, 1014)):
        assert main(["enumerate", "drafter", "--size", str(n), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["without_holes"] == want
