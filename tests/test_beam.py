"""Beam search: the clue puzzles, determinism, checkpoints and resume, best mode, the codec."""

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from baseline.beam import codec
from eternity.cli import main
from puzzles import catalog
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits


@pytest.mark.parametrize("name", [f"eternity2-clue{i}" for i in range(1, 5)])
def test_clue_puzzles_with_default_options(name):
    p = catalog.load(name)
    r = solving.get("beam").solve(p, mode="first", limits=solving.Limits(time_s=120))
    assert r.status == "solved" and verify(p, r.solutions[0]).valid


def test_same_seed_same_run_and_planted_puzzles():
    p, _ = generate.edge_puzzle(6, 6, 2, 4, 3)
    a = solving.get("beam", {"width": 200, "seed": 5}).solve(p, mode="first")
    b = solving.get("beam", {"width": 200, "seed": 5}).solve(p, mode="first")
    assert a.status == "solved" and a.solutions == b.solutions
    assert verify(p, a.solutions[0]).valid


def test_beam_never_returns_an_invalid_board_on_small_random_puzzles():
    for seed in range(6):
        p, _ = generate.edge_puzzle(5, 5, 2, 3 + seed % 3, seed)
        r = solving.get("beam", {"width": 50}).solve(p, mode="first")
        if r.solutions:
            assert verify(p, r.solutions[0]).valid
        else:  # incomplete: it may miss, but then it says so
            assert r.status == "limit" and "incomplete" in r.message


def test_best_mode_gives_a_full_scored_board():
    p = catalog.load("brendan-6x6")
    r = solving.get("beam", {"width": 64}).solve(p, mode="best", limits=solving.Limits(time_s=20))
    rep = verify(p, r.solutions[0], allow_mismatch=True)
    assert r.status == "solved" and not rep.problems and rep.score == r.best_score <= p.n_joins
    assert r.stats["score_history"][-1][1] == r.best_score


def test_best_mode_slips_forbid_early_mismatches(tmp_path):
    p = catalog.load("brendan-8x8")
    r = solving.get("beam", {"width": 50, "schedule": "widen", "repair": 0, "slips": ",".join(["40"] * 20)}).solve(
        p, mode="best", limits=solving.Limits(time_s=30)
    )
    assert "forced_levels" not in r.stats  # the beam never had to break the slips
    board = {pl.cell: pl for pl in r.solutions[0]}
    rep = verify(p, r.solutions[0], allow_mismatch=True)
    assert not rep.problems
    # no mismatched join between two cells filled in the first 39 placements
    order = [pl.cell for pl in r.solutions[0]]
    early = set(order[:39])
    for cell, side, nb in p.joins():
        if cell in early and nb in early:
            a, b = p.placed(board[cell].piece, board[cell].rotation), p.placed(board[nb].piece, board[nb].rotation)
            assert a[side] == b[(side + 2) % 4]


@settings(max_examples=50, deadline=None)
@given(st.integers(2, 300), st.integers(0, 40), st.integers(1, 4), st.data())
def test_codec_round_trip(n_pieces, depth, rows, data):
    pieces = np.array(
        data.draw(
            st.lists(
                st.lists(st.integers(0, n_pieces - 1), min_size=depth, max_size=depth), min_size=rows, max_size=rows
            )
        ),
        np.int64,
    ).reshape(rows, depth)
    rots = np.array(
        data.draw(st.lists(st.lists(st.integers(0, 3), min_size=depth, max_size=depth), min_size=rows, max_size=rows)),
        np.int64,
    ).reshape(rows, depth)
    packed = codec.pack(pieces, rots, n_pieces)
    assert packed.shape[1] == (depth * codec.bits_per_tile(n_pieces) + 7) // 8
    p2, r2 = codec.unpack(packed, depth, n_pieces)
    assert (p2 == pieces).all() and (r2 == rots).all()


