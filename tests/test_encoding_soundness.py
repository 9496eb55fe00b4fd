"""Every encoding held sound where boards differ: each built-in CNF encoding, and each option that changes one,
counts (or answers) as the native ``edge-backtrack`` does on boards the generator does not make: a free rim, one
or two rows, spare pieces, identical pieces, hint pieces, boards with no solution.  An encoding that does not
take a board's shape refuses it in one line (``UsageError``); it never answers wrongly."""

from __future__ import annotations

import pytest
from helpers.odd_boards import odd_boards, planted
from hypothesis import HealthCheck, given, settings

import solving
from encoders import catalogue
from encoders.amo import ENCODINGS
from puzzles.errors import UsageError

COUNTED = 120  # a board with more solutions is held to the first answer (an enumeration by blocking clauses)

# every option of `sat` that changes the CNF it builds, beside the named encodings
VARIANTS = (
    [{"model": "direct", "redundant": True}, {"model": "direct", "symmetry": True}]
    + [{"model": "direct", "identical": "distinct"}, {"model": "direct", "support": False}]
    + [{"model": "direct", "amo": a} for a in ENCODINGS]
    + [{"model": "xcc", "colors": c} for c in ("pairs", "vars")]
    + [{"model": "direct", "redundant": True, "identical": "distinct", "amo": "pairwise"}]
)
CONFIGS = [{"encoding": n} for n in catalogue.NAMED] + VARIANTS


def _answer(p, opts: dict, mode: str):
    """(status, count) of ``sat`` with ``opts``, or None when the encoding refuses the board in one line."""
    try:
        res, verified = solving.solve_verified(solving.get("sat", opts), p, mode, solving.Limits(time_s=60))
    except UsageError as e:
        assert "\n" not in str(e)
        return None
    assert verified is not False and res.status != solving.Status.ERROR, (opts, res.message)
    return res.status, (res.count if mode == "count" else None)


def _truth(p):
    """``edge-backtrack``'s count, or one more than ``COUNTED`` when a board has too many solutions to count within
    a node budget (a free rim of few colours: billions), and its first answer says there is one.  The
    budget is nodes, not seconds, so the draws do not depend on the machine's speed."""
    native = solving.get("edge-backtrack")
    res, _ = solving.solve_verified(native, p, "count", solving.Limits(nodes=2_000_000))
    if res.status.answered:
        return res.count or 0
    first, _ = solving.solve_verified(native, p, "first")
    assert first.status.answered
    return COUNTED + 1 if first.status == solving.Status.SOLVED else 0


def _held(p) -> None:
    truth = _truth(p)
    mode = "count" if truth <= COUNTED else "first"
    want = solving.Status.SOLVED if truth else solving.Status.UNSAT
    for opts in CONFIGS:
        got = _answer(p, opts, mode)
        if got is None:
            continue
        status, count = got
        assert status == want, (p.name, opts, status, truth)
        if mode == "count" and truth:
            assert count == truth, (p.name, opts, count, truth)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(odd_boards)
def test_every_encoding_answers_odd_boards_as_the_backtracker(board):
    p, _ = board
    _held(p)


@pytest.mark.parametrize("rows,cols", [(2, 3), (2, 2), (1, 4)])
def test_a_free_rim_is_solved_by_every_encoding(rows, cols):
    p, _ = planted(rows, cols, 3, "free", spare=0, twins=0, hints=0, broken=False, seed=11)
    assert not p.bordered
    _held(p)
    for opts in ({"encoding": "direct-redundant", "certify": True}, {"model": "direct", "redundant": True}):
        status, _ = _answer(p, opts, "first")
        assert status == solving.Status.SOLVED
