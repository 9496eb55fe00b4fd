"""The Eternity II records page: each of the workbench's boards it shows is a committed solution file whose
score the independent verifier gives, with the command, the machine and the time beside it on the page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eternity.cli import main

ROOT = Path(__file__).resolve().parent.parent
BOARDS = sorted((ROOT / "docs" / "runs" / "boards").glob("*.sol.json"))
PAGE = (ROOT / "docs" / "results" / "eternity2.md").read_text()


def _record(board: Path) -> dict:
    return json.loads(board.with_name(board.name.replace(".sol.json", ".json")).read_text())


def test_there_are_boards_and_each_has_its_record():
    assert BOARDS
    for b in BOARDS:
        rec = _record(b)
        assert {"puzzle", "score", "command", "machine", "hours"} <= set(rec), b.name


@pytest.mark.parametrize("board", BOARDS, ids=[b.name for b in BOARDS])
def test_each_board_scores_what_the_page_says_by_the_verifier(board, capsys):
    rec = _record(board)
    assert main(["verify", rec["puzzle"], str(board), "--score", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["legal"] and rep["complete"] and rep["score"] == rec["score"]
    row = f"| `{rec['puzzle']}` | {rec['score']} | {rec['hours']:g} h | {rec['machine']} | `{rec['command']}` |"
    assert row in PAGE, row
    assert f"docs/runs/boards/{board.name}" in PAGE