def test_codec_packs_many_rows_in_blocks_from_narrow_integers(monkeypatch):
    """A million-state frontier is packed a block at a time, from int16 pieces and int8 rotations."""
    monkeypatch.setattr(codec, "BLOCK", 7)
    rng = np.random.default_rng(3)
    pieces = rng.integers(0, 256, (50, 33)).astype(np.int16)
    rots = rng.integers(0, 4, (50, 33)).astype(np.int8)
    packed = codec.pack(pieces, rots, 256)
    whole = codec.pack(pieces.astype(np.int64)[None, 0], rots.astype(np.int64)[None, 0], 256)
    assert (packed[0] == whole[0]).all()
    p2, r2 = codec.unpack(packed, 33, 256)
    assert (p2 == pieces).all() and (r2 == rots).all()


def test_codec_is_ten_bits_a_tile_on_eternity2():
    assert codec.bits_per_tile(catalog.load("eternity2").n_pieces) == 10
    assert codec.pack(np.zeros((1, 256), int), np.zeros((1, 256), int), 256).nbytes == 320


def _kill_after_snapshot(args: list[str], snapshot, linger: float) -> None:
    """Run `eternity ARGS` in a child and SIGKILL it ``linger`` seconds after its first snapshot."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "eternity", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 60
    while not snapshot.exists() and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(linger)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert snapshot.exists()


def test_kill_and_resume_gives_the_uninterrupted_solution(tmp_path):
    """A beam run killed with SIGKILL mid-way and resumed from its checkpoint
    ends with the same solution as a run never interrupted."""
    pz = tmp_path / "p.json"
    assert (
        main("generate edge --rows 10 --cols 10 --frame-colors 3 --inner-colors 6 --seed 2 -o".split() + [str(pz)]) == 0
    )
    full, resumed, ck = tmp_path / "full.json", tmp_path / "resumed.json", tmp_path / "ck"
    opts = ["--solver", "beam", "--opt", "width=3000", "--opt", "seed=7"]
    assert main(["solve", str(pz), *opts, "-o", str(full)]) == 0
    _kill_after_snapshot(
        ["solve", str(pz), *opts, "--checkpoint", str(ck), "-o", str(tmp_path / "never.json")], ck / "frontier.npz", 0.3
    )
    level = int(np.load(ck / "frontier.npz")["level"])
    assert 0 < level < 100
    assert main(["solve", str(pz), *opts, "--resume", str(ck), "-o", str(resumed)]) == 0
    assert resumed.read_text() == full.read_text()


def test_resume_refuses_a_foreign_checkpoint(tmp_path, capsys):
    ck = tmp_path / "ck"
    assert main(["solve", "eternity2-clue1", "--solver", "beam", "--opt", "width=1000", "--checkpoint", str(ck)]) == 0
    assert main(["solve", "eternity2-clue3", "--solver", "beam", "--opt", "width=1000", "--resume", str(ck)]) == 2
    assert "another puzzle" in capsys.readouterr().err
    assert main(["solve", "owen-a", "--checkpoint", str(ck)]) == 2


# ----------------------------------------------------------- XCC / polyform beam
@pytest.mark.parametrize("name", ["serenity", "eternity1-boat", "pentomino-6x10", "queens-12"])
def test_polyform_and_xcc_puzzles_solved_by_beam(name):
    p = catalog.load(name)
    res = solving.get("beam", {"width": 1000}).solve(p, mode="first", limits=Limits(time_s=120))
    assert res.status == "solved", res.message
    assert verify(p, res.solutions[0]).valid


def _reference_children(run, cov, sites, lookahead, touch, w_boundary, w_covers):
    """One state's live children and scores, by plain Python over the original items."""
    x, t = run.xcc, run.t
    new = np.empty(x.n_items, np.int64)
    new[t.old_of] = np.arange(x.n_items)
    opts = [set(x.opt_items[x.opt_ptr[o] : x.opt_ptr[o + 1]].tolist()) for o in range(x.n_options)]
    cells = {int(t.old_of[s]) for s in range(t.n_sites)}
    nbr = {int(t.old_of[s]): [int(t.old_of[y]) if y >= 0 else y for y in t.nbr[s] if y != -2] for s in range(t.n_sites)}
    scan = [int(t.old_of[s]) for s in t.scan]

    def fits(c, site):
        return [o for o in range(x.n_options) if site in opts[o] and not (opts[o] & c)]

    def boundary(c):
        return sum(1 for a in cells - c for y in nbr[a] if y == -1 or y in c)

    free = [s for s in scan if s not in cov]
    site = min(free[:sites], key=lambda s: (len(fits(cov, s)), free.index(s)))
    out = {}
    for o in fits(cov, site):
        c = cov | opts[o]
        alive = True
        if run.t.area:  # a new free component next to the piece of a size no pieces fill
            for y in {y for a in opts[o] & cells for y in nbr[a] if y >= 0 and y not in c}:
                comp, todo = {y}, [y]
                while todo:
                    for v in nbr[todo.pop()]:
                        if v >= 0 and v not in c and v not in comp:
                            comp.add(v)
                            todo.append(v)
                if len(comp) <= 3 * run.t.area and len(comp) % run.t.area:
                    alive = False
        if touch and any(not fits(c, y) for a in opts[o] & cells for y in nbr[a] if y >= 0 and y not in c):
            alive = False
        nxt = [s for s in free if s not in c][:lookahead]
        counts = [min(64, len(fits(c, s))) for s in nxt]
        if 0 in counts:
            alive = False
        if alive:
            sc = run.opt_weight[o] - w_boundary * (boundary(c) - boundary(cov))
            out[o] = sc + (w_covers * np.log(min(counts)) if counts else 0.0)
    return out


