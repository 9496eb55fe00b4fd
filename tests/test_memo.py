"""The memoised search (DXZ) and its diagram of all solutions: exact counts beside independent
references, agreement with Algorithm C, uniform samples, saved diagrams, bounded memory."""

import math

import numpy as np
import pytest
from helpers.transfer import count_tilings
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import solving
from baseline.runtime.kernel import BUDGET, DONE, NO_BOUND
from baseline.xcc.backtrack import count_xcc
from baseline.xcc.memo import MemoSearch
from baseline.xcc.zdd import Diagram, fingerprint
from eternity.cli import main
from puzzles import catalog
from puzzles.errors import InputError, UsageError
from puzzles.xcc import XCC


def diagram_of(xcc: XCC, memo_mb: float = 256.0) -> Diagram:
    s = MemoSearch(xcc, memo_mb)
    while (code := s.step(NO_BOUND)) == BUDGET:
        pass
    assert code == DONE
    return s.diagram()


def memo_count(name: str, **opts) -> int:
    res, _ = solving.solve_verified(solving.get("backtrack", {"memo": True, **opts}), catalog.load(name), "count")
    assert res.status == solving.Status.SOLVED, res.message
    return res.count


def kasteleyn(m: int, n: int) -> int:
    """Domino tilings of an m x n board: Kasteleyn's and Temperley-Fisher's product (1961)."""
    t = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            t *= 4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
    return round(t)


def test_domino_tilings_of_8x8_and_10x10():
    assert kasteleyn(8, 8) == 12_988_816 and kasteleyn(10, 10) == 258_584_046_368  # the formula itself
    assert memo_count("dominoes-8x8") == 12_988_816
    assert memo_count("dominoes-10x10") == 258_584_046_368


@pytest.mark.parametrize("m,n", [(2, 9), (3, 8), (4, 7), (5, 6), (6, 8), (7, 8), (4, 12)])
def test_domino_tilings_match_kasteleyn(m, n):
    assert memo_count(f"dominoes-{m}x{n}") == kasteleyn(m, n)


