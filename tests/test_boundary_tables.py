"""Selby's boundary tables (``baseline/poly/boundary.py``) against a brute force, and in the beam."""

from __future__ import annotations

import numpy as np
import pytest

import solving
from baseline.beam.solver import Beam
from baseline.beam.xcc import XCCBeamRun, _children
from baseline.poly import boundary
from baseline.poly.engine import _place
from baseline.runtime.kernel import DONE, SOLUTION
from baseline.xcc.searches import PolySearch, make_search
from puzzles import catalog
from puzzles.xcc import XCCBuilder
from solving import Limits


def _window_placements(puzzle, window, n_core):
    """The window cells of every placement of every piece covering a core cell, each set once."""
    grid = puzzle.grid
    inside = set(window)
    out = set()
    for pc in puzzle.pieces:
        for shape in grid.orientations(pc.cells, puzzle.mirror):
            for target in window[:n_core]:
                for anchor in shape:
                    if anchor[2:] == target[2:]:
                        cells = grid.translate(shape, (target[0] - anchor[0], target[1] - anchor[1]))
                        out.add(frozenset(c for c in cells if c in inside))
    return out


def _brute(window, n_core, placements, free):
    """Whether the free core cells of ``window`` (cells whose pattern bit is set in ``free``) can be covered
    by disjoint placements lying on free window cells (cells beyond the window free): dancing links on an
    XCC whose primary items are those core cells, every other free window cell secondary."""
    free_cells = {c for b, c in enumerate(window) if (free >> b) & 1}
    core = [window[q] for q in range(n_core) if (free >> q) & 1]
    if not core:
        return True
    xb = XCCBuilder()
    for c in core:
        xb.add_primary(str(c))
    for c in free_cells - set(core):
        xb.add_secondary(str(c))
    for on in placements:
        if on <= free_cells and on & set(core):
            xb.add_option([str(c) for c in sorted(on)], None)
    search = make_search(xb.build())
    code = search.step(10_000_000, True)
    assert code in (SOLUTION, DONE)
    return code == SOLUTION


@pytest.mark.parametrize(
    ("name", "n_win", "n_core", "samples"), [("pentomino-6x10", 9, 3, 0), ("eternity1-boat", 12, 4, 300)]
)
def test_tables_agree_with_a_brute_force_on_small_windows(name, n_win, n_core, samples):
    """Every pattern of the pentominoes' 9-cell window, and 300 random patterns of each of the 12 drafter
    kinds' 12-cell windows for the boat's pieces, read the same in the tables as by dancing links."""
    p = catalog.load(name)
    bt = boundary.build(p, [], n_win, n_core)
    windows = boundary.kinds_and_windows(p, n_win)
    rng = np.random.default_rng(5)
    told = {True: 0, False: 0}
    for t, (_, _, window) in enumerate(windows):
        placements = _window_placements(p, window, n_core)
        patterns = range(1 << n_win) if samples == 0 else rng.integers(0, 1 << n_win, samples)
        for f in patterns:
            f = int(f)
            bit = bool((int(bt.tab[t, f >> 6]) >> (f & 63)) & 1)
            assert bit == _brute(window, n_core, placements, f), (t, bin(f))
            told[bit] += 1
    assert told[True] > 0 and told[False] > 0


def test_a_site_reads_its_window_translated_to_it():
    """A site's window is its kind's window moved onto it, a cell outside the region read as -1."""
    p = catalog.load("pentomino-6x10")
    cells = sorted(map(tuple, p.region))
    bt = boundary.build(p, cells, 5, 1)
    ((_, centre, window),) = boundary.kinds_and_windows(p, 5)
    index = {c: s for s, c in enumerate(cells)}
    for s, (i, j) in enumerate(cells):
        want = [index.get((i + a - centre[0], j + b - centre[1]), -1) for a, b in window]
        assert bt.win[s].tolist() == want
    corner = index[min(cells)]
    assert (bt.win[corner] == -1).sum() == 2  # two of the corner's four neighbours lie outside


def test_the_beam_with_tables_drops_only_dead_children():
    """With the touch check off the tables reject children; each one they reject is exhausted by the poly
    engine without a tiling, and the beam still tiles the boat."""
    p = catalog.load("eternity1-boat")
    run_opts = {"width": 400, "touch": False, "tables": 16, "tables_core": 4}
    res = solving.get("beam", run_opts).solve(p, mode="first", limits=Limits(time_s=120))
    assert res.status == "solved"
    assert res.stats["tables_rejected"] > 0
    o = {k: v.default for k, v in Beam.OPTIONS.items()} | run_opts
    with_tables = XCCBeamRun(p, o)
    without = XCCBeamRun(p, o | {"tables": 0})
    board = np.zeros((1, with_tables.t.n_words), np.uint64)
    first, score, hsh = np.zeros(1, np.int64), np.zeros(1), np.zeros(1, np.uint64)
    search = PolySearch(with_tables.xcc, tables=with_tables.t)
    t = with_tables.t
    dropped = 0
    for _ in range(4):  # four levels down the beam, every state kept
        par_a, opt_a, _, _, tally, _ = with_tables.expand(board, first, score, hsh)
        par_b, opt_b, _, _, _, _ = without.expand(board, first, score, hsh)
        kept = set(zip(par_a.tolist(), opt_a.tolist()))
        assert kept <= set(zip(par_b.tolist(), opt_b.tolist()))
        gone = [(a, b) for a, b in zip(par_b.tolist(), opt_b.tolist()) if (a, b) not in kept]
        assert len(gone) == tally[0]
        for a, b in gone[:20]:
            child = board[a].copy()
            _place(b, child, t.ow_ptr, t.ow_idx, t.ow_mask, t.tag, True)
            search.restart(child)
            assert search.step(10_000_000, True) == DONE  # exhausted: no tiling
            dropped += 1
        keep = np.arange(min(len(par_a), 60))
        nb, nf = np.zeros((len(keep), t.n_words), np.uint64), np.zeros(len(keep), np.int64)
        _children(board, first, par_a[keep], opt_a[keep], t.scan, t.ow_ptr, t.ow_idx, t.ow_mask, t.tag, nb, nf)
        board, first, score, hsh = nb, nf, np.zeros(len(keep)), np.arange(len(keep), dtype=np.uint64)
    assert dropped > 0
