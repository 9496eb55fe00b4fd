"""docs/results/main-job.md: what its prose says of the stored run (docs/runs/quick.sqlite) is what the run holds."""

from __future__ import annotations

from datetime import datetime

from helpers.run_tables import page, query

PAGE = page("main-job.md")
RUN = "quick.sqlite"
JOIN = "FROM results r JOIN instances i ON i.id = r.instance"


def test_the_beam_misses_a_sub_critical_board_and_owen_a_and_never_says_unsatisfiable():
    missed = query(RUN, f"SELECT i.name, i.class, r.status {JOIN} WHERE r.solver = 'beam' AND r.status != 'solved'")
    assert {s for *_, s in missed} == {"limit"}
    assert sorted((n.split("-s")[0], c) for n, c, _ in missed) == [
        ("edge-6x6-f3-i7", "sub-critical"),
        ("owen-a", "super-critical"),
    ]
    assert "misses a sub-critical 6x6 board (one solution to find) and `owen-a`, and returns `limit`" in PAGE


def test_the_counts_that_hit_the_limit_are_super_critical_with_millions_of_solutions():
    stopped = query(RUN, f"SELECT i.class, r.count {JOIN} WHERE r.mode = 'count' AND r.status = 'limit'")
    assert stopped and all(c == "super-critical" and n >= 1_000_000 for c, n in stopped)
    assert "super-critical boards with millions of solutions" in PAGE


def test_the_run_takes_about_a_minute_and_a_half():
    first, last = query(RUN, "SELECT MIN(finished_at), MAX(finished_at) FROM results")[0]
    seconds = (datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds()
    assert 60 <= seconds <= 120 and "It takes about a minute and a half." in PAGE
