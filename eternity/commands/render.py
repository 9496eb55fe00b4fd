"""`eternity render`: SVG pictures of puzzles and solutions."""

from __future__ import annotations

from puzzles.errors import UsageError
from puzzles.puzzle import EDGES


def cmd_render(a) -> int:
    """Run `eternity render` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.files import formats
    from puzzles.files.render import render

    p = catalog.load(a.puzzle)
    if a.pieces:
        if a.solution:
            raise UsageError("render: --pieces draws the piece sheet; give no solution")
        if EDGES in p.features:  # the edge-matching picture without a solution is its piece sheet
            formats.atomic_write(a.output, render(p, None))
            return 0
        if p.grid_name is None:
            raise UsageError(f"render --pieces: {a.puzzle} has no pieces")
        from puzzles.files.render import render_piece_sheet

        formats.atomic_write(a.output, render_piece_sheet(p))
        return 0
    sol = formats.read_solution(p, a.solution) if a.solution else None
    formats.atomic_write(a.output, render(p, sol))
    return 0


def add(sub) -> None:
    """Declare `eternity render` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("render", help="SVG picture of a puzzle or a solution")
    s.add_argument("puzzle")
    s.add_argument("solution", nargs="?")
    s.add_argument("--pieces", action="store_true", help="a catalogue sheet of the pieces")
    s.add_argument("-o", "--output", required=True, help="the SVG file to write (a name ending in .svg)")
    s.set_defaults(func=cmd_render, outputs={"output": "svg"})
