"""`eternity prove`: a zero-knowledge proof of a solution or a score."""

from __future__ import annotations

import time

from eternity.commands.common import EXIT_OK, _load, _solution, _write
from puzzles.errors import InputError, UsageError
from puzzles.ranges import arg


def cmd_prove(a) -> int:
    from puzzles.proofs import zk

    p, ph = _load(a)
    sol, rep = _solution(p, a.solution)
    if a.score is None and rep.mismatches:
        raise InputError(
            a.solution, None, f"{len(rep.mismatches)} mismatched joins: give --score {rep.score} to prove the score"
        )
    if a.score is not None and rep.score is not None and a.score > rep.score:
        raise UsageError(f"prove: the board has {rep.score} matching joins, fewer than --score {a.score}")
    rounds = a.rounds or zk.rounds_for(a.bits)
    t0 = time.perf_counter()
    proof = zk.prove(p, sol, ph, a.score, rounds)
    text = zk.dumps(proof)
    _write(a.output, text)
    claim = f"a board with at least {a.score} matching joins" if a.score is not None else "a solution"
    print(
        f"proof of {claim}: {rounds} rounds, soundness error 2^-{rounds * 0.5849625:.1f}, "
        f"{len(text):,} bytes, {time.perf_counter() - t0:.2f} s"
    )
    return EXIT_OK


def add(sub) -> None:
    s = sub.add_parser(
        "prove",
        help="a zero-knowledge proof of a solution (or of a score), without showing it",
        description="MPC-in-the-head (ZKB++) with Fiat-Shamir over SHA-256: anyone can check the "
        "proof with check-proof; it shows nothing of the board (docs/PROOFS.md).",
    )
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument(
        "--score",
        type=arg(int, 0, 10**6),
        help="edge matching: prove a board with at least this many matching joins (the Eternity II score)",
    )
    s.add_argument("--bits", type=arg(int, 1, 128), default=40, help="soundness: error at most 2^-BITS (40)")
    s.add_argument("--rounds", type=arg(int, 1, 1000), help="rounds instead of --bits (error (2/3)^rounds)")
    s.add_argument("-o", "--output", required=True, metavar="PROOF")
    s.set_defaults(func=cmd_prove, outputs={"output": "file"})
