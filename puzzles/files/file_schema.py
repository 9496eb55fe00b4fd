"""The pydantic models of the puzzle and solution files (``puzzles.files.formats`` reads and writes them): what a
file may hold, checked field by field, so that a bad value is one line naming its field."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, conint, conlist, field_validator

from puzzles.kinds.edge import parse_cell_name
from puzzles.ranges import MAX_SIDE


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class FixedModel(_Strict):
    """A fixed piece of an edge-matching file: its cell, piece and rotation."""

    cell: str
    piece: conint(ge=1)  # type: ignore[valid-type]
    rotation: conint(ge=0, le=3)  # type: ignore[valid-type]

    @field_validator("cell")
    @classmethod
    def _cell(cls, v: str) -> str:
        parse_cell_name(v)
        return v


MAX_COLOUR = 2000  # an edge colour (Eternity II has 22; the generators make at most 2 x 1000)
MAX_COORD = 100_000  # a polyform coordinate, either sign
MAX_REGION = 1_000_000  # cells of a polyform region
MAX_COPIES = 100_000  # copies of one polyform piece
Coord = conint(ge=-MAX_COORD, le=MAX_COORD)


class EdgeModel(_Strict):
    """An edge-matching puzzle file (format ``eternity/edge``)."""

    format: Literal["eternity/edge"]
    version: Literal[1]
    name: str = ""
    rows: conint(ge=1, le=MAX_SIDE)  # type: ignore[valid-type]
    cols: conint(ge=1, le=MAX_SIDE)  # type: ignore[valid-type]
    pieces: list[conlist(conint(ge=0, le=MAX_COLOUR), min_length=4, max_length=4)]  # type: ignore[valid-type]
    fixed: list[FixedModel] = []


class PolyPieceModel(_Strict):
    """A polyform piece: its name, cells and number of copies."""

    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.+\-]+$")
    cells: list[conlist(Coord, min_length=2, max_length=3)] = Field(min_length=1, max_length=10_000)  # type: ignore[valid-type]
    count: conint(ge=0, le=MAX_COPIES) = 1  # type: ignore[valid-type]  # 0: any number (a free supply)


class RegionModel(_Strict):
    """A polyform region: its cells."""

    cells: list[conlist(Coord, min_length=2, max_length=3)] = Field(min_length=1, max_length=MAX_REGION)  # type: ignore[valid-type]


class PolyformModel(_Strict):
    """A polyform puzzle file (format ``eternity/polyform``)."""

    format: Literal["eternity/polyform"]
    version: Literal[1]
    name: str = ""
    grid: str
    region: RegionModel
    pieces: list[PolyPieceModel] = Field(min_length=1)
    mirror: bool = True


class QueensModel(_Strict):
    """A queens puzzle file (format ``eternity/queens``)."""

    format: Literal["eternity/queens"]
    version: Literal[1]
    name: str = ""
    n: conint(ge=1, le=64)  # type: ignore[valid-type]
    piece: Literal["queen", "rook"] = "queen"


class LatinModel(_Strict):
    """A Latin-square puzzle file (format ``eternity/latin``)."""

    format: Literal["eternity/latin"]
    version: Literal[1]
    name: str = ""
    n: conint(ge=1, le=32)  # type: ignore[valid-type]
    squares: Literal[1, 2] = 2
    diagonal: bool = False
    reduced: bool = True


class MagicModel(_Strict):
    """A magic-figure puzzle file (format ``eternity/magic``)."""

    format: Literal["eternity/magic"]
    version: Literal[1]
    name: str = ""
    shape: Literal["square", "hexagon", "rooks3d"] = "square"
    n: conint(ge=1, le=12) = 4  # type: ignore[valid-type]  # rooks3d: the rooks on a line
    rule: Literal["magic", "dudeney"] = "magic"


PuzzleModel = Annotated[
    EdgeModel | PolyformModel | QueensModel | LatinModel | MagicModel, Field(discriminator="format")
]


class EdgePlacementModel(_Strict):
    """An edge-matching placement of a solution file: cell, piece, rotation."""

    cell: str
    piece: conint(ge=1)  # type: ignore[valid-type]
    rotation: conint(ge=0, le=3)  # type: ignore[valid-type]


class PolyPlacementModel(_Strict):
    """A polyform placement of a solution file: piece and cells."""

    piece: str
    copy_: conint(ge=1) = Field(default=1, alias="copy")  # type: ignore[valid-type]
    cells: list[conlist(int, min_length=2, max_length=3)] = Field(min_length=1)  # type: ignore[valid-type]


class LatinPlacementModel(_Strict):
    """A Latin-square placement of a solution file: square, row, column, symbol."""

    row: conint(ge=0)  # type: ignore[valid-type]
    col: conint(ge=0)  # type: ignore[valid-type]
    a: conint(ge=0)  # type: ignore[valid-type]
    b: conint(ge=-1) = -1  # type: ignore[valid-type]


class MagicPlacementModel(_Strict):
    """A magic-figure placement of a solution file: cell and value."""

    cell: conint(ge=0)  # type: ignore[valid-type]
    value: conint(ge=0)  # type: ignore[valid-type]


class QueenPlacementModel(_Strict):
    """A queen of a solution file: row and column."""

    row: conint(ge=0)  # type: ignore[valid-type]
    col: conint(ge=0)  # type: ignore[valid-type]


class SolutionModel(_Strict):
    """A solution file (format ``eternity/solution``): the puzzle's hash and the placements."""

    format: Literal["eternity/solution"]
    version: Literal[1]
    puzzle: str | None = None
    placements: list[dict[str, Any]]
