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


def test_a_built_in_load_goes_catalog_to_builder_to_model_with_no_way_back():
    """Loading a built-in puzzle enters the catalog once and each file reader at most once per file it reads;
    no reader ever calls back into the catalog (the name is resolved by one table of patterns to builders)."""
    import sys

    from puzzles import catalog

    readers = ("puzzles.files.formats", "puzzles.files.file_input", "puzzles.files.piece_text")
    for name in ("eternity2", "owen-a", "eternity2-clue1", "brendan-6x6", "meta-10x10", "queens-8", "pentomino-6x10"):
        catalog._load.cache_clear()
        stack: list[str] = []
        back: list[str] = []
        entered: dict[str, int] = {}

        def prof(frame, event, arg, stack=stack, back=back, entered=entered):
            mod = frame.f_globals.get("__name__", "")
            if event == "call":
                if mod == "puzzles.catalog" and any(m in readers for m in stack):
                    back.append(frame.f_code.co_name)  # a reader below us on the stack called the catalog
                if (mod in readers or mod == "puzzles.catalog") and (not stack or stack[-1] != mod):
                    entered[mod] = entered.get(mod, 0) + 1
                stack.append(mod)
            elif event == "return" and stack:
                stack.pop()

        sys.setprofile(prof)
        try:
            catalog.load(name)
        finally:
            sys.setprofile(None)
        assert back == [], (name, back)
        assert "puzzles.files.formats" not in entered, (name, entered)  # a built-in never goes through the file reader
