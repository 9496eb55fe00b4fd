"""The workbench from Python: what a notebook calls, on the same paths as the command line.

``load`` a puzzle, ``solve`` it (every board checked by the independent verifier, every other answer with
its evidence), ``verify`` a board, ``run`` an experiment from a config, and read a results database as a
pandas DataFrame with ``results`` (the stored cells) or ``summary`` (the benchmark table).  Each function
imports what it needs when called, so ``import eternity`` stays as quick as the command line's start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover - names for the signatures only
    import pandas

    from experiments.config import Config
    from puzzles.verify import Report
    from solving import SolveResult

PathLike = str | os.PathLike[str]


def load(spec: PathLike) -> Any:
    """A puzzle: a built-in name (``eternity list`` shows them) or a puzzle file.

    Args:
        spec: ``"queens-8"``, ``"owen-a"``, or the path of a JSON or piece-text puzzle file.

    Returns:
        The puzzle (an edge-matching, polyform, exact-cover or magic puzzle), ready for :func:`solve`.

    Raises:
        puzzles.errors.InputError: the file is not a puzzle, naming the file, the field and the problem.
    """
    from puzzles import catalog

    return catalog.load(os.fspath(spec))


def solve(
    puzzle: Any,
    solver: str | None = None,
    mode: str = "first",
    *,
    options: Mapping[str, Any] | None = None,
    time_limit: float | None = None,
    limit: int | None = None,
) -> SolveResult:
    """Solve a puzzle with a registered solver; every solution it returns passes the independent verifier.

    Args:
        puzzle: a puzzle from :func:`load`, or anything :func:`load` takes.
        solver: a registered solver (``eternity solvers``); None: the native search for the puzzle's kind.
        mode: ``first``, ``count``, ``all``, ``best`` (edge matching: the most matching joins) or ``sample``.
        options: the solver's options by name (``{"order": "colscan"}``), checked against its declarations.
        time_limit: seconds; the result is then ``limit`` with what was found so far.
        limit: the most solutions to return (modes all and sample).

    Returns:
        The :class:`solving.SolveResult`: ``status``, ``count``, ``solutions``, ``best_score``, ``evidence``
        (what a count, an "unsatisfiable" or an optimum rests on) and the clocks.  A solution the verifier
        rejects makes the status ``error``.

    Raises:
        TypeError: a puzzle, solver, options or bound of the wrong type (``solve(None)``, ``options="x"``).
        ValueError: a mode, option or bound the command line refuses too (``time_limit=0``, ``limit=0``, a
            ``limit`` outside modes all and sample); the message says which.
    """
    import solving

    p = _puzzle(puzzle)
    if solver is not None and not isinstance(solver, str):
        raise TypeError(f"solve: solver must be a registered name (a str), not {type(solver).__name__}")
    if mode not in solving.MODES:
        raise ValueError(f"solve: no mode {mode!r} (modes: {', '.join(solving.MODES)})")
    if options is not None and not isinstance(options, Mapping):
        raise TypeError(f"solve: options must be a mapping of option names to values, not {type(options).__name__}")
    time_limit = _number("time_limit", time_limit, float, 0.001)
    limit = _number("limit", limit, int, 1)
    if limit is not None and mode not in ("all", "sample"):
        raise ValueError(f"solve: limit is for modes all and sample, not mode {mode}")
    name = solver or solving.default_solver(p)
    instance = solving.get(name, {k: str(v) for k, v in (options or {}).items()})
    limits = solving.Limits(time_s=time_limit, solutions=limit)
    res, _ = solving.solve_verified(instance, p, mode, limits)
    return res


def _puzzle(puzzle: Any) -> Any:
    """A puzzle object, loaded when given by name or path; anything else is a ``TypeError`` that says what is
    taken."""
    if isinstance(puzzle, (str, os.PathLike)):
        return load(puzzle)
    if not hasattr(puzzle, "features") or not hasattr(puzzle, "kind"):
        raise TypeError(
            f"expected a puzzle (from eternity.load), a built-in name or a file path, not {type(puzzle).__name__}"
        )
    return puzzle


def _number(what: str, value: Any, kind: type, lo: float) -> Any:
    """A bound checked as the command line checks it: None, or a finite ``kind`` of at least ``lo``."""
    import math

    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        raise TypeError(f"{what} must be {'a whole number' if kind is int else 'a number'}, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{what}: {value!r} is not a finite number")
    if value < lo:
        raise ValueError(f"{what}: {value!r} is outside its range {lo:g}..")
    return kind(value)


def _bounded(what: str, value: Any, lo: int, hi: int | None = None) -> int:
    """A whole number within the command line's range for the same search (``eternity game``, ``eternity
    checkerboard``): past it a search takes gigabytes or hours, so it is refused as the command refuses it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a whole number, not {value!r}")
    if value < lo or (hi is not None and value > hi):
        raise ValueError(f"{what}: {value} is outside its range {lo}..{'' if hi is None else hi}")
    return value


