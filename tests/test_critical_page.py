"""docs/results/critical.md: each console block that shows a command and its output is that command's
output, line for line (the page may leave lines out; the seconds a machine takes are masked), and the
prose figures are the blocks'. Blocks whose command has a time limit depend on the machine: the page
dates them as one-offs, and they are not run here."""

from __future__ import annotations

import math
import re
import shlex

import pytest
from helpers.run_tables import ROOT, printed, words

RAW = (ROOT / "docs" / "results" / "critical.md").read_text()
PAGE = words(RAW)
BLOCK = re.compile(r"```text\n\$ (eternity [^\n]+)\n(.*?)```", re.S)
BLOCKS = [(c, out) for c, out in BLOCK.findall(RAW) if "--time-limit" not in c]
# what a machine's speed sets: the seconds probes took, the engine's measured speed
MACHINE = (re.compile(r"in [\d.]+ s \("), re.compile(r"[\d,]+ nodes/s"))


def _mask(line: str) -> str:
    for m in MACHINE:
        line = m.sub("#", line)
    return line.rstrip()


def _output(command: str) -> list[str]:
    return [_mask(ln) for ln in printed(*shlex.split(command)[1:]).splitlines()]


def test_the_page_shows_blocks_of_both_kinds_and_dates_the_machines():
    assert len(BLOCKS) >= 2
    timed = [m for m in BLOCK.finditer(RAW) if "--time-limit" in m.group(1)]
    assert timed
    for m in timed:  # the paragraph before a time-limited block says it is a dated one-off
        before = RAW[: m.start()].rsplit("\n\n", 2)[-2]
        assert re.search(r"one-off of \d{4}-\d{2}-\d{2}", before), m.group(1)


@pytest.mark.slow
@pytest.mark.parametrize("command", [c for c, _ in BLOCKS])
def test_a_block_is_its_commands_output(command):
    shown = [_mask(ln) for ln in dict(BLOCKS)[command].splitlines() if ln.strip()]
    printed = _output(command)
    at = 0
    for line in shown:  # in the order printed, lines left out allowed
        assert line in printed[at:], (line, printed)
        at = printed.index(line, at) + 1


def test_the_prose_figures_are_the_blocks():
    counts = {"6x10": 9356, "5x12": 4040, "4x15": 1472, "3x20": 8}
    mean = sum(counts.values()) / 4
    assert f"their mean is {mean:,.0f} (10^{math.log10(mean):.2f})" in PAGE
    assert "9,356 (6x10, 10^3.97), 4,040 (5x12, 10^3.61), 1,472 (4x15, 10^3.17) and 8 (3x20)" in PAGE
    assert all(f"{n:,} ({b}, 10^{math.log10(n):.2f})" in PAGE for b, n in counts.items() if n > 8)
    pent = dict(BLOCKS)["eternity estimate --critical pentomino-6x10 --sizes 3,5,7,9,11 --regions 6"]
    c, lo, hi = re.search(r"c = ([\d.]+) pieces \(90%: ([\d.]+) to ([\d.]+)\)", pent).groups()
    s, slo, shi = re.search(r"10\^([\d.]+) solutions \(90%: 10\^([\d.]+) to 10\^([\d.]+)\)", pent).groups()
    assert f"The prediction for all twelve, 10^{s} (10^{slo} to 10^{shi})" in PAGE
    assert f"c = {c} pieces (90%: {lo} to {hi})" in pent
    estimate = dict(BLOCKS)["eternity estimate pentomino-6x10"]
    assert re.search(r"solutions\s+9446 ", estimate) and "The exact count is 9,356." in PAGE
