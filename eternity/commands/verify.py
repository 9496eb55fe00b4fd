"""`eternity verify`: a solution checked by the independent verifier."""

from __future__ import annotations

from eternity.commands.common import EXIT_INVALID, EXIT_OK, _json_file, _out
from puzzles.ranges import arg


def cmd_verify(a) -> int:
    """Run `eternity verify` with the parsed arguments ``a``; returns the exit status."""
    from puzzles import catalog
    from puzzles.files import formats
    from puzzles.verify import verify

    p = catalog.load(a.puzzle)
    if a.commitment:  # Selby's split: SOLUTION is an opened half
        return _verify_half(a, p, formats.puzzle_hash(p))
    sol = formats.read_solution(p, a.solution)
    rep = verify(p, sol, allow_mismatch=a.score)
    windows = _windows(a, p, sol, rep)
    if a.json:
        _out({**rep.as_dict(), **({"windows": windows} if windows else {})})
    else:
        if windows:
            k = windows["window"]
            print(
                f"windows {k}x{k}: {windows['optimal']} of {windows['windows']} proven optimal (the rest of the board "
                f"as it stands), {windows['improvable']} improvable by {windows['gain']} joins in all, "
                f"{windows['unproven']} unproven in {a.window_time:g} s each"
            )
        if rep.score is not None:
            print(f"score {rep.score}/{rep.max_score}")
        for msg in rep.problems:
            print(msg)
        if a.score and rep.mismatches:
            print("mismatched joins: " + ", ".join(rep.mismatches))
        print("valid" if rep.valid else ("legal partial board" if a.score and not rep.problems else "INVALID"))
    if a.score:  # a partial board scores; only a broken rule is invalid
        return EXIT_OK if rep.legal else EXIT_INVALID
    return EXIT_OK if rep.valid else EXIT_INVALID


def _windows(a, p, sol, rep) -> dict | None:
    """``--windows K``: the k x k windows of a legal full edge-matching board proven optimal by CP-SAT."""
    if a.windows is None:
        return None
    from puzzles.errors import UsageError
    from puzzles.puzzle import EDGES

    if not a.score or EDGES not in p.features:
        raise UsageError("verify --windows goes with --score on an edge-matching board")
    if not rep.legal or len(sol) != p.n_cells:
        return None  # a broken or partial board: nothing to re-solve
    from baseline.beam.repair import proven_windows

    return proven_windows(p, sol, a.windows, a.window_time)


def _verify_half(a, p, ph) -> int:
    """`verify --commitment`: a half opened by `eternity open`, checked against the commitment."""
    from puzzles.proofs import split

    c = split.read_commitment(_json_file(a.commitment), a.commitment, ph, p)
    half = _json_file(a.solution)
    problems = split.verify_half(p, half, a.solution, c, ph)
    if a.json:
        _out({"half": half.get("side"), "valid": not problems, "problems": problems})
    else:
        for m in problems:
            print(m)
        print("the half checks against the commitment" if not problems else "INVALID")
    return EXIT_OK if not problems else EXIT_INVALID


def add(sub) -> None:
    """Declare `eternity verify` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser("verify", help="check a solution (exit 1 when invalid)")
    s.add_argument("puzzle")
    s.add_argument("solution")
    s.add_argument("--score", action="store_true", help="mismatches allowed; print the score")
    s.add_argument(
        "--commitment",
        metavar="COMMITMENT",
        help="SOLUTION is a half opened by `eternity open`: check it against this commitment (Selby's split)",
    )
    s.add_argument(
        "--windows",
        type=arg(int, 2, 8),
        metavar="K",
        help="with --score on a full edge-matching board: how many of the K x K windows tiling it CP-SAT proves "
        "optimal, each with the rest of the board as it stands",
    )
    s.add_argument(
        "--window-time", type=arg(float, 0.05, 600.0), default=2.0, help="--windows: CP-SAT's seconds a window"
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_verify)
