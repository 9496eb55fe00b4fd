"""Hint pieces: a hinted puzzle has exactly the solutions of the whole that agree with its hints."""

import pytest

import solving
from eternity.cli import main
from puzzles.kinds.partition import hexagon_region, region_puzzle
from puzzles.make.hints import hinted


@pytest.fixture(scope="module")
def small():
    return region_puzzle("drafter", hexagon_region(2), 4, 1)  # 12 tetradrafters, 502,848 tilings


def _tilings(p):
    r = solving.get("backtrack").solve(p, mode="all")
    return [frozenset(frozenset(pl.cells) for pl in sol) for sol in r.solutions]


def test_a_hinted_puzzle_keeps_the_solutions_that_agree_with_its_hints(small):
    p, planted = small
    q, hints, rest = hinted(p, planted, 7, seed=3)
    assert len(q.pieces) == 5 and len(q.region) == len(p.region) - 7 * 4 * 3
    got = _tilings(q)
    assert frozenset(frozenset(pl.cells) for pl in rest) in got  # the planted solution, less the hints
    # every tiling of the hinted region, with the hints put back, is a tiling of the whole
    whole = {c for c in p.region}
    for t in got:
        cells = [c for part in t for c in part] + [c for h in hints for c in h.cells]
        assert sorted(cells) == sorted(whole)


def test_hints_cut_the_count(small):
    p, planted = small
    counts = [solving.get("backtrack").solve(hinted(p, planted, k, 0)[0], mode="count").count for k in (0, 2, 4)]
    assert counts[0] == 502_848 and counts[0] > counts[1] > counts[2] >= 1


def test_the_generator_writes_the_hinted_puzzle(tmp_path, capsys):
    out, sol = tmp_path / "h.json", tmp_path / "h.sol.json"
    assert main(["generate", "polyform", "--grid", "drafter", "--region", "hexagon:2", "--size", "4", "--seed", "1",
                 "--hints", "3", "-o", str(out), "--planted", str(sol)]) == 0  # fmt: skip
    assert main(["verify", str(out), str(sol)]) == 0
    bad = tmp_path / "bad.json"
    assert main(["generate", "polyform", "--grid", "drafter", "--region", "hexagon:2", "--size", "4",
                 "--hints", "99", "-o", str(bad)]) == 2  # fmt: skip
    assert not bad.exists()


def test_eternity_with_six_random_hint_pieces():
    from puzzles import catalog

    p = catalog.load("eternity1-hints6-s2")
    assert len(p.pieces) == 203 and len(p.region) == (2508 - 6 * 12) * 3
    assert p.exact and p.name == "eternity1-hints6-s2"
    assert catalog.load("eternity1-hints6-s2") is p  # built once
    q = catalog.load("eternity1-hints6-s3")
    assert {pc.name for pc in p.pieces} != {pc.name for pc in q.pieces}
    # its first draw cut off a pocket of one drafter; the draw kept leaves no part the pieces cannot fill
    assert all(n % 36 == 0 for n in q.grid.component_sizes(set(q.region)))