def _random_fillings(run, n, most, seed, first=0):
    """``n`` random partial fillings of the XCC beam ``run``'s puzzle (first..first+most-1 disjoint
    options, first + k % most for the k-th): their covered items (input numbering), their item
    bitsets and their options."""
    x, t = run.xcc, run.t
    rng = np.random.default_rng(seed)
    new = np.empty(x.n_items, np.int64)
    new[t.old_of] = np.arange(x.n_items)
    covs, chosen = [], []
    for k in range(n):
        c, pre = set(), []
        for q in rng.permutation(x.n_options):
            its = set(x.opt_items[x.opt_ptr[q] : x.opt_ptr[q + 1]].tolist())
            if len(pre) < first + k % most and not its & c:
                c |= its
                pre.append(int(q))
        covs.append(c)
        chosen.append(pre)
    board = np.zeros((n, t.n_words), np.uint64)
    for i, c in enumerate(covs):
        for it in c:
            board[i, new[it] >> 6] |= np.uint64(1) << np.uint64(new[it] & 63)
    return covs, board, chosen


def _random_states(p, n=12, **opts):
    """An XCC beam run on ``p`` with the kernels' test settings (and ``opts``), and ``n`` random partial
    fillings of it (0..5 options): their covered items, their bitsets and their first free scan positions."""
    from baseline.beam.solver import Beam
    from baseline.beam.xcc import XCCBeamRun

    o = {k: v.default for k, v in Beam.OPTIONS.items()}
    o.update({"sites": 4, "lookahead": 2, "boundary": 0.1, "covers": 1.0}, **opts)
    run = XCCBeamRun(p, o)
    t = run.t
    covs, board, _ = _random_fillings(run, n, 6, 7)
    free = lambda i, s: not (int(board[i, s >> 6]) >> int(s & 63)) & 1  # noqa: E731
    first = np.array([next((q for q, s in enumerate(t.scan) if free(i, s)), len(t.scan)) for i in range(n)])
    return run, covs, board, first


@pytest.mark.parametrize("name", ["pentomino-6x10", "eternity1-boat", "queens-8"])
@pytest.mark.parametrize("touch", [True, False])
def test_polyform_beam_children_agree_with_a_plain_expansion(name, touch):
    """The bitset kernels (site choice, fits, pockets, touch, lookahead, boundary score) against
    plain Python on random partial fillings."""
    p = catalog.load(name)
    run, covs, board, first = _random_states(p, touch=touch)
    n = len(covs)
    par, opt, sc, _, _, _ = run.expand(board, first, np.zeros(n), np.zeros(n, np.uint64))
    m = len(par)
    got = [{} for _ in range(n)]
    for j in range(m):
        got[par[j]][int(opt[j])] = sc[j]
    some = 0
    for i, c in enumerate(covs):
        want = _reference_children(run, c, 4, 2, touch, 0.1, 1.0)
        assert set(got[i]) == set(want), (i, sorted(set(got[i]) ^ set(want))[:5])
        for q in want:
            assert got[i][q] == pytest.approx(want[q])
        some += len(want)
    assert some > 0


