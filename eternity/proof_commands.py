"""`eternity commit / open / prove / check-proof`, and `verify --commitment`: holding a solution
without showing it (``puzzles.proofs``; docs/PROOFS.md)."""

from __future__ import annotations

import json
import time

from puzzles.errors import InputError, UsageError

EXIT_OK, EXIT_INVALID = 0, 1

SPLIT_CAVEAT = ("A cheat who can tile only one side is caught half the time (repeat with fresh commitments), and "
                "the exchange convinces the challenger who chose the side, not a bystander.")


def _load(a):
    from puzzles import catalog, formats

    p = catalog.load(a.puzzle)
    return p, formats.puzzle_hash(p)


def _json_file(path: str):
    from puzzles.formats import _json, read_text

    return _json(path, read_text(path))


def _write(path: str, obj_text: str) -> None:
    """Write the output whole (the command line has refused, before any work, an output that is an input)."""
    from puzzles.outputs import atomic_write

    atomic_write(path, obj_text)


def _solution(p, path: str):
    from puzzles import formats
    from puzzles.verify import verify

    sol = formats.read_solution(p, path)
    rep = verify(p, sol, allow_mismatch=p.kind == "edge")
    if not (rep.legal and rep.complete):
        raise InputError(path, None, "not a complete legal board of this puzzle: " + "; ".join(rep.problems[:3]))
    return sol, rep


def cmd_commit(a) -> int:
    from puzzles.proofs import split

    p, ph = _load(a)
    sol, rep = _solution(p, a.solution)
    if rep.mismatches:
        raise InputError(a.solution, None, f"{len(rep.mismatches)} mismatched joins: the split proves a solution")
    c = split.commit(p, sol, ph)
    _write(a.output, json.dumps(c, indent=1) + "\n")
    print(f"committed: left {len(c['left']['pieces'])} pieces, right {len(sol) - len(c['left']['pieces'])}; "
          f"publish {a.output}, keep the solution")
    return EXIT_OK


def cmd_open(a) -> int:
    from puzzles.proofs import split

    p, ph = _load(a)
    sol, _ = _solution(p, a.solution)
    c = split.read_commitment(_json_file(a.commitment), a.commitment, ph)
    half = split.open_half(p, sol, c, a.side)
    _write(a.output, json.dumps(half, indent=1) + "\n")
    print(f"opened the {a.side} half: {len(half['placements'])} placements in {a.output}")
    return EXIT_OK


def verify_half(a, p, ph) -> int:
    from puzzles.proofs import split

    c = split.read_commitment(_json_file(a.commitment), a.commitment, ph)
    problems = split.verify_half(p, _json_file(a.solution), a.solution, c, ph)
    for m in problems:
        print(m)
    print("the half checks against the commitment" if not problems else "INVALID")
    return EXIT_OK if not problems else EXIT_INVALID


def cmd_prove(a) -> int:
    from puzzles.proofs import zk

    p, ph = _load(a)
    sol, rep = _solution(p, a.solution)
    if a.score is None and rep.mismatches:
        raise InputError(a.solution, None, f"{len(rep.mismatches)} mismatched joins: give --score "
                                           f"{rep.score} to prove the score")
    if a.score is not None and rep.score is not None and a.score > rep.score:
        raise UsageError(f"prove: the board has {rep.score} matching joins, fewer than --score {a.score}")
    rounds = a.rounds or zk.rounds_for(a.bits)
    t0 = time.perf_counter()
    proof = zk.prove(p, sol, ph, a.score, rounds)
    text = zk.dumps(proof)
    _write(a.output, text)
    claim = f"a board with at least {a.score} matching joins" if a.score is not None else "a solution"
    print(f"proof of {claim}: {rounds} rounds, soundness error 2^-{rounds * 0.5849625:.1f}, "
          f"{len(text):,} bytes, {time.perf_counter() - t0:.2f} s")
    return EXIT_OK


def cmd_check_proof(a) -> int:
    from puzzles.formats import read_text
    from puzzles.proofs import zk

    p, ph = _load(a)
    t0 = time.perf_counter()
    ok, d = zk.check(p, read_text(a.proof), a.proof, ph)
    claim = f"a board with at least {d['score']} matching joins" if d["score"] is not None else "a solution"
    if ok:
        print(f"the proof checks: the prover holds {claim} of {a.puzzle} (soundness error 2^-"
              f"{d['rounds'] * 0.5849625:.1f}; {time.perf_counter() - t0:.2f} s)")
        return EXIT_OK
    print("the proof does NOT check")
    return EXIT_INVALID


def add_commands(sub, arg) -> None:
    s = sub.add_parser("commit", help="Selby's split: commit to both halves of a solution (publish the file)",
                       description="Cut the solved board along piece edges into two halves, publish the boundary "
                                   "and the left side's pieces, and commit to each half with a salted SHA-256. "
                                   + SPLIT_CAVEAT)
    s.add_argument("puzzle", help="puzzle file or built-in name")
    s.add_argument("solution", help="the solution file (kept secret)")
    s.add_argument("-o", "--output", required=True, metavar="COMMITMENT", help="the commitment to publish")
    s.set_defaults(func=cmd_commit, outputs={"output": "file"})

    s = sub.add_parser("open", help="Selby's split: open the half a challenger names",
                       description="Write the half of the solution on the named side, with its salt. "
                                   + SPLIT_CAVEAT)
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument("commitment")
    s.add_argument("--side", required=True, choices=["left", "right"], help="the challenger's choice")
    s.add_argument("-o", "--output", required=True, metavar="HALF")
    s.set_defaults(func=cmd_open, outputs={"output": "file"})

    s = sub.add_parser("prove", help="a zero-knowledge proof of a solution (or of a score), without showing it",
                       description="MPC-in-the-head (ZKB++) with Fiat-Shamir over SHA-256: anyone can check the "
                                   "proof with check-proof; it shows nothing of the board (docs/PROOFS.md).")
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument("--score", type=arg(int, 0, 10**6), help="edge matching: prove a board with at least this many "
                                                           "matching joins (the Eternity II score)")
    s.add_argument("--bits", type=arg(int, 1, 128), default=40, help="soundness: error at most 2^-BITS (40)")
    s.add_argument("--rounds", type=arg(int, 1, 1000), help="rounds instead of --bits (error (2/3)^rounds)")
    s.add_argument("-o", "--output", required=True, metavar="PROOF")
    s.set_defaults(func=cmd_prove, outputs={"output": "file"})

    s = sub.add_parser("check-proof", help="check a zero-knowledge proof (exit 0 checks, 1 does not, 2 bad input)")
    s.add_argument("puzzle")
    s.add_argument("proof")
    s.set_defaults(func=cmd_check_proof)
