"""Closed tape languages (encoders/tape_language.py): the Busy Beaver's last three-card machines decided,
each certificate checked, and no machine that stops ever given one."""

import json

import numpy as np
import pytest

from baseline.games import beaver
from encoders import tape_language as tl

# the three-card machines (by number, beaver._decode) that cycle, translation, backward reasoning, n-grams and
# repeated words leave undecided: binary counters
COUNTERS = json.loads(
    "[1532105, 1532121, 1532137, 1532153, 3490507, 3490523, 3490539, 3490555, 5490980, 5490984, 5495076, 5495080, "
    "5499172, 5499176, 5503268, 5503272, 7457542, 7457546, 7461638, 7461642, 7465734, 7465738, 7469830, 7469834, "
    "8534471, 8534487, 8534503, 8534519, 8569721, 8573817, 8577913, 8582009, 10492869, 10492885, 10492901, 10492917, "
    "10535259, 10539355, 10543451, 10547547, 12673175, 12796597, 12948260, 12948264, 13086982, 13086986, 13721751, "
    "13845173, 13996836, 13996840, 14135558, 14135562, 14770327, 14893749, 15045412, 15045416, 15184134, 15184138, "
    "15818903, 15942325, 16093988, 16093992, 16232710, 16232714]"
)
SMALL = tuple(s for s in tl.SIZES if sum(s) <= 4)


def _machine(m: int, n: int = 3) -> np.ndarray:
    tr = np.zeros((n, 2, 3), np.int64)
    beaver._decode(m, n, tr)
    return tr


def test_every_counter_left_undecided_has_a_checked_language():
    assert len(COUNTERS) == 64
    for m in COUNTERS:
        tr = _machine(m)
        assert beaver.run_machine(beaver._cards(tr), 1000)["outcome"] == "undecided", m
        lang = tl.find(tr)
        assert lang is not None and tl.check(tr, lang), m
        assert tl.check(tr, tl.TapeLanguage.from_json(json.loads(json.dumps(lang.as_json())))), m


def test_a_counter_runs_on_and_its_tape_grows_slowly():
    tr = _machine(COUNTERS[0])
    r = beaver.run_machine(beaver._cards(tr), 200_000)
    assert r["outcome"] == "undecided" and r["ones"] < 40


def test_the_check_rejects_broken_certificates():
    tr = _machine(COUNTERS[4])
    lang = tl.find(tr)
    assert lang is not None and tl.check(tr, lang)
    m = len(lang.right[0])
    everything = frozenset(range(m))
    # nothing accepted: the first configuration is not in the language
    assert not tl.check(tr, tl.TapeLanguage(lang.delta, lang.head, lang.right, frozenset(), lang.mirrored))
    # the head of a stop entry sent everywhere: a stopping configuration is accepted
    t = tl.mirror(tr) if lang.mirrored else tr
    f, b = next((f, b) for f in range(3) for b in (0, 1) if t[f, b, 2] == 3)
    head = [[list(hb) for hb in hf] for hf in lang.head]
    head[f][b] = [everything] * len(lang.delta)
    broken = tl.TapeLanguage(lang.delta, tuple(tuple(tuple(hb) for hb in hf) for hf in head), lang.right, lang.accept)
    assert not tl.check(tr, tl.TapeLanguage(broken.delta, broken.head, broken.right, broken.accept, lang.mirrored))
    # the language of one machine does not close another that stops (the chapter's 21-step champion)
    champion = beaver._table(beaver.EXAMPLES["performs the most operations"])
    assert not tl.check(champion, lang)


def test_no_machine_that_stops_gets_a_language():
    """Every third two-card machine that stops, and every 4,999th three-card one (a prime stride: the
    numbering's digits are the cards' entries), with the small automata: none is given a language (a wrong
    clause would show here as a false 'never stops').  The slow run takes every two-card machine."""
    _no_stopping_machine_gets_a_language(((2, 3), (3, 4999)), 1000)


@pytest.mark.slow
def test_no_machine_that_stops_gets_a_language_two_cards_all():
    _no_stopping_machine_gets_a_language(((2, 1), (3, 997)), 3000)


def _no_stopping_machine_gets_a_language(strides, least: int) -> None:
    for n, stride in strides:
        tested = 0
        for m in range(0, beaver.machines(n), stride):
            tr = _machine(m, n)
            if beaver.run_machine(beaver._cards(tr), 200)["outcome"] != "halts":
                continue
            tested += 1
            assert tl.find(tr, SMALL) is None, (n, m)
        assert tested > least
    for cards in beaver.EXAMPLES.values():
        if beaver.run_machine(cards, 200)["outcome"] == "halts":
            assert tl.find(beaver._table(cards), tuple(s for s in tl.SIZES if sum(s) <= 6)) is None


@pytest.mark.slow
def test_three_cards_are_all_decided():
    r = beaver.survey(3, decide=tl.find)
    assert r["decided"] and r["outcomes"]["closed tape language"] == 64 and len(r["certificates"]) == 64
    assert (r["max_ones"]["value"], r["max_steps"]["value"]) == (6, 21)
