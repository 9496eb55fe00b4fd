"""The hand-written searches, one family a package: ``xcc``, ``poly``, ``edge`` and ``beam``, on the
shared ``runtime``.  Families import ``runtime`` and, where they build on one another, the family below
(``beam`` on ``edge``, ``xcc`` and ``poly``; ``xcc`` on ``poly``): docs/ARCHITECTURE.md.

The modules that moved into those packages answer to their old names for a release (``import
baseline.edge_backtrack`` gives ``baseline.edge.backtrack``, with a ``DeprecationWarning``)."""

from puzzles._moved import install as _install

MOVED = {
    "baseline.codec": "baseline.beam.codec",
    "baseline.repair": "baseline.beam.repair",
    "baseline.beam_xcc": "baseline.beam.xcc",
    "baseline.edge_backtrack": "baseline.edge.backtrack",
    "baseline.edge_tables": "baseline.edge.tables",
    "baseline.poly_estimate": "baseline.poly.estimate",
    **{f"baseline.{m}": f"baseline.runtime.{m}" for m in ("checkpoint", "driver", "kernel", "warmup")},
    **{f"baseline.{m}": f"baseline.xcc.{m}" for m in ("backtrack", "bitset", "dlx", "memo", "zdd")},
}
_install(MOVED)
