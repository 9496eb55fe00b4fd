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
from baseline import codec
from eternity.cli import main
from puzzles import catalog, generate
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
        p, mode="best", limits=solving.Limits(time_s=30))
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
    pieces = np.array(data.draw(st.lists(st.lists(st.integers(0, n_pieces - 1), min_size=depth, max_size=depth),
                                         min_size=rows, max_size=rows)), np.int64).reshape(rows, depth)
    rots = np.array(data.draw(st.lists(st.lists(st.integers(0, 3), min_size=depth, max_size=depth),
                                       min_size=rows, max_size=rows)), np.int64).reshape(rows, depth)
    packed = codec.pack(pieces, rots, n_pieces)
    assert packed.shape[1] == (depth * codec.bits_per_tile(n_pieces) + 7) // 8
    p2, r2 = codec.unpack(packed, depth, n_pieces)
    assert (p2 == pieces).all() and (r2 == rots).all()


def test_codec_is_ten_bits_a_tile_on_eternity2():
    assert codec.bits_per_tile(catalog.load("eternity2").n_pieces) == 10
    assert codec.pack(np.zeros((1, 256), int), np.zeros((1, 256), int), 256).nbytes == 320


def _kill_after_snapshot(args: list[str], snapshot, linger: float) -> None:
    """Run `eternity ARGS` in a child and SIGKILL it ``linger`` seconds after its first snapshot."""
    proc = subprocess.Popen([sys.executable, "-m", "eternity", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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
    assert main(["generate", "edge", "--rows", "10", "--cols", "10", "--frame-colors", "3", "--inner-colors", "6",
                 "--seed", "2", "-o", str(pz)]) == 0
    full, resumed, ck = tmp_path / "full.json", tmp_path / "resumed.json", tmp_path / "ck"
    opts = ["--solver", "beam", "--opt", "width=3000", "--opt", "seed=7"]
    assert main(["solve", str(pz), *opts, "-o", str(full)]) == 0
    _kill_after_snapshot(["solve", str(pz), *opts, "--checkpoint", str(ck), "-o", str(tmp_path / "never.json")],
                         ck / "frontier.npz", 0.3)
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
    _kill_after_snapshot(["solve", "pentomino-5x12", "--mode", "count", "--checkpoint", str(ck),
                          "--opt", "checkpoint_every=0.3"], ck / "search.npz", 0.5)
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
