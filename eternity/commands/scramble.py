"""`eternity scramble`: an edge-matching board with its pieces shuffled and turned, seeded.

Published boards list their pieces in solved order; a comparison of solvers on them measures the file's
order, not the search.  The scrambled board is the same puzzle: the same solutions, up to the pieces'
new numbers and turns.
"""

from __future__ import annotations

import sys
from pathlib import Path

from eternity.commands.common import _refused
from puzzles.errors import UsageError
from puzzles.ranges import arg


def cmd_scramble(a) -> int:
    """Run `eternity scramble` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.files import formats, heule_board
    from puzzles.make.scramble import scramble, solved_order_share
    from puzzles.puzzle import EDGES

    p = catalog.load(a.puzzle)
    if EDGES not in p.features:
        raise UsageError(f"scramble: {a.puzzle} is a {p.kind} puzzle; scramble takes edge-matching boards")
    fmt = a.format
    if fmt is None:  # the input's own format, when it is a file
        path = Path(a.puzzle)
        fmt = "json"
        if path.is_file():
            text = path.read_text(errors="replace")
            fmt = "heule" if heule_board.looks_heule(text) else "json" if text.lstrip()[:1] in "{[" else "pieces"
    with _refused("scramble"):
        q = scramble(p, a.seed, name=a.name)
        formats.write_puzzle(q, a.output, fmt)
    print(
        f"wrote {a.output} ({fmt}): {q.n_pieces} pieces shuffled and turned with seed {a.seed}; "
        f"{solved_order_share(q):.0%} of the joins match as listed (was {solved_order_share(p):.0%})",
        file=sys.stderr,
    )
    return 0


def add(sub) -> None:
    """Declare `eternity scramble` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("scramble", help="an edge board with its pieces shuffled and turned (seeded)")
    s.add_argument("puzzle", help="a puzzle file or built-in name")
    s.add_argument("--seed", type=arg(int, 0), default=0, help="the shuffle's seed (default 0)")
    s.add_argument("--name", help="the scrambled puzzle's name (default: the original's)")
    s.add_argument("--format", choices=("json", "heule", "pieces"), help="the output's format (default: the input's)")
    s.add_argument("-o", "--output", required=True, help="the scrambled board's file")
    s.set_defaults(func=cmd_scramble, outputs={"output": "file"})
