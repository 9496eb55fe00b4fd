"""`eternity hunt`: a hunt killed with SIGKILL right after it announces a new best leaves that board on disk,
verified; resumed, it starts from that board with the budget that was left and the seeds it used skipped; two
hunts' boards merge into the better one; bad input is refused before anything is written."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ETERNITY = [sys.executable, "-m", "eternity"]


def _board(tmp_path: Path) -> Path:
    r = subprocess.run(ETERNITY + ["generate", "edge", "--rows", "7", "--cols", "7", "--frame-colors", "3",
                                   "--inner-colors", "6", "--seed", "5", "-o", str(tmp_path / "b.json")],
                       capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    return tmp_path / "b.json"


def _verified_score(board: Path, sol: Path) -> int:
    r = subprocess.run(ETERNITY + ["verify", str(board), str(sol), "--score", "--json"], capture_output=True, text=True)
    doc = json.loads(r.stdout)
    assert doc["legal"] and doc["complete"], doc
    return doc["score"]


def test_a_killed_hunt_keeps_the_board_it_announced_and_resumes_with_the_budget_left(tmp_path):
    board = _board(tmp_path)
    d = tmp_path / "h"
    proc = subprocess.Popen(ETERNITY + ["hunt", str(board), "--dir", str(d), "--slice", "30", "--budget", "60",
                                        "--opt", "width=50"],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    announced = None
    t0 = time.monotonic()
    assert proc.stderr is not None
    for line in proc.stderr:
        if "(new best)" in line:
            announced = int(line.split("best ")[1].split("/")[0])
            os.killpg(proc.pid, signal.SIGKILL)  # the hunt and its slice, at once
            break
        assert time.monotonic() - t0 < 60, "no new best within a minute"
    proc.wait()
    assert announced is not None
    assert _verified_score(board, d / "best.sol.json") == announced  # on disk before the line
    state = json.loads((d / "hunt.json").read_text())
    assert state["best_score"] == announced and state["running"] == [0]
    spent = state["elapsed_s"]
    assert spent < 30
    # resumed with a smaller budget: the killed slice's board taken over, seed 0 counted as used
    r = subprocess.run(ETERNITY + ["hunt", str(board), "--dir", str(d), "--budget", f"{spent + 6:.1f}", "--slice",
                                   "3", "--json"], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert r.returncode == 0, r.stderr
    after = json.loads(r.stdout)
    assert "resuming" in r.stderr and 0 in after["seeds"] and after["seeds"][0] == 0
    assert after["best_score"] >= announced and after["elapsed_s"] >= spent
    assert _verified_score(board, d / "best.sol.json") == after["best_score"]
    assert not any((d / "slices").iterdir())


def test_two_hunts_merge_into_the_better_board_and_foreign_input_is_refused(tmp_path):
    board = _board(tmp_path)
    for name, seed_opts in (("a", ["--opt", "width=5"]), ("b", ["--opt", "width=60"])):
        r = subprocess.run(ETERNITY + ["hunt", str(board), "--dir", str(tmp_path / name), "--slice", "2",
                                       "--budget", "3", "--quiet", *seed_opts],
                           capture_output=True, text=True, timeout=120)  # fmt: skip
        assert r.returncode == 0, r.stderr
    scores = [json.loads((tmp_path / n / "hunt.json").read_text())["best_score"] for n in ("a", "b")]
    r = subprocess.run(ETERNITY + ["hunt", str(board), "--dir", str(tmp_path / "m"), "--merge", str(tmp_path / "a"),
                                   str(tmp_path / "b"), "--json"], capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["best_score"] == max(scores)
    assert _verified_score(board, tmp_path / "m" / "best.sol.json") == max(scores)
    # another puzzle's hunt directory, a solver without mode best, a bad budget: one line, exit 2
    other = tmp_path / "o.json"
    subprocess.run(ETERNITY + ["generate", "edge", "--rows", "4", "--cols", "4", "--frame-colors", "2",
                               "--inner-colors", "2", "-o", str(other)], capture_output=True, check=True)  # fmt: skip
    for argv in (["hunt", str(other), "--dir", str(tmp_path / "a")],
                 ["hunt", str(board), "--dir", str(tmp_path / "x"), "--solver", "sat"],
                 ["hunt", str(board), "--dir", str(tmp_path / "y"), "--budget", "soon"],
                 ["hunt", "queens-8", "--dir", str(tmp_path / "z")]):  # fmt: skip
        r = subprocess.run(ETERNITY + argv, capture_output=True, text=True)
        lines = [x for x in r.stderr.splitlines() if x.strip()]
        assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("eternity: error:"), (argv, r.stderr)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists() and not (tmp_path / "z").exists()


@pytest.mark.parametrize("text, seconds", [("12h", 43200), ("90m", 5400), ("45s", 45), ("600", 600), (None, None)])
def test_a_budget_reads_as_people_write_it(text, seconds):
    from experiments.hunt import parse_budget

    assert parse_budget(text) == seconds
