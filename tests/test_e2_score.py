"""The Eternity II score: the budget schedule, the repair phase, best-board checkpoints, jobs."""

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import solving
from baseline.beam.repair import Repair
from baseline.runtime import checkpoint
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePlacement
from puzzles.make import generate
from puzzles.verify import verify
from solving import Limits


def scrambled(p, solution, seed):
    """A full board keeping the border rule: the planted solution with pieces shuffled within their
    class (corner, rim, inner) and inner pieces turned at random."""
    rng = np.random.default_rng(seed)
    rep = Repair(p)
    by_cell = {pl.cell: pl.piece for pl in solution}
    out = []
    for cl in rep.classes:
        cells = [int(c) for c in cl]
        pieces = rng.permutation([by_cell[c] for c in cells])
        for c, q in zip(cells, pieces):
            a = int(rep.allowed[q, c])
            out.append(EdgePlacement(c, int(q), int(rng.integers(4)) if a == 4 else a))
    fixed = {f.cell for f in p.fixed}
    out += [pl for pl in solution if pl.cell in fixed or not any(pl.cell in cl for cl in rep.classes)]
    assert len(out) == p.n_cells
    return sorted(out)


@pytest.mark.timing
def test_budget_schedule_uses_the_time_and_widens():
    p = catalog.load("eternity2-corners-3")
    s = solving.get("beam", {"repair": 0})
    s.warm(p, "best")
    r = s.solve(p, mode="best", limits=Limits(time_s=10))
    widths = [w for w, _ in r.stats["passes"]]
    assert widths[:2] == [32, 256] and max(widths) > 512, r.stats["passes"]  # the time model widened
    assert 6.0 <= r.stats["time_s"] <= 11.5  # the budget is used, and the last pass finishes
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score


@pytest.mark.timing
def test_a_perfect_board_ends_the_run_early():
    p = catalog.load("eternity2-clue3")
    r = solving.get("beam").solve(p, mode="best", limits=Limits(time_s=30))
    assert r.best_score == p.n_joins and r.stats["time_s"] < 10


def test_best_board_checkpoint_svg_url_and_resume(tmp_path):
    p, _ = generate.edge_puzzle(10, 10, 3, 9, 5)
    ck = tmp_path / "ck"
    r = solving.get("beam", {"checkpoint": str(ck)}).solve(p, mode="best", limits=Limits(time_s=3))
    z = checkpoint.load(ck, "best", _fp(p))
    assert int(z["score"]) == r.best_score
    assert (ck / "best.url").read_text().startswith("https://e2.bucas.name/#puzzle=eternity&board_w=10")
    assert 'stroke="red"' in (ck / "best.svg").read_text() or r.best_score == p.n_joins
    r2 = solving.get("beam", {"resume": str(ck)}).solve(p, mode="best", limits=Limits(time_s=2))
    assert r2.stats["resumed_score"] == r.best_score <= r2.best_score
    assert verify(p, r2.solutions[0], allow_mismatch=True).score == r2.best_score


def _fp(p):
    from baseline.beam.run import BeamRun

    return BeamRun(p, dict(solving.get("beam").options), True).puzzle_fingerprint()


def test_resume_refuses_another_puzzles_board(tmp_path):
    p, _ = generate.edge_puzzle(6, 6, 2, 5, 1)
    q, _ = generate.edge_puzzle(6, 6, 2, 5, 2)
    solving.get("beam", {"checkpoint": str(tmp_path)}).solve(p, mode="best", limits=Limits(time_s=1))
    with pytest.raises(ValueError, match="another puzzle"):
        solving.get("beam", {"resume": str(tmp_path)}).solve(q, mode="best", limits=Limits(time_s=1))


@pytest.mark.timing  # both jobs report within 4 s only on an idle machine
def test_jobs_run_in_parallel_and_the_best_wins(tmp_path):
    """Two jobs, the better board wins; each job's progress lines are written, marked with its number."""
    from solving.progress import LogLines

    p, _ = generate.edge_puzzle(10, 10, 3, 9, 8)
    log = tmp_path / "progress.txt"
    with open(log, "a") as stream:
        r = solving.get("beam", {"jobs": 2, "checkpoint": str(tmp_path)}).solve(
            p, mode="best", limits=Limits(time_s=4), progress=LogLines("jobs", every=0.0, stream=stream)
        )
    text = log.read_text()
    assert "job 0 " in text and "job 1 " in text
    scores = r.stats["job_scores"]
    assert len(scores) == 2 and all(isinstance(s, int) for s in scores) and r.best_score == max(scores)
    assert sorted(f.name for f in tmp_path.glob("best*.npz")) == ["best0.npz", "best1.npz"]
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score


