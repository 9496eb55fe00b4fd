"""Closed tape languages found by SAT: a certificate that a Turing machine never stops.

A machine's run from a blank tape is a chain of configurations ``(u, f, b, v)``: the word ``u`` left of
the head (after the blank cells), the card ``f``, the symbol ``b`` under the head, the word ``v`` right of
it (before the blank cells).  A language of such words that holds the first configuration, holds the
successor of each of its members, and holds no configuration reading a stop entry, proves the machine
never stops: every configuration of the run is in it, and none can stop.  Counters, whose tapes grow as
the logarithm of the steps, defeat cycle, translation, n-gram and repeated-word tests, but their
configurations form a simple regular language.

The language is read by an automaton in two parts (the shape of the Busy Beaver Challenge's
finite-automata reduction): a deterministic automaton of ``n`` states reads ``u`` from the left, with
state 0 first and a blank keeping it in 0 (so blanks before ``u`` change nothing); on the head, the
matrix ``H[f][b]`` takes its state to a set of the ``m`` states of a nondeterministic automaton, which
reads ``v`` through the matrices ``R[0]``, ``R[1]`` and accepts in the states ``a``.  A configuration is
in the language when some path accepts.  Sufficient conditions, each a clause over the automaton's bits:

* the first configuration ``(ε, 0, 0, ε)`` is accepted;
* ``a ⊆ R[0] a``: a configuration accepted stays accepted with a blank written after ``v`` (so a head
  moving right past ``v`` reads a blank from an accepted configuration);
* a right move ``(f, b) → (w, R, g)``: ``H[f][b][q] R[s] ⊆ H[g][s][δ(q, w)]`` for every state ``q`` and
  symbol ``s``;
* a left move ``(f, b) → (w, L, g)``: ``H[f][b][δ(q, t)] ⊆ H[g][t][q] R[w]`` for every ``q`` and ``t``;
* a stop entry ``(f, b)``: ``H[f][b][q]`` meets no state from which ``R`` reaches ``a``.

The solver (python-sat's Glucose, which takes a conflict budget) looks for such an automaton at growing sizes; one found is checked by
:func:`check`, written separately from the clauses: it tests the same conditions by sets and computes the
states that reach ``a`` exactly.  A machine that stops has no such automaton, so a wrong "never stops"
needs both the clauses and the check to be wrong the same way.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

# (DFA states, NFA states) tried, smallest first; the search stops at the first automaton found
SIZES = tuple((n, m) for total in range(2, 11) for n in range(1, total) for m in (total - n,) if m >= 1)


@dataclass(frozen=True)
class TapeLanguage:
    """A closed tape language: ``delta[q][s]`` the left automaton, ``head[f][b]`` a list of state sets
    (one a left state), ``right[s]`` the right automaton's successor sets, ``accept`` its accepting
    states, and ``mirrored`` when it is the machine's mirror (left and right swapped) that it closes."""

    delta: tuple[tuple[int, ...], ...]
    head: tuple[tuple[tuple[frozenset[int], ...], ...], ...]
    right: tuple[tuple[frozenset[int], ...], tuple[frozenset[int], ...]]
    accept: frozenset[int]
    mirrored: bool = False

    def as_json(self) -> dict:
        """The language as JSON-ready fields (a certificate others can check)."""
        return {
            "delta": [list(r) for r in self.delta],
            "head": [[[sorted(s) for s in hb] for hb in hf] for hf in self.head],
            "right": [[sorted(s) for s in rs] for rs in self.right],
            "accept": sorted(self.accept),
            "mirrored": self.mirrored,
        }

    @classmethod
    def from_json(cls, d: dict) -> TapeLanguage:
        """The language written by ``as_json``."""
        return cls(
            delta=tuple(tuple(int(x) for x in r) for r in d["delta"]),
            head=tuple(tuple(tuple(frozenset(s) for s in hb) for hb in hf) for hf in d["head"]),
            right=(tuple(frozenset(s) for s in d["right"][0]), tuple(frozenset(s) for s in d["right"][1])),
            accept=frozenset(d["accept"]),
            mirrored=bool(d.get("mirrored", False)),
        )


def mirror(tr: np.ndarray) -> np.ndarray:
    """The machine with left and right swapped: it stops exactly when the original does."""
    out = np.array(tr, copy=True)
    out[:, :, 1] = 1 - out[:, :, 1]
    return out


