"""docs/results/seed000.md: the tally is the table's, every command it names exists with the options it gives,
every file it names is in the repository, and the figures its verdicts quote are the commands' output."""

from __future__ import annotations

import math
import re
import shlex
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from helpers.run_tables import copied, printed

from eternity.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGE = (ROOT / "docs" / "results" / "seed000.md").read_text()
VERDICTS = ("reproduced", "corrected", "partly", "out of reach", "not tested", "history")
ROWS = [[c.strip() for c in line.split("|")[1:-1]] for line in PAGE.splitlines() if re.match(r"\| \d+ \|", line)]


def _verdict(cell: str) -> str:
    return next(v for v in VERDICTS if cell.startswith(v))


def test_the_rows_are_numbered_and_each_has_one_verdict():
    assert [int(r[0]) for r in ROWS] == list(range(1, len(ROWS) + 1))
    assert all(len(r) == 4 and any(r[2].startswith(v) for v in VERDICTS) for r in ROWS)


def test_the_tally_is_the_tables():
    n = Counter(_verdict(r[2]) for r in ROWS)
    tally = re.search(r"\*\*Tally: (\d+) claims: ([^*]+)\.\*\*", PAGE)
    assert int(tally.group(1)) == len(ROWS)
    stated = {v: int(k) for k, v in re.findall(r"(\d+) ([a-z ]+?)(?:,|$)", tally.group(2))}
    assert stated == dict(n)
    rest = len(ROWS) - n["reproduced"] - n["history"]
    assert f"Of\nthe {rest} claims neither reproduced nor history, {rest - n['not tested']} have" in PAGE
    untested = sorted(int(r[0]) for r in ROWS if _verdict(r[2]) == "not tested")
    said = re.search(r"the (\d+) not tested are", PAGE)
    listed = sorted(int(x) for x in re.findall(r"\d+", PAGE.split(said.group(0))[1].split(".")[0]))
    assert f"the {len(untested)} not tested are" in PAGE and listed == untested
    assert len(untested) <= 15


def test_a_verdict_beyond_history_and_not_tested_names_its_support():
    for num, _, verdict, support in ROWS:
        v = _verdict(verdict)
        if v in ("reproduced", "corrected", "partly"):
            assert support, f"claim {num}: a {v} verdict with nothing to show it"
        if v == "out of reach":
            assert ":" in verdict, f"claim {num}: out of reach, and no reason"


def _subparsers(parser) -> dict:
    return next((a.choices for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"), {})


def test_every_command_named_exists_with_the_options_it_gives():
    commands = {cmd for r in ROWS for cmd in re.findall(r"`([^`]+)`", r[3])}
    subs = _subparsers(build_parser())
    seen = 0
    for cmd in commands:
        words = shlex.split(cmd)
        if words[0] == "eternity":
            assert words[1] in subs, cmd
            parser, rest = subs[words[1]], words[2:]
            while rest and rest[0] in _subparsers(parser):  # a command of commands (generate edge|polyform)
                parser, rest = _subparsers(parser)[rest[0]], rest[1:]
            options = {s for a in parser._actions for s in a.option_strings}
            assert {w for w in words if w.startswith("--")} <= options, cmd
            seen += 1
        elif words[0] == "python" and words[1] != "-c":
            assert (ROOT / words[1]).is_file(), cmd
        for w in words:
            if w.startswith(("data/", "docs/")):
                assert (ROOT / w).exists(), cmd
    assert seen >= 25


def _row(num: int) -> str:
    return " ".join(ROWS[num - 1])


def test_the_crude_models_figures_are_the_commands():
    out = printed(*shlex.split("estimate --selby-t 0.03"))
    assert "c = 88" in out and "10^77.4 solutions" in out and "10^14.7 nodes" in out and "10^91.9 nodes" in out
    assert "c = 88" in _row(29) and "10^14.7" in _row(31) and "10^77.4" in _row(35) and "10^91.9" in _row(13)
    assert f"reproduced: {math.comb(90, 24):.1e}".replace("e+", " x 10^") in _row(60)  # the talk's "about 4 x 10^21"
    assert "4 x 10^21 subsets" in _row(66)


def test_the_landmarks_are_the_commands():
    out = printed("tilability", "show", "data/eternity1/tilability_weights_k12_first_1280.json")
    rank = {int(m.group(1)): int(m.group(2)) for m in re.finditer(r"^\s+(\d+)\s+(\d+) of 209", out, re.M)}
    assert rank[35] == 1 and rank[166] == 209
    assert sorted(rank[p] for p in (51, 52, 53, 54)) == [3, 7, 16, 17] and "3rd to 17th" in _row(76)
    assert sorted(rank[p] for p in (120, 124, 125)) == [26, 28, 41] and "26th to 41st" in _row(79)
    assert "split-half rank correlation 0.886" in out and "0.886" in _row(73)
    gaps = re.search(r"\((\d+\.\d) x the median gap.*\((\d+\.\d) x\)", out)
    assert f"{float(gaps.group(1)):.0f} times" in _row(75) and f"{float(gaps.group(2)):.0f} times" in _row(74)


def test_the_site_branchings_count_is_the_commands():
    out = printed(*shlex.split("solve pentomino-6x10 --solver backtrack --opt engine=poly --mode count"))
    assert "count 9356" in out and "(9,356)" in _row(14)


@pytest.mark.parametrize("num", [30])
def test_the_owen_rows_name_the_committed_run(num):
    assert "docs/runs/owen_counts.sqlite" in _row(num)


def test_the_sub_critical_counts_are_the_runs():
    with copied("atlas_count.sqlite") as db:
        con = sqlite3.connect(db)
        low, high = con.execute(
            "SELECT min(r.count), max(r.count) FROM results r JOIN instances i ON i.id = r.instance "
            "WHERE r.status = 'solved' AND r.mode = 'count' AND i.class = 'sub-critical'"
        ).fetchone()
        con.close()
    assert f"{low} to {high} labelled boards" in _row(36)
