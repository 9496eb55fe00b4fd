"""`eternity open`: Selby's split: the half a challenger names, opened."""

from __future__ import annotations

import json

from eternity.commands.common import EXIT_OK, SPLIT_CAVEAT, _load, _solution, _write


def _json_file(path: str):
    from puzzles.files.formats import _json, read_text

    return _json(path, read_text(path))


def cmd_open(a) -> int:
    """Run `eternity open` with the parsed arguments ``a``; returns the exit status."""
    from puzzles.proofs import split

    p, ph = _load(a)
    sol, _ = _solution(p, a.solution)
    c = split.read_commitment(_json_file(a.commitment), a.commitment, ph, p)
    half = split.open_half(p, sol, c, a.side)
    _write(a.output, json.dumps(half, indent=1) + "\n")
    print(f"opened the {a.side} half: {len(half['placements'])} placements in {a.output}")
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity open` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "open",
        help="Selby's split: open the half a challenger names",
        description="Write the half of the solution on the named side, with its salt. " + SPLIT_CAVEAT,
    )
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument("commitment")
    s.add_argument("--side", required=True, choices=["left", "right"], help="the challenger's choice")
    s.add_argument("-o", "--output", required=True, metavar="HALF")
    s.set_defaults(func=cmd_open, outputs={"output": "file"})
