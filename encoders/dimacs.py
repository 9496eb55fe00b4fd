"""DIMACS out, and models of external solvers back in.

The comment lines of an exported file say what each decision variable
means, so ``decode`` needs only the CNF file and the model an external
solver printed (``v`` lines as in the SAT competition, or bare integers)::

    c eternity encoding direct amo=seqcounter
    c eternity puzzle-hash SHA256                 (decode refuses a CNF of another puzzle)
    c eternity place VAR CELL PIECE ROTATION      (edge matching, 1-based piece)
    c eternity option VAR K                       (XCC option index K)
"""

from __future__ import annotations

import io

from puzzles.files.formats import InputError, puzzle_hash, read_text
from puzzles.kinds.edge import EdgePlacement
from puzzles.puzzle import EDGES

from .cnf import Encoding


def to_dimacs(puzzle, enc: Encoding, options: dict) -> str:
    """The CNF in DIMACS, with comment lines that map its decision variables back to placements."""
    enc = enc.expanded()  # DIMACS has no cardinality constraints: a KNF encoding's go in as clauses
    out = io.StringIO()
    opts = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    out.write(f"c eternity encoding {enc.model} {opts}\n")
    out.write(f"c eternity puzzle {puzzle.name}\n")
    out.write(f"c eternity puzzle-hash {puzzle_hash(puzzle)}\n")
    if enc.assumptions:
        out.write("c eternity fixed pieces are unit clauses below\n")
    for v, meaning in sorted(enc.decision.items()):  # for a reader; decode builds the encoding again
        if isinstance(meaning, EdgePlacement):
            out.write(f"c eternity place {v} {puzzle.cell_name(meaning.cell)} {meaning.piece + 1} {meaning.rotation}\n")
        elif enc.model.startswith("xcc"):
            out.write(f"c eternity option {v} {v - 1}\n")
    clauses = enc.clauses + [[a] for a in enc.assumptions]
    out.write(f"p cnf {enc.n_vars} {len(clauses)}\n")
    for c in clauses:
        out.write(" ".join(map(str, c)) + " 0\n")
    return out.getvalue()


def read_model(path: str) -> set[int]:
    """True variables of a model file: 'v' lines, or whitespace-separated integers."""
    text = read_text(path)
    lits: list[int] = []
    saw_v = any(line.startswith("v ") or line == "v" for line in text.splitlines())
    for ln, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s in ("UNSAT", "UNSATISFIABLE"):
            raise InputError(path, f"line {ln}", "the solver says UNSATISFIABLE: there is no model to decode")
        if s in ("SAT", "SATISFIABLE", "INDET"):  # minisat's own output format
            continue
        if not s or s[0] in "cs":
            if s.startswith("s UNSAT"):
                raise InputError(path, f"line {ln}", "the solver says UNSATISFIABLE: there is no model to decode")
            continue
        if saw_v:
            if not s.startswith("v"):
                continue
            s = s[1:]
        try:
            lits.extend(int(w) for w in s.split())
        except ValueError:
            raise InputError(path, f"line {ln}", f"expected integers, got {s[:40]!r}") from None
    if not lits:
        raise InputError(path, None, "no model found (expected 'v' lines or integers)")
    return {x for x in lits if x > 0}


def header_options(cnf_path: str, text: str) -> dict[str, str] | None:
    """The options an exported or encoded CNF (``text``, read from ``cnf_path``) was built with (its ``c eternity
    encoding MODEL k=v ...`` line), or None for a file without one."""
    for line in text.splitlines():
        if line.startswith("c eternity encoding "):
            words = line.split()[4:]
            if any("=" not in w for w in words):
                raise InputError(cnf_path, "c eternity encoding", f"bad options {' '.join(words)[:60]!r}")
            return dict(w.split("=", 1) for w in words)
        if line.startswith("p "):
            break
    return None


def decode(puzzle, cnf_path: str, model_path: str) -> list:
    """The placements a model of an exported CNF stands for: the encoding its header names is built again (the
    same options give the same CNF, checked by its size) and decodes the model as a solve does, so an encoding
    whose placements leave the turn to other variables (Heule's) or that merges identical pieces decodes too."""
    true = read_model(model_path)
    text = read_text(cnf_path)
    opts = header_options(cnf_path, text)
    if opts is not None:
        return _rebuilt(puzzle, cnf_path, text, model_path, opts, true)
    return _by_comments(puzzle, cnf_path, text, model_path, true)


