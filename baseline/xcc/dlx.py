"""Knuth's Algorithm C (exact cover with colours, dancing links) in numba.

The data structure, as in Knuth's dlx2 (TAOCP 7.2.2.1)::

    items   1..N (primary 1..N1, secondary N1+1..N); item 0 is the root.
            LLINK/RLINK: the doubly linked list of primary items still to
            cover (root 0); secondary items hang off their own root N+1.
    nodes   0..N are the item headers (ULINK/DLINK: the item's column; LEN
            the number of options still in it; COLOR the colour a purified
            item was given).  Then, option after option, one node per item of
            the option, with a spacer node before each option and one at the
            end.  A spacer's TOP is <= 0, its ULINK points to the first node
            of the option before it and its DLINK to the last node of the
            option after it.

                  root   a     b     c
                   0 <-> 1 <-> 2 <-> 3 <-> (back to 0)
                         |     |     |
        spacer 4  ...    5     6          option 0 = {a, b}
        spacer 7  ...    8           9    option 1 = {a, c}
        spacer 10

    COLOR of an option node: 0 none, > 0 its colour, -1 once the node is
    known to agree with its item's chosen colour (purified).

Invariant: after cover(i) every option containing i is gone from every other
column; uncover(i) restores exactly what cover(i) removed (links are undone
in reverse order).  The search is written as a resumable state machine
(``pc`` = Knuth's step number) so the Python side can stop it every few
hundred thousand nodes for progress, time limits and solution collection.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from baseline.runtime.kernel import BUDGET, COUNT, DEEPEST, DONE, FINISHED, LEAF, LEVEL, MANY, PHASE, SOLUTION, pause


@njit(cache=True)
def build_links(n_items, n_primary, opt_ptr, opt_items, opt_colors):
    """The linked structure of the XCC arrays (see the module docstring)."""
    N = n_items
    n_opt = opt_ptr.shape[0] - 1
    nnz = opt_items.shape[0]
    Z = N + 1 + nnz + n_opt + 1
    TOP = np.zeros(Z, np.int32)
    UL = np.zeros(Z, np.int32)
    DL = np.zeros(Z, np.int32)
    COLOR = np.zeros(Z, np.int32)
    LEN = np.zeros(N + 2, np.int32)
    OPT = np.full(Z, -1, np.int32)
    LL = np.zeros(N + 2, np.int32)
    RL = np.zeros(N + 2, np.int32)
    for i in range(1, N + 1):
        UL[i] = i
        DL[i] = i
    # primary list with root 0, secondary list with root N+1
    prev = 0
    for i in range(1, n_primary + 1):
        LL[i] = prev
        RL[prev] = i
        prev = i
    LL[0] = prev
    RL[prev] = 0
    prev = N + 1
    for i in range(n_primary + 1, N + 1):
        LL[i] = prev
        RL[prev] = i
        prev = i
    LL[N + 1] = prev
    RL[prev] = N + 1
    p = N + 1  # first spacer
    TOP[p] = 0
    last_spacer = p
    for k in range(n_opt):
        first = p + 1
        for t in range(opt_ptr[k], opt_ptr[k + 1]):
            p += 1
            it = opt_items[t] + 1
            TOP[p] = it
            OPT[p] = k
            COLOR[p] = opt_colors[t]
            LEN[it] += 1
            q = UL[it]
            UL[p] = q
            DL[q] = p
            DL[p] = it
            UL[it] = p
        DL[last_spacer] = p  # last node of this option
        p += 1  # the spacer after option k
        TOP[p] = -(k + 1)
        UL[p] = first
        last_spacer = p
    DL[last_spacer] = 0
    return TOP, UL, DL, COLOR, LEN, OPT, LL, RL


@njit(cache=True, inline="always")
def _hide(p, TOP, UL, DL, COLOR, LEN):
    q = p + 1
    while q != p:
        x = TOP[q]
        u = UL[q]
        d = DL[q]
        if x <= 0:
            q = u
        elif COLOR[q] < 0:
            q += 1
        else:
            DL[u] = d
            UL[d] = u
            LEN[x] -= 1
            q += 1


@njit(cache=True, inline="always")
def _unhide(p, TOP, UL, DL, COLOR, LEN):
    q = p - 1
    while q != p:
        x = TOP[q]
        u = UL[q]
        d = DL[q]
        if x <= 0:
            q = d
        elif COLOR[q] < 0:
            q -= 1
        else:
            DL[u] = q
            UL[d] = q
            LEN[x] += 1
            q -= 1


@njit(cache=True, inline="always")
def _cover(i, TOP, UL, DL, COLOR, LEN, LL, RL):
    p = DL[i]
    while p != i:
        _hide(p, TOP, UL, DL, COLOR, LEN)
        p = DL[p]
    l = LL[i]
    r = RL[i]
    RL[l] = r
    LL[r] = l


@njit(cache=True, inline="always")
def _uncover(i, TOP, UL, DL, COLOR, LEN, LL, RL):
    l = LL[i]
    r = RL[i]
    RL[l] = i
    LL[r] = i
    p = UL[i]
    while p != i:
        _unhide(p, TOP, UL, DL, COLOR, LEN)
        p = UL[p]


@njit(cache=True, inline="always")
def _purify(p, TOP, UL, DL, COLOR, LEN):
    c = COLOR[p]
    i = TOP[p]
    COLOR[i] = c
    q = DL[i]
    while q != i:
        if COLOR[q] == c:
            COLOR[q] = -1
        else:
            _hide(q, TOP, UL, DL, COLOR, LEN)
        q = DL[q]


@njit(cache=True, inline="always")
def _unpurify(p, TOP, UL, DL, COLOR, LEN):
    c = COLOR[p]
    i = TOP[p]
    q = UL[i]
    while q != i:
        if COLOR[q] < 0:
            COLOR[q] = c
        else:
            _unhide(q, TOP, UL, DL, COLOR, LEN)
        q = UL[q]


@njit(cache=True)
def seed_rng(seed):
    """Seed numba's random generator (the kernels' random tie-breaks), which Python's seed does not reach."""
    np.random.seed(seed)


