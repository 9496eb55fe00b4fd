"""`break-search` (Blackwood's break-schedule search): with breaks allowed everywhere and no restart it is an
exhaustive branch and bound, so its best score must be the optimum that `edge-backtrack`'s own branch and bound
proves (a second method) on small damaged boards; every board it returns passes the verifier; its schedule is
kept (no board with more breaks than the schedule allows at the end); bad schedules are refused in one line."""

from __future__ import annotations

import random

import pytest

import solving
from baseline.edge.breaks import allowance, default_schedule
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.make import generate
from solving import Limits, solve_verified


def _damaged(rng: random.Random, rows: int, seed: int) -> EdgePuzzle:
    """A planted board with a few inner colours changed: most have no perfect board any more."""
    p, _ = generate.edge_puzzle(rows, rows, 2, 3, seed)
    pcs = p.pieces.copy()
    for _ in range(3):
        i, s = rng.randrange(len(pcs)), rng.randrange(4)
        if pcs[i, s] != 0:
            pcs[i, s] = rng.randint(1, 5)
    return EdgePuzzle(rows, rows, pcs)


def test_with_breaks_everywhere_it_finds_the_optimum_edge_backtrack_proves():
    rng = random.Random(1)
    checked = 0
    for t in range(24):
        q = _damaged(rng, rng.choice((3, 4)), t)
        everywhere = ",".join(["1"] * q.n_joins)
        r, ok = solve_verified(solving.get("break-search", {"schedule": everywhere, "restart": 10**9}), q, "best",
                               Limits(time_s=60))  # fmt: skip
        e, _ = solve_verified(solving.get("edge-backtrack"), q, "best", Limits(time_s=60))
        assert e.optimal, "the oracle must prove its optimum"
        assert ok and r.best_score == e.best_score and r.stats["exhausted"], (t, r.best_score, e.best_score)
        checked += 1
    assert checked == 24


def test_the_schedule_bounds_the_breaks_of_every_board():
    p, _ = generate.edge_puzzle(6, 6, 3, 5, 4)
    sched = [20, 28, 33]  # three breaks at most, none before depth 20
    r, ok = solve_verified(solving.get("break-search", {"schedule": ",".join(map(str, sched))}), p, "best",
                           Limits(time_s=20))  # fmt: skip
    assert ok and r.status == "solved" and r.best_score >= p.n_joins - len(sched)
    assert list(allowance(sched, 36)[17:21]) == [0, 0, 1, 1]


def test_the_default_schedule_allows_breaks_only_in_the_last_quarter():
    s = default_schedule(256, 480)
    assert len(s) == 19 and min(s) > 192 and max(s) <= 256 and s == sorted(s)


@pytest.mark.parametrize("schedule", ["x", "0", "999", "1,,y"])
def test_a_bad_schedule_is_refused_in_one_line(schedule):
    p, _ = generate.edge_puzzle(4, 4, 2, 2, 1)
    with pytest.raises(UsageError, match="schedule"):
        solving.get("break-search", {"schedule": schedule}).check(p, "best")


def test_a_board_without_a_grey_rim_is_refused():
    with pytest.raises(UsageError, match="grey rim"):
        solving.get("break-search").check(EdgePuzzle(2, 2, [[1, 1, 1, 1]] * 4), "best")
