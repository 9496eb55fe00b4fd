"""`eternity commit`: Selby's split: a commitment to both halves."""

from __future__ import annotations

import json

from eternity.commands.common import EXIT_OK, SPLIT_CAVEAT, _load, _solution, _write
from puzzles.errors import InputError


def cmd_commit(a) -> int:
    """Run `eternity commit` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.proofs import split

    p, ph = _load(a)
    sol, rep = _solution(p, a.solution)
    if rep.mismatches:
        raise InputError(a.solution, None, f"{len(rep.mismatches)} mismatched joins: the split proves a solution")
    c = split.commit(p, sol, ph)
    _write(a.output, json.dumps(c, indent=1) + "\n")
    print(
        f"committed: left {len(c['left']['pieces'])} pieces, right {len(sol) - len(c['left']['pieces'])}; "
        f"publish {a.output}, keep the solution"
    )
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity commit` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "commit",
        help="Selby's split: commit to both halves of a solution (publish the file)",
        description="Cut the solved board along piece edges into two halves, publish the boundary "
        "and the left side's pieces, and commit to each half with a salted SHA-256. " + SPLIT_CAVEAT,
    )
    s.add_argument("puzzle", help="puzzle file or built-in name")
    s.add_argument("solution", help="the solution file (kept secret)")
    s.add_argument("-o", "--output", required=True, metavar="COMMITMENT", help="the commitment to publish")
    s.set_defaults(func=cmd_commit, outputs={"output": "file"})
