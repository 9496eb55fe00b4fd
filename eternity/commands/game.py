"""`eternity game`: the games of seed 003's chapter, solved by exhaustive search, beside the chapter's figures."""

from __future__ import annotations

from eternity.commands.common import _out
from puzzles.errors import UsageError
from puzzles.ranges import arg

MISERE_MAX = 60  # the misere search's default reach, and its largest (heaps of 60: seconds; it grows
# exponentially: 70 takes half a minute, 80 more than a minute and hundreds of MB)


def cmd_game(a) -> int:
    """Run `eternity game` with the parsed arguments ``a``; returns the exit status."""
    if a.name != "maharajah" and a.men is not None:
        raise UsageError(f"game {a.name}: --men is the Maharajah's")
    if a.name != "foxgeese" and a.strategy:
        raise UsageError(f"game {a.name}: --strategy is fox and geese's")
    if a.name != "hexagon" and a.order is not None:
        raise UsageError(f"game {a.name}: --order is the magic hexagon's")
    if a.name == "hexagon":
        return _hexagon(a)
    if a.name == "snakes":
        return _snakes(a)
    if a.name == "beaver":
        return _beaver(a)
    if a.name == "maharajah":
        return _maharajah(a)
    if a.name == "foxgeese":
        return _foxgeese(a)
    if a.cards is not None or a.steps is not None:
        raise UsageError("game grundy: --cards and --steps are the Busy Beaver's")
    _no_fox_flags(a)
    from baseline.games import grundy

    if a.misere_max is not None and a.misere_max > a.max:
        raise UsageError(f"game grundy: --misere-max {a.misere_max} is past --max {a.max}")
    rows = grundy.table(a.max, MISERE_MAX if a.misere_max is None else min(a.misere_max, a.max))
    g = [0] + [r["grundy"] for r in rows]
    per = grundy.period(g)
    errors = grundy.chapter_errors(rows)
    if a.json:
        _out({"heaps": rows, "period": per, "chapter_errors": errors})
        return 0
    print("heap  grundy  ordinary  move      misere  move      seed 003 (ordinary, misere)")
    for r in rows:
        c = r.get("chapter")
        shown = f"{c['ordinary']} {c['ordinary_move'] or '-'}, {c['misere']} {c['misere_move'] or '-'}" if c else ""
        mis = f"{r['misere']:<7} {str(r['misere_move'] or '-'):<9}" if "misere" in r else f"{'':<7} {'':<9}"
        print(
            f"{r['heap']:>4}  {r['grundy']:>6}  {r['ordinary']:<8}  {str(r['ordinary_move'] or '-'):<9} {mis} {shown}"
        )
    if per is None:
        print(f"period: none shows in the values of heaps up to {a.max} (whether one exists is open)")
    else:
        print(f"period: {per[1]} from heap {per[0]} on, within heaps up to {a.max}")
    for e in errors:
        print(f"seed 003: {e}")
    if not errors:
        print("seed 003: its tables agree with the search (its ? is a heap won in both versions)")
    return 0


FOX_FLAGS = ("board", "geese", "foxes", "first", "start")


def _no_fox_flags(a) -> None:
    given = [f"--{f}" for f in FOX_FLAGS if getattr(a, f) is not None]
    if given:
        raise UsageError(f"game {a.name}: {', '.join(given)} {'is' if len(given) == 1 else 'are'} for fox and geese")


