"""Snakes and ladders as an absorbing Markov chain (seed 003, section 6.3, after Hopgood).

A piece starts on square 0 and moves by a die's throw; a square that is a ladder's foot or a snake's head
sends it on at once; square 100 must be reached exactly (a throw past it leaves the piece where it is).
The chain's transition matrix gives everything the chapter asks: the distribution of the number of throws
(the probability of finishing on each throw, by iterating the chain), its mean (exactly, from the
fundamental matrix (I - Q)^-1), its mode, and the fewest throws (a breadth-first search, with a path).
A simulation of many games checks them.
"""

from __future__ import annotations

from collections import deque

import numpy as np

# seed 003's board: ladders (foot, top) and snakes (head, tail)
LADDERS = ((3, 20), (11, 28), (16, 35), (22, 37), (49, 67), (52, 71), (57, 76), (61, 78), (73, 86), (81, 98), (88, 91))
SNAKES = ((99, 63), (97, 66), (92, 25), (90, 48), (85, 59), (83, 45), (75, 13), (60, 23), (56, 1), (54, 36), (51, 6))
# what the chapter prints for it
CHAPTER = {"most_likely": 20, "mean": 80, "least": 8, "total_rise": 174, "total_drop": 507}
SIZE = 100


def jumps(ladders=LADDERS, snakes=SNAKES) -> dict[int, int]:
    """Square -> where a piece landing on it ends up."""
    return {a: b for a, b in (*ladders, *snakes)}


def transitions(size: int = SIZE, ladders=LADDERS, snakes=SNAKES) -> np.ndarray:
    """The (size+1) x (size+1) transition matrix of one throw; square ``size`` absorbs."""
    jump = jumps(ladders, snakes)
    t = np.zeros((size + 1, size + 1))
    for s in range(size + 1):
        if s == size:
            t[s, s] = 1.0
            continue
        for d in range(1, 7):
            to = s + d if s + d <= size else s  # past the end: the piece stays
            t[s, jump.get(to, to)] += 1 / 6
    return t


def throws_distribution(t: np.ndarray, tail: float = 1e-12, most: int = 100_000) -> np.ndarray:
    """p[n]: the probability that the game ends on throw n (p[0] = 0), until what is left is below ``tail``."""
    size = t.shape[0] - 1
    v = np.zeros(size + 1)
    v[0] = 1.0
    out = [0.0]
    done = 0.0
    for _ in range(most):
        v = v @ t
        out.append(v[size] - done)
        done = v[size]
        if 1 - done < tail:
            break
    return np.array(out)


def mean_throws(t: np.ndarray) -> float:
    """The expected number of throws from square 0, exactly: the first row of (I - Q)^-1 summed."""
    q = t[:-1, :-1]
    n = np.linalg.solve(np.eye(len(q)) - q, np.ones(len(q)))
    return float(n[0])


def least_throws(size: int = SIZE, ladders=LADDERS, snakes=SNAKES) -> tuple[int, list[int]]:
    """The fewest throws from square 0 to ``size``, and one sequence of throws that does it."""
    jump = jumps(ladders, snakes)
    prev: dict[int, tuple[int, int]] = {0: (-1, 0)}
    queue = deque([0])
    while queue:
        s = queue.popleft()
        if s == size:
            break
        for d in range(1, 7):
            to = s + d if s + d <= size else s
            to = jump.get(to, to)
            if to not in prev:
                prev[to] = (s, d)
                queue.append(to)
    path, s = [], size
    while s != 0:
        s, d = prev[s]
        path.append(d)
    return len(path), path[::-1]


def simulate(games: int, seed: int = 0, size: int = SIZE, ladders=LADDERS, snakes=SNAKES) -> np.ndarray:
    """The number of throws of ``games`` games played with a seeded die (all games at once, in numpy)."""
    jump = np.arange(size + 1)
    for a, b in (*ladders, *snakes):
        jump[a] = b
    rng = np.random.default_rng(seed)
    pos = np.zeros(games, np.int64)
    throws = np.zeros(games, np.int64)
    live = np.ones(games, bool)
    while live.any():
        d = rng.integers(1, 7, size=int(live.sum()))
        p = pos[live] + d
        p = np.where(p <= size, p, pos[live])
        pos[live] = jump[p]
        throws[live] += 1
        live = pos != size
    return throws


# the chapter's example of the "move two squares" rule: on this board the best play is never to throw
TWO_STEP_EXAMPLE = {"ladders": ((3, 100),), "snakes": ((2, 1),)}


def two_step(size: int = SIZE, ladders=LADDERS, snakes=SNAKES, tol: float = 1e-12) -> dict:
    """The chapter's variant: each turn, throw the die or move two squares forward.  The expected number of
    moves to finish under the best choice on every square (value iteration to ``tol``: E[s] = 1 + min(the
    die's mean of E over the six throws, E after two squares), E[size] = 0), the squares where moving two is
    the better choice, and the die-only game's mean beside it."""
    jump = jumps(ladders, snakes)

    def after(s: int, d: int) -> int:
        to = s + d if s + d <= size else s
        return jump.get(to, to)

    throw = [[after(s, d) for d in range(1, 7)] for s in range(size + 1)]
    two = [after(s, 2) for s in range(size + 1)]
    e = np.zeros(size + 1)
    for _ in range(100_000):
        by_die = np.array([np.mean([e[t] for t in throw[s]]) for s in range(size + 1)])
        new = 1 + np.minimum(by_die, e[two])
        new[size] = 0.0
        if np.max(np.abs(new - e)) < tol:
            e = new
            break
        e = new
    by_die = np.array([np.mean([e[t] for t in throw[s]]) for s in range(size + 1)])
    moves_two = [s for s in range(size) if e[two[s]] < by_die[s] - 1e-9]
    # the path of play from square 0 while the choice is certain (moving two), to show a policy in full
    return {
        "expected_moves": float(e[0]),
        "die_only_expected_moves": mean_throws(transitions(size, ladders, snakes)),
        "move_two_on": moves_two,
        "moves_two_from_start": 0 in moves_two,
    }


def analyse(games: int = 100_000, seed: int = 0) -> dict:
    """The chapter's three questions for its board, answered exactly and by simulation, beside its figures."""
    t = transitions()
    p = throws_distribution(t)
    least, path = least_throws()
    sim = simulate(games, seed)
    return {
        "most_likely": int(np.argmax(p)),
        "mean": mean_throws(t),
        "median": int(np.searchsorted(np.cumsum(p), 0.5)),
        "least": least,
        "least_example": path,
        "total_rise": sum(b - a for a, b in LADDERS),
        "total_drop": sum(a - b for a, b in SNAKES),
        "simulated_games": games,
        "simulated_mean": float(sim.mean()),
        "simulated_mean_stderr": float(sim.std(ddof=1) / np.sqrt(games)),
        "p_within": {n: float(np.cumsum(p)[n]) for n in (10, 20, 50, 80, 100, 200) if n < len(p)},
        "two_step": two_step(),
        "two_step_example": two_step(ladders=TWO_STEP_EXAMPLE["ladders"], snakes=TWO_STEP_EXAMPLE["snakes"]),
        "chapter": CHAPTER,
    }
