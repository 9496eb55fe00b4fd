"""docs/results/tilability.md's figures on Eternity, held to the shipped fits they come from (each fit's
file records its states, tilings and split-half) and to `eternity tilability show`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from helpers.run_tables import printed

ROOT = Path(__file__).resolve().parent.parent
PAGE = " ".join((ROOT / "docs" / "results" / "tilability.md").read_text().split())
FITS = ROOT / "data" / "eternity1"


def _fit(name: str) -> dict:
    return json.loads((FITS / f"tilability_weights_{name}.json").read_text())


def test_the_full_board_fit_at_12_pieces():
    d = _fit("k12_first_1280")
    assert f"{d['states']:,} states" in PAGE and f"{d['solutions']:,} tilings" in PAGE
    assert f"split-half agreement **{d['split_half_rank_correlation']:.3f}**" in PAGE


def test_the_split_half_table_rows_of_the_shipped_fits():
    for name in ("k8_first_320", "k8_first_1280"):
        d = _fit(name)
        row = f"| {d['states']:,} | {d['solutions']:,} | {d['split_half_rank_correlation']:.3f} |"
        assert row in PAGE, row
    d8 = _fit("k8_first_1280")
    assert f"{d8['solutions']:,} tilings) the split-half is {d8['split_half_rank_correlation']:.3f}" in PAGE


def test_the_landmark_ranks_are_the_fits():
    out = printed("tilability", "show", str(FITS / "tilability_weights_k12_first_1280.json"))
    ranks = {int(p): int(r) for p, r in re.findall(r"^\s+(\d+)\s+(\d+) of 209", out, re.M)}
    assert ranks[35] == 1 and ranks[166] == 209
    behind = ", ".join(f"{ranks[p]}{'rd' if ranks[p] % 10 == 3 and ranks[p] != 13 else 'th'}" for p in (51, 52, 53, 54))
    assert f"51-54 just behind 35 ({behind})" in PAGE