def _foxgeese(a) -> int:
    """Fox and geese valued by exhaustive search from every start; the chapter's claims beside."""
    from baseline.games import foxgeese

    if a.misere_max is not None or a.max != 100 or a.cards is not None or a.steps is not None:
        raise UsageError("game foxgeese: --max, --misere-max, --cards and --steps belong to other games")
    n = 8 if a.board is None else a.board
    if n % 2:
        raise UsageError(f"game foxgeese: --board is even (the geese fill row 0's dark squares), not {n}")
    geese = n // 2 if a.geese is None else a.geese
    if geese > n // 2:
        raise UsageError(f"game foxgeese: --geese is at most {n // 2} on a board of {n}, not {geese}")
    foxes = 1 if a.foxes is None else a.foxes
    if a.strategy:
        return _geese_strategy(a, n, geese, foxes)
    from eternity.commands.common import _live_progress

    progress, status_ctx = _live_progress(a, f"eternity game foxgeese --board {n}")
    with status_ctx:
        # boards to 8 x 8 are valued in a second by the Python memo; the numba search pays a few seconds of
        # compiling first (it is recursive, so not cached) and is the one that reaches 10 x 10
        if n <= 8:
            r = foxgeese.solve(n, geese, foxes, a.first or "fox", a.start or "far")
            r["complete"] = True
        else:
            r = foxgeese.solve_fast(n, geese, foxes, a.first or "fox", a.start or "far", progress=progress)
    if a.json:
        _out(r)
        return 0
    who = "foxes" if foxes > 1 else "fox"
    print(
        f"{n} x {n}, {geese} geese against {foxes} {who}, {r['first']} moving first, the {who} starting "
        f"{'on the last row' if r['start'] == 'far' else 'on any free dark square'}: {r['winner']} "
        f"({r['positions']:,} positions valued)"
    )
    if not r["complete"]:
        print(
            f"the search filled its table ({r['table_positions']:,} positions, half the machine's memory) before "
            "it finished: no answer"
        )
    if r["winner"] == "depends on the start":
        for sq, w in r["starts"].items():
            print(f"  {who} on {sq}: {w}")
    return 0


def _geese_strategy(a, n: int, geese: int, foxes: int) -> int:
    """Seed 003's two fundamentals for the geese, played against every fox defence, held to the exact values."""
    from baseline.games import geese_strategy

    if n % 4 or geese != n // 2 or foxes != 1 or (a.start or "far") != "far":
        raise UsageError(
            "game foxgeese --strategy: the chapter's game: n/2 geese (A, B | C, D halves: --board a multiple "
            "of 4), one fox starting on the last row"
        )
    r = geese_strategy.check(n, a.first or "fox")
    if a.json:
        _out(r)
        return 0
    print(
        f"{n} x {n}, {geese} geese playing seed 003's two fundamentals against every fox defence "
        f"({r['first']} first; {r['positions_visited']:,} positions visited):"
    )
    for sq, v in r["starts"].items():
        print(f"  fox on {sq}: the program's geese {'win' if v['program'] == 'geese' else 'lose'}; exact: {v['exact']}")
    print(f"  moves by rule: {', '.join(f'{k} {v}' for k, v in r['moves_by_rule'].items())}")
    m = r["first_mistake"]
    if m:
        print(
            f"  {r['mistakes']} moves throw a won position away; the first: fox {m['fox']}, geese {m['geese']}, "
            f"{m['rule']} to {m['moved_to']}"
        )
    if r["refutation"]:
        print(f"  the fox's line against it: {'; '.join(r['refutation'])}")
    return 0


def _maharajah(a) -> int:
    """The Maharajah's reduced game valued by retrograde analysis; the chapter's claims beside."""
    from baseline.games import maharajah

    if a.misere_max is not None or a.max != 100 or a.cards is not None or a.steps is not None:
        raise UsageError("game maharajah: --max, --misere-max, --cards and --steps belong to other games")
    if a.geese is not None or a.foxes is not None or a.first is not None or a.start is not None:
        raise UsageError("game maharajah: --geese, --foxes, --first and --start are fox and geese's")
    n = 8 if a.board is None else a.board
    men = a.men or ""
    if not 3 <= n <= 8:
        raise UsageError(f"game maharajah: --board is 3..8, not {n}")
    try:
        men = maharajah._canon(men)
    except ValueError as e:
        raise UsageError(f"game maharajah: --men: {e}") from None
    if len(men) > 2:
        raise UsageError(f"game maharajah: --men is at most two men beside the king, not {len(men)} ({men})")
    from eternity.commands.common import _live_progress

    progress, status_ctx = _live_progress(a, f"eternity game maharajah --board {n} --men {men or '-'}")
    with status_ctx:
        r = maharajah.survey(n, men, progress)
    r["chapter"] = dict(maharajah.CHAPTER)
    if a.json:
        _out(r)
        return 0
    print(
        f"the Maharajah against K{men} on {n} x {n} (capture rules, no pawns): {r['positions']:,} positions, "
        f"valued in {r['seconds']} s"
    )
    for key, label in (("maharajah_first", "the Maharajah to move"), ("black_first", "black to move")):
        c = r[key]
        print(f"  {label:<22} white wins {c['white']:>10,}   black wins {c['black']:>10,}   draws {c['draw']:>10,}")
    st, ex = r["start"], r["deepest_example"]

    def where(d):
        return ", ".join([f"M {d['maharajah']}", f"K {d['king']}"] + [f"{k[0]} {v}" for k, v in d["men"].items()])

    plies = f" in {st['plies']} plies" if st["plies"] is not None else ""
    print(f"  start ({where(st)}, the Maharajah to move): {st['value']}{plies}")
    print(f"  longest forced end: {ex['plies']} plies ({where(ex)}, {ex['to_move']} to move, {ex['winner']} wins)")
    if not men:
        every = r["maharajah_first"]["white"] == r["positions"]
        print(
            f"seed 003: {maharajah.CHAPTER['lone_king']}: "
            + ("reproduced, from every position with the Maharajah to move" if every else "NOT reproduced")
        )
    return 0