def test_a_killed_run_resumes_with_its_best_score(tmp_path):
    """SIGKILL in the middle of a checkpointed run, then --resume: the best board is kept."""
    ck = tmp_path / "ck"
    cmd = [
        sys.executable,
        "-m",
        "eternity.cli",
        "solve",
        "eternity2-corners-2",
        "--solver",
        "beam",
        "--mode",
        "best",
        "--time-limit",
        "120",
        "--checkpoint",
        str(ck),
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    while not (ck / "best.npz").exists() and time.time() - t0 < 60:
        time.sleep(0.2)
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    p = catalog.load("eternity2-corners-2")
    saved = int(checkpoint.load(ck, "best", _fp(p))["score"])
    r = solving.get("beam", {"resume": str(ck), "checkpoint": str(ck)}).solve(p, mode="best", limits=Limits(time_s=2))
    assert r.stats["resumed_score"] == saved <= r.best_score


class _Kill(BaseException):
    """Stands for a SIGKILL right after a frontier checkpoint."""


@pytest.mark.timing  # the wide pass is as wide as the measured speed allows
def test_a_run_killed_in_its_wide_pass_goes_on_with_that_pass(tmp_path, monkeypatch):
    """Killed during the wide pass, a resumed run does not just repair the narrow passes' board:
    the wide pass goes on from its frontier, then the frontier is removed (the pass is over)."""
    import baseline.beam.run as bm

    p = catalog.load("eternity2-corners-2")
    ck = tmp_path / "ck"
    opts = {"checkpoint": str(ck), "repair": 0}
    real_save = bm.BeamRun.save
    cut = {}

    def save(self, d, k, width, states):
        real_save(self, d, k, width, states)
        if width > 1024 and k >= 100:  # in the wide pass
            cut["width"], cut["level"] = width, k
            raise _Kill

    import baseline.beam.schedule as sched

    monkeypatch.setattr(bm.BeamRun, "save", save)
    # the wide pass's width is pinned, not measured: planned from the narrow passes' speed it followed the
    # machine's load (on busy cores it stayed under 1,024 and the run was never cut); no probe pass between
    monkeypatch.setattr(sched, "_planned_width", lambda model, left: 4096)
    monkeypatch.setattr(sched, "PROBE_SHARE", 0.0)
    with pytest.raises(_Kill):
        solving.get("beam", opts).solve(p, mode="best", limits=Limits(time_s=120))
    monkeypatch.setattr(bm.BeamRun, "save", real_save)
    # whether the cut pass is worth going on with depends on the speed measured at resume (CI runs
    # tests side by side): plan the cut width, so the test is about the resume, not the machine
    monkeypatch.setattr(bm, "_planned_width", lambda model, left: cut["width"])
    assert (ck / "best.npz").exists() and (ck / "frontier.npz").exists()
    r = solving.get("beam", {**opts, "resume": str(ck)}).solve(p, mode="best", limits=Limits(time_s=10))
    assert r.stats["resumed_pass"] == cut["width"]
    assert any(lv["level"] == cut["level"] + 1 and lv["kept"] > 1024 for lv in r.stats["levels"])  # on from there
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score >= r.stats["resumed_score"]
    assert not (ck / "frontier.npz").exists()


def test_bad_options_are_one_line_errors():
    p = catalog.load("eternity2-clue1")
    with pytest.raises(UsageError, match="window"):
        solving.get("beam", {"window": "5x5"}).check(p, "best")
    with pytest.raises(UsageError, match="time limit"):
        solving.get("beam", {"schedule": "budget"}).solve(p, mode="best")


def test_eternity2_corner_variants():
    a, b = catalog.load("eternity2-corners-0"), catalog.load("eternity2-corners-1")
    assert len(a.fixed) == 8 and a.fixed[:5] == catalog.load("eternity2-hints").fixed
    corners = {0, 15, 240, 255}
    assert len({f.cell for f in a.fixed[5:]} & corners) == 3
    assert a.fixed != b.fixed and catalog.load("eternity2-corners-0").fixed == a.fixed
    assert "eternity2-corners-0" in catalog.names()
    for f in a.fixed[5:]:  # grey faces out
        shown = a.placed(f.piece, f.rotation)
        assert all((shown[s] == 0) == a.outside_sides(f.cell)[s] for s in range(4))


def test_cli_best_mode_prints_the_bucas_url(capsys):
    from eternity.cli import main

    assert main(["solve", "brendan-6x6", "--solver", "beam", "--mode", "best", "--time-limit", "2", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("solved") and "best score" in out[0]
    assert out[1].startswith("https://e2.bucas.name/#puzzle=eternity&board_w=6&board_h=6&board_edges=")
    assert main(["solve", "brendan-6x6", "--solver", "beam", "--mode", "best", "--time-limit", "2", "--json"]) == 0
    assert '"bucas_url": "https://e2.bucas.name/' in capsys.readouterr().out


def test_log_lines_write_every_new_best_score_at_once():
    import io

    from solving.progress import LogLines

    out = io.StringIO()
    log = LogLines("run", every=3600, stream=out)
    log({"level": 1})
    log({"level": 2})
    log({"score": 450})
    log({"score": 451, "width": 4})
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].endswith("score 450") and "score 451" in lines[1]


def test_tables_show_the_mean_best_score_of_best_mode_cells():
    from experiments.report import summarise

    def row(inst, conf, score):
        return {
            "family": "e2",
            "class": "-",
            "config": conf,
            "instance": inst,
            "repeat": 0,
            "status": "solved",
            "time_limit": 60.0,
            "build_s": 1.0,
            "search_s": 59.0,
            "wall_s": 60.0,
            "nodes": 10,
            "verified": 1,
            "best_score": score,
        }

    rows = [row("a", "x", 450), row("b", "x", 455), row("a", "y", 452), row("b", "y", 451)]
    out = {r["solver"]: r["mean_score"] for r in summarise(rows)}
    assert out == {"x": 452.5, "y": 451.5, "virtual best": 453.5}


def test_the_mismatch_cut_only_leaves_out_children():
    """``cut``: with a huge margin the bound never bites (the children made differ from the uncut
    beam's only through tie-breaks, as the exact children now come first); margin 0 makes far
    fewer, and the board still verifies."""
    p = catalog.load("eternity2-corners-2")
    nodes = {}
    for cut in (-1.0, 1e9, 0.0):
        s = solving.get("beam", {"width": 64, "schedule": "widen", "repair": 0, "cut": cut})
        r = s.solve(p, mode="best", limits=Limits())
        assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score
        nodes[cut] = r.stats["nodes"]
    assert abs(nodes[1e9] - nodes[-1.0]) < 0.05 * nodes[-1.0], nodes
    assert nodes[0.0] < 0.8 * nodes[-1.0], nodes  # 0.71 at this width; about 0.35 at width 4096


def test_cut_states_bounds_the_levels_with_few_exact_children():
    """``cut_states``: where the exact children are too few to give the cut its threshold, only the
    states with the best bounds make mismatch children; fewer nodes, a verified board of about the
    same score."""
    p = catalog.load("eternity2-corners-2")
    got = {}
    for cs in (0.0, 1.0):
        s = solving.get("beam", {"width": 256, "schedule": "widen", "repair": 0, "cut_states": cs})
        r = s.solve(p, mode="best", limits=Limits())
        assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score
        got[cs] = (r.stats["nodes"], r.best_score)
    assert got[1.0][0] < 0.9 * got[0.0][0], got
    assert got[1.0][1] >= got[0.0][1] - 6, got


def test_the_budget_schedule_keeps_within_the_memory_left(monkeypatch):
    """Two jobs of width 700,000 on Eternity II met the out-of-memory killer (24 GB): the widest pass
    is capped by the memory left, shared among the jobs."""
    import baseline.beam.run as bm
    from baseline.beam import schedule

    p = catalog.load("eternity2-corners-0")
    monkeypatch.setattr(schedule, "available_memory", lambda: 24 << 30)
    one = bm.BeamRun(p, dict(solving.get("beam").options), best=True, share=1).memory_width()
    two = bm.BeamRun(p, dict(solving.get("beam").options), best=True, share=2).memory_width()
    assert 2_000_000 < one < 4_000_000 and abs(two - one // 2) <= 1  # 1.1 KB rows (3.4 KB before: 0.95 M)
    monkeypatch.setattr(schedule, "available_memory", lambda: None)
    assert bm.BeamRun(p, dict(solving.get("beam").options), best=True).memory_width() == 1 << 40


@pytest.mark.parametrize("name,mode,width", [("eternity2-corners-2", "best", 3000), ("eternity2-clue1", "first", 3000)])
def test_threads_give_the_boards_of_one_thread(name, mode, width):
    """``threads``: a level's states are expanded in ranges, one a thread, and the children are put
    back in one thread's order, so the run (boards, nodes, scores) does not depend on the count."""
    p = catalog.load(name)
    runs = []
    for threads in (1, 2):
        best = {"schedule": "widen", "repair": 0} if mode == "best" else {}  # best-mode options in mode best only
        s = solving.get("beam", {"width": width, "threads": threads, **best})
        r = s.solve(p, mode=mode, limits=Limits())
        if mode == "best":
            assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score
        elif r.solutions:
            assert verify(p, r.solutions[0]).valid
        runs.append(r)
    one, two = runs
    assert "threaded_levels" not in one.stats and two.stats["threaded_levels"] > 0
    assert one.solutions == two.solutions and one.best_score == two.best_score
    assert one.stats["nodes"] == two.stats["nodes"]


@pytest.mark.parametrize("budget,probes", [(60.0, []), (3600.0, [2048, 16384])])
def test_a_long_budget_measures_again_wider_before_its_wide_pass(monkeypatch, budget, probes):
    """The budget schedule's model is fitted on the two passes before the wide one; with an hour
    these are 2,048 and 16,384 states wide (threaded, cut as the wide pass is), not 32 and 256.
    A fake clock: a level costs 1 ms plus 10 us a state."""
    widths, clock = _schedule_on_a_fake_clock(monkeypatch, budget, lambda width: 1e-3 + 1e-5 * width)
    assert widths[:2] == [32, 256] and widths[2:-1] == probes
    assert clock <= budget and widths[-1] > 8 * max(probes or [256])


def _schedule_on_a_fake_clock(monkeypatch, budget: float, level_cost, shrinks: bool = False, fill: bool = True):
    """(widths of the passes, the clock at the end) of the budget schedule on Eternity II with a fake
    clock: a pass costs ``level_cost(width)`` a level; ``shrinks``: a pass behind plan ends at the
    deadline, as a real one shrinks its width to."""
    import types

    import baseline.beam.run as bm
    from baseline.beam import schedule

    clock = [0.0]
    fake_time = types.SimpleNamespace(perf_counter=lambda: clock[0])
    monkeypatch.setattr(bm, "time", fake_time)
    monkeypatch.setattr(schedule, "time", fake_time)
    monkeypatch.setattr(schedule, "available_memory", lambda: None)
    run = bm.BeamRun(catalog.load("eternity2-corners-0"), dict(solving.get("beam").options), best=True)
    widths = []

    def fake_pass(width, deadline, progress, t0, resume, profile=None):
        widths.append(width)
        per_level = level_cost(width)
        clock[0] += run.n * per_level
        if shrinks:
            clock[0] = min(clock[0], deadline)
        run._profile = (np.full(run.n, per_level), np.full(run.n, float(width)))
        return "board"

    monkeypatch.setattr(run, "_pass", fake_pass)
    run._budget_passes(0.0, budget, None, fill=fill)
    return widths, clock[0]


def test_the_forecast_charges_each_dead_site_with_two_known_sides():
    """``forecast``: a child's score drops by forecast x penalty for each later site with two or more
    known sides that no unused piece fits (checked here by brute force over pieces and turns), and
    the site above a fixed piece is watched from its second known side on."""
    import dataclasses

    from baseline.beam.run import BeamRun
    from puzzles.kinds.edge import Fixed

    p, sol = generate.edge_puzzle(7, 7, 2, 4, 11)
    hint = next(pl for pl in sol if pl.cell == 4 * 7 + 3)  # an inner cell of row 4
    p = dataclasses.replace(p, fixed=[Fixed(hint.cell, hint.piece, hint.rotation)])
    base = solving.get("beam", {"cut": -1.0}).options
    plain, fore = BeamRun(p, base, True), BeamRun(p, {**base, "forecast": 1.5}, True)
    depth = {int(c): k for k, c in enumerate(fore.order)}
    above = hint.cell - 7
    watched = [k for k in range(fore.n) if depth[above] in fore.look_cell[fore.look_ptr[k] : fore.look_ptr[k + 1]]]
    assert watched == list(range(depth[above - 7], depth[above]))  # from its top neighbour until it is filled

    rng = np.random.default_rng(0)
    states = plain.root()
    k = 0
    while k < depth[above - 7] + 2:  # a frontier of varied states just past the watched site's start
        states, _ = plain.expand(k, states, 40, rng)
        k += 1
    a, b = plain._children_of(k, states, 10**6, False), fore._children_of(k, states, 10**6, False)
    cat = [np.concatenate([part[i] for part in a]) for i in range(4)]
    cbt = [np.concatenate([part[i] for part in b]) for i in range(4)]
    assert all(np.array_equal(x, y) for x, y in zip(cat[:3], cbt[:3]))
    tables = fore.tables
    outside = [p.outside_sides(c) for c in range(p.n_cells)]
    charged = 0
    for parent, cand, s_a, s_b in zip(cat[0], cat[1], cat[3], cbt[3]):
        board = {int(fore.order[d]): int(states.cands[parent, d]) for d in range(k)}
        board[int(fore.order[k])] = int(cand)
        used = {int(tables.s_piece[c]) for c in board.values()}
        dead = 0
        for kk in range(k + 1, fore.n):
            cell = int(fore.order[kk])
            known = {
                s: int(tables.s_col[4 * board[nb] + (s + 2) % 4])
                for s in range(4)
                if (nb := p.neighbour(cell, s)) >= 0 and nb in board
            }
            if len(known) < 2 or cell in board:
                continue
            fits = any(
                all((col[s] == 0) == outside[cell][s] for s in range(4)) and all(col[s] == c for s, c in known.items())
                for q in range(p.n_pieces)
                if q not in used
                for col in (p.placed(q, r) for r in range(4))
            )
            dead += not fits
        assert s_a - s_b == pytest.approx(1.5 * fore.penalty * dead)
        charged += dead > 0
    assert charged > 0  # the case is not vacuous


def test_the_late_penalty_prices_the_mismatches_of_the_last_cells():
    """``late_penalty``: in the last ``late_at`` cells a child's mismatches (and its colour demands
    nothing left can meet, which best mode prices alike) cost ``late_penalty``; before them, the
    penalty; the same children either way."""
    from baseline.beam.run import BeamRun

    p, _ = generate.edge_puzzle(7, 7, 2, 4, 5)
    base = solving.get("beam", {"cut": -1.0}).options
    plain, late = BeamRun(p, base, True), BeamRun(p, {**base, "late_penalty": 0.5, "late_at": 20}, True)
    assert np.all(late.pen[:29] == plain.penalty) and np.all(late.pen[29:49] == 0.5)
    rng = np.random.default_rng(1)
    frontiers = {0: plain.root()}
    for k in range(33):
        frontiers[k + 1], _ = plain.expand(k, frontiers[k], 60, rng)
    for k in (28, 33):  # a frontier expanded just before the late cells, and one inside them
        s = frontiers[k]
        a, b = plain._children_of(k, s, 10**6, False), late._children_of(k, s, 10**6, False)
        ca = [np.concatenate([part[i] for part in a]) for i in range(4)]
        cb = [np.concatenate([part[i] for part in b]) for i in range(4)]
        assert all(np.array_equal(x, y) for x, y in zip(ca[:3], cb[:3]))
        units = (cb[3] - ca[3]) / (plain.penalty - 0.5)  # the late children pay 0.5 a unit instead
        if k < 29:
            assert np.allclose(ca[3], cb[3])
        else:
            assert np.allclose(units, np.round(units)) and np.all(np.round(units) >= ca[2])
            assert np.mean(np.round(units) == ca[2]) > 0.5 and ca[2].max() > 0


@pytest.mark.parametrize("slow", [1.0, 1.5, 2.0, 3.0, 5.0])
def test_a_model_that_overestimates_a_state_leaves_no_idle_budget(monkeypatch, slow):
    """A narrow pass slowed (a cold machine: the 256-state pass charged ``slow`` times its cost a
    state) makes the model plan a wide pass too narrow, which ends early; the rest of the budget
    goes to another pass rather than idling.  Fake clock: a level costs 1 ms plus 10 us a state."""
    widths, clock = _schedule_on_a_fake_clock(
        monkeypatch, 10.0, lambda width: 1e-3 + 1e-5 * width * (slow if width == 256 else 1.0), shrinks=True
    )
    assert 7.0 <= clock <= 10.0, (widths, clock)
    assert len(set(widths)) == len(widths)  # no pass repeats another's width (and so its random ties)


def test_a_repair_phase_takes_the_time_a_narrow_wide_pass_leaves(monkeypatch):
    """With a repair phase after the passes, the time a too-narrow wide pass leaves is the repair's:
    no pass is started in it (one could overrun into the repair's share)."""
    cost = lambda width: 1e-3 + 1e-5 * width * (2.0 if width == 256 else 1.0)  # noqa: E731
    filled, _ = _schedule_on_a_fake_clock(monkeypatch, 10.0, cost, shrinks=True)
    widths, clock = _schedule_on_a_fake_clock(monkeypatch, 10.0, cost, shrinks=True, fill=False)
    assert widths == filled[: len(widths)] and len(widths) < len(filled) and clock < 7.0, (widths, filled, clock)


def test_a_bucas_url_reads_back_as_the_board(tmp_path):
    """The viewer URL a run prints is a solution file too: the same board, piece for piece where pieces differ,
    and a URL of another board or with a cell no piece fits is a one-line error naming it."""
    from puzzles.errors import InputError
    from puzzles.files import formats
    from puzzles.kinds.edge import bucas_url

    p = catalog.load("eternity2")
    board = formats.read_solution(p, "data/eternity2/beam_459.json")
    f = tmp_path / "b.url"
    f.write_text(bucas_url(p, board) + "\n")
    back = formats.read_solution(p, f)
    assert sorted(back) == sorted(board)
    assert verify(p, back, allow_mismatch=True).score == 459
    q, _ = generate.edge_puzzle(6, 6, 2, 5, 1)
    with pytest.raises(InputError, match="board_w.*16x16"):
        formats.read_solution(q, f)
    url = bucas_url(p, board)
    at = url.index("board_edges=") + len("board_edges=")
    f.write_text(url[:at] + "zzzz" + url[at + 4 :])
    with pytest.raises(InputError, match="cell A1 shows zzzz"):
        formats.read_solution(p, f)


def test_start_repairs_a_given_board_and_never_loses_it(tmp_path):
    """Option start: no beam passes, the whole time on the repair phase from the board given."""
    p = catalog.load("eternity2")
    r = solving.get("beam", {"start": "data/eternity2/beam_459.json"}).solve(p, mode="best", limits=Limits(time_s=3))
    assert r.stats["start_score"] == 459 <= r.best_score
    assert verify(p, r.solutions[0], allow_mismatch=True).score == r.best_score
    assert "repair" in r.stats and r.stats["repair"]["from"] == 459
    with pytest.raises(UsageError, match="time limit"):
        solving.get("beam", {"start": "data/eternity2/beam_459.json"}).solve(p, mode="best")
    half = tmp_path / "half.json"
    from puzzles.files import formats

    formats.write_solution(p, formats.read_solution(p, "data/eternity2/beam_459.json")[:100], half)
    with pytest.raises(UsageError, match="half.json: option start: the board is not a full legal board"):
        solving.get("beam", {"start": str(half)}).solve(p, mode="best", limits=Limits(time_s=3))
