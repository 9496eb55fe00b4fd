"""Parities of polydrafter tilings: seed 000's "40,000 tilings become 10,000 due to parity
considerations" and Pegg's parities, derived from the drafter grid and measured.

The grid (``puzzles.kinds.grids.DrafterGrid``) cuts each unit triangle into 12 cells of 12 types k
(the direction, in steps of 30 degrees, of the cell from its hexagon's centre); a drafter is 3 of them.
A 60-degree turn adds 2 to every k, a mirror maps k to 11 - k.  Three +-1 colourings of the cells
change sign under these moves as a whole:

* ``mirror``: (-1)^k, kept by turns, reversed by a mirror;
* ``turn``: (-1)^(k // 2), reversed by a 60-degree turn and by a mirror;
* ``both``: their product (-1)^(k + k // 2), reversed by a turn, kept by a mirror.

A shape's *balance* under a colouring is the sum over its cells (``turn`` divided by 3: each drafter
holds 3 cells of one sign under it, 2 and 1 under the others).  A drafter contributes +-1 to each, so
a piece of 12 drafters has even balances; a placed piece's balance is its own or its negative.  Even
numbers keep their value mod 4 under a change of sign, so **a region tiled by pieces has, for each
colouring, its balance congruent mod 4 to the sum of the pieces' balances**: three bits a region and
a piece set must agree on.  (These are Ed Pegg's three parities of Eternity's pieces: the counts of
pieces balanced under each, 89, 116 and 51, are his.)

The three bits are not independent: each drafter adds m + t + m t = (1 + m)(1 + t) - 1, which is -1
mod 4, to the sum of its three balances, so a 12-drafter piece's three balances sum to 0 mod 4 and
its three bits to 0 mod 2.  Two bits remain: a random piece set matches a region about 1 time in 4,
Selby's factor.  Inside an exact search the check can never prune: a placement changes the region's
balances and the pieces' by the same amount mod 4.  It is a check on a state (a region and the pieces
for it) before its search.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

CHARACTERS = ("mirror", "turn", "both")


def balances(cells: Iterable[Sequence[int]]) -> tuple[int, int, int]:
    """(mirror, turn, both) balances of a set of drafter-grid cells (a piece, a region)."""
    m = t = b = 0
    for c in cells:
        k = c[2]
        m += -1 if k % 2 else 1
        s = -1 if (k // 2) % 2 else 1
        t += s
        b += s * (-1 if k % 2 else 1)
    if t % 3:
        raise ValueError("not a union of drafters: a turn balance not a multiple of 3")
    return m, t // 3, b


def bits(v: tuple[int, int, int]) -> tuple[int, int, int]:
    """The balances' halves mod 2 (every balance of a union of an even number of drafters is even)."""
    if any(x % 2 for x in v):
        raise ValueError(f"odd balance {v}: an odd number of drafters")
    return tuple((x // 2) % 2 for x in v)  # type: ignore[return-value]


def passes(region: tuple[int, int, int], pieces: Iterable[tuple[int, int, int]]) -> bool:
    """Whether a region and a piece set (their balances) agree on the three parities mod 4."""
    total = [0, 0, 0]
    for v in pieces:
        for i in range(3):
            total[i] += v[i]
    return all((region[i] - total[i]) % 4 == 0 for i in range(3))


def piece_table(vectors: list[tuple[int, int, int]]) -> dict:
    """The pieces' balances: balanced counts per colouring, the distribution of |balances|, and whether
    every piece's three bits sum to 0 mod 2 (the identity that leaves two bits)."""
    return {
        "pieces": len(vectors),
        "balanced": {c: sum(v[i] == 0 for v in vectors) for i, c in enumerate(CHARACTERS)},
        "vectors": Counter(tuple(abs(x) for x in v) for v in vectors).most_common(),
        "bit sum even on every piece": all(sum(bits(v)) % 2 == 0 for v in vectors),
        "bit pairs": Counter(bits(v)[:2] for v in vectors).most_common(),
    }


def subset_pass_fraction(
    region: tuple[int, int, int], offered: list[tuple[int, int, int]], k: int, samples: int, seed: int = 0
) -> float:
    """The share of k-subsets of the offered pieces whose parities match the region: exact when there are
    at most ``samples`` subsets, else over ``samples`` random ones."""
    n = len(offered)
    if math.comb(n, k) <= samples:
        subsets: Iterable[tuple[int, ...]] = itertools.combinations(range(n), k)
        total = math.comb(n, k)
    else:
        rng = random.Random(seed)
        subsets = (tuple(rng.sample(range(n), k)) for _ in range(samples))
        total = samples
    return sum(passes(region, (offered[i] for i in s)) for s in subsets) / total


def _states(k: int, excess: int, states: int, seed: int, regions: str):
    """Eternity's excess-piece states, as the tilability data draws them (``sample_state``)."""
    from baseline.xcc.backtrack import random_prefix
    from puzzles import catalog
    from puzzles.estimates.tilability import sample_state

    base = catalog.load("eternity1")
    rng = random.Random(seed)
    for _ in range(states):
        yield sample_state(base, k, excess, rng, None, random_prefix, regions)


def excess_exhausts(
    k: int, excess: int, states: int, seed: int = 0, time_s: float = 60.0, regions: str = "first"
) -> dict:
    """Every tiling of ``states`` excess-piece states of Eternity (a region of k pieces, k + excess pieces
    on offer, regions as the tilability data cuts them): the tilings found, those whose piece set matches the region's
    parities (all of them, if the invariant holds), and the share of the k-subsets on offer that match.
    Selby's factor is tilings per subset over tilings per matching subset: 1 / that share."""
    import solving

    tilings = matching = finished = 0
    shares = []
    for state, _ in _states(k, excess, states, seed, regions):
        vec = {pc.name: balances(pc.cells) for pc in state.pieces}
        region = balances(state.region)
        res = solving.get("backtrack", {"engine": "poly"}).solve(
            state, mode="all", limits=solving.Limits(time_s=time_s)
        )
        finished += res.status.value in ("solved", "unsatisfiable")
        for sol in res.solutions:
            tilings += 1
            matching += passes(region, (vec[state.pieces[pl.piece].name] for pl in sol))
        shares.append(subset_pass_fraction(region, list(vec.values()), k, 20_000, seed))
    share = sum(shares) / len(shares) if shares else float("nan")
    return {
        "states": states,
        "finished": finished,
        "tilings": tilings,
        "tilings matching": matching,
        "matching share of subsets": round(share, 4),
        "factor": round(1 / share, 2) if share else None,
    }


def exact_states(k: int, states: int, seed: int = 0, time_s: float = 60.0) -> dict:
    """Exact states (a region of k pieces and k other pieces, no excess): the share that fail the parity
    check, their exhausts' counts (0, if the invariant holds) and the nodes those exhausts spend, which the
    check saves; beside them the nodes of the states that pass."""
    import solving

    fail_nodes, pass_nodes, fail_counts, fails, n = [], [], [], 0, 0
    for state, _ in _states(k, 0, states, seed, "apart"):
        n += 1
        ok = passes(balances(state.region), (balances(pc.cells) for pc in state.pieces))
        res = solving.get("backtrack", {"engine": "poly"}).solve(
            state, mode="count", limits=solving.Limits(time_s=time_s)
        )
        nodes = int(res.stats.get("nodes") or 0)
        if ok:
            pass_nodes.append(nodes)
        else:
            fails += 1
            fail_nodes.append(nodes)
            fail_counts.append(int(res.count or 0))
    return {
        "states": n,
        "fail parity": fails,
        "tilings of the failing states": sum(fail_counts),
        "nodes saved": sum(fail_nodes),
        "nodes of the passing states": sum(pass_nodes),
        "share of all nodes saved": round(sum(fail_nodes) / max(1, sum(fail_nodes) + sum(pass_nodes)), 3),
    }
