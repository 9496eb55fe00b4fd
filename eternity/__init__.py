"""eternity: a workbench for hard tiling and edge-matching puzzles.

From Python (a notebook)::

    import eternity
    res = eternity.solve(eternity.load("queens-8"), mode="count")
    res.count  # 92, with res.evidence saying what it rests on
    eternity.results("docs/runs/quick.sqlite")  # the stored cells as a pandas DataFrame

The command line is ``eternity`` (``eternity.cli``).  The functions import what they need when called.
"""

from .api import (
    busy_beaver,
    fox_and_geese,
    grundy,
    halves,
    load,
    maharajah,
    queens_distinct,
    results,
    rooks3d,
    run,
    snakes_and_ladders,
    solve,
    summary,
    verify,
)

__all__ = [
    "load",
    "solve",
    "verify",
    "run",
    "results",
    "summary",
    "grundy",
    "snakes_and_ladders",
    "busy_beaver",
    "fox_and_geese",
    "maharajah",
    "queens_distinct",
    "rooks3d",
    "halves",
]