def _beaver(a) -> int:
    """Every machine of n cards run and decided; the champions beside seed 003's."""
    from baseline.games import beaver
    from eternity.api import busy_beaver

    if a.misere_max is not None or a.max != 100:
        raise UsageError("game beaver: --max and --misere-max are Grundy's game's")
    _no_fox_flags(a)
    n = 3 if a.cards is None else a.cards
    steps = 1000 if a.steps is None else a.steps
    r = busy_beaver(n, steps)
    r["chapter"] = dict(beaver.CHAPTER)
    r["chapter_examples"] = beaver.chapter_examples()
    if a.json:
        _out(r)
        return 0
    print(f"{r['machines']:,} machines of {n} cards, each run up to {steps:,} steps")
    for what, k in r["outcomes"].items():
        print(f"  {what:<20} {k:>12,}")
    for key, label in (("max_ones", "most ones"), ("max_steps", "most steps")):
        c = r[key]
        shown = "  ".join(
            f"card {i + 1}: " + ", ".join(f"{w}{m}{nx}" for w, m, nx in card) for i, card in enumerate(c["example"])
        )
        print(f"{label:<12} {c['value']} ({c['machines']} machines), e.g. {shown}")
    if n == 3:
        print(f"seed 003: 3MAX1 = {beaver.CHAPTER['max_ones']}, 3MAXOP = {beaver.CHAPTER['max_steps']}")
    for what, got in r["chapter_examples"].items():
        print(f"seed 003's machine that {what}: {got['outcome']}, {got['steps']} steps, {got['ones']} ones")
    if r["decided"]:
        print(
            f"every machine decided: the maxima are proven ({len(r['certificates']):,} closed tape languages, "
            "each checked, are in --json)"
        )
    else:
        print(
            f"{r['outcomes']['undecided']:,} machines are left undecided: the maxima hold for every machine decided "
            "(a machine that halts after more steps than the limit would be among the undecided)"
        )
    return 0


def _snakes(a) -> int:
    """Snakes and ladders on the chapter's board: exact answers from the Markov chain, a simulation beside."""
    from baseline.games import snakes

    if a.misere_max is not None or a.max != 100:
        raise UsageError("game snakes: --max and --misere-max are Grundy's game's")
    if a.cards is not None or a.steps is not None:
        raise UsageError("game snakes: --cards and --steps are the Busy Beaver's")
    _no_fox_flags(a)
    r = snakes.analyse(games=a.games)
    if a.json:
        _out(r)
        return 0
    c = r["chapter"]
    print(f"most likely number of throws   {r['most_likely']}  (seed 003: {c['most_likely']})")
    print(
        f"mean number of throws          {r['mean']:.2f} exactly; simulated {r['simulated_mean']:.2f} "
        f"+- {r['simulated_mean_stderr']:.2f} over {r['simulated_games']:,} games  (seed 003's 'average': {c['mean']})"
    )
    print(f"median number of throws        {r['median']}  (half the games are over by then)")
    example = ",".join(map(str, r["least_example"]))
    print(f"fewest throws                  {r['least']}, e.g. {example}  (seed 003: {c['least']})")
    print(
        f"total rise, total drop         {r['total_rise']}, {r['total_drop']}  (seed 003: {c['total_rise']}, {c['total_drop']})"
    )
    within = ", ".join(f"{n}: {p:.3f}" for n, p in r["p_within"].items())
    print(f"finished within n throws       {within}")
    t = r["two_step"]
    print(
        f"throw or move two (variant)    {t['expected_moves']:.2f} moves expected with the best choice on every "
        f"square, against {t['die_only_expected_moves']:.2f} by the die alone; moving two is better on "
        f"{len(t['move_two_on'])} squares ({', '.join(map(str, t['move_two_on'][:12]))}"
        f"{', ...' if len(t['move_two_on']) > 12 else ''})"
    )
    x = r["two_step_example"]
    print(
        f"the chapter's example          ladder 3-100, snake 2-1: {x['expected_moves']:.2f} moves expected, moving "
        f"two on squares {x['move_two_on']} (seed 003: 'the best play is not to throw the die at all')"
    )
    return 0


