"""The field's engines (CPMpy's backends, MiniZinc, MaxSAT) held to the native solvers on random small puzzles.

Every backend that imports here (``cpmpy.present()``) and MiniZinc where its binary is installed
count random small edge-matching puzzles, satisfiable and not, and small polyomino puzzles as
``edge-backtrack`` and ``backtrack`` do, answer mode first in kind, and find the same optimum in
mode best as CP-SAT (MaxSAT through RC2 included).  Engines that cannot enumerate are listed in
``CANNOT_COUNT`` with the reason.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import solving
from cpmodel import cpmpy_solver, minizinc_solver
from puzzles import catalog
from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle
from puzzles.make import generate

LIMIT = solving.Limits(time_s=60.0)
# backends that cannot enumerate (mode count): why
CANNOT_COUNT = {"rc2": "a MaxSAT solver: mode best only"}
SLOW = {"scip", "highs"}  # MIP enumerates by blocking clauses, one solve a solution: the smallest puzzles only

ENGINES = [{"backend": b} for b in cpmpy_solver.present() if b not in CANNOT_COUNT]
MZN = shutil.which("minizinc") is not None and "gecode" in minizinc_solver.installed()


def _count(name, options, puzzle) -> int:
    res, _ = solving.solve_verified(solving.get(name, options), puzzle, "count", LIMIT)
    assert res.status.answered, f"{name} {options}: {res.status} {res.message}"
    return res.count


def _first(name, options, puzzle, total: int) -> None:
    res, verified = solving.solve_verified(solving.get(name, options), puzzle, "first", LIMIT)
    if total:
        assert res.status == solving.Status.SOLVED and verified is True, (name, options, res.status)
    else:
        assert res.status == solving.Status.UNSAT, (name, options, res.status)


def _engines(small: bool):
    out = [("cpmpy", e) for e in ENGINES if small or e["backend"] not in SLOW]
    if MZN:
        out.append(("minizinc", {}))
    return out


def test_the_engines_are_present():
    """What `make setup` installs: at least the CP, pseudo-Boolean, LCG, MIP, SMT and SAT backends."""
    assert {"ortools", "exact", "choco", "pumpkin", "highs", "scip", "z3", "pysat"} <= set(cpmpy_solver.present())


def broken(size: int, seed: int) -> EdgePuzzle:
    """A planted board with one side of its first inner piece recoloured to a colour no neighbour shows."""
    p, _ = generate.edge_puzzle(size, size, 2, 3, seed)
    pieces = p.pieces.copy()
    q = next(q for q in range(len(pieces)) if (pieces[q] != 0).all())
    pieces[q, 0] = int(pieces.max()) + 1  # a colour no other side has: that join can never match
    return EdgePuzzle(p.rows, p.cols, pieces, name="broken")


def _mutated(rows, cols, fc, ic, seed, flip) -> EdgePuzzle:
    """A generated board; with ``flip`` one inner side of one piece recoloured (often no solution left)."""
    p, _ = generate.edge_puzzle(rows, cols, fc, ic, seed)
    if flip:
        pieces = p.pieces.copy()
        q, side = divmod(flip, 4)
        q %= len(pieces)
        if pieces[q, side] != 0:
            pieces[q, side] = 1 + pieces[q, side] % int(pieces.max())
        p = EdgePuzzle(p.rows, p.cols, pieces, name="mutated")
    return p


@settings(max_examples=6, deadline=None)
@given(
    st.integers(2, 3),
    st.integers(2, 3),
    st.integers(1, 2),
    st.integers(1, 3),
    st.integers(0, 10**6),
    st.integers(0, 40),
)
@example(2, 2, 2, 1, 8423, 0)  # 4 boards: HiGHS 1.16 (highspy) fails its solve after the first blocking clause
def test_every_engine_counts_edge_puzzles_as_the_native_search(rows, cols, fc, ic, seed, flip):
    p = _mutated(rows, cols, fc, ic, seed, flip)
    truth = _count("edge-backtrack", {}, p)
    for name, opts in _engines(small=rows * cols <= 6):
        assert _count(name, opts, p) == truth, (name, opts)
        _first(name, opts, p, truth)


@settings(max_examples=3, deadline=None)
@given(st.sampled_from([(2, 3, 3), (3, 4, 4), (2, 4, 4)]), st.integers(0, 10**6))
def test_every_engine_counts_polyominoes_as_algorithm_c(shape, seed):
    p = generate.polyomino_puzzle(*shape, seed)[0]
    truth = _count("backtrack", {}, p)
    for name, opts in _engines(small=True):
        assert _count(name, opts, p) == truth, (name, opts)


def test_every_engine_counts_queens():
    for name, opts in _engines(small=False):
        assert _count(name, opts, catalog.load("queens-6")) == 4, (name, opts)


@settings(max_examples=4, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 40))
def test_every_optimiser_finds_the_same_optimum(seed, flip):
    """Mode best: the optimum proven by CP-SAT, MaxSAT (RC2), the CPMpy backends that optimise, and MiniZinc."""
    p = _mutated(3, 3, 2, 2, seed, flip)
    ref = solving.get("cpsat").solve(p, mode="best", limits=LIMIT)
    assert ref.status == solving.Status.SOLVED
    optimisers = (
        [("maxsat", {})]
        + [
            ("cpmpy", {"backend": b})
            for b in ("rc2", "ortools", "exact", "choco", "highs")
            if b in cpmpy_solver.present()
        ]
        + ([("minizinc", {})] if MZN else [])
    )
    for name, opts in optimisers:
        res, verified = solving.solve_verified(solving.get(name, opts), p, "best", LIMIT)
        assert res.status == solving.Status.SOLVED and verified, (name, opts, res.status)
        assert res.best_score == ref.best_score, (name, opts, res.best_score, ref.best_score)
        assert res.optimal is True, (name, opts)
    beam = solving.get("beam", {"width": 16}).solve(p, mode="best", limits=solving.Limits(time_s=5))
    assert beam.optimal is (beam.best_score == p.n_joins)  # the beam proves nothing short of a perfect board


def test_proofs_of_optimality_are_stored_and_tabled(tmp_path):
    """Mode best: a proven optimum is `optimal` in the store and the table, apart from a best board so far."""
    from experiments.report import table
    from experiments.runner import run

    cfg = tmp_path / "best.toml"
    cfg.write_text(
        'name = "best"\ntime_limit = 20.0\n[[families]]\nkind = "edge"\nname = "e3"\nrows = 3\n'
        "cols = 3\nframe_colors = 2\ninner_colors = 2\ninstances = 2\n"
        '[[solvers]]\nname = "cpsat"\nmode = "best"\n'
        '[[solvers]]\nname = "beam"\nmode = "best"\noptions = { width = 16 }\n'
    )
    db = tmp_path / "best.sqlite"
    run(str(cfg), str(db), jobs=1, show_progress=False)
    text = table(str(db))
    header = text.splitlines()[0]
    assert header.rstrip(" |").endswith("mean_score | optimal")
    rows = {
        line.split(" | ")[2]: line.rstrip(" |").rsplit(" | ", 1)[1]
        for line in text.splitlines()[2:]
        if line.startswith("| e3")
    }
    assert rows["cpsat/best"] == "2"  # both boards proven optimal


def test_maxsat_proves_an_optimum_below_a_perfect_board():
    """A board whose perfect solution was broken: RC2 proves the best score, which the beam only finds."""
    b = broken(4, 3)
    assert solving.get("edge-backtrack").solve(b, mode="count").count == 0
    res, verified = solving.solve_verified(solving.get("maxsat"), b, "best", LIMIT)
    assert verified and res.optimal is True and res.best_score == b.n_joins - 1


def test_the_wcnf_export_is_the_max_score_problem(tmp_path):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    from eternity.cli import main

    b = broken(4, 3)
    path = tmp_path / "b.json"
    from puzzles.files import formats

    formats.write_puzzle(b, path)
    assert main(["export", str(path), "--to", "wcnf", "-o", str(tmp_path / "b.wcnf")]) == 0
    w = WCNF(from_file=str(tmp_path / "b.wcnf"))
    with RC2(w) as rc2:
        assert rc2.compute() is not None and len(w.soft) - rc2.cost == b.n_joins - 1


def test_bad_engines_are_refused_in_one_line():
    p = catalog.load("queens-6")
    with pytest.raises(UsageError, match="unknown backend 'gurobi'"):
        solving.get("cpmpy", {"backend": "gurobi"}).check(p, "first")
    with pytest.raises(UsageError, match="mode best only"):
        solving.get("cpmpy", {"backend": "rc2"}).check(p, "count")
    if MZN:
        with pytest.raises(UsageError, match="no solver 'chuffed'"):
            solving.get("minizinc", {"backend": "chuffed"}).check(p, "first")


def test_a_missing_minizinc_binary_is_named_with_its_package(monkeypatch):
    monkeypatch.setattr(minizinc_solver.shutil, "which", lambda name: None)
    with pytest.raises(UsageError, match="apt-get install minizinc"):
        solving.get("minizinc").check(catalog.load("queens-6"), "first")


@pytest.mark.skipif(not MZN, reason="MiniZinc with Gecode is not installed (Debian: apt-get install minizinc)")
def test_minizinc_merges_identical_pieces_and_counts_them_back():
    p, _ = generate.edge_puzzle(3, 3, 1, 1, 5)
    assert p.mergeable_groups()
    merged = _count("minizinc", {"identical": "merge"}, p)
    assert merged == _count("minizinc", {"identical": "distinct"}, p) == _count("edge-backtrack", {}, p)
    assert np.isfinite(merged)


@pytest.mark.skipif("choco" not in cpmpy_solver.present(), reason="pychoco is not installed")
def test_a_search_stopped_by_its_limit_is_never_a_proof_of_no_solution():
    """CPMpy's Choco interface calls a search its time limit stopped 'unsatisfiable' when Choco's clock reads a
    little under the limit; a planted board must come back 'limit' (or solved), never 'unsatisfiable'."""
    p, _ = generate.edge_puzzle(7, 7, 3, 7, 3)
    res = solving.get("cpmpy", {"backend": "choco"}).solve(p, mode="first", limits=solving.Limits(time_s=2))
    assert res.status in (solving.Status.LIMIT, solving.Status.SOLVED), res.status
