"""`edge-estimate`: an estimated count whose interval holds the exact count, marked approximate so that nothing
takes it for one, and which says so when no probe meets a solution."""

import json

import pytest

import solving
from baseline.edge.sampled import evidence
from eternity.cli import main
from experiments.crosscheck import disagreements
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.make import generate
from solving import Limits, solve_verified


def _count(name, p, **opts):
    res, _ = solve_verified(solving.get(name, opts), p, "count", Limits(time_s=120))
    return res


# boards with thousands to millions of solutions, identical and symmetric pieces among them
BOARDS = [(5, 5, 3, 3, 1), (5, 5, 2, 3, 4), (5, 5, 3, 4, 2), (6, 6, 3, 5, 1), (6, 5, 3, 4, 3), (6, 6, 3, 6, 2)]


@pytest.mark.parametrize("rows,cols,frame,inner,seed", BOARDS)
def test_the_estimate_is_within_its_error_of_the_exact_count(rows, cols, frame, inner, seed):
    """Within 3.3 standard errors (a 99.9% interval: the 95% one misses one board in twenty by design)."""
    p, _ = generate.edge_puzzle(rows, cols, frame, inner, seed=seed)
    exact = _count("edge-backtrack", p).count
    got = _count("edge-estimate", p, probes=300, seed=seed)
    assert got.status == "solved", got.message
    assert abs(got.stats["estimate"] - exact) <= 3.3 * got.stats["stderr"], (exact, got.stats)
    assert got.stats["low"] <= got.stats["estimate"] <= got.stats["high"]
    assert got.evidence.startswith("approximate (Knuth's estimator, 300 probes") and "95% interval" in got.evidence
    assert got.count == round(got.stats["estimate"]) and got.stats["probes"] == 300


def test_an_unbiased_estimate_over_many_seeds():
    """The mean of estimates from independent seeds is near the exact count (unbiased), and the nominal 95%
    interval holds the count on most of them."""
    p, _ = generate.edge_puzzle(5, 5, 3, 3, seed=1)
    exact = _count("edge-backtrack", p).count
    runs = [_count("edge-estimate", p, probes=60, depth=6, seed=s) for s in range(1, 21)]
    mean = sum(r.stats["estimate"] for r in runs) / len(runs)
    assert abs(mean - exact) < 0.1 * exact, (mean, exact)
    assert sum(r.stats["low"] <= exact <= r.stats["high"] for r in runs) >= 16


def test_owens_puzzle_a_and_the_tree_it_estimates():
    p = catalog.load("owen-a")
    got = _count("edge-estimate", p, probes=200)
    assert got.stats["low"] <= 160 <= got.stats["high"]
    assert got.stats["tree_nodes"] > 0 and got.stats["native_s"] > 0


def test_no_probe_meeting_a_solution_is_no_answer_not_a_proof():
    p, _ = generate.edge_puzzle(6, 6, 3, 8, seed=3)  # sub-critical: only the planted solution, rarely met
    got = _count("edge-estimate", p, probes=5, depth=30)
    assert (
        got.stats["zero_probes"] == 5 and got.status == "limit" and got.count is None and "not estimated" in got.message
    )


def test_never_held_against_an_exact_count():
    """The label the solver writes keeps an estimate off the cross-checks, and is no engine's claim."""
    label = evidence(400, 8, 80.0, 100.0)
    cell = dict(instance="i", mode="count", status="solved")
    rows = [cell | dict(key="a", config="native", count=100, evidence="exhaustion"),
            cell | dict(key="b", config="sampled", count=90, evidence=label)]  # fmt: skip
    assert disagreements(rows) == []
    assert not solving.is_claim(label) and label.startswith("approximate (")


def test_a_depth_that_leaves_nothing_to_count_is_refused():
    p, _ = generate.edge_puzzle(4, 4, 2, 2, seed=1)
    with pytest.raises(UsageError, match="depth 16 leaves no cell"):
        solving.get("edge-estimate", {"depth": 16}).solve(p, mode="count")


def test_the_command_prints_the_estimate_and_its_interval(capsys):
    assert main(["solve", "owen-a", "--solver", "edge-estimate", "--mode", "count", "--opt", "probes=100",
                 "--json"]) == 0  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "solved" and out["evidence"].startswith("approximate (Knuth's estimator, 100 probes")
    assert out["stats"]["low"] <= out["count"] <= out["stats"]["high"]
