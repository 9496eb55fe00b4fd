"""The named encodings: every CNF the workbench builds, by a name, with what it is and where it comes from.

An encoding is chosen by name (``sat --opt encoding=NAME``, ``external --opt encoding=NAME``, ``eternity encode
PUZZLE --encoding NAME``, a runner row's ``encoding = [...]``), not as a combination of toggles, so that a table
compares the encodings a paper compares.  ``eternity encodings PUZZLE`` lists those that apply with their sizes;
plug-in encodings (``encoders.plugins``) take their place beside these.

Families:

* ``heule-VARIANT-AMO``: Heule's four variants of the SAT Competition 2009 (``encoders.heule``);
* ``direct...``: the workbench's direct model, a variable per (cell, piece, turn) and per (join, colour), with
  support clauses, and its variants (``encoders.cnf.direct_cnf``);
* ``primal-support``, ``primal-conflict``: the primal model of Ansótegui et al.'s edge-matching benchmarks, one
  variable per (cell, piece, turn) and no colour variables, the matching of two neighbours in the support
  encoding (Gent 2002) or the direct (conflict) encoding (Walsh 2000) of a binary constraint
  (``encoders.primal``);
* ``xcc``, ``xcc-colour-vars``: the exact cover with colours that every puzzle compiles to
  (``encoders.cnf.xcc_cnf``), for any puzzle;
* CP-SAT's models are named the same way for `cpsat` rows (``cpmodel.named_models``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from puzzles.errors import UsageError
from puzzles.puzzle import EDGES, EXACT_COVER

from .cnf import Encoding, direct_cnf, xcc_cnf
from .heule import AMOS, VARIANTS, heule_cnf

SOURCES = {
    "heule": "[Heule2008] M. J. H. Heule, Solving edge-matching problems with satisfiability solvers; the crafted "
    "edge-matching instances of the SAT Competition 2009",
    "direct": "the workbench's model after Heule's: placements with their turns, join colours, support clauses",
    "primal": "[ABFGM2008] Ansótegui et al., Edge matching puzzles as hard SAT/CSP benchmarks (the primal model); "
    "[Walsh2000] SAT v CSP (direct encoding); [Gent2002] Arc consistency in SAT (support encoding)",
    "xcc": "D. E. Knuth, TAOCP 7.2.2.1 (exact cover with colours), one variable an option",
}


@dataclass(frozen=True)
class NamedEncoding:
    """One encoding: its name, family (a key of ``SOURCES``), what it is, the puzzle features it takes, and
    the function that builds it (puzzle, deadline) -> ``Encoding``."""

    name: str
    family: str
    summary: str
    takes: frozenset[str]
    build: Callable[..., Encoding]

    @property
    def source(self) -> str:
        """Where the encoding comes from."""
        return SOURCES[self.family]


def _heule(variant: str, amo: str) -> Callable[..., Encoding]:
    return lambda p, deadline=None: heule_cnf(p, variant, amo, deadline)


def _direct(**kw) -> Callable[..., Encoding]:
    def build(p, deadline=None):
        args = {"amo": "seqcounter", "redundant": False, "symmetry": False, "support": True, "merge": True} | kw
        if args["symmetry"] and not (p.rows == p.cols and not p.fixed and p.bordered and p.n_pieces == p.n_cells):
            raise UsageError("direct-symmetry needs a square bordered board without fixed or spare pieces")
        return direct_cnf(p, deadline=deadline, **args)

    return build


def _primal(style: str) -> Callable[..., Encoding]:
    def build(p, deadline=None):
        from .primal import primal_cnf

        return primal_cnf(p, style, deadline=deadline)

    return build


def _xcc(colors: str) -> Callable[..., Encoding]:
    return lambda p, deadline=None: xcc_cnf(p.to_xcc(), "seqcounter", colors, deadline)


_HEULE_WORDS = {
    "compact": "no at-most-one on a piece's cells",
    "exp": "at most one cell a piece",
    "fbc": "forbidden-colour clauses in place of support clauses",
    "all": "at most one cell a piece, and forbidden-colour clauses",
}
_AMO_WORDS = {"pairwise": "pairwise", "aux": "with auxiliary variables", "card": "as cardinality constraints"}
EDGE = frozenset({EDGES})

NAMED: dict[str, NamedEncoding] = {}
for _v in VARIANTS:
    for _a in AMOS:
        _n = f"heule-{_v}-{_a}"
        NAMED[_n] = NamedEncoding(
            _n, "heule", f"Heule's {_v}: {_HEULE_WORDS[_v]}; at-most-ones {_AMO_WORDS[_a]}", EDGE, _heule(_v, _a)
        )
for _n, _summary, _kw in (
    ("direct", "placements with turns, join colours, support clauses; identical pieces merged", {}),
    ("direct-plain", "the direct model without support clauses", {"support": False}),
    ("direct-redundant", "the direct model and each colour on exactly its number of joins", {"redundant": True}),
    ("direct-distinct", "the direct model, each identical piece its own variables", {"merge": False}),
    ("direct-pairwise", "the direct model with pairwise at-most-ones", {"amo": "pairwise"}),
    (
        "direct-symmetry",
        "the direct model with a corner piece fixed (square boards; counts times 4)",
        {"symmetry": True},
    ),
):
    NAMED[_n] = NamedEncoding(_n, "direct", _summary, EDGE, _direct(**_kw))
NAMED["primal-support"] = NamedEncoding(
    "primal-support",
    "primal",
    "placements only; a placement implies a matching placement next door",
    EDGE,
    _primal("support"),
)
NAMED["primal-conflict"] = NamedEncoding(
    "primal-conflict",
    "primal",
    "placements only; two neighbouring placements that clash excluded",
    EDGE,
    _primal("conflict"),
)
NAMED["xcc"] = NamedEncoding(
    "xcc",
    "xcc",
    "the exact cover with colours: an option a variable, clashing colours excluded pairwise",
    frozenset({EXACT_COVER}),
    _xcc("pairs"),
)
NAMED["xcc-colour-vars"] = NamedEncoding(
    "xcc-colour-vars",
    "xcc",
    "the exact cover with colours, a variable per (item, colour)",
    frozenset({EXACT_COVER}),
    _xcc("vars"),
)


def applies(name: str, puzzle) -> bool:
    """Whether the encoding ``name`` takes this puzzle's kind (it may still refuse the board's shape)."""
    return bool(puzzle.features & NAMED[name].takes)


def build(name: str, puzzle, deadline: float | None = None) -> Encoding:
    """The encoding ``name`` of ``puzzle``: a built-in one, else a plug-in's; ``UsageError`` for one that does
    not take the puzzle or a name nobody knows."""
    if name in NAMED:
        if not applies(name, puzzle):
            raise UsageError(f"encoding {name} does not encode {puzzle.kind} puzzles")
        enc = NAMED[name].build(puzzle, deadline)
        enc.model = name
        return enc
    from . import plugins

    return plugins.encode(name, puzzle, deadline)


def known(name: str) -> bool:
    """A built-in encoding or a registered plug-in."""
    from . import plugins

    return name in NAMED or name in plugins.names()
