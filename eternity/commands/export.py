"""`eternity export`: a puzzle written in another solver's format."""

from __future__ import annotations

import json

from eternity.commands.common import _opts, _refused
from puzzles.errors import UsageError
from puzzles.puzzle import SCORED


def cmd_export(a) -> int:
    """Run `eternity export` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.files import formats

    p = catalog.load(a.puzzle)
    opts = _opts(a.opt)
    if a.to == "xcc":
        text = p.to_xcc().to_knuth()
    elif a.to in ("bucas", "solution"):
        sol = formats.read_solution(p, opts.pop("solution")) if "solution" in opts else catalog.known_solution(a.puzzle)
        if sol is None:
            raise UsageError(f"export --to {a.to}: {a.puzzle} has no known solution (give --opt solution=FILE)")
        if a.to == "bucas":
            if SCORED not in p.features:
                raise UsageError("export --to bucas: only edge-matching puzzles")
            from puzzles.kinds.edge import bucas_url

            text = bucas_url(p, sol) + "\n"
        else:
            text = json.dumps(formats.solution_to_dict(p, sol), indent=1) + "\n"
    elif a.to == "dimacs":
        from encoders.dimacs import to_dimacs
        from encoders.solver import Sat, encode

        with _refused("export --to dimacs"):
            sat = Sat({"identical": "distinct", **opts})  # a model of the file is a board as it stands
            text = to_dimacs(p, encode(p, sat.options), opts)
    elif a.to == "cpsat":
        from cpmodel.solver import export_model

        with _refused("export --to cpsat"):
            export_model(p, a.output, opts)
        return 0
    elif a.to == "mzn":
        from cpmodel.minizinc_solver import export_mzn

        export_mzn(p, a.output, opts)
        return 0
    elif a.to == "wcnf":
        from encoders.maxsat import export_wcnf

        export_wcnf(p, a.output, opts)
        return 0
    elif a.to in ("opb", "lp", "mps", "fzn"):
        from cpmodel.cpmpy_solver import export_model as export_cpmpy

        export_cpmpy(p, a.to, a.output, opts)
        return 0
    else:  # json (argparse allows nothing else)
        text = json.dumps(formats.puzzle_to_dict(p), indent=1) + "\n"
    formats.atomic_write(a.output, text)
    return 0


def add(sub) -> None:
    """Declare `eternity export` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("export", help="write a puzzle in another format")
    s.add_argument("puzzle")
    s.add_argument(
        "--to",
        required=True,
        choices=["xcc", "dimacs", "cpsat", "mzn", "wcnf", "opb", "lp", "mps", "fzn", "bucas", "solution", "json"],
        help="xcc: Knuth's format (dlx2, miniexact, xcover); dimacs: the CNF (sat's encodings); cpsat: the "
        "CP-SAT proto; mzn: the MiniZinc model; wcnf (MaxSAT: the max-score problem), opb "
        "(pseudo-Boolean), lp, mps, fzn: the CPMpy model through CPMpy's writers; bucas: the "
        "e2.bucas.name viewer URL; solution: a known solution; json: the puzzle file",
    )
    s.add_argument(
        "--opt",
        action="append",
        metavar="K=V",
        help="the encoding's options (--to dimacs: sat's options; cpsat, mzn and the CPMpy formats: "
        "identical=merge|distinct, model=...; best=true: the max-score problem)",
    )
    s.add_argument("-o", "--output", required=True)
    s.set_defaults(func=cmd_export, outputs={"output": "file"})
