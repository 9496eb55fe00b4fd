"""Owen's model against [Owen]'s table and against measured search trees; Knuth's probes of the
`poly` engine's tree against its exhausts."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from puzzles import catalog
from puzzles.estimates import estimate
from puzzles.kinds.orders import search_order
from puzzles.make import generate


def test_eternity2_expected_solutions():
    e2 = catalog.load("eternity2")
    assert estimate.expected_solutions(e2) == pytest.approx(14702, rel=0.01)
    # seed 001: 1.115 x 10^557 configurations of the board with its one fixed piece, 4! 56! 195! 4^195
    assert estimate.log_configurations(e2) == pytest.approx(557.0474, abs=1e-4)
    # seed 001's figures 1 and 2: the next join's chance, from 1/5 (frame) and about 1/17 (inner) up to 1
    probs = estimate.join_probabilities(e2)
    assert (len(probs["frame"]), len(probs["inner"])) == (60, 420)
    assert probs["frame"][0] == pytest.approx(0.2, abs=1e-3) and probs["inner"][0] == pytest.approx(0.0577, abs=1e-3)
    assert probs["frame"][-1] == pytest.approx(1.0) and probs["inner"][-1] == pytest.approx(1.0)
    assert all(a <= b + 1e-12 for a, b in zip(probs["inner"], probs["inner"][1:]))
    # seed 001's naive estimate: (1/5)^60 (1/17)^420 = 1.88 x 10^-559, times the configurations about 0.02
    naive = estimate.naive_estimate(e2)
    assert (naive["frame_joins"], naive["inner_joins"]) == (60, 420)
    assert 10 ** (naive["log10_all_joins_valid"] + 559) == pytest.approx(1.88, abs=0.005)
    assert 10 ** naive["log10_expected_solutions"] == pytest.approx(0.02, abs=0.002)


def test_puzzle_a_and_b():
    assert round(estimate.expected_solutions(catalog.load("owen-a"))) == 146
    b = catalog.load("eternity2-clue1")
    assert estimate.expected_solutions(b) == pytest.approx(262_881_014_825, rel=0.01)
    assert estimate.symmetry_factors(b) == {"board": 4, "symmetric_pieces": 4, "identical_pieces": 384, "total": 6144}
    assert estimate.symmetry_factors(catalog.load("owen-a"))["total"] == 4


def test_eternity2_search_tree_rowscan_from_the_bottom():
    p = catalog.load("eternity2")
    total, prof = estimate.search_nodes(p, search_order(p, "rowscan-up"))
    assert 10**total == pytest.approx(1.365e47, rel=0.01)
    assert len(prof) == 255


def test_node_estimate_tracks_the_measured_tree():
    p = catalog.load("owen-a")
    total, prof = estimate.search_nodes(p, search_order(p, "rowscan"))
    r = solving.get("edge-backtrack", {"order": "rowscan"}).solve(p, mode="count")
    measured = r.stats["nodes"]
    assert abs(total - math.log10(measured)) < 0.1  # within ~25%


def test_fewer_colours_more_solutions():
    lo = estimate.expected_solutions(generate.edge_puzzle(6, 6, 2, 3, 1)[0])
    hi = estimate.expected_solutions(generate.edge_puzzle(6, 6, 2, 9, 1)[0])
    assert lo > 1 > hi
    assert estimate.classify(generate.edge_puzzle(6, 6, 2, 9, 1)[0])[1] == "sub-critical"


def test_not_for_polyforms():
    with pytest.raises(ValueError):
        estimate.expected_solutions(catalog.load("pentomino-3x20"))


SLIPS_192 = [192] * 10


def test_slip_array_estimate_and_the_later_frame_order():
    """Seed 001: ten invalid inner joins in the top four rows, 1.481e25 boards;
    filling the top four rows by columns is over 80% cheaper than a row scan."""
    p = catalog.load("eternity2")
    up, prof_up = estimate.search_nodes(p, search_order(p, "rowscan-up"), SLIPS_192)
    alt, prof_alt = estimate.search_nodes(p, search_order(p, "rows-cols-4"), SLIPS_192)
    assert 10 ** prof_up[-1] == pytest.approx(1.481e25, rel=0.01)
    assert 10 ** prof_alt[-1] == pytest.approx(1.481e25, rel=0.01)
    assert 1 - 10 ** (alt - up) > 0.8
    # before depth 192 no slip is allowed: the profiles agree with the exact ones
    _, exact = estimate.search_nodes(p, search_order(p, "rowscan-up"))
    assert prof_up[:190] == pytest.approx(exact[:190])
    assert prof_up[-1] > exact[-1]


def test_invalid_join_probabilities_sum_to_one():
    """sum over i of C(m, i) p_m(m, m - i) = 1: every join is valid or not."""
    from fractions import Fraction

    est = estimate.Estimator(catalog.load("owen-a"))
    q = est.pm_invalid(12, 12)
    for m in range(13):
        assert sum(math.comb(m, i) * q[m][i] for i in range(m + 1)) == Fraction(1)
        assert all(x >= 0 for x in q[m][: m + 1])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=9), st.data())
def test_slip_weights_count_the_allowed_arrangements(steps, data):
    """W(p, i) against brute force: choose i of the j(p) joins as invalid so that
    the k-th invalid join (in search order) is made at a depth >= d_k."""
    import itertools

    j = [0]
    for s in steps:
        j.append(j[-1] + s)
    P = len(j) - 1
    d = sorted(data.draw(st.lists(st.integers(1, P), min_size=1, max_size=3)))
    depth_of = [p for p in range(1, P + 1) for _ in range(j[p] - j[p - 1])]  # the depth each join is made at
    w = estimate._slip_weights(j, d)
    for p in range(P + 1):
        for i in range(len(d) + 1):
            brute = sum(
                1
                for combo in itertools.combinations(range(j[p]), i)
                if all(depth_of[x] >= d[k] for k, x in enumerate(combo))
            )
            assert w[p][i] == brute, (j, d, p, i)


def test_critical_size_brackets_the_crossing():
    res = estimate.critical_size(6, 6, 2, seeds=2)
    crit = res["critical_inner_colors"]
    table = dict(res["table"])
    assert crit is not None and table[math.floor(crit)] >= 0 > table[math.ceil(crit)]
    logs = [lg for _, lg in res["table"]]
    assert logs == sorted(logs, reverse=True)  # more colours, fewer solutions


def test_estimate_cli_slips_measure_and_critical(tmp_path, capsys):
    import json

    from eternity.cli import main

    assert main(["estimate", "brendan-5x5", "--measure", "--plot", str(tmp_path / "m.png"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["measured"]["complete"] and out["measured"]["solutions"] == 16
    assert out["measured"]["measured_total"] == sum(out["measured"]["measured_per_depth"])
    assert 0.33 < out["measured"]["ratio"] < 3 and (tmp_path / "m.png").stat().st_size > 1000
    assert main(["estimate", "--critical", "6x6:2", "--seeds", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["critical_inner_colors"] > 1
    for bad in (
        ["estimate", "eternity2", "--slips", "1,x"],
        ["estimate", "eternity2", "--slips", "0"],
        ["estimate", "--critical", "6x6"],
        ["estimate"],
        ["estimate", "owen-a", "--measure", "--order", "mrv"],
    ):
        assert main(bad) == 2


# ---------------------------------------------------------------- Knuth's probes (polyforms)


def _exhaust(p):
    from baseline.runtime.kernel import DONE, NO_BOUND
    from baseline.xcc.searches import make_search

    s = make_search(p.to_xcc(), engine="poly", grid=p.grid_name)
    while s.step(NO_BOUND, False) != DONE:
        pass
    return s


@pytest.mark.slow  # the pentominoes' full tree; smaller trees are probed in the default run
def test_knuth_probes_estimate_the_poly_tree_of_the_pentominoes():
    """Unbiased: with enough probes the mean lands on the exhaust's own node count (64,031 nodes)."""
    from baseline.poly.estimate import estimate_tree
    from baseline.xcc.searches import make_search

    p = catalog.load("pentomino-3x20")
    whole = _exhaust(p)
    res = estimate_tree(make_search(p.to_xcc(), engine="poly", grid=p.grid_name), probes=20_000, seed=3)
    assert res["probes"] == 20_000
    assert abs(res["nodes"] - whole.nodes) < max(4 * res["nodes_stderr"], 0.02 * whole.nodes)
    assert res["nodes"] == pytest.approx(whole.nodes, rel=0.1)
    # per level too: the first levels are met by every probe
    prof = [int(v) for v in whole.prof if v]
    assert 10 ** res["log10_nodes_per_level"][0] == pytest.approx(prof[0], rel=0.01)


