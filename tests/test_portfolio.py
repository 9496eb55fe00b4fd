"""`portfolio` (``solving.portfolio``): members, the one that answered, crashes and hangs, progress."""

import time
from pathlib import Path

import pytest
from helpers.boards import count
from helpers.plugin import install

import solving
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.make import generate
from solving import Limits, Status, solve_verified
from solving.portfolio import parse_members

HELPERS = Path(__file__).parent / "helpers"


def test_portfolio_records_the_member_that_answered():
    p = generate.edge_puzzle(5, 5, 2, 4, 11)[0]
    res, ok = solve_verified(
        solving.get("portfolio", {"members": "edge-backtrack:order=spiral;sat"}), p, "first", Limits(time_s=60)
    )
    assert res.status == Status.SOLVED and ok
    assert res.stats["member"] in ("edge-backtrack:order=spiral", "sat")
    assert res.message == f"answered by {res.stats['member']}"
    res, _ = solve_verified(solving.get("portfolio", {"jobs": 3}), p, "count", Limits(time_s=60))
    assert res.count == count("edge-backtrack", p)[1]
    assert len(res.stats["members"]) == 3


@pytest.mark.timing
def test_portfolio_outlives_a_crashing_member_and_kills_a_hanging_one(tmp_path, monkeypatch):
    install(tmp_path, {"hang": "doubles:Hang", "crash": "doubles:Crash"}, monkeypatch, [HELPERS])
    p = generate.edge_puzzle(4, 4, 2, 3, 2)[0]
    t = time.monotonic()
    res, ok = solve_verified(
        solving.get("portfolio", {"members": "hang;crash;edge-backtrack"}), p, "first", Limits(time_s=60)
    )
    assert res.status == Status.SOLVED and ok and res.stats["member"] == "edge-backtrack"
    assert time.monotonic() - t < 20
    res, _ = solve_verified(solving.get("portfolio", {"members": "crash"}), p, "first", Limits(time_s=10))
    assert res.status == Status.ERROR and "boom" in res.message
    res, _ = solve_verified(solving.get("portfolio", {"members": "hang"}), p, "first", Limits(time_s=1))
    assert res.status == Status.LIMIT


@pytest.mark.parametrize(
    "spec, err",
    [
        ("nosuch", "unknown solver|no solver"),
        ("portfolio", "its own member"),
        ("edge-backtrack:order", "expected KEY=VALUE"),
        ("cube:jobs=0", "jobs"),
        ("", "no members"),
    ],
)
def test_portfolio_refuses_bad_members(spec, err):
    p = generate.edge_puzzle(3, 3, 2, 2, 1)[0]
    with pytest.raises((UsageError, ValueError), match=err):
        solving.get("portfolio", {"members": spec}).check(p, "first")


def test_member_specs_parse():
    assert parse_members("a:x=1,y=two; b") == [("a", {"x": "1", "y": "two"}), ("b", {})]


def test_portfolio_reports_its_members_depth_and_progress(tmp_path):
    """A polyform portfolio that ends at its limit: how deep each member got (and the deepest),
    and each member's progress lines, marked with its label."""
    from solving.progress import LogLines

    log = tmp_path / "progress.txt"
    with open(log, "a") as stream:
        res, _ = solve_verified(
            solving.get("portfolio", {"members": "backtrack:engine=poly;backtrack:engine=poly,sweep=270"}),
            catalog.load("eternity1-pram"),
            "first",
            Limits(time_s=3),
            LogLines("pf", every=0.5, stream=stream),
        )
    assert res.status == Status.LIMIT
    deep = res.stats["member_deepest"]
    assert set(deep) == {"backtrack:engine=poly", "backtrack:engine=poly,sweep=270"}
    assert all(d > 20 for d in deep.values()) and res.stats["deepest"] == max(deep.values())
    text = log.read_text()
    assert "member backtrack:engine=poly " in text and "member backtrack:engine=poly,sweep=270" in text
