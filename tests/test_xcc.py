"""The XCC model: compilation, Knuth's text format, restriction."""

from puzzles import catalog
from puzzles.kinds.edge import EdgePuzzle
from puzzles.kinds.queens import QueensPuzzle


def test_queens_items():
    x = QueensPuzzle(4).to_xcc()
    assert x.n_primary == 8 and x.n_items == 8 + 14 and x.n_options == 16


def test_knuth_format_shape():
    x = catalog.load("pentomino-3x20").to_xcc()
    lines = x.to_knuth().splitlines()
    assert lines[0].startswith("|")
    assert len(lines) == 2 + x.n_options
    assert len(lines[1].split()) == x.n_items  # no secondary items here
    q = QueensPuzzle(5).to_xcc().to_knuth().splitlines()
    assert " | " in q[1]


def test_edge_colours_in_knuth_format():
    x = catalog.load("owen-a").to_xcc()
    text = x.to_knuth()
    assert ":" in text.splitlines()[2]


def test_symmetric_piece_rotations_counted_once():
    p = EdgePuzzle(rows=1, cols=1, pieces=[[1, 2, 1, 2]])
    assert p.distinct_rotations(0) == [0, 1]
    q = EdgePuzzle(rows=1, cols=1, pieces=[[3, 3, 3, 3]])
    assert q.distinct_rotations(0) == [0]


def test_restrict_removes_conflicts():
    x = QueensPuzzle(4).to_xcc()
    sub, keep = x.restrict([1])  # queen at (0, 1)
    assert sub.n_primary == 6
    for k in keep:
        r, c = x.decode[k]
        assert r != 0 and c != 1 and abs(r - 0) != abs(c - 1)


def test_is_solution():
    x = QueensPuzzle(4).to_xcc()
    sol = [k for k, d in enumerate(x.decode) if (d.row, d.col) in {(0, 1), (1, 3), (2, 0), (3, 2)}]
    assert x.is_solution(sol)
    assert not x.is_solution(sol[:3])


def test_reorder_keeps_the_problem():
    import numpy as np

    from baseline.xcc.backtrack import count_xcc, random_prefix
    from puzzles import catalog

    x = catalog.load("queens-6").to_xcc()
    perm = np.random.default_rng(1).permutation(x.n_options)
    y = x.reorder(perm)
    assert count_xcc(y) == count_xcc(x) == 4
    assert [y.decode[i] for i in range(5)] == [x.decode[k] for k in perm[:5]]
    assert y.option(3) == x.option(int(perm[3]))
    # a random prefix is a partial solution: no item twice
    p = catalog.load("pentomino-6x10").to_xcc()
    for seed in range(3):
        pre = random_prefix(p, 8, seed)
        assert pre is not None and len(pre) == 8
        items = [it for k in pre for it, _ in p.option(k)]
        assert len(items) == len(set(items))
