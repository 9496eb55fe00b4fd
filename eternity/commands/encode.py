"""`eternity encode PUZZLE --encoding NAME`: one named encoding's CNF, written as DIMACS, with its size.

A KNF encoding (``heule-*-card``) is written as Heule's encoder writes it: ``p knf V C`` and a line ``k K lits 0``
a cardinality constraint (at least K of the literals); every other as ``p cnf V C``.  Fixed pieces are unit
clauses at the end.  The size goes to stderr (``--json``: to stdout, with the file)."""

from __future__ import annotations

import sys
import time

from eternity.commands.common import _load, _out
from puzzles.errors import UsageError


def dimacs(enc, puzzle=None) -> str:
    """The encoding as a DIMACS (or KNF) text, its assumptions as unit clauses.  With ``puzzle``, the header says
    which encoding of which puzzle it is, so that `eternity decode` reads a model of it back into a board."""
    lines = [" ".join(map(str, c)) + " 0" for c in enc.clauses]
    lines += [f"k {len(lits) - k} " + " ".join(str(-v) for v in lits) + " 0" for lits, k in enc.atmost]
    lines += [f"{a} 0" for a in enc.assumptions]
    head = f"p {'knf' if enc.atmost else 'cnf'} {enc.n_vars} {len(lines)}"
    top = [f"c {enc.model}"]
    if puzzle is not None:
        from puzzles.files.formats import puzzle_hash

        top = [
            f"c eternity encoding {enc.model} encoding={enc.model}",
            f"c eternity puzzle {puzzle.name}",
            f"c eternity puzzle-hash {puzzle_hash(puzzle)}",
        ]
    return "\n".join([*top, head, *lines]) + "\n"


def cmd_encode(a) -> int:
    """Run `eternity encode` with the parsed arguments ``a``; returns the exit status."""
    from encoders import catalogue
    from encoders.solver import takes
    from puzzles.files import outputs

    if a.json and not a.output:
        raise UsageError("encode --json: give -o FILE for the CNF (stdout carries the sizes)")
    p, _ = _load(a)
    takes(a.encoding, p)
    t0 = time.perf_counter()
    enc = catalogue.build(a.encoding, p)
    build_s = time.perf_counter() - t0
    size = {
        "puzzle": p.name,
        "encoding": a.encoding,
        "variables": enc.n_vars,
        "clauses": enc.n_constraints,
        "cardinality": len(enc.atmost),
        "literals": enc.n_literals,
        "build_s": round(build_s, 4),
    }
    if a.output:
        outputs.atomic_write(a.output, dimacs(enc, p))
        size["file"] = a.output
    elif not a.json:
        sys.stdout.write(dimacs(enc, p))
    if a.json:
        _out(size)
    else:
        print(
            f"{a.encoding}: {enc.n_vars:,} variables, {enc.n_constraints:,} clauses"
            + (f" ({len(enc.atmost):,} cardinality)" if enc.atmost else "")
            + f", {enc.n_literals:,} literals, built in {build_s:.3f} s"
            + (f"; wrote {a.output}" if a.output else ""),
            file=sys.stderr,
        )
    return 0


def add(sub) -> None:
    """Declare `eternity encode` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("encode", help="one named encoding's CNF (DIMACS), with its size")
    s.add_argument("puzzle", help="a puzzle file or built-in name")
    s.add_argument("--encoding", required=True, help="a name `eternity encodings PUZZLE` lists")
    s.add_argument("-o", "--output", help="the CNF file (default: stdout)")
    s.add_argument("--json", action="store_true", help="the sizes as JSON on stdout (needs -o)")
    s.set_defaults(func=cmd_encode, outputs={"output": "file"})