def test_aztec_diamond_counts_up_to_order_10():
    for n in range(1, 11):
        assert memo_count(f"aztec-{n}") == 2 ** (n * (n + 1) // 2), n


@pytest.mark.parametrize(
    "kind,size,rows,cols",
    [
        ("trominoes", 3, 3, 30),
        ("trominoes", 2, 6, 9),
        ("tetrominoes", 4, 4, 20),
        ("pentominoes", 5, 3, 40),
        ("pentominoes", 5, 5, 10),
    ],
)
def test_strips_match_the_transfer_matrix(kind, size, rows, cols):
    p = catalog.load(f"{kind}-{rows}x{cols}")
    assert memo_count(f"{kind}-{rows}x{cols}") == count_tilings(rows, cols, [pc.cells for pc in p.pieces])


@pytest.mark.parametrize("name", ["trominoes-3x6", "tetrominoes-4x4", "pentominoes-5x5", "dominoes-4x5", "aztec-3"])
def test_free_supply_counts_equal_the_plain_search(name):
    xcc = catalog.load(name).to_xcc()
    assert memo_count(name) == count_xcc(xcc) > 0


def test_transfer_matrix_reference_on_known_values():
    domino = [((0, 0), (0, 1))]
    assert [count_tilings(3, 2 * k, domino) for k in range(1, 6)] == [3, 11, 41, 153, 571]  # OEIS A001835
    assert count_tilings(2, 10, domino) == 89  # Fibonacci


@pytest.mark.parametrize(
    "name,total",
    [
        ("pentomino-6x10", 9356),
        ("pentomino-3x20", 8),
        ("queens-8", 92),
        ("queens-9", 352),
        ("rooks-5", 120),
        ("officers-4", 2),
    ],
)
def test_memo_counts_equal_algorithm_c(name, total):
    assert memo_count(name) == total == count_xcc(catalog.load(name).to_xcc())


def test_memo_count_of_a_generated_edge_puzzle_with_colours():
    from puzzles.make import generate

    for seed in range(3):
        p = generate.edge_puzzle(3, 3, 2, 2, seed)[0]
        res = solving.get("edge-backtrack").solve(p, mode="count")
        assert memo_count_of(p) == res.count


def memo_count_of(p) -> int:
    res, _ = solving.solve_verified(solving.get("backtrack", {"memo": True}), p, "count")
    return res.count


@st.composite
def random_xcc(draw) -> XCC:
    """Small XCC instances with primary and coloured secondary items (satisfiable or not)."""
    n_prim = draw(st.integers(1, 7))
    n_sec = draw(st.integers(0, 4))
    n_opt = draw(st.integers(1, 24))
    ptr, items, colours = [0], [], []
    for _ in range(n_opt):
        prim = draw(st.sets(st.integers(0, n_prim - 1), min_size=1, max_size=3))
        sec = draw(st.sets(st.integers(0, n_sec - 1), max_size=2)) if n_sec else set()
        for i in sorted(prim):
            items.append(i)
            colours.append(0)
        for i in sorted(sec):
            items.append(n_prim + i)
            colours.append(draw(st.integers(0, 3)))
        ptr.append(len(items))
    return XCC(
        item_names=[f"i{k}" for k in range(n_prim + n_sec)],
        n_primary=n_prim,
        opt_ptr=np.array(ptr, np.int32),
        opt_items=np.array(items, np.int32),
        opt_colors=np.array(colours, np.int32),
        decode=list(range(n_opt)),
        color_names=["", "a", "b", "c"],
    )


@settings(max_examples=150, deadline=None)
@given(random_xcc())
def test_memo_agrees_with_algorithm_c_on_random_coloured_xcc(xcc):
    d = diagram_of(xcc)
    assert d.count() == count_xcc(xcc, "bitset") == count_xcc(xcc, "dlx")
    sols = list(d.solutions())
    assert len(sols) == d.count() and len({tuple(sorted(s)) for s in sols}) == len(sols)
    assert all(xcc.is_solution(s) for s in sols)


def test_modes_first_all_and_sample_are_verified():
    p = catalog.load("queens-6")
    backtrack = solving.get("backtrack", {"memo": True})
    first, ok = solving.solve_verified(backtrack, p, "first")
    assert first.status == solving.Status.SOLVED and ok and len(first.solutions) == 1
    every, ok = solving.solve_verified(backtrack, p, "all")
    assert ok and every.count == 4 and len(every.solutions) == 4
    drawn, ok = solving.solve_verified(backtrack, p, "sample", solving.Limits(solutions=50))
    assert ok and len(drawn.solutions) == 50
    none, _ = solving.solve_verified(backtrack, catalog.load("queens-3"), "count")
    assert none.status == solving.Status.UNSAT and none.count == 0


def test_samples_are_uniform():
    xcc = catalog.load("dominoes-4x6").to_xcc()
    d = diagram_of(xcc)
    total = d.count()
    assert total == 281
    index = {tuple(sorted(s)): k for k, s in enumerate(d.solutions())}
    draws = d.sample(100_000, seed=7)
    hist = np.bincount([index[tuple(sorted(s))] for s in draws], minlength=total)
    assert hist.min() > 0
    assert chisquare(hist).pvalue > 1e-3
    assert d.sample(5, seed=1) == d.sample(5, seed=1)  # seeded


def test_big_counts_sample_with_exact_integers():
    xcc = catalog.load("dominoes-4x60").to_xcc()
    d = diagram_of(xcc)
    assert d.count() == count_tilings(4, 60, [((0, 0), (0, 1))]) > 2**62  # beyond int64: Python integers
    assert all(xcc.is_solution(s) for s in d.sample(3, seed=2))
    big = diagram_of(catalog.load("dominoes-16x16").to_xcc()).count()
    assert abs(big / kasteleyn(16, 16) - 1) < 1e-12  # the float product is exact to 15 digits only


def test_a_saved_diagram_loads_and_answers_alike(tmp_path):
    f = tmp_path / "d.npz"
    assert (
        main(["solve", "dominoes-6x6", "--mode", "count", "--opt", "memo=true", "--opt", f"diagram={f}", "--quiet"])
        == 0
    )
    res = solving.get("backtrack", {"from_diagram": str(f)}).solve(catalog.load("dominoes-6x6"), mode="count")
    assert res.count == 6728
    with pytest.raises(InputError, match="fingerprint"):
        Diagram.load(f, fingerprint(catalog.load("dominoes-6x7").to_xcc()))
    raw = f.read_bytes()
    for cut in (0, 10, len(raw) // 2, len(raw) - 1):
        (tmp_path / "t.npz").write_bytes(raw[:cut])
        with pytest.raises(InputError, match="t.npz"):
            Diagram.load(tmp_path / "t.npz", fingerprint(catalog.load("dominoes-6x6").to_xcc()))


def test_a_diagram_over_its_memory_is_a_clear_error(capsys):
    with pytest.raises(UsageError, match="memo_mb"):
        solving.get("backtrack", {"memo": True, "memo_mb": 1}).solve(catalog.load("pentominoes-5x12"), mode="count")
    assert main(["solve", "pentominoes-5x12", "--mode", "count", "--opt", "memo=true", "--opt", "memo_mb=1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "memo_mb" in err[0]


def test_a_small_memo_evicts_and_stays_exact():
    xcc = catalog.load("pentomino-6x10").to_xcc()
    s = MemoSearch(xcc, 16)
    s.memo_cap = 1 << 10  # a memo far too small for the search: it forgets states and finds them again
    while (code := s.step(NO_BOUND)) == BUDGET:
        pass
    assert code == DONE and s.stats()["memo_evictions"] > 0 and s.diagram().count() == 9356


def test_memo_refuses_options_it_cannot_honour():
    for opts in (
        {"memo": True, "checkpoint": "x"},
        {"memo": True, "engine": "dlx"},
        {"memo": True, "split_depth": 2, "part": 0},
    ):
        with pytest.raises(UsageError, match="memoised"):
            solving.get("backtrack", opts).check(catalog.load("queens-5"), "count")
    with pytest.raises(UsageError, match="no mode 'sample'"):
        solving.get("edge-backtrack").check(catalog.load("owen-a"), "sample")


def test_cli_sample_mode(capsys):
    assert (
        main(["solve", "dominoes-3x4", "--mode", "sample", "--samples", "4", "--json", "--show", "4", "--quiet"]) == 0
    )
    out = capsys.readouterr().out
    assert '"count": 11' in out


@pytest.mark.slow
def test_distinct_pentomino_count_through_the_diagram(capsys):
    assert main(["solve", "pentomino-6x10", "--mode", "count", "--distinct", "--opt", "memo=true", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "count 9356" in out and "distinct 2339" in out
