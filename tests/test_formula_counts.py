"""Counts over a CNF formula count its models: every backend, with and without a certificate, held to a
brute-force counter on random small formulas; declared variables no clause uses are free; a projection
(``c p show``, ``c ind``) is what a count is over; KNF's cardinality lines are constraints."""

from __future__ import annotations

import itertools
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solving
from encoders.solver import BACKENDS, PROOF_BACKENDS
from puzzles.errors import InputError
from puzzles.kinds.cnf_formula import read_cnf


def brute(n_vars: int, clauses, atleast=(), projection=None) -> int:
    """The models of the formula, by trying every assignment, projected on ``projection`` (None: all)."""
    seen = set()
    for bits in itertools.product((False, True), repeat=n_vars):
        ok = all(any(bits[abs(x) - 1] == (x > 0) for x in c) for c in clauses)
        ok = ok and all(sum(bits[abs(x) - 1] == (x > 0) for x in lits) >= k for lits, k in atleast)
        if ok:
            seen.add(bits if projection is None else tuple(bits[v - 1] for v in projection))
    return len(seen)


def _count(path, backend: str, certify: bool) -> solving.SolveResult:
    opts = {"backend": backend, "certify": certify}
    res, _ = solving.solve_verified(solving.get("sat", opts), read_cnf(path), "count")
    return res


def _write(tmp_path, text: str, name: str = "f.cnf"):
    f = tmp_path / name
    f.write_text(text)
    return f


def test_the_five_model_formula_counts_five_on_every_backend(tmp_path):
    f = _write(tmp_path, "p cnf 3 2\n-1 -2 0\n-2 -3 0\n")
    for backend in BACKENDS:
        for certify in (False, True) if backend in PROOF_BACKENDS else (False,):
            res = _count(f, backend, certify)
            assert (res.status, res.count) == (solving.Status.SOLVED, 5), (backend, certify)
            assert res.evidence == ("enumerated" if certify else f"enumerated, complete as claimed by {backend}")


def test_declared_variables_no_clause_uses_are_free_and_counted(tmp_path):
    f = _write(tmp_path, "p cnf 5 1\n1 0\n")
    assert read_cnf(f).n_vars == 5 and read_cnf(f).summary()["variables_used"] == 1
    assert _count(f, "cadical195", True).count == 16


def test_a_projection_is_what_a_count_is_over(tmp_path):
    for line in ("c p show 1 3 0\n", "c ind 1 0\nc ind 3 0\n"):
        f = _write(tmp_path, line + "p cnf 3 2\n-1 -2 0\n-2 -3 0\n")
        assert read_cnf(f).projection == (1, 3)
        assert _count(f, "cadical195", False).count == brute(3, [[-1, -2], [-2, -3]], projection=(1, 3)) == 4


def test_knf_cardinality_lines_are_constraints(tmp_path):
    f = _write(tmp_path, "p knf 3 1\nk 2 1 2 3 0\n", "f.knf")
    for backend in ("cadical195", "minicard"):
        assert _count(f, backend, False).count == brute(3, [], atleast=[([1, 2, 3], 2)]) == 4


formulas = st.integers(1, 6).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.lists(
            st.lists(st.integers(1, n).flatmap(lambda v: st.sampled_from((v, -v))), min_size=1, max_size=3), max_size=8
        ),
        st.one_of(st.none(), st.lists(st.integers(1, n), min_size=1, max_size=n, unique=True)),
    )
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(formulas, st.sampled_from(BACKENDS), st.booleans())
def test_counts_agree_with_a_brute_force_counter(tmp_path, formula, backend, certify):
    n, clauses, projection = formula
    certify = certify and backend in PROOF_BACKENDS
    text = ""
    if projection is not None:
        text += "c p show " + " ".join(map(str, projection)) + " 0\n"
    text += f"p cnf {n} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)
    f = _write(tmp_path, text)
    want = brute(n, clauses, projection=None if projection is None else sorted(projection))
    res = _count(f, backend, certify)
    if want == 0:
        assert res.status == solving.Status.UNSAT
    else:
        assert (res.status, res.count) == (solving.Status.SOLVED, want), (text, backend, certify)


@pytest.mark.skipif(not shutil.which("cadical"), reason="the cadical binary is not installed (apt-get install cadical)")
def test_an_external_binary_counts_models_too(tmp_path):
    f = _write(tmp_path, "c p show 1 3 0\np cnf 4 2\n-1 -2 0\n-2 -3 0\n")
    res, _ = solving.solve_verified(solving.get("external", {"cmd": "cadical"}), read_cnf(f), "count")
    assert res.count == 4 * 1  # variable 4 is outside the projection: not counted


@pytest.mark.parametrize(
    "text,says",
    [
        ("p cnf 3 1\n1 +2 0\n", "not a literal"),
        ("p cnf 3 1\n1 0x2 0\n", "not a literal"),
        ("p cnf 3 1\n1 1_0 0\n", "not a literal"),
        ("p cnf 2147483648 1\n1 0\n", "at most"),
        ("p cnf 3 1\n1 2147483648 0\n", "past the 3"),
        ("c p show 9 0\np cnf 3 1\n1 0\n", "past the 3"),
        ("p cnf 3 1\nk 2 1 2 0\n", "outside a 'p knf'"),
    ],
)
def test_bad_formulas_are_refused_in_one_line(tmp_path, text, says):
    with pytest.raises(InputError, match=says) as e:
        read_cnf(_write(tmp_path, text))
    assert "\n" not in str(e.value)


def test_a_damaged_or_huge_compressed_stream_is_one_line_and_capped(tmp_path, monkeypatch):
    import gzip

    import puzzles.kinds.cnf_formula as cf

    bad = tmp_path / "d.cnf.gz"
    bad.write_bytes(gzip.compress(b"p cnf 2 1\n1 2 0\n")[:-12] + b"garbage!")
    with pytest.raises(InputError, match="damaged"):
        read_cnf(bad)
    big = tmp_path / "b.cnf.gz"
    big.write_bytes(gzip.compress(b"p cnf 2 1\n" + b"c " + b"x" * 5_000_000 + b"\n1 2 0\n"))
    monkeypatch.setattr(cf, "MAX_CNF_BYTES", 1 << 20)
    with pytest.raises(InputError, match="larger than"):
        read_cnf(big)
