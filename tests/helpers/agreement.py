"""The agreement oracle: every registered solver that accepts a puzzle must count it alike.

The solvers come from the registry, not from a list, so a plug-in is held to the same oracle.
"""

import solving
from puzzles.errors import UsageError

LIMIT = solving.Limits(time_s=60.0)


def accepting(puzzle, mode: str) -> list[str]:
    """The registered solvers that take ``puzzle`` in ``mode`` (their own ``check`` decides)."""
    out = []
    for name in solving.names():
        try:
            solving.get(name).check(puzzle, mode)
        except UsageError:
            continue
        out.append(name)
    return out


def counts(puzzle) -> dict[str, int]:
    """Each counting solver's verified, complete count of ``puzzle``.  An estimate (evidence ``approximate``:
    edge-estimate's Knuth probes, ApproxMC's count) is not an exact count, so it is not held to equality here:
    its own tests hold it to its interval."""
    got = {}
    for name in accepting(puzzle, "count"):
        res, _ = solving.solve_verified(solving.get(name), puzzle, "count", LIMIT)
        assert res.status.answered, f"{name}: {res.status} {res.message}"
        if str(res.evidence or "").startswith("approximate"):
            continue
        got[name] = res.count
    return got


def assert_agreement(puzzle) -> dict[str, int]:
    """All counts equal, and every solver with mode first answers in kind: a verified solution
    when there is one, never a claim of no solution when there is one."""
    got = counts(puzzle)
    assert len(got) >= 2 and len(set(got.values())) == 1, got
    total = next(iter(got.values()))
    for name in accepting(puzzle, "first"):
        res, verified = solving.solve_verified(solving.get(name), puzzle, "first", LIMIT)
        if total:
            assert res.status != solving.Status.UNSAT, name
            if res.status == solving.Status.SOLVED:
                assert verified is True, name
        else:
            assert res.status != solving.Status.SOLVED, name
    return got


def count_with(name: str, puzzle, **options) -> int:
    """One solver's complete count of ``puzzle`` (the count must have finished)."""
    r = solving.get(name, options).solve(puzzle, mode="count")
    assert r.status.answered, r.status
    return r.count