def _clauses(tr: np.ndarray, n: int, m: int):
    """(clauses, variable maps) of a closed language with ``n`` left and ``m`` right states."""
    from pysat.formula import IDPool

    cards = tr.shape[0]
    pool = IDPool()
    D = {(q, s, r): pool.id(("D", q, s, r)) for q in range(n) for s in (0, 1) for r in range(n)}
    H = {
        (f, b, q, i): pool.id(("H", f, b, q, i))
        for f in range(cards) for b in (0, 1) for q in range(n) for i in range(m)
    }  # fmt: skip
    R = {(s, i, j): pool.id(("R", s, i, j)) for s in (0, 1) for i in range(m) for j in range(m)}
    A = {i: pool.id(("A", i)) for i in range(m)}
    Z = {i: pool.id(("Z", i)) for i in range(m)}  # at least the states from which R reaches A
    cl: list[list[int]] = []
    for q in range(n):  # delta is a function
        for s in (0, 1):
            cl.append([D[q, s, r] for r in range(n)])
            cl.extend([-D[q, s, r], -D[q, s, r2]] for r, r2 in itertools.combinations(range(n), 2))
    cl.append([D[0, 0, 0]])  # a blank keeps the first state
    for r in range(1, n):  # symmetry: left states numbered in order of first reach (a light form)
        cl.append([D[q, s, r] for q in range(r) for s in (0, 1)])
    # the first configuration is accepted
    first = []
    for i in range(m):
        v = pool.id(("I", i))
        first.append(v)
        cl += [[-v, H[0, 0, 0, i]], [-v, A[i]]]
    cl.append(first)
    # a accepted stays accepted with a blank after v
    for i in range(m):
        ts = []
        for j in range(m):
            v = pool.id(("T", i, j))
            ts.append(v)
            cl += [[-v, R[0, i, j]], [-v, A[j]]]
        cl.append([-A[i], *ts])
    for i in range(m):  # Z holds A and what reaches Z
        cl.append([-A[i], Z[i]])
        for s in (0, 1):
            for j in range(m):
                cl.append([-R[s, i, j], -Z[j], Z[i]])
    for f in range(cards):
        for b in (0, 1):
            w, mv, g = (int(x) for x in tr[f, b])
            if g == cards:  # a stop entry: its head sets meet no state that reaches A
                cl.extend([-H[f, b, q, i], -Z[i]] for q in range(n) for i in range(m))
            elif mv == 1:  # right: H[f][b][q] R[s] within H[g][s][delta(q, w)]
                for q, r, s, i, j in itertools.product(range(n), range(n), (0, 1), range(m), range(m)):
                    cl.append([-D[q, w, r], -H[f, b, q, i], -R[s, i, j], H[g, s, r, j]])
            else:  # left: H[f][b][delta(q, t)] within H[g][t][q] R[w]
                for q, t, j in itertools.product(range(n), (0, 1), range(m)):
                    via = []
                    for i in range(m):
                        v = pool.id(("P", g, t, w, q, i, j))
                        via.append(v)
                        cl += [[-v, H[g, t, q, i]], [-v, R[w, i, j]]]
                    for r in range(n):
                        cl.append([-D[q, t, r], -H[f, b, r, j], *via])
    return cl, D, H, R, A


def _decode(model: set[int], tr, n, m, D, H, R, A, mirrored: bool) -> TapeLanguage:
    cards = tr.shape[0]
    delta = tuple(tuple(next(r for r in range(n) if D[q, s, r] in model) for s in (0, 1)) for q in range(n))
    head = tuple(
        tuple(tuple(frozenset(i for i in range(m) if H[f, b, q, i] in model) for q in range(n)) for b in (0, 1))
        for f in range(cards)
    )
    right = tuple(tuple(frozenset(j for j in range(m) if R[s, i, j] in model) for i in range(m)) for s in (0, 1))
    accept = frozenset(i for i in range(m) if A[i] in model)
    return TapeLanguage(delta, head, (right[0], right[1]), accept, mirrored)


def find(tr: np.ndarray, sizes=SIZES, conflicts: int = 100_000) -> TapeLanguage | None:
    """The first closed tape language found for the machine or its mirror, at the sizes in order, each
    solve cut at ``conflicts`` conflicts (Glucose, which takes a budget); None when none is found, which
    proves nothing."""
    from pysat.solvers import Solver

    for n, m in sizes:
        for mirrored in (False, True):
            t = mirror(tr) if mirrored else np.asarray(tr)
            cl, D, H, R, A = _clauses(t, n, m)
            with Solver(name="glucose4", bootstrap_with=cl) as s:
                s.conf_budget(conflicts)
                if not s.solve_limited():  # False: no language of this size; None: the budget ran out
                    continue
                model = {v for v in s.get_model() if v > 0}
            lang = _decode(model, t, n, m, D, H, R, A, mirrored)
            if check(tr, lang):
                return lang
            raise AssertionError("a closed tape language from the solver fails the independent check")
    return None


def check(tr: np.ndarray, lang: TapeLanguage) -> bool:
    """True when ``lang`` proves the machine never stops: every condition of the module docstring tested
    on sets, the states reaching the accepting ones computed exactly, nothing taken from the clauses."""
    t = mirror(tr) if lang.mirrored else np.asarray(tr)
    cards = t.shape[0]
    delta, head, right, accept = lang.delta, lang.head, lang.right, lang.accept
    n, m = len(delta), len(right[0])
    if delta[0][0] != 0 or len(head) != cards:
        return False

    def step(states, s):  # the right automaton reading s from a set of states
        return frozenset(j for i in states for j in right[s][i])

    # the first configuration is accepted
    if not head[0][0][0] & accept:
        return False
    # a accepted stays accepted after a blank
    if any(not (right[0][i] & accept) for i in accept):
        return False
    # the states from which some word reaches accept, by a fixed point
    live = set(accept)
    grew = True
    while grew:
        grew = False
        for i in range(m):
            if i not in live and (right[0][i] | right[1][i]) & live:
                live.add(i)
                grew = True
    for f in range(cards):
        for b in (0, 1):
            w, mv, g = (int(x) for x in t[f, b])
            for q in range(n):
                src = head[f][b][q]
                if g == cards:
                    if src & live:
                        return False
                elif mv == 1:
                    for s in (0, 1):
                        if not step(src, s) <= head[g][s][delta[q][w]]:
                            return False
                else:
                    for tt in (0, 1):
                        if not head[f][b][delta[q][tt]] <= step(head[g][tt][q], w):
                            return False
    return True