@pytest.mark.parametrize("name", ["pentomino-6x10", "eternity1-boat"])
def test_polyform_beam_lookahead_scores_a_child_by_its_best_child(name):
    """Selby's lookahead (look=1) against plain Python: a child's score is its own plus the best of its
    children's (at its own most constrained site), and a child whose children all die is dead."""
    p = catalog.load(name)
    run, covs, board, first = _random_states(p, n=6, look=1)
    n = len(covs)
    par, opt, sc, _, _, _ = run.expand(board, first, np.zeros(n), np.zeros(n, np.uint64))
    x = run.xcc
    got = [{} for _ in range(n)]
    for j in range(len(par)):
        got[par[j]][int(opt[j])] = sc[j]
    some = 0
    for i, c in enumerate(covs):
        want = {}
        for o, own in _reference_children(run, c, 4, 2, True, 0.1, 1.0).items():
            below = _reference_children(run, c | set(x.opt_items[x.opt_ptr[o] : x.opt_ptr[o + 1]].tolist()), 4, 2, True,
                                        0.1, 1.0)  # fmt: skip
            if below:
                want[o] = own + max(below.values())
        assert set(got[i]) == set(want), i
        for q in want:
            assert got[i][q] == pytest.approx(want[q])
        some += len(want)
    assert some > 0


def test_polyform_beam_same_seed_same_run():
    p = catalog.load("eternity1-boat")
    runs = [solving.get("beam", {"width": 300, "seed": 3}).solve(p, mode="first", limits=Limits()) for _ in range(2)]
    assert runs[0].solutions == runs[1].solutions
    assert [lv["best"] for lv in runs[0].stats["levels"]] == [lv["best"] for lv in runs[1].stats["levels"]]


def test_polyform_beam_reads_weights(tmp_path, capsys):
    p = catalog.load("eternity1-boat")
    w = tmp_path / "w.json"
    w.write_text(json.dumps({"weights": {pc.name: (0.5 if i % 2 else -0.5) for i, pc in enumerate(p.pieces)}}))
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--opt", f"weights={w}", "--opt", "width=500"]) == 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"weights": {"49": 0.1}}))
    capsys.readouterr()
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--opt", f"weights={bad}"]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "no weight for piece" in err and len(err.strip().splitlines()) == 1


def test_backtrack_killed_and_resumed_counts_the_same(tmp_path):
    """A count killed with SIGKILL after a snapshot and resumed gives the plain count."""
    ck = tmp_path / "ck"
    _kill_after_snapshot(
        ["solve", "pentomino-5x12", "--mode", "count", "--checkpoint", str(ck), "--opt", "checkpoint_every=0.3"],
        ck / "search.npz",
        0.5,
    )
    nodes_before = int(np.load(ck / "search.npz")["st"][2])
    assert nodes_before > 0
    p = catalog.load("pentomino-5x12")
    res = solving.get("backtrack", {"resume": str(ck)}).solve(p, mode="count", limits=Limits())
    assert res.count == 4040 and res.status == "solved"
    assert res.stats["nodes"] == 2255941  # the same tree: nodes carried over from the snapshot


def test_polyform_beam_fills_from_any_direction():
    p = catalog.load("eternity1-boat")
    first = {}
    for sweep in (90.0, 270.0):
        res = solving.get("beam", {"width": 1000, "sweep": sweep}).solve(p, mode="first", limits=Limits(time_s=60))
        assert res.status == "solved" and verify(p, res.solutions[0]).valid
        first[sweep] = max(p.grid.centroid(c)[1] for c in res.solutions[0][0].cells)  # the first piece placed
    assert first[90.0] > first[270.0]  # top first, then bottom first


