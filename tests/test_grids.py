"""Polyform grids, free polyform counts, Eternity (1999) data, region generators."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from eternity.cli import main
from puzzles import catalog
from puzzles.files import formats
from puzzles.forms.enumeration import count_free, free_polyforms, has_hole
from puzzles.kinds import eternity1
from puzzles.kinds.grids import GRIDS, get_grid
from puzzles.kinds.partition import has_30_degree_corner, hexagon_region, region_puzzle
from puzzles.verify import verify
from solving import Limits

SAMPLE = {
    "square": [(r, c) for r in range(-2, 3) for c in range(-2, 3)],
    "triangle": [(a, b, t) for a in range(-2, 3) for b in range(-2, 3) for t in (0, 1)],
    "hexagon": [(a, b) for a in range(-2, 3) for b in range(-2, 3)],
    "drafter": [(a, b, k) for a in range(-1, 2) for b in range(-1, 2) for k in range(12)],
}


def _close(p, q):
    return abs(p[0] - q[0]) < 1e-9 and abs(p[1] - q[1]) < 1e-9


@pytest.mark.parametrize("name", sorted(GRIDS))
def test_neighbours_share_an_edge_and_symmetries_keep_them(name):
    g = GRIDS[name]
    for c in SAMPLE[name]:
        poly = g.polygon(c)
        for i, nb in enumerate(g.neighbours(c)):
            back = g.neighbours(nb)
            assert c in back
            j = back.index(c)
            other = g.polygon(nb)
            assert _close(poly[i], other[(j + 1) % len(other)]) and _close(poly[(i + 1) % len(poly)], other[j])
        for t in g.transforms:
            assert {t(n) for n in g.neighbours(c)} == set(g.neighbours(t(c)))
    assert len(g.transforms) == (8 if name == "square" else 12)
    assert len({tuple(t(c) for c in SAMPLE[name][:6]) for t in g.transforms}) == len(g.transforms)


def test_drafter_units_are_half_triangles():
    g = get_grid("drafter")
    for c in SAMPLE["drafter"]:
        units = g.units(c)
        assert len(units) == 3 and all(c in u and len(u) == 3 for u in units)
        for u in units:
            assert abs(sum(g.area(x) for x in u) - 3**0.5 / 8) < 1e-12


@pytest.mark.parametrize(
    "name,counts",
    [
        ("square", [1, 1, 2, 5, 12, 35, 108]),
        ("triangle", [1, 1, 1, 3, 4, 12, 24]),
        ("hexagon", [1, 1, 3, 7, 22]),
        ("drafter", [1, 6, 14, 64, 237]),
    ],
)
def test_free_polyform_counts(name, counts):
    assert [count_free(GRIDS[name], n) for n in range(1, len(counts) + 1)] == counts


def test_the_heptomino_with_a_hole():
    forms = free_polyforms(GRIDS["square"], 7)
    assert sum(has_hole(GRIDS["square"], f) for f in forms) == 1


@pytest.mark.slow
def test_polydrafters_of_six_and_seven():
    # lattice count with holes / without holes (the latter is Cazenave's table)
    g = GRIDS["drafter"]
    for n, total, plain in ((6, 1025, 1014), (7, 4254, 4124)):
        forms = free_polyforms(g, n)
        assert (len(forms), len(forms) - sum(has_hole(g, f) for f in forms)) == (total, plain)


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(sorted(GRIDS)), st.integers(1, 6), st.integers(0, 10**6))
def test_canonical_form_ignores_placement(name, size, seed):
    g = GRIDS[name]
    rng = random.Random(seed)
    form = list(rng.choice(free_polyforms(g, min(size, 4))))
    t = rng.choice(g.transforms)
    moved = g.translate([t(c) for c in form], (rng.randint(-5, 5), rng.randint(-5, 5)))
    assert g.canonical(moved) == g.canonical(form)


def test_eternity1_pieces_and_board():
    tiles = eternity1.tiles()
    assert len(tiles) == 221 and all(len(c) == 36 for c in tiles.values())
    g = get_grid("drafter")
    assert len({g.canonical(tiles[i]) for i in range(1, 210)}) == 209
    assert not any(has_30_degree_corner(g, tiles[i]) for i in range(1, 222))
    sizes = {
        "eternity1": (209, 2508),
        "eternity1-boat": (21, 252),
        "eternity1-tortoise": (45, 540),
        "eternity1-pram": (64, 768),
        "eternity1-boomerang": (66, 792),
        "serenity": (8, 96),
    }
    for name, (pieces, drafters) in sizes.items():
        s = catalog.load(name).summary()
        assert (s["pieces"], s["region_drafters"], s["piece_area"] // 3) == (pieces, drafters, drafters), name


def test_boundary_word_errors():
    with pytest.raises(ValueError, match="close"):
        eternity1.walk("AAE")
    with pytest.raises(ValueError, match="letter"):
        eternity1.walk("AXZ")


def test_info_eternity1_json(capsys):
    assert main(["info", "eternity1", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["pieces"] == 209 and info["piece_drafters"] == [12] and info["region_drafters"] == 2508
    assert info["orientations"] == 12 and info["symmetric_pieces"] == {}


@pytest.mark.parametrize("name", ["serenity", "eternity1-boat"])
def test_small_eternity_regions_solved_and_rendered(name, tmp_path):
    p = catalog.load(name)
    res = solving.get("backtrack").solve(p, mode="first", limits=Limits(time_s=60))
    assert res.status == "solved"
    assert verify(p, res.solutions[0]).valid
    out = tmp_path / "s.svg"
    assert main(["render", name, "--pieces", "-o", str(out)]) == 0
    assert out.read_text().count("<text") == len(p.pieces)


def test_serenity_count():
    p = catalog.load("serenity")
    res = solving.get("backtrack").solve(p, mode="count", limits=Limits())
    assert res.count == 12  # one tiling, times the twelve symmetries of the dodecagon


def test_generated_region_with_excess_pieces(tmp_path):
    p, planted = region_puzzle("drafter", hexagon_region(2), 12, seed=5, excess=2)
    assert len(p.pieces) == 6 and p.piece_area == len(p.region) + 72
    assert verify(p, planted).valid
    counts = {
        name: solving.get(name).solve(p, mode="count", limits=Limits(time_s=60)).count
        for name in ("backtrack", "cpsat")
    }
    assert counts["backtrack"] == counts["cpsat"] >= 1
    f = tmp_path / "h.json"
    formats.write_puzzle(p, str(f))
    assert formats.read_puzzle(str(f)).canonical() == p.canonical()


def test_dudes_have_no_30_degree_corners():
    p, planted = region_puzzle("drafter", hexagon_region(3), 12, seed=2, dudes=True)
    g = get_grid("drafter")
    assert not any(has_30_degree_corner(g, pc.cells) for pc in p.pieces)
    assert verify(p, planted).valid


def test_generate_and_enumerate_cli(tmp_path, capsys):
    out, sol = tmp_path / "p.json", tmp_path / "s.json"
    assert (
        main(
            "generate polyform --grid drafter --region hexagon:2 --seed 1 -o".split()
            + [str(out), "--planted", str(sol)]
        )
        == 0
    )
    assert main(["verify", str(out), str(sol)]) == 0
    assert main(["generate", "polyform", "--region", "hexagon:x", "-o", str(tmp_path / "x.json")]) == 2
    assert (
        main(["generate", "polyform", "--grid", "triangle", "--region", "serenity", "-o", str(tmp_path / "x.json")])
        == 2
    )
    assert not (tmp_path / "x.json").exists()
    capsys.readouterr()
    assert main(["enumerate", "drafter", "--size", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["free"] == 64
    assert main(["enumerate", "cube", "--size", "3"]) == 2


def test_bad_drafter_cell_is_a_clear_error(tmp_path, capsys):
    f = tmp_path / "bad.json"
    f.write_text(
        json.dumps(
            {
                "format": "eternity/polyform",
                "version": 1,
                "grid": "drafter",
                "region": {"cells": [[0, 0, 12]]},
                "pieces": [{"name": "a", "cells": [[0, 0, 1]]}],
            }
        )
    )
    assert main(["info", str(f)]) == 2
    err = capsys.readouterr().err
    assert "region.cells" in err and "0 to 11" in err


@pytest.mark.parametrize(
    "grid,region,pieces",
    [
        ("triangle", [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1]], [[[0, 0, 0], [0, 0, 1]], [[0, 0, 0], [0, 0, 1]]]),
        ("hexagon", [[0, 0], [1, 0], [0, 1], [1, 1]], [[[0, 0], [1, 0]], [[0, 0], [1, 0]]]),
    ],
)
def test_other_grids_solve_count_and_render(grid, region, pieces, tmp_path):
    f = tmp_path / "p.json"
    f.write_text(
        json.dumps(
            {
                "format": "eternity/polyform",
                "version": 1,
                "grid": grid,
                "region": {"cells": region},
                "pieces": [{"name": f"p{i}", "cells": c} for i, c in enumerate(pieces)],
            }
        )
    )
    p = formats.read_puzzle(str(f))
    res = solving.get("backtrack").solve(p, mode="all", limits=Limits())
    assert res.count >= 1 and all(verify(p, s).valid for s in res.solutions)
    assert res.count == solving.get("cpsat").solve(p, mode="count", limits=Limits(time_s=30)).count
    svg = tmp_path / "s.svg"
    assert main(["solve", str(f), "--svg", str(svg)]) == 0
    assert svg.read_text().count("<polygon") == len(region)


def test_placements_when_the_region_lacks_a_cell_kind():
    """A region holding only some of the drafter grid's cell kinds: orientations with the others
    fit nowhere (this raised IndexError in the placement finder)."""
    from puzzles.kinds.polyform import PolyformPuzzle, PolyPiece

    p, _ = region_puzzle("drafter", hexagon_region(2), 4, seed=3)
    grid = get_grid("drafter")
    for piece in p.pieces:
        for shape in grid.orientations(piece.cells, True):
            if max(c[2] for c in shape) < 11:
                one = PolyformPuzzle("drafter", list(shape), [PolyPiece("A", piece.cells)])
                got = one.placements()
                assert tuple(sorted(shape)) in {tuple(sorted(pl.cells)) for pl in got}
                assert all(max(c[2] for c in pl.cells) < 11 for pl in got)
                return
    pytest.skip("no orientation without the last cell kind")


def _placements_by_hand(p):
    """Every placement the plain way (each orientation translated to each anchor, cell tuples):
    the reference the integer placement table must equal, in content and order."""
    grid = p.grid
    region = set(map(tuple, p.region))
    out = []
    for i, piece in enumerate(p.pieces):
        spots = []
        for shape in grid.orientations(piece.cells, p.mirror):
            for off in grid.anchors(shape, region):
                cells = grid.translate(shape, off)
                if all(c in region for c in cells):
                    spots.append(cells)
        for k in range(piece.count):
            out.extend((i, k, cells) for cells in spots)
    return out


@settings(max_examples=25, deadline=None)
@given(grid=st.sampled_from(sorted(GRIDS)), seed=st.integers(0, 10_000), mirror=st.booleans())
def test_the_placement_table_is_the_plain_construction(grid, seed, mirror):
    """Random regions of every grid, pieces of mixed sizes, some in two copies: the placement
    table (integers, decoded on access) and the XCC built from it hold exactly the plain
    construction's placements, in its order; ``take`` keeps a table."""
    from puzzles.kinds.polyform import PlacementTable, PolyformPuzzle, PolyPiece

    rng = random.Random(seed)
    g = get_grid(grid)
    cells = SAMPLE[grid]
    region = rng.sample(cells, rng.randrange(len(cells) // 2, len(cells) + 1))
    pieces = []
    for j in range(rng.randrange(1, 4)):
        shape = [rng.choice(cells)]
        for _ in range(rng.randrange(0, 4)):
            nb = [c for c in g.neighbours(rng.choice(shape)) if c not in shape]
            if nb:
                shape.append(rng.choice(nb))
        pieces.append(PolyPiece(f"P{j}", tuple(shape), rng.choice([1, 1, 2])))
    p = PolyformPuzzle(grid, region, pieces, mirror)
    want = _placements_by_hand(p)
    table = p.placements()
    assert isinstance(table, PlacementTable)
    assert [tuple(pl) for pl in table] == want
    x = p.to_xcc()
    names = [n for _, _, n in p.copy_names()]
    for k, (i, c, cl) in enumerate(want):
        items = [x.item_names[j] for j in x.opt_items[x.opt_ptr[k] : x.opt_ptr[k + 1]]]
        assert items == [names[sum(pc.count for pc in pieces[:i]) + c]] + [p.cell_item(q) for q in cl]
    if len(want) > 1:
        rows = [len(want) - 1, 0]
        assert [tuple(pl) for pl in x.reorder(__import__("numpy").array(rows + list(range(1, len(want) - 1)))).decode][
            :2
        ] == [want[-1], want[0]]
        assert [tuple(pl) for pl in table[1:]] == want[1:]
