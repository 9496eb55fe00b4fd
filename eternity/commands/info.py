"""`eternity info`: sizes, pieces and colours of a puzzle."""

from __future__ import annotations

import sys

from eternity.commands.common import _out
from puzzles.puzzle import EDGES


def cmd_info(a) -> int:
    """Run `eternity info` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.files import formats

    p = catalog.load(a.puzzle)
    info = p.summary()
    info["hash"] = formats.puzzle_hash(p)
    if catalog.is_builtin(a.puzzle):
        info["description"] = catalog.describe(a.puzzle)
        info["known_solution"] = catalog.known_solution(a.puzzle) is not None
    if EDGES in p.features:
        frame, inner = p.colour_classes()
        info["frame_color_ids"], info["inner_color_ids"] = frame, inner
        from puzzles.make.scramble import solved_order_share, solved_order_warning

        info["joins_matching_as_listed"] = round(solved_order_share(p), 4)
        warning = solved_order_warning(p, a.puzzle)
        if warning:
            print(f"warning: {warning}", file=sys.stderr)
        if p.bordered and min(p.rows, p.cols) >= 2:
            from puzzles.errors import UsageError
            from puzzles.estimates import estimate

            try:
                info["owen_log10_expected_solutions"] = round(estimate.log_expected_solutions(p), 4)
                info["symmetry"] = estimate.symmetry_factors(p)
            except UsageError as e:  # a board too large for the model: the rest of the summary stands
                info["owen_log10_expected_solutions"] = None
                info["owen"] = f"not computed: {e}"
    if getattr(p, "grid_name", None) == "drafter":  # Cazenave's polydudes: no hole, no 30 degree corner
        from puzzles.forms.enumeration import has_hole
        from puzzles.kinds.grids import get_grid
        from puzzles.kinds.partition import has_30_degree_corner

        grid = get_grid("drafter")
        info["pieces_with_30_degree_corners"] = sum(has_30_degree_corner(grid, q.cells) for q in p.pieces)
        info["pieces_with_holes"] = sum(has_hole(grid, q.cells) for q in p.pieces)
        from puzzles.forms.drafter_count import is_polydude

        info["pieces_not_polydudes"] = sum(not is_polydude(q.cells) for q in p.pieces)
    if a.json:
        _out(info)
    else:
        for k, v in info.items():
            print(f"{k:>16}: {_shown(v)}")
    return 0


def _shown(v):
    """A value for a person: integers of hundreds of digits (a symmetry factor of identical pieces)
    shortened; ``--json`` keeps them exact."""
    from puzzles.files.formats import shown_int

    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return shown_int(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {_shown(x)}" for k, x in v.items()) + "}"
    return v


def add(sub) -> None:
    """Declare `eternity info` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("info", help="sizes, pieces, colours of a puzzle")
    s.add_argument("puzzle")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_info)
