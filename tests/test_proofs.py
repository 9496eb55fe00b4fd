"""Holding a solution without showing it: Selby's split and the zero-knowledge proof.

Completeness on the clue puzzles, brendan-8x8, pentomino-6x10 and a 459 Eternity II board;
soundness against cheating witnesses and altered files; zero knowledge as far as a test can see
(no placement in an opened transcript; the opened values of two solutions' proofs alike)."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

import solving
from eternity.cli import main
from puzzles import catalog
from puzzles.errors import InputError
from puzzles.files import formats
from puzzles.kinds.edge import EdgePlacement
from puzzles.make import generate
from puzzles.proofs import zk

DATA = Path(__file__).resolve().parent.parent / "data"


def board(name):
    sol = catalog.known_solution(name)
    if sol is None:
        sol = solving.get("backtrack").solve(catalog.load(name), mode="first").solutions[0]
    return catalog.load(name), sol


def checks(p, proof: dict) -> bool:
    """Whether a proof checks round by round (the floor set to 0: these proofs are short on purpose)."""
    return zk.check(p, zk.dumps(proof), "proof", formats.puzzle_hash(p), min_bits=0)[0]


@pytest.mark.parametrize(
    "name",
    "eternity2-clue1 eternity2-clue2 eternity2-clue3 eternity2-clue4 brendan-8x8 pentomino-6x10 queens-8".split(),
)
def test_honest_proofs_check(name):
    p, sol = board(name)
    proof = zk.prove(p, sol, formats.puzzle_hash(p))
    assert proof["rounds"] == 69 and (2 / 3) ** 69 < 2**-40
    assert checks(p, proof)


def test_a_score_is_proven_without_the_board(tmp_path):
    e2 = str(DATA / "eternity2" / "beam_459.json")
    out = tmp_path / "p.json"
    assert main(["prove", "eternity2", e2, "--score", "459", "-o", str(out)]) == 0
    assert main(["check-proof", "eternity2", str(out)]) == 0
    assert json.loads(out.read_text())["score"] == 459
    assert main(["prove", "eternity2", e2, "--score", "460", "-o", str(tmp_path / "q.json")]) == 2
    p = catalog.load("eternity2")
    sol = formats.read_solution(p, e2)
    cheat = zk.prove(p, sol, formats.puzzle_hash(p), score=460, rounds=20, check_witness=False)
    assert not checks(p, cheat)  # one join more than the board has


def cheats():
    p, sol = board("eternity2-clue1")
    sol = [EdgePlacement(*pl) for pl in sorted(sol)]
    wrong_piece = list(sol)
    wrong_piece[7] = EdgePlacement(sol[7].cell, sol[20].piece, sol[7].rotation)  # also a repeated piece
    broken_join = list(sol)
    broken_join[14] = EdgePlacement(sol[14].cell, sol[14].piece, (sol[14].rotation + 2) % 4)
    swapped = list(sol)
    swapped[14], swapped[15] = (
        EdgePlacement(sol[14].cell, sol[15].piece, sol[15].rotation),
        EdgePlacement(sol[15].cell, sol[14].piece, sol[14].rotation),
    )
    other = catalog.known_solution("eternity2-clue3")  # a board of another 6x6 puzzle
    return p, {
        "wrong piece": wrong_piece,
        "broken join": broken_join,
        "two pieces swapped": swapped,
        "another puzzle's board": other,
    }


@pytest.mark.parametrize("what", ["wrong piece", "broken join", "two pieces swapped", "another puzzle's board"])
def test_cheating_witnesses_are_rejected(what):
    p, bad = cheats()
    proof = zk.prove(p, bad[what], formats.puzzle_hash(p), rounds=20, check_witness=False)
    assert not checks(p, proof)
    with pytest.raises(Exception, match="does not satisfy"):
        zk.prove(p, bad[what], formats.puzzle_hash(p), rounds=3)


def test_every_single_byte_change_is_rejected():
    p, sols = generate.edge_puzzle(2, 2, 1, 2, 5)
    ph = formats.puzzle_hash(p)
    text = zk.dumps(zk.prove(p, sols, ph, rounds=2))
    assert zk.check(p, text, "p", ph, min_bits=0)[0]
    raw = text.encode()
    accepted = []
    for i in range(len(raw)):
        for flip in (1, 0x20):
            b = bytearray(raw)
            b[i] ^= flip
            try:
                ok = zk.check(p, b.decode(), "p", ph, min_bits=0)[0]
            except (InputError, UnicodeDecodeError):
                ok = False
            if ok:
                accepted.append((i, flip))
    assert not accepted and len(raw) > 500


def opened_values(proof: dict) -> np.ndarray:
    import base64

    vals = []
    for o in proof["openings"]:
        for key in ("x2", "z"):
            if o[key] is not None:
                vals.append(np.frombuffer(base64.b64decode(o[key]), "<u8"))
    return np.concatenate(vals)


def test_transcripts_show_no_placement_and_two_solutions_look_alike():
    p = catalog.load("owen-a")
    sols = solving.get("edge-backtrack").solve(p, mode="all", limits=solving.Limits(solutions=2)).solutions
    assert len(sols) == 2 and sorted(sols[0]) != sorted(sols[1])
    ph = formats.puzzle_hash(p)
    hists = []
    for sol in sols:
        vals = np.concatenate([opened_values(zk.prove(p, sol, ph, rounds=12)) for _ in range(6)])
        # a colour, a piece number or a rotation would be a small number; opened shares are uniform in F_p
        assert np.count_nonzero(vals < 1 << 20) == 0
        hists.append(np.bincount((vals >> np.uint64(57)).astype(np.int64), minlength=16))  # top 4 of 61 bits
    assert chi2_contingency(np.array(hists)).pvalue > 1e-5  # fresh randomness each run: a false alarm 1 in 10^5


def test_bad_proof_files(tmp_path, capsys):
    p, sol = board("eternity2-clue1")
    good = tmp_path / "good.json"
    good.write_text(zk.dumps(zk.prove(p, sol, formats.puzzle_hash(p), rounds=3)))
    assert main(["check-proof", "eternity2-clue1", str(good), "--min-bits", "1"]) == 0
    assert main(["check-proof", "eternity2-clue1", str(good)]) == 1  # 3 rounds: below the default floor
    cases = {
        "other": ("eternity2-clue3", good.read_text()),
        "truncated": ("eternity2-clue1", good.read_text()[:1000]),
        "version": ("eternity2-clue1", good.read_text().replace('"version":1', '"version":2')),
    }
    for name, (puzzle, text) in cases.items():
        f = tmp_path / f"{name}.json"
        f.write_text(text)
        capsys.readouterr()
        assert main(["check-proof", puzzle, str(f)]) == 2, name
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(f) in err[0], (name, err)


@pytest.mark.parametrize(
    "name,solution",
    [("eternity2-clue2", None), ("eternity1-boomerang", DATA / "eternity1" / "boomerang_solution.json")],
)
def test_selby_split_end_to_end(tmp_path, name, solution):
    sol = tmp_path / "sol.json"
    if solution is None:
        assert main(["export", name, "--to", "solution", "-o", str(sol)]) == 0
    else:
        sol.write_text(Path(solution).read_text())
    com = tmp_path / "c.json"
    assert main(["commit", name, str(sol), "-o", str(com)]) == 0
    c = json.loads(com.read_text())
    assert c["left"]["cells"] and "placements" not in json.dumps(c)
    for side in ("left", "right"):
        half = tmp_path / f"{side}.json"
        assert main(["open", name, str(sol), str(com), "--side", side, "-o", str(half)]) == 0
        assert main(["verify", name, str(half), "--commitment", str(com)]) == 0
        # a half with one placement left out no longer matches its commitment
        short = json.loads(half.read_text())
        short["placements"] = short["placements"][:-1]
        bad = tmp_path / f"{side}-bad.json"
        bad.write_text(json.dumps(short))
        assert main(["verify", name, str(bad), "--commitment", str(com)]) == 1


def test_a_one_round_proof_is_refused_by_the_floor(tmp_path, capsys):
    """The prover chooses the rounds, so a forger picks one: a round of a false statement passes with
    probability up to 2/3.  The floor refuses a proof that weak before any round of it is looked at: an honest
    one-round proof and one whose only round is garbage are refused alike, with the same reason."""
    p, sol = board("eternity2-clue1")
    ph = formats.puzzle_hash(p)
    honest = zk.prove(p, sol, ph, rounds=1)
    assert checks(p, honest)
    garbage = {**honest, "challenge": "00" * 32}
    assert not checks(p, garbage)
    for name, proof in (("honest", honest), ("garbage", garbage)):
        f = tmp_path / f"{name}.json"
        f.write_text(zk.dumps(proof))
        capsys.readouterr()
        assert main(["check-proof", "eternity2-clue1", str(f)]) == 1, name
        out = capsys.readouterr().out
        assert "refused" in out and "2^-0.6" in out and "2^-40" in out, out
    assert main(["check-proof", "eternity2-clue1", str(tmp_path / "honest.json"), "--min-bits", "0"]) == 0
    assert main(["check-proof", "eternity2-clue1", str(tmp_path / "garbage.json"), "--min-bits", "0"]) == 1


def test_prove_refuses_what_check_proof_would_not_read(tmp_path, capsys, monkeypatch):
    from eternity.commands import prove

    monkeypatch.setattr(prove, "MAX_FILE_BYTES", 2**20)  # a round of Eternity II's score is 33 KB
    e2 = str(DATA / "eternity2" / "beam_459.json")
    capsys.readouterr()
    args = ["prove", "eternity2", e2, "--score", "459", "-o", str(tmp_path / "p.json")]
    assert main(args + ["--rounds", "100"]) == 2
    assert "rounds fit" in capsys.readouterr().err and not (tmp_path / "p.json").exists()
    assert main(args + ["--rounds", "80", "--bits", "40"]) == 2
    assert "not both" in capsys.readouterr().err


def test_the_split_cheat_on_a_puzzle_with_no_solution_is_caught():
    """Two pieces on a 1x2 board whose inner sides differ: no solution.  Each side alone is tiled, so
    without the cut's colours both halves of a hand-made commitment verify.  With them, whatever colour
    the cheat commits to, one of the two halves shows another."""
    from puzzles.kinds.edge import EdgePuzzle
    from puzzles.proofs import split

    p = EdgePuzzle(rows=1, cols=2, pieces=[[0, 1, 0, 0], [0, 0, 0, 2]])
    assert solving.get("edge-backtrack").solve(p, mode="count").count == 0
    ph = formats.puzzle_hash(p)
    left_half, right_half = [EdgePlacement(0, 0, 0)], [EdgePlacement(1, 1, 0)]
    salt = bytes(32)
    halves = {
        side: {
            "format": split.HALF_FORMAT, "version": split.VERSION, "puzzle": ph, "side": side, "salt": salt.hex(),
            "placements": split._placements(p, half),
        }
        for side, half in (("left", left_half), ("right", right_half))
    }  # fmt: skip
    caught = []
    for colour in (1, 2, 3):
        c = {
            "format": split.COMMIT_FORMAT, "version": split.VERSION, "puzzle": ph, "nonce": "00" * 16,
            "left": {"cells": ["A1"], "pieces": ["1"]}, "cut": {"A1:E": colour},
            "commitments": {s: split._digest(salt, h["placements"]) for s, h in halves.items()},
        }  # fmt: skip
        c = split.read_commitment(c, "c.json", ph, p)
        bad = [s for s, h in halves.items() if split.verify_half(p, h, f"{s}.json", c, ph)]
        assert bad, f"cut colour {colour}: both halves verify"
        caught.append(bad)
    assert caught == [["right"], ["left"], ["left", "right"]]
    # a commitment without the cut's colours is not read for an edge puzzle
    with pytest.raises(InputError, match="cut"):
        split.read_commitment({k: v for k, v in c.items() if k != "cut"}, "c.json", ph, p)