# derandomized: a 5-sigma bound on a heavy-tailed estimate fails now and then for some seed; the same seeds every run
@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.sampled_from([(4, 5, 5), (3, 4, 4), (4, 4, 4)]), st.integers(0, 10**6))
def test_knuth_probes_count_the_solutions_of_random_polyominoes(shape, seed):
    from baseline.poly.estimate import estimate_tree
    from baseline.xcc.searches import make_search

    p = generate.polyomino_puzzle(*shape, seed)[0]
    whole = _exhaust(p)
    res = estimate_tree(
        make_search(p.to_xcc(), engine="poly", grid=p.grid_name), probes=2_000, seed=seed, branches=1 + seed % 3
    )
    assert abs(res["nodes"] - whole.nodes) <= 5 * res["nodes_stderr"] + 1e-6 * whole.nodes
    assert abs(res["solutions"] - whole.count) <= 5 * res["solutions_stderr"] + 1e-6 * max(1, whole.count)
    assert (res["solutions"] > 0) == (whole.count > 0)


def test_partial_backtracking_probes_see_the_tortoise_s_deep_tilings():
    """Single paths die in the first levels of this thin tree and never meet its 2 tilings;
    probes that follow two children reach them and estimate both counts."""
    from baseline.poly.estimate import estimate_tree
    from baseline.xcc.searches import make_search

    p = catalog.load("eternity1-tortoise")
    whole = _exhaust(p)  # 3,925 nodes, 2 tilings
    search = make_search(p.to_xcc(), engine="poly", grid=p.grid_name)
    one = estimate_tree(search, probes=300, seed=4)
    two = estimate_tree(search, probes=300, seed=4, branches=2)
    assert one["probes_reaching_a_solution"] == 0 and two["probes_reaching_a_solution"] > 0
    assert two["depth_max"] > one["depth_max"]
    assert abs(two["nodes"] - whole.nodes) <= 5 * two["nodes_stderr"]
    assert abs(two["solutions"] - whole.count) <= 5 * two["solutions_stderr"]
    with pytest.raises(ValueError):
        estimate_tree(search, probes=1, branches=0)


