"""`eternity check-proof`: a zero-knowledge proof checked."""

from __future__ import annotations

import time

from eternity.commands.common import EXIT_INVALID, EXIT_OK, _load


def cmd_check_proof(a) -> int:
    from puzzles.formats import read_text
    from puzzles.proofs import zk

    p, ph = _load(a)
    t0 = time.perf_counter()
    ok, d = zk.check(p, read_text(a.proof), a.proof, ph)
    claim = f"a board with at least {d['score']} matching joins" if d["score"] is not None else "a solution"
    if ok:
        print(
            f"the proof checks: the prover holds {claim} of {a.puzzle} (soundness error 2^-"
            f"{d['rounds'] * 0.5849625:.1f}; {time.perf_counter() - t0:.2f} s)"
        )
        return EXIT_OK
    print("the proof does NOT check")
    return EXIT_INVALID


def add(sub) -> None:
    s = sub.add_parser("check-proof", help="check a zero-knowledge proof (exit 0 checks, 1 does not, 2 bad input)")
    s.add_argument("puzzle")
    s.add_argument("proof")
    s.set_defaults(func=cmd_check_proof)
