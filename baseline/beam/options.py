"""The beam's options, declared once: where each applies (edge matching or the XCC beam, mode best)
and whether it enters a checkpoint's fingerprint.  Below every other module of the beam, so the
checkpoints read the declarations without importing the solver."""

from __future__ import annotations

from baseline.beam.repair_block import FORMULATIONS, SHAPES
from baseline.poly.tables import DEFAULT_SWEEP
from puzzles.kinds.orders import ORDERS
from puzzles.puzzle import EDGES, GRID
from solving import Option, Opts


class BeamOptions(Opts):
    """The beam's options (solver beam): the edge beam's, the XCC beam's and best mode's."""

    width = Option(int, 10_000, "states kept per level", lo=1, hi=10_000_000)
    lookahead = Option(int, 2, "cells ahead checked for a dead site (first mode)", lo=0, hi=64)
    exhaust_at = Option(
        int,
        -1,
        "cells left when the end-game exhausts each survivor (-1: a quarter of the board, at most 30, as Selby)",
        lo=-1,
    )
    schedule = Option(
        str,
        "auto",
        "best mode: widths from the time budget (budget), or 16, 256, 4096, width "
        "(widen); auto: budget when there is a time limit",
        ("auto", "budget", "widen"),
        modes=("best",),
    )
    max_width = Option(int, 0, "best mode, budget schedule: the widest pass (0: no cap)", lo=0, modes=("best",))
    repair = Option(
        float,
        0.3,
        "best mode with a time limit: the share of the time given to the repair "
        "phase after the beam (large-neighbourhood search, baseline/beam/repair.py)",
        lo=0.0,
        hi=1.0,
        modes=("best",),
        fingerprint=False,
    )
    tail = Option(
        int,
        6,
        "best mode, repair: tail passes re-run the beam over the last 2..N rows of the best board (0: none)",
        lo=0,
        hi=64,
        modes=("best",),
        fingerprint=False,
    )
    lns = Option(
        float,
        0.0,
        "best mode, repair: the share of large-neighbourhood steps that re-solve about k x k cells around a "
        "mismatch exactly (lns_model, lns_shape), k adapting between 3 and 8 (baseline/beam/repair_block.py)",
        lo=0.0,
        hi=1.0,
        modes=("best",),
        fingerprint=False,
    )
    lns_s = Option(
        float, 2.0, "best mode, repair: the seconds for one block", lo=0.05, modes=("best",), fingerprint=False
    )
    lns_model = Option(
        str,
        "maxsat",
        "best mode, repair: the block's formulation: RC2 MaxSAT (the default: it proves the most blocks, "
        "docs/results/eternity2.md), CP-SAT with table constraints or one-hot join variables, or the one-hot "
        "model in Exact or Pumpkin through CPMpy (baseline/beam/repair_block.py)",
        FORMULATIONS,
        modes=("best",),
        fingerprint=False,
    )
    lns_shape = Option(
        str,
        "square",
        "best mode, repair: the cells the exact neighbourhood frees, about k x k of them around a mismatch: a "
        "square, a band of two rows, a ring, the cells at the worst joins, or one of these at random a step "
        "(baseline/beam/repair_block.py)",
        SHAPES,
        modes=("best",),
        fingerprint=False,
    )
    lns_swap = Option(
        int,
        0,
        "best mode, repair: cells at mismatches elsewhere freed with the block, so far pieces can move in",
        lo=0,
        hi=64,
        modes=("best",),
        fingerprint=False,
    )
    window = Option(
        str,
        "3x3",
        "best mode, repair: the window re-solved exactly around a mismatch (HxW)",
        modes=("best",),
        fingerprint=False,
    )
    jobs = Option(
        int,
        1,
        "best mode: independent runs (seeds seed, seed+1, ...) in parallel processes; the best board wins",
        lo=1,
        hi=64,
        modes=("best",),
        fingerprint=False,
    )
    threads = Option(
        int,
        1,
        "states expanded by this many threads of one run (numba, no GIL); the run's boards are the same for any number",
        lo=1,
        hi=256,
        features=(EDGES,),
        fingerprint=False,
    )
    diversity = Option(
        bool,
        False,
        "record each level's diversity in the stats (levels): the states' distinct piece sets, their distinct "
        "ancestors half-way up, and the share of placements two states have in common (costs a little time)",
        features=(EDGES,),
        fingerprint=False,
    )
    per_parent = Option(
        int,
        0,
        "diversity: each state's best N children are kept before any state's next "
        "one, the rest fill the width (0: plain ranking)",
        lo=0,
    )
    grow = Option(
        float,
        0.0,
        "best mode, budget schedule: a pass ahead of its time model widens, up to "
        "GROW times its planned width (1: never; 0: 4 when repair=0, where no phase "
        "after the beam would use the time, else 1)",
        lo=0.0,
        hi=16.0,
        modes=("best",),
    )
    cut = Option(
        float,
        0.0,
        "best mode: make a state's mismatch children only when they could reach the "
        "beam: its score plus the level's best exact gain plus CUT, less a penalty, against "
        "the width-th exact child (-1: make them all)",
        lo=-1.0,
        modes=("best",),
    )
    cut_states = Option(
        float,
        0.0,
        "best mode, with the cut: on a level with fewer exact children than the "
        "cut's rank, only the states with the best bounds make mismatch children, "
        "this many times the places left (0: all states)",
        lo=0.0,
        modes=("best",),
    )
    score = Option(
        str, "pairings", "child score: colour pairings (Owen-style) or none", ("pairings", "none"), features=(EDGES,)
    )
    order = Option(
        str,
        "auto",
        "the static order of the sites (auto: scan along the shorter side)",
        ("auto",) + tuple(o for o in ORDERS if o != "mrv"),
        features=(EDGES,),
    )
    seed = Option(int, 0, "tie-break noise seed: the same seed gives the same run", lo=0)
    slips = Option(
        str, "", "best mode: D1,D2,... the k-th mismatch allowed from depth D_k (default: anywhere)", modes=("best",)
    )
    late_penalty = Option(
        float,
        -1.0,
        "best mode: the mismatch penalty in the last LATE_AT cells (-1: the penalty throughout)",
        lo=-1.0,
        modes=("best",),
    )
    late_at = Option(int, 80, "best mode: cells left when late_penalty takes over", lo=0, modes=("best",))
    forecast = Option(
        float,
        0.0,
        "best mode: a child is charged FORECAST x penalty for each later site with "
        "two or more known sides that no unused piece fits (0: off)",
        lo=0.0,
        modes=("best",),
    )
    penalty = Option(
        float,
        -1.0,
        "best mode: score cost of a mismatched join (-1: log of the colour count)",
        lo=-1.0,
        modes=("best",),
    )
    endgame_nodes = Option(int, 50_000_000, "node budget of one end-game exhaust", lo=1, fingerprint=False)
    reconnoitre = Option(
        int,
        0,
        "polyforms: the end game's and the probes' exhaust branch by Selby's reconnoitre of this depth "
        "(backtrack's option of the poly engine; 0: the most constrained site)",
        lo=0,
        hi=2,
        features=(GRID,),
        fingerprint=False,
    )
    checkpoint = Option(str, "", "directory: write the frontier there at every level", fingerprint=False)
    resume = Option(str, "", "directory: continue from the frontier written there", fingerprint=False)
    start = Option(
        str,
        "",
        "best mode with a time limit, edge matching: a full board (a solution file, e.g. an earlier run's -o) "
        "to improve; no beam passes, the whole time goes to the repair phase",
        modes=("best",),
        features=(EDGES,),
        fingerprint=False,
    )
    weights = Option(str, "", "polyforms: JSON file of per-piece log-weights (eternity tilability)", features=(GRID,))
    region_score = Option(
        str,
        "",
        "polyforms: a score with region terms (eternity endgame fit -o); from region_at pieces left the best "
        "region_pool x width children by the beam's own score are ranked again by it",
        features=(GRID,),
    )
    region_at = Option(int, 40, "polyforms, region_score: pieces left from which it ranks", lo=0, features=(GRID,))
    region_pool = Option(
        int, 4, "polyforms, region_score: children ranked again a level, in widths", lo=1, features=(GRID,)
    )
    sites = Option(
        int,
        4,
        "polyforms: the first N free sites in reading order; the most constrained is filled",
        lo=1,
        hi=64,
        features=(GRID,),
    )
    boundary = Option(
        float,
        0.1,
        "polyforms: score cost of a free-cell edge facing a filled cell or the outside",
        lo=0.0,
        features=(GRID,),
    )
    covers = Option(
        float, 1.0, "polyforms: score weight of log(fewest options of the next sites)", lo=0.0, features=(GRID,)
    )
    touch = Option(
        bool,
        True,
        "polyforms: a child is dead when a free site next to its new piece has no "
        "fitting option left (false: only the lookahead sites are checked)",
        features=(GRID,),
    )
    tables = Option(
        int,
        0,
        "polyforms: Selby's boundary tables over windows of N cells (0: off): a child is dead when the window "
        "round a free site next to its new piece is a pattern no pieces fill (baseline/poly/boundary.py)",
        lo=0,
        hi=24,
        features=(GRID,),
    )
    tables_core = Option(
        int,
        4,
        "polyforms, boundary tables: the window's first N cells (the site and its nearest) must be coverable",
        lo=1,
        hi=24,
        features=(GRID,),
    )
    look = Option(
        int,
        0,
        "polyforms: Selby's lookahead: a child is scored by its best descendant 1 or 2 placements on, and is "
        "dead when it has none (0: its own score)",
        lo=0,
        hi=2,
        features=(GRID,),
    )
    every_site = Option(
        bool,
        False,
        "polyforms: a kept state must have a fitting option at every free site "
        "of the board (not only near its new piece)",
        features=(GRID,),
    )
    sweep = Option(
        float,
        DEFAULT_SWEEP,
        "polyforms: the direction (degrees) the sites are filled from: 90 = top rows first",
        lo=-360.0,
        hi=360.0,
        features=(GRID,),
    )
    probe_at = Option(
        int,
        0,
        "polyforms: from this many pieces left, each kept state is first searched for "
        "probe_nodes nodes and dropped when that proves it has no tiling (0: off)",
        lo=0,
        features=(GRID,),
    )
    probe_nodes = Option(int, 200, "polyforms: node budget of one probe (probe_at)", lo=1, features=(GRID,))


OPTIONS = BeamOptions.declared()  # the same declarations by name