def _hexagon(a) -> int:
    """Magic hexagons of orders 1 to ``--order`` (default 5), each decided by CP-SAT with its sum left free."""
    from cpmodel.magic_hexagon import search

    rows = [search(n) for n in range(1, (a.order or 5) + 1)]
    if a.json:
        _out(rows)
        return 0
    for r in rows:
        what = (
            f"exists, sum {r['magic_sum']}"
            if r["exists"]
            else ("none" + (f": {r['why']}" if r.get("why") else " (the search is exhausted)"))
            if r["exists"] is False
            else "undecided within the time limit"
        )
        print(f"order {r['order']}: {r['cells']:>3} cells, {r['lines']:>2} lines  {what}  ({r['seconds']} s, CP-SAT)")
    print("seed 003: Adams's hexagon (order 3) is the only one; `eternity solve magic-hexagon --mode count` counts it")
    return 0


def add(sub) -> None:
    """Declare `eternity game` on the subcommand parsers ``sub``: its arguments and the function it runs."""
    s = sub.add_parser(
        "game",
        help="the chapter's games solved exactly: Grundy's game, snakes and ladders, the Busy Beaver, fox and geese, "
        "the Maharajah (reduced)",
    )
    s.add_argument(
        "name",
        choices=["grundy", "snakes", "beaver", "foxgeese", "maharajah", "hexagon"],
        help="the game (snakes: seed 003's board; beaver: Turing machines; foxgeese: fox and geese; maharajah: "
        "the Maharajah against the king and up to two men, reduced; hexagon: magic hexagons of every order)",
    )
    s.add_argument("--max", type=arg(int, 1, 10_000), default=100, help="the largest heap valued (default: 100)")
    s.add_argument(
        "--misere-max",
        type=arg(int, 1, MISERE_MAX),
        help=f"the largest heap of the misere search (default: {MISERE_MAX}, or --max if smaller)",
    )
    s.add_argument(
        "--games", type=arg(int, 1, 10_000_000), default=100_000, help="snakes: games simulated (default: 100,000)"
    )
    s.add_argument("--cards", type=arg(int, 1, 3), help="beaver: cards (states) of the machines (default: 3)")
    s.add_argument("--order", type=arg(int, 1, 8), help="hexagon: the orders 1 to this are searched (default: 5)")
    s.add_argument(
        "--steps",
        type=arg(int, 40, 100_000),
        help="beaver: steps a machine is run before it is called undecided (default: 1,000)",
    )
    s.add_argument(
        "--board", type=arg(int, 2, 10), help="foxgeese: the board's side, even; maharajah: 3..8 (default: 8)"
    )
    s.add_argument("--men", help="maharajah: black's men beside the king, from Q, R, B, N, at most two (default: none)")
    s.add_argument("--geese", type=arg(int, 1, 5), help="foxgeese: geese on row 0 (default: half the side)")
    s.add_argument("--foxes", type=arg(int, 1, 2), help="foxgeese: foxes (default: 1)")
    s.add_argument("--first", choices=["fox", "geese"], help="foxgeese: who moves first (default: fox)")
    s.add_argument(
        "--start", choices=["far", "any"], help="foxgeese: the fox starts on the last row (far, default) or anywhere"
    )
    s.add_argument(
        "--strategy",
        action="store_true",
        help="foxgeese: play seed 003's two fundamentals for the geese against every fox defence, each move held "
        "to the exact values",
    )
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_game)
