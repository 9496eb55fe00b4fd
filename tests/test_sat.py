"""SAT encodings: exact counts through blocking clauses, agreement, DIMACS out and models back in."""

import shutil
import subprocess

import pytest
from helpers.agreement import count_with
from helpers.boards import count as count_by
from hypothesis import given, settings
from hypothesis import strategies as st
from pysat.solvers import Solver as PySat

import solving
from encoders.amo import ENCODINGS, exactly_one
from encoders.cnf import direct_cnf
from eternity.cli import main
from puzzles import catalog
from puzzles.make import generate
from solving import Limits, Status, solve_verified


def count(p, **opts):
    return count_with("sat", p, **opts)


def test_queens_8():
    assert count(catalog.load("queens-8")) == 92


@pytest.mark.slow
def test_pentomino_3x20():
    assert count(catalog.load("pentomino-3x20")) == 8


@pytest.mark.slow
@pytest.mark.parametrize(
    "amo", ["pairwise", "seqcounter", "ladder", "totalizer", "sortnetwrk", "cardnetwrk", "bitwise"]
)
def test_owen_a_each_encoding(amo):
    assert count(catalog.load("owen-a"), amo=amo) == 160


@pytest.mark.parametrize("enc", ENCODINGS)
@pytest.mark.parametrize("n", [1, 2, 5, 13])
def test_amo_encodings_exactly(enc, n):
    """Brute force: exactly-one admits exactly the n one-hot assignments of the n literals."""
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pool, clauses = IDPool(start_from=n + 1), []
    exactly_one(list(range(1, n + 1)), enc, pool, clauses)
    models = 0
    with Solver(name="minisat22", bootstrap_with=clauses) as s:
        for m in s.enum_models():
            models += 1
            assert sum(1 for v in range(1, n + 1) if m[v - 1] > 0) == 1
            s.add_clause([-m[v - 1] for v in range(1, n + 1)])
    assert models == n


MODELS = [
    {"model": "xcc"},
    {"model": "xcc", "colors": "vars", "amo": "commander"},
    {"model": "direct"},
    {"model": "direct", "amo": "product", "redundant": True},
    {"model": "direct", "amo": "ladder", "backend": "glucose4"},
]


@settings(max_examples=8, deadline=None)
@given(
    st.integers(2, 3),
    st.integers(2, 4),
    st.integers(1, 2),
    st.integers(1, 3),
    st.integers(0, 10**6),
    st.sampled_from(range(len(MODELS))),
)
def test_counts_equal_backtrack(r, c, f, i, seed, which):
    p, _ = generate.edge_puzzle(r, c, f, i, seed)
    assert count(p, **MODELS[which]) == solving.get("backtrack").solve(p, mode="count").count


@settings(max_examples=5, deadline=None)
@given(st.integers(0, 10**6))
def test_symmetry_breaking_multiplies_back(seed):
    p, _ = generate.edge_puzzle(3, 3, 2, 2, seed)
    assert count(p, symmetry=True) == count(p)


def test_fixed_pieces_as_assumptions():
    p = catalog.load("eternity2-clue1")
    from puzzles.kinds.edge import EdgePuzzle, Fixed
    from puzzles.verify import verify

    sol = catalog.known_solution("eternity2-clue1")
    q = EdgePuzzle(p.rows, p.cols, p.pieces, fixed=[Fixed(*sol[7]), Fixed(*sol[20])])
    r = solving.get("sat").solve(q, mode="first")
    assert r.status == "solved" and verify(q, r.solutions[0]).valid


def test_time_limit_interrupts():
    r = solving.get("sat").solve(catalog.load("brendan-12x12"), mode="first", limits=solving.Limits(time_s=1.0))
    assert r.status == "limit"


def _strict_dimacs(path):
    header, clauses, top = None, 0, 0
    for line in open(path):
        if line.startswith("c"):
            continue
        if line.startswith("p"):
            assert header is None
            _, fmt, nv, nc = line.split()
            assert fmt == "cnf"
            header = (int(nv), int(nc))
            continue
        lits = [int(x) for x in line.split()]
        assert lits[-1] == 0 and 0 not in lits[:-1]
        top = max([top] + [abs(x) for x in lits])
        clauses += 1
    assert header is not None and header[1] == clauses and top <= header[0]


def test_dimacs_round_trip_through_an_outside_solver(tmp_path):
    cnf, model, sol = tmp_path / "c1.cnf", tmp_path / "c1.model", tmp_path / "c1.json"
    assert main(["export", "eternity2-clue1", "--to", "dimacs", "--opt", "amo=ladder", "-o", str(cnf)]) == 0
    _strict_dimacs(cnf)
    if shutil.which("minisat"):
        subprocess.run(["minisat", "-verb=0", str(cnf), str(model)], capture_output=True)
    else:  # a solver the project's encoders never call, reading the file itself
        from pysat.formula import CNF
        from pysat.solvers import Minisat22

        with Minisat22(bootstrap_with=CNF(from_file=str(cnf)).clauses) as s:
            assert s.solve()
            model.write_text("s SATISFIABLE\nv " + " ".join(map(str, s.get_model())) + " 0\n")
    assert main(["decode", "eternity2-clue1", "--from", str(cnf), "--model", str(model), "-o", str(sol)]) == 0
    assert main(["verify", "eternity2-clue1", str(sol)]) == 0


