"""Eternity's parities (experiments.studies.parity): Pegg's counts, the identity that leaves two bits,
the invariant on tilings (every region a search cuts matches the pieces that cut it), and a mismatch."""

from __future__ import annotations

import random

import pytest

from baseline.xcc.backtrack import random_prefix
from experiments.studies import parity as P
from puzzles import catalog
from puzzles.estimates.tilability import sample_region_first


@pytest.fixture(scope="module")
def eternity():
    return catalog.load("eternity1")


def test_peggs_balanced_counts_and_the_identity(eternity):
    t = P.piece_table([P.balances(pc.cells) for pc in eternity.pieces])
    assert sorted(t["balanced"].values()) == [51, 89, 116]
    assert t["bit sum even on every piece"]
    assert dict(t["vectors"])[(0, 0, 0)] == 25


def test_a_turn_or_a_mirror_changes_only_the_signs(eternity):
    from puzzles.kinds.grids import get_grid

    g = get_grid("drafter")
    for pc in eternity.pieces[:20]:
        m, t, b = P.balances(pc.cells)
        assert P.balances([g.rotate(c) for c in pc.cells]) == (m, -t, -b)
        assert P.balances([g.mirror(c) for c in pc.cells]) == (-m, -t, b)


def test_every_region_a_search_cuts_matches_its_pieces_and_a_swap_can_break_it(eternity):
    rng = random.Random(5)
    vec = [P.balances(pc.cells) for pc in eternity.pieces]
    broke = 0
    for _ in range(6):
        region, cut = sample_region_first(eternity, 5, rng, random_prefix)
        r = P.balances(region)
        assert P.passes(r, (vec[i] for i in cut))
        other = next(i for i in range(len(vec)) if i not in cut and P.bits(vec[i])[:2] != P.bits(vec[cut[0]])[:2])
        broke += not P.passes(r, [vec[other]] + [vec[i] for i in cut[1:]])
    assert broke == 6


def test_the_built_in_puzzles_pass_and_a_random_set_matches_about_a_quarter(eternity):
    for name in ("eternity1", "eternity1-tortoise", "eternity1-boat"):
        q = catalog.load(name)
        assert P.passes(P.balances(q.region), (P.balances(pc.cells) for pc in q.pieces))
    vec = [P.balances(pc.cells) for pc in eternity.pieces]
    share = P.subset_pass_fraction((0, 0, 0), vec, 24, 4000, seed=1)
    assert 0.2 < share < 0.3


def test_a_region_of_an_odd_number_of_drafters_is_refused():
    with pytest.raises(ValueError):
        P.bits((1, 0, 0))
