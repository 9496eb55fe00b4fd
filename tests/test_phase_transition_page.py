"""docs/results/phase-transition.md: the critical point it quotes is the command's; the estimate's accuracy is a
dated one-off of the named script."""

from __future__ import annotations

import re

from helpers.run_tables import page, printed

PAGE = page("phase-transition.md")


def test_the_critical_point_is_the_commands():
    point = re.search(r"critical at ([\d.]+) inner colours", printed("estimate", "--critical", "8x8:3")).group(1)
    assert f"`eternity estimate --critical 8x8:3`: about {point})" in PAGE


def test_the_estimates_accuracy_is_dated():
    assert "a one-off of 2026-11-25, not stored as a run" in PAGE
