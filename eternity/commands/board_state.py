"""`eternity board-state`: seed 004's compact board state computed (its tile layout, its byte counts and the
seed's 11-byte error) beside the beam's codec, and both carried out on a real board
(``experiments.studies.board_state``)."""

from __future__ import annotations

from eternity.commands.common import EXIT_OK, _out


def cmd_board_state(a) -> int:
    """Run `eternity board-state` with the parsed arguments ``a``; returns the exit status."""
    from experiments.studies import board_state as B
    from puzzles import catalog
    from puzzles.errors import UsageError
    from puzzles.files import formats
    from puzzles.puzzle import EDGES

    p = catalog.load(a.puzzle)
    if EDGES not in p.features:
        raise UsageError(f"board-state: {a.puzzle} is not an edge-matching board (seed 004 stores square tiles)")
    lay = B.layout(p.rows, p.cols, p.n_pieces)
    if a.solution:
        board = [(pl.cell, pl.piece, pl.rotation) for pl in formats.read_solution(p, a.solution)]
        said = a.solution
    else:  # any full board does: the codec stores placements, it does not judge them
        board = [(k, k % p.n_pieces, k % 4) for k in range(p.n_cells)]
        said = "piece k on cell k, turned k mod 4 (a full board; the codec does not judge it)"
    trip = B.round_trip(p, board)
    if a.json:
        _out({"puzzle": p.name, "layout": lay, "round_trip": {**trip, "board": said}})
        return EXIT_OK
    f = lay["fields"]
    print(f"seed 004's tile record on {p.rows}x{p.cols} with {p.n_pieces} tiles: id {f['id']} bits (tile "
          f"{p.n_pieces} as 0), x {f['x']} bits, y {f['y']} bits, orientation {f['orientation']} bits "
          f"(in degrees: {lay['tile_bits_in_degrees']} bits): {lay['tile_bits']} bits a tile")  # fmt: skip
    print(f"  byte-aligned: {lay['record_bytes']} bytes a tile, {lay['record_waste_bits']} bits wasted "
          f"({lay['record_waste_share']:.0%}); a board {lay['board_bytes_records']} bytes")  # fmt: skip
    print(f"  packed end to end: a byte boundary every {lay['group_tiles']} tiles = {lay['group_bytes']} bytes; a "
          f"board {lay['board_bytes_packed']} bytes")  # fmt: skip
    print(f"  the seed's figure: 4 tiles every {lay['seed_group_bytes']} bytes; in fact {lay['seed_error']}")
    print(f"the beam's codec (baseline/beam/codec.py): the cell implied by the fill order, {lay['beam_bits_per_tile']} "
          f"bits a tile (piece and turn); a board {lay['beam_board_bytes']} bytes")  # fmt: skip
    ok = {True: "read back whole", False: "NOT read back whole"}
    print(f"carried out on {said}: seed 004's packing {trip['seed_bytes']} bytes, {ok[trip['seed_round_trip']]}; "
          f"the beam's {trip['beam_bytes']} bytes, {ok[trip['beam_round_trip']]}")  # fmt: skip
    return EXIT_OK


def add(sub) -> None:
    """Declare `eternity board-state` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "board-state",
        help="seed 004's compact board state: its layout and byte counts computed, beside the beam's codec",
    )
    s.add_argument("puzzle", nargs="?", default="eternity2", help="an edge-matching puzzle (default: eternity2)")
    s.add_argument("solution", nargs="?", help="a board to pack and read back (default: a full board of its pieces)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_board_state)
