"""The DRAT checker: refutations checked, not believed.

Known-unsatisfiable formulas (pigeonhole, unsatisfiable boards of the atlas) with proofs from python-sat's
CaDiCaL (text) and the CaDiCaL and Kissat binaries (binary DRAT, Kissat's with RAT steps) check; the same
proofs against a satisfiable formula, cut short, or with a lemma that does not follow are refused, and an
engine whose proof does not check is an error, not an answer."""

import stat
import subprocess

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

import solving
from encoders import drat, external
from puzzles.make import generate

HAVE = external.installed()


def text_proof(clauses) -> bytes:
    with Solver(name="cadical195", with_proof=True, bootstrap_with=clauses) as s:
        assert s.solve() is False
        return ("\n".join(s.get_proof()) + "\n").encode()


def binary_proof(name: str, clauses, nv: int, tmp_path) -> bytes:
    cnf, proof = tmp_path / "f.cnf", tmp_path / "f.drat"
    cnf.write_text(f"p cnf {nv} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses))
    r = subprocess.run([external.locate(name), "-q", str(cnf), str(proof)], capture_output=True, check=False)
    assert r.returncode == 20
    return proof.read_bytes()


@pytest.mark.parametrize("holes", [3, 5, 7])
def test_pigeonhole_refutations_check_and_broken_ones_do_not(holes):
    cnf = PHP(holes)
    proof = text_proof(cnf.clauses)
    good = drat.check(cnf.clauses, proof)
    assert good.ok and good.lemmas > 0, good
    lines = proof.decode().splitlines()
    adds = [i for i, ln in enumerate(lines) if not ln.startswith("d") and ln.strip() != "0"]
    # satisfiable once one pigeon may stay out: no proof of it can check
    assert not drat.check(cnf.clauses[1:], proof).ok
    # cut short before the empty clause
    cut = drat.check(cnf.clauses, ("\n".join(lines[: len(lines) // 2]) + "\n").encode())
    assert not cut.ok and "empty clause" in cut.reason
    # a lemma that does not follow, put first: this pigeon is in none of its holes' first (neither RUP, nor
    # RAT on it: the resolvent with the pigeon's own clause does not propagate to a conflict)
    pigeon = next(c for c in cnf.clauses if all(x > 0 for x in c))
    extra = drat.check(cnf.clauses, (f"{-pigeon[0]} 0\n" + proof.decode()).encode())
    assert not extra.ok and "neither RUP nor RAT" in extra.reason
    # a unit on a variable no clause holds is RAT (no resolvent to check): such a lemma is allowed
    assert drat.check(cnf.clauses, (f"{cnf.nv + 7} 0\n" + proof.decode()).encode()).ok
    # the first lemma replaced by the empty clause: the formula does not propagate to a conflict
    bad = lines.copy()
    bad[adds[0]] = "0"
    assert not drat.check(cnf.clauses, ("\n".join(bad) + "\n").encode()).ok
    # a satisfiable formula with an empty proof
    assert not drat.check([[1, 2], [-1, 2]], b"").ok


def test_proof_files_that_are_not_drat_are_refused():
    cnf = PHP(3)
    assert not drat.check(cnf.clauses, b"1 2 x 0\n").ok
    assert "not a DRAT proof" in drat.check(cnf.clauses, b"1 2").reason  # a clause without its 0
    far = drat.check(cnf.clauses, b"900000000 0\n0\n")  # its arrays would take gigabytes: refused at once
    assert not far.ok and "past the formula" in far.reason


@pytest.mark.parametrize("name", ["cadical", "kissat"])
def test_binary_proofs_of_the_binaries_check(name, tmp_path):
    if name not in HAVE:
        pytest.skip(f"{name} not installed (apt-get install cadical; pip install passagemath-kissat)")
    cnf = PHP(6)
    proof = binary_proof(name, cnf.clauses, cnf.nv, tmp_path)
    good = drat.check(cnf.clauses, proof)
    assert good.ok, good
    if name == "kissat":
        assert good.rat > 0  # Kissat's proofs hold RAT steps: the RAT check is exercised
    assert not drat.check(cnf.clauses[1:], proof).ok
    assert not drat.check(cnf.clauses, proof[: len(proof) // 2]).ok


def unsat_board():
    """A 5x5 board with two pieces' inner sides swapped (colour counts kept), proven unsolvable."""
    from experiments.families import _unsolvable

    p, _ = _unsolvable("t", {"rows": 5, "cols": 5, "frame_colors": 2, "inner_colors": 4}, 7, 20.0)
    return p


def test_unsatisfiable_boards_carry_checked_certificates():
    p = unsat_board()
    assert solving.get("edge-backtrack").solve(p, mode="count").count == 0
    res, _ = solving.solve_verified(solving.get("sat", {"certify": True}), p, "first")
    assert res.status == solving.Status.UNSAT and res.evidence == solving.Evidence.CERTIFICATE
    assert res.stats["certificate"] == "checked" and res.stats["certificate_bytes"] > 0
    plain, _ = solving.solve_verified(solving.get("sat"), p, "first")
    assert plain.evidence == "claimed by cadical195"
    if "cadical" in HAVE:
        res, _ = solving.solve_verified(solving.get("external", {"cmd": "cadical"}), p, "count")
        assert res.status == solving.Status.UNSAT and res.evidence == solving.Evidence.CERTIFICATE


def test_a_proof_that_outgrows_its_cap_leaves_a_claim(monkeypatch):
    """The proof file is capped (the solver is stopped by SIGXFSZ past it); the solver then runs again
    without one, and its answer stands as its claim."""
    if "cadical" not in HAVE:
        pytest.skip("cadical not installed (apt-get install cadical)")
    monkeypatch.setattr(external, "PROOF_CAP", 64)
    res, _ = solving.solve_verified(solving.get("external", {"cmd": "cadical"}), unsat_board(), "first")
    assert res.status == solving.Status.UNSAT and res.evidence == "claimed by cadical"
    assert "outgrew" in res.stats["certificate"] and res.stats["calls"] == 2


def test_an_engine_whose_proof_does_not_check_is_an_error(tmp_path):
    """A command that says unsatisfiable and writes the empty clause as its proof, on a solvable board."""
    p, _ = generate.edge_puzzle(3, 3, 2, 2, 5)
    f = tmp_path / "forger"
    f.write_text(
        "#!/bin/sh\nif grep -q '^p cnf 1 1$' \"$1\"; then echo 's SATISFIABLE'; echo 'v 1 0'; exit 10; fi\n"
        "echo 0 > \"$2\"; echo 's UNSATISFIABLE'; exit 20\n"
    )
    f.chmod(f.stat().st_mode | stat.S_IEXEC)
    res, _ = solving.solve_verified(solving.get("external", {"cmd": f"{f} {{cnf}} {{proof}}"}), p, "first")
    assert res.status == solving.Status.ERROR and "does not check" in res.message
    # the same command without a proof asked: its word, shown as a claim
    res, _ = solving.solve_verified(
        solving.get("external", {"cmd": f"{f} {{cnf}} {{proof}}", "certify": False}), p, "first"
    )
    assert res.status == solving.Status.UNSAT and solving.is_claim(res.evidence)


def test_a_formula_that_propagates_to_a_conflict_needs_no_lemma():
    assert drat.check([[1], [-1, 2], [-2]], b"").ok
    assert not drat.check([[1], [-1, 2], [2, 3]], b"0\n").ok


def test_a_variable_past_the_checkers_range_is_refused_in_one_line():
    cnf = PHP(3)
    for var in (1 << 30, (1 << 31) - 1, 1 << 40):
        res = drat.check(cnf.clauses, f"{var} 0\n0\n".encode())
        assert not res.ok and "2^30 or more" in res.reason and "\n" not in res.reason
    assert drat.check(cnf.clauses, f"-{1 << 30} 0\n".encode()).reason.startswith("the proof names a variable")


def test_the_check_stops_at_its_deadline():
    """Event-driven, not timed: a deadline already past stops a proof of 400,000 lemmas within the lemmas
    between two looks at the clock, and the proof is then neither accepted nor refuted."""
    import time

    cnf = PHP(5)
    lemma = " ".join(map(str, cnf.clauses[0])) + " 0\n"
    proof = (lemma * 400_000 + "0\n").encode()
    res = drat.check(cnf.clauses, proof, deadline=time.perf_counter() - 1)
    assert res.late and not res.ok and "time limit" in res.reason
    step = int(res.reason.split("step ")[1].split()[0])
    assert step <= drat.CLOCK_EVERY
    assert not drat.check(cnf.clauses, proof).late  # without a deadline it runs to its verdict