def verify(puzzle: Any, solution: Any, *, score: bool = False) -> Report:
    """Check a board with the independent verifier, which knows nothing of how it was found.

    Args:
        puzzle: a puzzle from :func:`load`, or anything :func:`load` takes.
        solution: a board from a :class:`solving.SolveResult` (``res.solutions[0]``) or a solution file's path.
        score: allow mismatched joins (a partial Eternity II board) and report its score.

    Returns:
        The report: ``valid``, ``legal``, ``complete``, ``problems``, and ``score`` for edge matching.
    """
    from puzzles.files import formats
    from puzzles.verify import verify as check

    p = _puzzle(puzzle)
    board = formats.read_solution(p, os.fspath(solution)) if isinstance(solution, (str, os.PathLike)) else solution
    return check(p, board, allow_mismatch=score)


def run(
    config: Config | Mapping[str, Any] | PathLike,
    db: PathLike,
    *,
    jobs: int | None = None,
    families: list[str] | None = None,
    solvers: list[str] | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Run an experiment: every solver of the config on every instance of its families, into a results database.

    Cells already stored are kept and skipped, so a run that was stopped goes on where it was.

    Args:
        config: a TOML config's path, its contents as a dict, or an :class:`experiments.config.Config`.
        db: the SQLite results database (made when missing).
        jobs: cells run at once (None: the machine's cores).
        families: only these families of the config (None: all).
        solvers: only these solver rows, by label (None: all).
        progress: show progress bars on a terminal (a notebook has none: off by default).

    Returns:
        The run's summary: cells run, skipped and failed, and the wrong answers caught.
    """
    from experiments import runner

    return runner.run(config, os.fspath(db), jobs=jobs, show_progress=progress, families=families, solvers=solvers)


def results(db: PathLike) -> pandas.DataFrame:
    """The stored cells of a results database, one row a cell (the parts of split counts left out).

    Args:
        db: a results database written by :func:`run` or ``eternity run``.

    Returns:
        A DataFrame with a column per stored field: ``experiment``, ``family``, ``solver`` (the solver's
        name), ``configuration`` (its label with the options, as the tables name it), ``status``,
        ``evidence``, ``count``, the clocks (``solve_s`` = ``build_s`` + ``search_s``, ``search_s``,
        ``wall_s``, ``cpu_s``), ``class`` and more.  The JSON fields (``options``, ``engine_stats``,
        ``versions``, ``detail``) are parsed, as ``params`` is, and each parameter is a column of its own
        (``param.inner_colors``).
    """
    import json

    import pandas

    from experiments.cells import cells

    rows = cells(os.fspath(db))
    for r in rows:
        r["configuration"] = r.get("config")
        b, s = r.get("build_s"), r.get("search_s")
        r["solve_s"] = None if b is None or s is None else b + s
        for k in ("options", "engine_stats", "versions", "detail"):
            v = r.get(k)
            if isinstance(v, str) and v[:1] in "{[":
                try:
                    r[k] = json.loads(v)
                except ValueError:
                    pass
        for k, v in (r.get("params") or {}).items():
            r[f"param.{k}"] = v
    return pandas.DataFrame(rows)


def grundy(n_max: int = 100, misere_max: int = 60) -> pandas.DataFrame:
    """Grundy's game solved by exhaustive search, as ``eternity game grundy`` prints it.

    Args:
        n_max: the largest heap valued in the ordinary game (its Grundy value and a winning split).
        misere_max: the largest heap valued in the misere game.

    Returns:
        A row a heap: ``grundy``, ``ordinary`` (W or L for the player to move), ``ordinary_move``, ``misere``,
        ``misere_move``, and for heaps 1 to 12 seed 003's printed entries (``chapter``).
    """
    import pandas

    from baseline.games import grundy as game

    n_max = _bounded("grundy: n_max", n_max, 1, 10_000)
    misere_max = _bounded("grundy: misere_max", misere_max, 1, 60)
    return pandas.DataFrame(game.table(n_max, min(misere_max, n_max)))


def snakes_and_ladders(games: int = 100_000, seed: int = 0) -> dict[str, Any]:
    """Snakes and ladders on seed 003's board, as ``eternity game snakes`` prints it.

    Args:
        games: games simulated beside the exact answers.
        seed: the simulation's seed.

    Returns:
        ``most_likely``, ``mean`` (exact), ``median`` and ``least`` throws (with an example), the board's
        total rise and drop, the simulated mean with its standard error, and the chapter's figures.
    """
    from baseline.games import snakes

    return snakes.analyse(_bounded("snakes_and_ladders: games", games, 1, 10_000_000), _bounded("seed", seed, 0))


def busy_beaver(cards: int = 3, steps: int = 1000, languages: bool = True) -> dict[str, Any]:
    """Every Turing machine of ``cards`` cards run and decided, as ``eternity game beaver`` prints it.

    Args:
        cards: states of the machines, 1 to 3 (three cards: 16,777,216 machines, about ten seconds).
        steps: steps a machine runs before it is left undecided.
        languages: look for a closed tape language (by SAT) for each machine the other deciders leave.

    Returns:
        The outcomes counted (halts, cycler, translated cycler, no stop card, backward reasoning,
        closed n-grams, repeated words, closed tape language, undecided), the champions by ones and by
        steps with an example machine each, ``certificates`` (the closed tape languages, by machine
        number) and ``decided``.
    """
    from baseline.games import beaver
    from encoders import tape_language

    cards = _bounded("busy_beaver: cards", cards, 1, 3)
    steps = _bounded("busy_beaver: steps", steps, 40, 100_000)
    return beaver.survey(cards, steps, decide=tape_language.find if languages else None)


def fox_and_geese(
    board: int = 8, geese: int | None = None, foxes: int = 1, first: str = "fox", start: str = "far"
) -> dict[str, Any]:
    """Fox and geese valued by exhaustive search, as ``eternity game foxgeese`` prints it.

    Args:
        board: the board's side, even.
        geese: geese on row 0's dark squares (default: all of them, half the side).
        foxes: 1 or 2.
        first: ``"fox"`` or ``"geese"`` moves first.
        start: the fox on the last row (``"far"``) or on any free dark square (``"any"``).

    Returns:
        The winner (or ``"depends on the start"`` with the winner from each start), and the positions valued.
    """
    from baseline.games import foxgeese

    board = _bounded("fox_and_geese: board", board, 2, 10)
    if board % 2:
        raise ValueError(f"fox_and_geese: board {board} is odd (the side is even)")
    if geese is not None:
        geese = _bounded("fox_and_geese: geese", geese, 1, board // 2)
    foxes = _bounded("fox_and_geese: foxes", foxes, 1, 2)
    if first not in ("fox", "geese") or start not in ("far", "any"):
        raise ValueError(f"fox_and_geese: first is 'fox' or 'geese' and start 'far' or 'any', not {first!r}, {start!r}")
    return foxgeese.solve(board, geese, foxes, first, start)


def maharajah(board: int = 8, men: str = "") -> dict[str, Any]:
    """The Maharajah against the black king and up to two men (from ``"QRBN"``) on a board of 3..8, under
    capture rules, every position valued by retrograde analysis, as ``eternity game maharajah`` prints it.

    Returns:
        The positions; the wins of each side and the draws with the Maharajah to move and with black to move;
        the longest forced end with an example; the value of the chess-like start.
    """
    from baseline.games import maharajah as m

    board = _bounded("maharajah: board", board, 3, 8)
    if not isinstance(men, str) or len(men) > 2 or set(men.upper()) - set("QRBN"):
        raise ValueError(f"maharajah: men is at most two of Q, R, B, N, not {men!r}")
    return m.survey(board, m._canon(men) if men else men)


def queens_distinct(n: int) -> dict[str, int]:
    """The n queens' solutions, those a quarter and a half turn leave alone, and the distinct patterns
    (Burnside's lemma), as ``eternity checkerboard queens`` prints them."""
    from baseline.checkerboard import queens

    return queens.distinct(_bounded("queens_distinct: n", n, 1, 18))


def halves(n: int) -> dict[str, int]:
    """McCarthy's cuts of the N x N board (N odd: its centre square missing) into two congruent halves, all
    of them and up to the board's symmetries, as ``eternity checkerboard halves`` prints them."""
    from baseline.checkerboard import halves as h

    return h.distinct(_bounded("halves: n", n, 1, 11))


def rooks3d(r_max: int = 6) -> pandas.DataFrame:
    """The 3-D rooks for R = 1..``r_max`` beside the quasi-polynomial and seed 003's figures and formula,
    as ``eternity checkerboard rooks3d`` prints them."""
    import pandas

    from baseline.checkerboard import rooks3d as r3

    return pandas.DataFrame(r3.table(_bounded("rooks3d: r_max", r_max, 1, 24)))


def summary(db: PathLike, clock: str = "solve") -> pandas.DataFrame:
    """The benchmark table of a results database as a DataFrame: one row a family, class and solver.

    Args:
        db: a results database.
        clock: ``solve`` (build plus search), ``search`` or ``total``.

    Returns:
        The rows ``eternity table`` prints, with its column names: ``configuration`` (the label with the
        options; the table's ``solver`` column), solved, ``par2_{clock}_s`` and ``median_{clock}_s``, wrong
        and claimed answers.
    """
    import pandas

    from experiments import report
    from experiments.cells import cells

    rows = report.summarise(cells(os.fspath(db)), clock)
    named = {"solver": "configuration", "par2_s": f"par2_{clock}_s", "median_s": f"median_{clock}_s"}
    return pandas.DataFrame([{named.get(k, k): v for k, v in r.items()} for r in rows])
