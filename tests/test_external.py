"""`external`: a SAT solver binary through DIMACS files, held to the same answers as the rest.

The binaries are Debian packages (cadical, picosat, minisat, cryptominisat) that CI installs, and Kissat, which
PyPI's passagemath-kissat ships inside its wheel; without them these tests skip with the reason."""

import os
import shutil
import stat
from importlib import metadata

import pytest
from helpers.agreement import count_with
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from encoders import external
from eternity.cli import main
from puzzles import catalog
from puzzles.make import generate

HAVE = external.installed()  # the known solvers here
needs_cadical = pytest.mark.skipif(
    shutil.which("cadical") is None, reason="cadical not installed (apt-get install cadical)"
)
needs_kissat = pytest.mark.skipif(
    "kissat" not in HAVE, reason="kissat not found (pip install passagemath-kissat, which make setup does)"
)


@pytest.mark.parametrize(
    "cmd", [pytest.param("cadical", marks=needs_cadical), pytest.param("kissat", marks=needs_kissat)]
)
@settings(max_examples=6, deadline=None)
@given(
    args=st.tuples(st.integers(2, 3), st.integers(2, 3), st.integers(1, 2), st.integers(1, 3), st.integers(0, 10**6))
)
def test_binaries_count_random_edge_puzzles_like_edge_backtrack(cmd, args):
    p = generate.edge_puzzle(*args)[0]
    want = count_with("edge-backtrack", p)
    assert count_with("external", p, cmd=cmd) == want
    res, verified = solving.solve_verified(solving.get("external", {"cmd": cmd}), p, "first")
    assert (res.status == solving.Status.SOLVED and verified) if want else res.status == solving.Status.UNSAT


def test_kissat_is_found_inside_its_wheel():
    try:
        metadata.distribution("passagemath-kissat")
    except metadata.PackageNotFoundError:
        pytest.skip("passagemath-kissat not installed (make setup installs it)")
    path = external.locate("kissat")
    assert path and os.access(path, os.X_OK)
    assert external.argv_of("kissat", "f.cnf", "f.out") == [path, "-q", "f.cnf"]
    assert external.argv_of("kissat --seed=2", "f.cnf", "f.out") == [path, "--seed=2", "f.cnf"]
    assert "kissat" in external.installed()


@pytest.mark.skipif(
    not HAVE, reason="no SAT solver binary installed (apt-get install cadical picosat minisat cryptominisat)"
)
@pytest.mark.parametrize("name,total", [("queens-6", 4), ("rooks-4", 24), ("queens-3", 0)])
def test_every_installed_binary_counts_alike(name, total):
    for cmd in HAVE:
        assert count_with("external", catalog.load(name), cmd=cmd) == total, cmd


@needs_cadical
def test_the_clue_puzzle_is_solved_and_verified():
    res, verified = solving.solve_verified(solving.get("external"), catalog.load("eternity2-clue1"), "first")
    assert res.status == solving.Status.SOLVED and verified


def fake(tmp_path, body: str) -> str:
    """A script that answers the one-clause probe like a SAT solver, then does ``body`` on real input."""
    f = tmp_path / "fake-sat"
    f.write_text(
        "#!/bin/sh\nif grep -q '^p cnf 1 1$' \"$1\"; then echo 's SATISFIABLE'; echo 'v 1 0'; exit 10; fi\n"
        + body
        + "\n"
    )
    f.chmod(f.stat().st_mode | stat.S_IEXEC)
    return str(f)


def test_a_crashing_or_nonsensical_binary_is_an_error_with_its_stderr(tmp_path):
    crash = fake(tmp_path, "echo 'segfault near clause 7' >&2; exit 139")
    res = solving.get("external", {"cmd": crash}).solve(catalog.load("queens-5"), mode="first")
    assert res.status == solving.Status.ERROR and "segfault near clause 7" in res.message


@pytest.mark.timing
def test_a_hanging_binary_stops_at_the_time_limit(tmp_path):
    import time

    hang = fake(tmp_path, "sleep 60")
    t0 = time.perf_counter()
    res = solving.get("external", {"cmd": hang}).solve(
        catalog.load("queens-5"), mode="first", limits=solving.Limits(time_s=1.0)
    )
    assert res.status == solving.Status.LIMIT and time.perf_counter() - t0 < 10


def test_missing_binary_and_a_command_that_is_no_sat_solver(capsys):
    for cmd, words in (("kissat-not-here", "not installed"), ("cat", "does not answer")):
        capsys.readouterr()
        assert main(["solve", "queens-5", "--solver", "external", "--opt", f"cmd={cmd}"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0], err