def _rebuilt(puzzle, cnf_path: str, text: str, model_path: str, opts: dict[str, str], true: set[int]) -> list:
    """A model decoded through the encoding the file's header names, built again with its options."""
    from .solver import Sat, decoded, encode

    head = None
    for ln in text.splitlines():  # the comments before the problem line: the puzzle's hash, then the header
        if ln.startswith("p "):
            head = ln
            break
        w = ln.split()
        if len(w) == 4 and w[:3] == ["c", "eternity", "puzzle-hash"] and w[3] != puzzle_hash(puzzle):
            raise InputError(cnf_path, "puzzle-hash", "this CNF was written for a different puzzle (its hash differs)")
    if head is None:
        raise InputError(cnf_path, None, "no 'p cnf' line")
    _check_model_fits(head, true, cnf_path, model_path)
    try:
        enc = encode(puzzle, Sat({"identical": "distinct", **opts}).options)
    except ValueError as e:
        raise InputError(cnf_path, "c eternity encoding", f"cannot build its encoding again: {e}") from None
    if head.split()[1] == "cnf":  # a KNF encoding exported as DIMACS: its cardinality constraints as clauses
        enc = enc.expanded()
    if int(head.split()[2]) != enc.n_vars:
        raise InputError(
            cnf_path, None, f"its {head.split()[2]} variables are not the {enc.n_vars:,} its encoding has here"
        )
    chosen = [v for v in enc.decision if v in true]
    if not chosen:
        raise InputError(
            model_path,
            None,
            f"sets none of the {len(enc.decision):,} placements of {cnf_path} true (a model of another CNF?)",
        )
    try:
        return decoded(puzzle, enc, chosen)
    except (KeyError, IndexError, ValueError, StopIteration) as e:
        raise InputError(cnf_path, None, f"the model does not decode to placements ({type(e).__name__})") from None


def _by_comments(puzzle, cnf_path: str, text: str, model_path: str, true: set[int]) -> list:
    """The placements of a file that names no encoding, read from its ``c eternity place``/``option`` lines."""
    xcc = None
    out = []
    mapped = 0  # decision variables the CNF names
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.startswith("c eternity "):
            if line.startswith("p "):
                _check_model_fits(line, true, cnf_path, model_path)
                break
            continue
        w = line.split()
        if len(w) == 4 and w[2] == "puzzle-hash" and w[3] != puzzle_hash(puzzle):
            raise InputError(cnf_path, f"line {ln}", "this CNF was written for a different puzzle (its hash differs)")
        mapped += len(w) > 3 and w[2] in ("place", "option")
        try:
            if w[2] == "place" and int(w[3]) in true:
                if EDGES not in puzzle.features:
                    raise InputError(
                        cnf_path, f"line {ln}", "a direct edge encoding, but the puzzle is not edge matching"
                    )
                out.append(EdgePlacement(puzzle.parse_cell(w[4]), int(w[5]) - 1, int(w[6])))
            elif w[2] == "option" and int(w[3]) in true:
                xcc = xcc or puzzle.to_xcc()
                out.append(xcc.decode[int(w[4])])
        except (ValueError, IndexError) as e:
            raise InputError(cnf_path, f"line {ln}", f"bad eternity comment ({e})") from None
    if not mapped:
        raise InputError(cnf_path, None, "no 'c eternity' variable map found (was it written by eternity export?)")
    if not out:
        raise InputError(
            model_path, None, f"sets none of the {mapped:,} placements of {cnf_path} true (a model of another CNF?)"
        )
    return puzzle.relabel(out) if EDGES in puzzle.features else out  # an encoding with merged copies


def _check_model_fits(header: str, true: set[int], cnf_path: str, model_path: str) -> None:
    """A model that names a variable the CNF does not have belongs to another CNF."""
    try:
        n_vars = int(header.split()[2])
    except (IndexError, ValueError):
        raise InputError(cnf_path, None, f"a bad problem line {header.strip()[:40]!r}") from None
    top = max(true, default=0)
    if top > n_vars:
        raise InputError(
            model_path, None, f"names variable {top}, but {cnf_path} has {n_vars:,} (a model of another CNF?)"
        )
