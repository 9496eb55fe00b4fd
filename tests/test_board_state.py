"""Seed 004's compact board state: its figures held to the arithmetic done by hand here, its packing read back
on random boards, and the seed's "4 tiles every 11 bytes" named as the error it is (4 x 18 bits = 9 bytes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from eternity.cli import main
from experiments.studies.board_state import layout, pack, unpack

SEED = next(iter(sorted((Path(__file__).resolve().parents[2] / "shared" / "seeds").glob("004_*.txt"))), None)


def test_the_layout_of_eternity_ii_is_the_seeds_arithmetic_done_right():
    lay = layout(16, 16, 256)
    assert lay["fields"] == {"id": 8, "x": 4, "y": 4, "orientation": 2} and lay["tile_bits"] == 8 + 4 + 4 + 2
    assert lay["tile_bits_in_degrees"] == 8 + 4 + 4 + 9  # "3 bytes and 1 bit"
    assert (lay["record_bytes"], lay["record_waste_bits"], lay["record_waste_share"]) == (3, 6, 0.25)
    assert (lay["group_tiles"], lay["group_bytes"]) == (4, 9)  # 72 bits, not the seed's 11 bytes
    assert lay["board_bytes_packed"] == 256 * 18 // 8 == 576 and lay["board_bytes_records"] == 768
    assert lay["beam_bits_per_tile"] == 10 and lay["beam_board_bytes"] == 320


@pytest.mark.skipif(SEED is None, reason="the seeds (../shared/seeds) are not beside the checkout")
def test_the_seed_says_11_bytes_where_its_own_fields_make_9():
    assert SEED is not None
    text = SEED.read_text()
    assert "4 tiles every 11 bytes" in text and "2 bytes and 2 bits" in text


@pytest.mark.parametrize("rows, cols, n", [(16, 16, 256), (4, 4, 16), (3, 5, 17), (1, 7, 7)])
def test_the_seeds_packing_reads_back_every_board(rows, cols, n):
    rng = random.Random(rows * 100 + cols)
    for _ in range(20):
        cells = rng.sample(range(rows * cols), rng.randint(0, rows * cols))
        board = [(c, rng.randrange(n), rng.randrange(4)) for c in cells]
        data = pack(board, rows, cols, n)
        assert len(data) == (len(board) * layout(rows, cols, n)["tile_bits"] + 7) // 8
        assert unpack(data, len(board), rows, cols, n) == board


def test_the_command_prints_the_figures_and_names_the_error(capsys):
    assert main(["board-state", "eternity2"]) == 0
    out = capsys.readouterr().out
    assert "18 bits a tile" in out and "6 bits wasted (25%)" in out and "9 bytes, not 11" in out
    assert "10 bits a tile" in out and out.count("read back whole") == 2


def test_the_eternity_ii_page_shows_what_the_command_prints():
    from helpers.run_tables import printed

    page = (Path(__file__).resolve().parent.parent / "docs" / "results" / "eternity2.md").read_text()
    block = page.split("back by the command (`eternity board-state eternity2`):\n\n```text\n", 1)[1].split("```")[0]
    assert block == printed("board-state", "eternity2")