def test_decode_rejects_unsat_and_garbage(tmp_path, capsys):
    cnf, model = tmp_path / "q.cnf", tmp_path / "m.txt"
    assert main(["export", "queens-6", "--to", "dimacs", "-o", str(cnf)]) == 0
    model.write_text("s UNSATISFIABLE\n")
    assert main(["decode", "queens-6", "--from", str(cnf), "--model", str(model), "-o", str(tmp_path / "s.json")]) == 2
    model.write_text("v one two\n")
    assert main(["decode", "queens-6", "--from", str(cnf), "--model", str(model), "-o", str(tmp_path / "s.json")]) == 2
    assert capsys.readouterr().err.count("\n") == 2


@pytest.mark.parametrize("backend", __import__("encoders.solver", fromlist=["BACKENDS"]).BACKENDS)
def test_every_listed_backend_works_in_every_mode_and_within_a_time_limit(backend):
    """Each backend `eternity solvers` lists: modes first and count, with and without a time limit (those
    python-sat cannot interrupt run in a child process, ended at the limit)."""
    from encoders.solver import interruptible

    p = catalog.load("queens-5")
    for mode in ("first", "count"):
        for limits in (solving.Limits(), solving.Limits(time_s=30.0)):
            solver = solving.get("sat", {"backend": backend})
            res, verified = solving.solve_verified(solver, p, mode, limits)
            assert res.status == "solved", (backend, mode, res.message)
            assert (res.count == 10) if mode == "count" else verified is True
            assert res.stats.get("child_process", False) == (not interruptible(backend) and limits.time_s is not None)


def test_a_backend_python_sat_cannot_interrupt_is_ended_at_the_limit():
    """Event-driven: a limit shorter than the race's grace ends the child at once, whatever the machine."""
    from encoders.solver import BACKENDS, interruptible

    for backend in [b for b in BACKENDS if not interruptible(b)]:
        res = solving.get("sat", {"backend": backend}).solve(
            catalog.load("eternity2"), limits=solving.Limits(time_s=0.5)
        )
        assert res.status == solving.Status.LIMIT
        assert "ended the child process" in res.message or "while the CNF was being built" in res.message


def test_a_time_limit_does_not_change_the_search_of_a_backend_without_interrupt():
    """CaDiCaL under a time limit searches as it does with none (one uninterrupted call in a child process),
    so the conflicts of a cell do not depend on the machine's load; an interruptible backend likewise runs
    one call, ended by its interrupt."""
    p = generate.edge_puzzle(6, 6, 3, 5, 11)[0]
    for backend in ("cadical195", "minisat22"):
        free = solving.get("sat", {"backend": backend}).solve(p)
        timed = solving.get("sat", {"backend": backend}).solve(p, limits=solving.Limits(time_s=600.0))
        assert free.status == timed.status == solving.Status.SOLVED
        assert free.stats["conflicts"] == timed.stats["conflicts"], backend


def test_support_clauses_propagate_what_the_plain_encoding_cannot():
    """Arc consistency: with a placement assumed, unit propagation rules out more placements."""
    p = generate.edge_puzzle(4, 4, 2, 3, 3)[0]
    plain, strong = direct_cnf(p, support=False), direct_cnf(p, support=True)
    assert len(strong.clauses) > len(plain.clauses)
    more = 0
    for v in list(plain.decision)[:40]:
        with (
            PySat(name="minisat22", bootstrap_with=plain.clauses) as a,
            PySat(name="minisat22", bootstrap_with=strong.clauses) as b,
        ):
            ok_a, lits_a = a.propagate(assumptions=[v])
            ok_b, lits_b = b.propagate(assumptions=[v])
            fa = {x for x in lits_a if abs(x) in plain.decision}
            fb = {x for x in lits_b if abs(x) in strong.decision}
            # what the strong encoding fixed at level 0 is not propagated again: its negation fails at once
            fb |= {x for x in fa - fb if not b.propagate(assumptions=[-x])[0]}
            assert not ok_a or not ok_b or fa <= fb
            more += len(fb) > len(fa) or (ok_a and not ok_b)
    assert more > 0


@pytest.mark.parametrize("name", ["sat", "cube", "cpsat"])
def test_merged_copies_in_the_cnf_count_alike_with_fewer_models(name):
    p = generate.edge_puzzle(4, 4, 2, 3, 0)[0]  # 4 orderings of its identical pieces, 96 solutions
    merged = solving.get(name, {"identical": "merge"})
    res, ok = solve_verified(merged, p, "count", Limits(time_s=60))
    plain = solve_verified(solving.get(name, {"identical": "distinct"}), p, "count", Limits(time_s=60))[0]
    assert res.count == plain.count == count_by("edge-backtrack", p)[1] == 96
    assert res.stats["vars"] < plain.stats["vars"]
    res, ok = solve_verified(merged, p, "first", Limits(time_s=60))
    assert res.status == Status.SOLVED and ok
