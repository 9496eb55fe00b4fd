"""`eternity check-proof`: a zero-knowledge proof checked, against a floor of soundness."""

from __future__ import annotations

import time

from eternity.commands.common import EXIT_INVALID, EXIT_OK, _load
from puzzles.ranges import arg


def cmd_check_proof(a) -> int:
    """Run `eternity check-proof` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.files.formats import read_text
    from puzzles.proofs import zk

    p, ph = _load(a)
    t0 = time.perf_counter()
    ok, d = zk.check(p, read_text(a.proof), a.proof, ph, min_bits=a.min_bits)
    claim = f"a board with at least {d['score']} matching joins" if d["score"] is not None else "a solution"
    strength = f"soundness error 2^-{zk.bits_of(d['rounds']):.1f}, floor 2^-{a.min_bits:g}"
    if ok:
        print(
            f"the proof checks: the prover holds {claim} of {a.puzzle} ({strength}; {time.perf_counter() - t0:.2f} s)"
        )
        return EXIT_OK
    if d.get("refused"):
        print(f"the proof is refused: {d['refused']}")
        return EXIT_INVALID
    print(f"the proof does NOT check ({strength})")
    return EXIT_INVALID


def add(sub) -> None:
    """Declare `eternity check-proof` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "check-proof",
        help="check a zero-knowledge proof (exit 0 checks, 1 does not or is too weak, 2 bad input)",
        description="A proof's rounds are the prover's choice, so a proof weaker than the floor is refused "
        "before it is checked: a round of a false statement passes with probability up to 2/3.",
    )
    s.add_argument("puzzle")
    s.add_argument("proof")
    s.add_argument(
        "--min-bits",
        type=arg(float, 0, 128),
        default=float(40),
        help="the floor: refuse a proof whose soundness error is above 2^-MIN_BITS (40; 0 accepts any proof)",
    )
    s.set_defaults(func=cmd_check_proof)
