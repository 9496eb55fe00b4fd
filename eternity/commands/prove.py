"""`eternity prove`: a zero-knowledge proof of a solution or a score."""

from __future__ import annotations

import time

from eternity.commands.common import EXIT_OK, _load, _solution, _write
from puzzles.errors import InputError, UsageError
from puzzles.files.formats import MAX_FILE_BYTES
from puzzles.ranges import arg


def cmd_prove(a) -> int:
    """Run `eternity prove` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.proofs import zk

    p, ph = _load(a)
    sol, rep = _solution(p, a.solution)
    if a.score is None and rep.mismatches:
        raise InputError(
            a.solution, None, f"{len(rep.mismatches)} mismatched joins: give --score {rep.score} to prove the score"
        )
    if a.score is not None and rep.score is not None and a.score > rep.score:
        raise UsageError(f"prove: the board has {rep.score} matching joins, fewer than --score {a.score}")
    if a.rounds is not None and a.bits is not None:
        raise UsageError("prove: give --rounds or --bits, not both (each sets the proof's soundness)")
    rounds = a.rounds or zk.rounds_for(zk.DEFAULT_BITS if a.bits is None else a.bits)
    t0 = time.perf_counter()
    probe = len(zk.dumps(zk.prove(p, sol, ph, a.score, 1)))  # a round's size, before the whole proof is made
    if probe * rounds > MAX_FILE_BYTES:
        raise UsageError(
            f"prove: {rounds} rounds would make a proof of about {probe * rounds >> 20} MB, larger than the "
            f"{MAX_FILE_BYTES >> 20} MB check-proof reads; at most {MAX_FILE_BYTES // probe} rounds fit"
        )
    proof = zk.prove(p, sol, ph, a.score, rounds)
    text = zk.dumps(proof)
    if len(text.encode()) > MAX_FILE_BYTES:
        raise UsageError(f"prove: the proof is {len(text) >> 20} MB, larger than check-proof reads")
    _write(a.output, text)
    claim = f"a board with at least {a.score} matching joins" if a.score is not None else "a solution"
    print(
        f"proof of {claim}: {rounds} rounds, soundness error 2^-{zk.bits_of(rounds):.1f}, "
        f"{len(text):,} bytes, {time.perf_counter() - t0:.2f} s"
    )
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity prove` on the subcommand parsers ``sub``: its arguments and the function it runs."""
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
    s.add_argument("--bits", type=arg(int, 1, 128), help="soundness: error at most 2^-BITS (40)")
    s.add_argument(
        "--rounds",
        type=arg(int, 1, 1000),
        help="rounds instead of --bits (error (2/3)^rounds; check-proof refuses fewer than 69 unless its "
        "--min-bits is lowered)",
    )
    s.add_argument("-o", "--output", required=True, metavar="PROOF")
    s.set_defaults(func=cmd_prove, outputs={"output": "file"})
