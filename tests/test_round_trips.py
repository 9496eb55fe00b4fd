"""The round trips a SAT researcher takes: every encoding's CNF, written by `eternity export --to dimacs` or
`eternity encode`, solved by an outside binary (CaDiCaL), read back by `eternity decode` into a verified board;
a KNF file read back by `eternity solve`."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from encoders import catalogue
from eternity.cli import main
from puzzles.files import formats
from puzzles.make import generate
from puzzles.verify import verify

CADICAL = shutil.which("cadical")
pytestmark = pytest.mark.skipif(not CADICAL, reason="the cadical binary is not installed (apt-get install cadical)")


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    d = tmp_path_factory.mktemp("rt")
    p, _ = generate.edge_puzzle(4, 4, 2, 3, seed=5)
    f = d / "b.json"
    formats.write_puzzle(p, f)
    return p, f


def _cadical(cnf, model) -> None:
    with open(model, "w") as out:
        r = subprocess.run([CADICAL, "-q", str(cnf)], stdout=out, timeout=120)
    assert r.returncode == 10, "cadical did not find the planted board satisfiable"


@pytest.mark.parametrize("name", sorted(catalogue.NAMED))
@pytest.mark.parametrize("how", ["export", "encode"])
def test_every_encoding_goes_out_to_a_binary_and_comes_back_a_verified_board(board, tmp_path, name, how, capsys):
    p, f = board
    cnf, model, out = tmp_path / "e.cnf", tmp_path / "m.txt", tmp_path / "s.json"
    if how == "export":
        assert main(["export", str(f), "--to", "dimacs", "--opt", f"encoding={name}", "-o", str(cnf)]) == 0
    else:
        assert main(["encode", str(f), "--encoding", name, "-o", str(cnf)]) == 0
        if catalogue.build(name, p).atmost:  # a KNF file: no DIMACS binary reads it; eternity solve does
            assert main(["solve", str(cnf), "--solver", "sat"]) == 0
            assert "solved (verified)" in capsys.readouterr().out
            return
    _cadical(cnf, model)
    assert main(["decode", str(f), "--from", str(cnf), "--model", str(model), "-o", str(out)]) == 0
    assert verify(p, formats.read_solution(p, out)).valid


def test_the_xcc_encodings_of_another_kind_come_back_too(tmp_path):
    cnf, model, out = tmp_path / "q.cnf", tmp_path / "m.txt", tmp_path / "s.json"
    for name in ("xcc", "xcc-colour-vars"):
        assert main(["encode", "queens-6", "--encoding", name, "-o", str(cnf)]) == 0
        _cadical(cnf, model)
        assert main(["decode", "queens-6", "--from", str(cnf), "--model", str(model), "-o", str(out)]) == 0