@njit(cache=True)
def _choose(LEN, RL, allow, static, randomize):
    """C3: the open primary item to branch on (0: none allowed is open); ``allow`` empty: every item."""
    best = MANY
    i = 0
    ties = 0
    p = RL[0]
    everyone = len(allow) == 0
    while p != 0:
        if everyone or allow[p]:
            if static:
                return p
            lam = LEN[p]
            if lam < best:
                best = lam
                i = p
                ties = 1
                if lam == 0:
                    break
            elif lam == best and randomize:
                ties += 1
                if np.random.random() * ties < 1.0:
                    i = p
        p = RL[p]
    return i


@njit(cache=True)
def run(
    TOP, UL, DL, COLOR, LEN, LL, RL, x, chosen, st, prof, budget, stop_on_solution, split_depth, randomize, allow, static
):
    """Advance the search by at most ``budget`` nodes.

    The branch rule: the item branched on is chosen among the open primary items ``p`` with
    ``allow[p]`` (all of them: Knuth's rule), the one with fewest options, or with ``static`` the
    first in item order; when no allowed item is open, among all of them (so a rule restricted to
    the sites or to the pieces still finishes every branch).

    ``st`` holds the resumable state: [0] level, [1] pc (Knuth's step),
    [2] nodes so far, [3] solutions so far, [4] deepest level.  ``x[l]`` is
    the node tried at level l, ``chosen[l]`` the item branched on there.
    ``prof[l]`` counts the nodes tried at level l (the shape of the tree).
    Returns DONE, SOLUTION (x[:level] is one), BUDGET, or LEAF (the search
    reached ``split_depth``: x[:level] is a sub-problem).
    """
    l = st[LEVEL]
    pc = st[PHASE]
    spent = 0
    while True:
        if pc == 2:  # C2: enter level l
            if RL[0] == 0:
                st[COUNT] += 1
                pc = 8
                if stop_on_solution:
                    pause(st, l, pc, spent)
                    return SOLUTION
                continue
            if l == split_depth:
                pc = 8
                pause(st, l, pc, spent)
                return LEAF
            # C3: choose the item to branch on (the branch rule: MRV over the allowed items by default)
            i = _choose(LEN, RL, allow, static, randomize)
            if i == 0:  # no allowed item open: any item
                i = _choose(LEN, RL, allow[:0], False, randomize)
            chosen[l] = i
            _cover(i, TOP, UL, DL, COLOR, LEN, LL, RL)  # C4
            x[l] = DL[i]
            pc = 5
        elif pc == 5:  # C5: try x_l
            xl = x[l]
            if xl == chosen[l]:
                pc = 7
                continue
            spent += 1
            prof[l] += 1
            p = xl + 1
            while p != xl:
                j = TOP[p]
                if j <= 0:
                    p = UL[p]
                else:
                    if COLOR[p] == 0:
                        _cover(j, TOP, UL, DL, COLOR, LEN, LL, RL)
                    elif COLOR[p] > 0:
                        _purify(p, TOP, UL, DL, COLOR, LEN)
                    p += 1
            l += 1
            st[DEEPEST] = max(st[DEEPEST], l)
            pc = 2
            if spent >= budget:
                pause(st, l, pc, spent)
                return BUDGET
        elif pc == 6:  # C6: try again
            xl = x[l]
            p = xl - 1
            while p != xl:
                j = TOP[p]
                if j <= 0:
                    p = DL[p]
                else:
                    if COLOR[p] == 0:
                        _uncover(j, TOP, UL, DL, COLOR, LEN, LL, RL)
                    elif COLOR[p] > 0:
                        _unpurify(p, TOP, UL, DL, COLOR, LEN)
                    p -= 1
            x[l] = DL[xl]
            pc = 5
        elif pc == 7:  # C7: backtrack
            _uncover(chosen[l], TOP, UL, DL, COLOR, LEN, LL, RL)
            pc = 8
        else:  # C8: leave level l
            if l == 0:
                pause(st, 0, FINISHED, spent)
                return DONE
            l -= 1
            pc = 6
    return DONE