@pytest.mark.parametrize("name", ["pentomino-6x10", "eternity1-boat"])
def test_every_site_check_agrees_with_a_plain_one(name):
    """``every_site``: a state is alive when each free site (cell) of the board has an option
    disjoint from what is covered; the bitset kernel against plain sets on random partial
    fillings, some alive and some dead; and the beam with it still solves."""
    from baseline.beam.solver import Beam
    from baseline.beam.xcc import XCCBeamRun, _alive

    p = catalog.load(name)
    run = XCCBeamRun(p, {k: v.default for k, v in Beam.OPTIONS.items()})
    x, t = run.xcc, run.t
    covs, board, _ = _random_fillings(run, 24, 8, 11)  # 0..7 options
    n = len(covs)
    opts = [set(x.opt_items[x.opt_ptr[q] : x.opt_ptr[q + 1]].tolist()) for q in range(x.n_options)]
    sites = [i for i in range(x.n_primary) if x.item_names[i].startswith("c")]
    want = [all(s in c or any(s in o and not o & c for o in opts) for s in sites) for c in covs]
    got = np.zeros(n, np.bool_)
    _alive(board, np.zeros(n, np.int64), n, t, np.zeros(max(64, t.max_col), np.int64), got)
    assert got.tolist() == want
    assert True in want and False in want
    res = solving.get("beam", {"width": 300, "every_site": True}).solve(p, mode="first", limits=Limits())
    assert res.status == "solved" and "every_site_dropped" in res.stats


def test_polyform_beam_per_parent_puts_each_states_best_children_first():
    """``per_parent`` on polyforms: each state's best N children go before any state's
    (N+1)-th, the rest fill the width in score order; the beam still solves."""
    from baseline.beam.frontier import _per_parent

    parents = np.array([3, 1, 3, 3, 1, 0, 3])
    ranked = np.arange(len(parents))
    assert _per_parent(ranked, parents, 2, 7, 4).tolist() == [0, 1, 2, 4, 5, 3, 6]
    first = _per_parent(ranked, parents, 1, 7, 4)
    assert first.tolist() == [0, 1, 5, 2, 3, 4, 6]
    p = catalog.load("eternity1-boat")
    res = solving.get("beam", {"width": 200, "per_parent": 1}).solve(p, mode="first", limits=Limits())
    assert res.status == "solved"
    assert max(lv["kept"] for lv in res.stats["levels"]) > 1  # the width is filled (a strict cap keeps 1 a level)


def test_polyform_beam_probe_drops_exactly_the_dead_states():
    """``probe_at``: a probe with budget to spare clears a state exactly when dancing links finds
    no completion of it (random partial fillings of the pentominoes, some dead, some not); a
    probe that meets a tiling hands it on, and the beam with it still solves."""
    from baseline.beam.solver import Beam
    from baseline.beam.xcc import XCCBeamRun
    from baseline.runtime.kernel import SOLUTION
    from baseline.xcc.searches import DLXSearch

    p = catalog.load("pentomino-6x10")
    run = XCCBeamRun(p, {**{k: v.default for k, v in Beam.OPTIONS.items()}, "probe_nodes": 10**8})
    _, board, prefixes = _random_fillings(run, 16, 3, 5, first=1)  # 1..3 options
    want = [DLXSearch(run.xcc.restrict(pre)[0]).step(10**9, True) == SOLUTION for pre in prefixes]
    assert True in want and False in want
    live = [i for i in range(len(want)) if want[i]]
    order = np.array([i for i in range(len(want)) if not want[i]] + live)  # the dead first: a tiling stops the probe
    ok, stats = np.ones(len(order), np.bool_), {}
    run._probe(board[order], ok, lambda i: prefixes[order[i]], stats, None)
    n_dead = len(want) - len(live)
    assert ok.tolist() == [False] * n_dead + [True] * len(live) and stats["probe_dropped"] == n_dead
    sol = run._probe_solution
    assert sol is not None and verify(p, sol).valid
    res = solving.get("beam", {"width": 200, "probe_at": 8, "probe_nodes": 50}).solve(p, mode="first", limits=Limits())
    assert res.status == "solved" and verify(p, res.solutions[0]).valid and res.stats["probe_states"] > 0


def test_best_mode_on_a_board_with_no_legal_arrangement_says_so(tmp_path):
    """Every piece has border on two opposite sides: nothing fits a corner.  The budgeted passes stop at the
    first dead pass that never cut a level, instead of failing on the profile a dead pass did not keep."""
    from puzzles.kinds.edge import EdgePuzzle

    p = EdgePuzzle(3, 3, [(0, 1, 0, 1)] * 9, name="no-arrangement")
    res = solving.get("beam").solve(p, mode="best", limits=solving.Limits(time_s=5))
    assert res.status == solving.Status.LIMIT and "no legal arrangement" in res.message
