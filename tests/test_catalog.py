"""Built-in puzzles: the real data loads and every shipped solution verifies."""

import pytest

from puzzles import catalog
from puzzles.verify import verify


def test_eternity2_summary():
    s = catalog.load("eternity2").summary()
    assert (s["pieces"], s["corners"], s["edges"], s["inner"]) == (256, 4, 56, 196)
    assert (s["frame_colors"], s["inner_colors"]) == (5, 17)
    assert s["fixed"] == [{"cell": "I8", "piece": 139, "rotation": 3}]
    assert len(catalog.load("eternity2-hints").fixed) == 5


def test_eternity2_hints_show_the_published_edges():
    p = catalog.load("eternity2-hints")
    shown = {p.cell_name(f.cell): p.placed(f.piece, f.rotation) for f in p.fixed}
    assert shown["I8"] == (14, 8, 8, 9)
    assert shown["N14"] == (17, 13, 11, 18)


def test_every_known_solution_verifies():
    checked = 0
    for name in catalog.names():
        sol = catalog.known_solution(name)
        if sol is None:
            continue
        rep = verify(catalog.load(name), sol)
        assert rep.valid, (name, rep.problems[:3])
        assert rep.score == rep.max_score
        checked += 1
    brendan = [n for n in catalog.names() if n.startswith("brendan-")]
    assert len(brendan) == 171
    assert checked == 171 + 4 + 1 + 2  # Brendan set 1, the clues, owen-a, officers-10 and -10-diagonal (data/classics)


def test_brendan_names_are_width_by_height():
    p = catalog.load("brendan-7x3")
    assert (p.cols, p.rows) == (7, 3)
    assert catalog.load("brendan-07x03").pieces.tolist() == p.pieces.tolist()


@pytest.mark.parametrize("name,cells", [("meta-10x10", 100), ("meta-16x16", 256), ("eternity2-clue2", 72)])
def test_sizes(name, cells):
    p = catalog.load(name)
    assert p.n_cells == cells == p.n_pieces


def test_meta_colour_split():
    s = catalog.load("meta-10x10").summary()
    assert (s["frame_colors"], s["inner_colors"]) == (4, 10)