def test_estimate_cli_probes_a_polyform_tree(tmp_path, capsys):
    import json

    from eternity.cli import main

    assert main(["estimate", "pentomino-3x20", "--probes", "300", "--seed", "2", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["method"] == "knuth" and out["probes"] == 300 and 4 < out["log10_nodes"] < 5.5
    assert out["nodes_per_s"] > 0 and out["exhaust_hours_one_core"] > 0
    assert (
        main(
            "estimate pentomino-3x20 --probes 200 --measure --plot".split()
            + [str(tmp_path / "k.png"), "--json", "--quiet"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    m = out["measured"]
    assert m["complete"] and m["solutions"] == 8 and m["measured_total"] == sum(m["measured_per_level"])
    assert 0.33 < m["ratio"] < 3 and (tmp_path / "k.png").stat().st_size > 1000
    for bad in (
        ["estimate", "pentomino-3x20", "--slips", "3"],
        ["estimate", "pentomino-3x20", "--plot", "x.png"],
        ["estimate", "owen-a", "--probes", "10"],
        ["estimate", "pentomino-3x20", "--probes", "0"],
        ["estimate", "owen-a", "--branches", "2"],
        ["estimate", "pentomino-3x20", "--branches", "0"],
    ):
        assert main(bad) == 2


def test_knuth_probes_from_a_partial_state_estimate_its_exhaust():
    """From a beam-like state (the engine's item bitset with a few pieces placed), the probes
    estimate the tree that the engine's search restarted from that state exhausts."""
    from baseline.poly import engine as poly
    from baseline.poly.estimate import estimate_tree
    from baseline.runtime.kernel import DONE, NO_BOUND, SOLUTION
    from baseline.xcc.searches import make_search

    p = catalog.load("pentomino-6x10")
    x = p.to_xcc()
    s = make_search(x, engine="poly", grid=p.grid_name)
    assert s.step(NO_BOUND, True) == SOLUTION
    first = s.current_options()
    a = s.a
    board = np.zeros(a.n_words, np.uint64)
    for o in first[:4]:  # four pieces of a tiling: a state with at least that tiling below it
        poly._place(o, board, a.ow_ptr, a.ow_idx, a.ow_mask, a.tag, True)
    s.restart(board)
    while s.step(NO_BOUND, False) != DONE:
        pass
    assert s.count >= 1
    res = estimate_tree(s, probes=3_000, seed=5, board=board, branches=2)
    assert abs(res["nodes"] - s.nodes) <= 5 * res["nodes_stderr"] + 0.02 * s.nodes
    assert res["probes_reaching_a_solution"] > 0
    assert np.array_equal(s.board, board)  # the engine's board is left as it was given


def test_the_logarithms_of_the_v_tables_agree_with_the_exact_integers():
    """``_log_v`` (floating point) against ``_v`` (exact) on boards from 5x5 to 16x16."""
    import math

    from puzzles.estimates import estimate
    from puzzles.make import generate

    for args in [(5, 5, 2, 4, 0), (8, 8, 3, 9, 1), (10, 10, 3, 12, 2), (16, 16, 5, 17, 0), (12, 12, 1, 1, 0)]:
        m = estimate.Model.of(generate.edge_puzzle(*args)[0])
        for exact, logs in ((estimate._v(tuple(m.frame_n), True), m.log_vb()), (m.vm(), m.log_vm())):
            for x, lg in zip(exact, logs):
                if x:
                    assert abs(math.log(x) - lg) <= 1e-12 * max(1.0, abs(lg)), (args, x, lg)
                else:
                    assert lg == -math.inf


@pytest.mark.slow
def test_puzzle_b_is_counted_as_seed_001_counts_it():
    """Seed 001's Puzzle B: 115,071,633,408 solutions, a symmetric piece's look-alike turns counted apart (the
    workbench counts each look once: a quarter of it).  About 70 s on one core."""
    p = catalog.load("eternity2-clue1")
    res = solving.get("edge-backtrack", {"symmetry": True, "order": "spiral"}).solve(p, mode="count")
    assert res.status == solving.Status.SOLVED
    assert res.count * estimate.symmetry_factors(p)["symmetric_pieces"] == 115_071_633_408
