"""Seed 004's compact board state, computed: a tile as (id, x, y, orientation) in bit fields, its bytes unpacked
and packed, and the seed's figures held to the arithmetic, beside the beam's own codec (``baseline.beam.codec``).

The seed stores a tile as its id in 8 bits (tile 256 written as 0), x and y in 4 bits each (16 written as 0),
and its orientation in 2 bits (quarter turns; 9 bits if kept in degrees): 18 bits, which a byte-aligned record
holds in 3 bytes with 6 bits (25%) wasted.  Packed end to end, tiles meet a byte boundary every 4 tiles: 72 bits,
**9 bytes**, where the seed says "4 tiles every 11 bytes".  The beam stores a state in a known fill order, where
a cell is implied by its depth: a tile is its piece and turn, 10 bits for 256 pieces.

``layout`` derives every figure from the board's size and piece count; ``pack`` and ``unpack`` carry out the
seed's packing on a real board, so the byte counts are those of bytes written and read back."""

from __future__ import annotations

import math
from typing import Any

SEED_TILES_PER_11_BYTES = 4  # the seed's words: "So we can store 4 tiles every 11 bytes with zero wasted storage"
SEED_DEGREE_BITS = 9  # "360 degrees ... will fit in 9 bits"


def _bits(n: int) -> int:
    """Bits of a field holding 1..n, with n written as 0 (the seed's trick): ceil(log2 n)."""
    return max(1, math.ceil(math.log2(n)))


def layout(rows: int, cols: int, n_pieces: int) -> dict[str, Any]:
    """Every figure of seed 004's layout for a board of ``rows`` x ``cols`` and ``n_pieces`` tiles."""
    from baseline.beam.codec import bits_per_tile

    fields = {"id": _bits(n_pieces), "x": _bits(cols), "y": _bits(rows), "orientation": 2}
    tile = sum(fields.values())
    record = math.ceil(tile / 8)  # bytes of a byte-aligned tile record
    group = 8 // math.gcd(tile, 8)  # tiles until the packed bits meet a byte boundary
    n = rows * cols
    beam = bits_per_tile(n_pieces)
    return {
        "fields": fields,
        "tile_bits": tile,
        "tile_bits_in_degrees": tile - 2 + SEED_DEGREE_BITS,
        "record_bytes": record,
        "record_waste_bits": 8 * record - tile,
        "record_waste_share": (8 * record - tile) / (8 * record),
        "group_tiles": group,
        "group_bytes": group * tile // 8,
        "seed_group_bytes": 11,
        "seed_error": f"{SEED_TILES_PER_11_BYTES} tiles of {tile} bits are {SEED_TILES_PER_11_BYTES * tile} bits: "
        f"{SEED_TILES_PER_11_BYTES * tile // 8} bytes, not 11",
        "board_tiles": n,
        "board_bytes_records": n * record,
        "board_bytes_packed": math.ceil(n * tile / 8),
        "beam_bits_per_tile": beam,
        "beam_board_bytes": math.ceil(n * beam / 8),
    }


def pack(placements, rows: int, cols: int, n_pieces: int) -> bytes:
    """Seed 004's packing of a board: each tile's fields (id 1..n with n as 0, x and y from 1 with the largest
    as 0, quarter turns), most significant bit first, tiles end to end."""
    f = layout(rows, cols, n_pieces)["fields"]
    acc, nbits = 0, 0
    for cell, piece, rot in placements:
        r, c = divmod(int(cell), cols)
        tid, x, y = (int(piece) + 1) % (1 << f["id"]), (c + 1) % (1 << f["x"]), (rows - r) % (1 << f["y"])
        for value, width in ((tid, f["id"]), (x, f["x"]), (y, f["y"]), (int(rot) % 4, 2)):
            acc = (acc << width) | value
            nbits += width
    pad = (-nbits) % 8
    return (acc << pad).to_bytes((nbits + pad) // 8, "big") if nbits else b""


def unpack(data: bytes, n_tiles: int, rows: int, cols: int, n_pieces: int) -> list[tuple[int, int, int]]:
    """The board ``pack`` wrote: (cell, piece, rotation) a tile, in the order packed."""
    f = layout(rows, cols, n_pieces)["fields"]
    tile = sum(f.values())
    acc = int.from_bytes(data, "big") >> (len(data) * 8 - n_tiles * tile)
    out = []
    for k in range(n_tiles):
        v = (acc >> ((n_tiles - 1 - k) * tile)) & ((1 << tile) - 1)
        rot = v & 3
        y = (v >> 2) & ((1 << f["y"]) - 1) or rows
        x = (v >> (2 + f["y"])) & ((1 << f["x"]) - 1) or cols
        tid = (v >> (2 + f["y"] + f["x"])) or n_pieces
        out.append(((rows - y) * cols + (x - 1), tid - 1, rot))
    return out


def round_trip(puzzle, placements) -> dict[str, Any]:
    """A real board packed both ways (the seed's and the beam's) and read back: the bytes each wrote and
    whether the board came back whole."""
    import numpy as np

    from baseline.beam.codec import pack as beam_pack
    from baseline.beam.codec import unpack as beam_unpack

    pl = sorted((int(c), int(q), int(r)) for c, q, r in placements)
    data = pack(pl, puzzle.rows, puzzle.cols, puzzle.n_pieces)
    back = unpack(data, len(pl), puzzle.rows, puzzle.cols, puzzle.n_pieces)
    pieces = np.array([[q for _, q, _ in pl]])
    rots = np.array([[r for _, _, r in pl]])
    packed = beam_pack(pieces, rots, puzzle.n_pieces)
    bq, br = beam_unpack(packed, len(pl), puzzle.n_pieces)
    beam_back = [(c, int(q), int(r)) for (c, _, _), q, r in zip(pl, bq[0], br[0])]
    return {
        "tiles": len(pl),
        "seed_bytes": len(data),
        "seed_round_trip": back == pl,
        "beam_bytes": int(packed.shape[1]),
        "beam_round_trip": beam_back == pl,
    }
