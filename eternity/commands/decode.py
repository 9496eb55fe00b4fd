"""`eternity decode`: an outside SAT solver's model turned back into a solution."""

from __future__ import annotations

from eternity.commands.common import EXIT_INVALID, EXIT_OK


def cmd_decode(a) -> int:
    """Run `eternity decode` with the parsed arguments ``a``; returns the exit status."""
    from encoders.dimacs import decode
    from puzzles import catalog
    from puzzles.files import formats
    from puzzles.verify import verify

    p = catalog.load(a.puzzle)
    sol = decode(p, getattr(a, "from"), a.model)
    rep = verify(p, sol)
    if not rep.valid:  # an invalid board is not written: a solution file holds solutions only
        print("INVALID: " + "; ".join(rep.problems[:3]) + f"; nothing written to {a.output}")
        return EXIT_INVALID
    formats.write_solution(p, sol, a.output)
    print(f"valid, written to {a.output}")
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity decode` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("decode", help="turn an external SAT solver's model of an exported CNF into a solution")
    s.add_argument("puzzle")
    s.add_argument("--from", required=True, metavar="FILE.cnf")
    s.add_argument("--model", required=True, metavar="MODEL")
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_decode, outputs={"output": "file"})
