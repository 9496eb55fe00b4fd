"""Algorithm C over bitsets: the same search as ``dlx``, faster on small problems.

XCC compatibility is pairwise: two options clash when they share a primary
or an uncoloured secondary item, or give one coloured item two colours.  So
the options still compatible with a partial solution are one bitset ``L``
(a bit per option), and choosing option ``o`` is ``L & ~CONF[o]`` with
``CONF[o]`` the precomputed clash row of ``o``.  The most constrained item
is the uncovered primary item ``i`` with fewest bits in ``L & M[i]``
(``M[i]``: the options containing ``i``), counted word by word with popcount
and abandoned as soon as it reaches the best so far.

Items are chosen and options tried in exactly the order of ``dlx.run``
(first item of fewest options; options in input order), so the two engines
visit the same tree node for node: the tests check the counts and the
nodes per level agree.  The clash rows cost n_options^2 / 8 bytes, which
is why ``auto`` keeps dancing links for large problems.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .dlx import BUDGET, DONE, LEAF, SOLUTION

__all__ = ["build", "run", "DONE", "SOLUTION", "BUDGET", "LEAF"]


@intrinsic
def _popcount(typingctx, x):
    """The popcnt instruction on a uint64."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _ctz(typingctx, x):
    """Count trailing zeros of a non-zero uint64."""
    if x != types.uint64:
        return None

    def codegen(context, builder, sig, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.uint64(types.uint64), codegen


def build(n_items, n_primary, opt_ptr, opt_items, opt_colors):
    """Bit matrices of an XCC problem.

    Returns M (items x words: options containing the item), CONF (options x
    words: the options each clashes with, itself included), PI (options x
    item-words: the primary items it covers), and lo/hi, the first and one
    past the last non-zero word of each row of M."""
    coloured = opt_colors != 0
    key = np.full(opt_items.shape[0], -1, np.int64)
    if coloured.any():
        pairs = opt_items[coloured].astype(np.int64) * (int(opt_colors.max()) + 1) + opt_colors[coloured]
        _, key[coloured] = np.unique(pairs, return_inverse=True)
    return _build(n_items, n_primary, opt_ptr, opt_items, key, int(key.max()) + 1)


@njit(cache=True)
def _build(n_items, n_primary, opt_ptr, opt_items, key, n_keys):
    n_opt = opt_ptr.shape[0] - 1
    W = (n_opt + 63) >> 6
    WI = max((n_primary + 63) >> 6, 1)
    M = np.zeros((n_items, W), np.uint64)
    S = np.zeros((max(n_keys, 1), W), np.uint64)  # options giving (item, colour)
    one = np.uint64(1)
    for k in range(n_opt):
        b = one << np.uint64(k & 63)
        for t in range(opt_ptr[k], opt_ptr[k + 1]):
            M[opt_items[t], k >> 6] |= b
            if key[t] >= 0:
                S[key[t], k >> 6] |= b
    CONF = np.zeros((n_opt, W), np.uint64)
    PI = np.zeros((n_opt, WI), np.uint64)
    for k in range(n_opt):
        for t in range(opt_ptr[k], opt_ptr[k + 1]):
            j = opt_items[t]
            if j < n_primary:
                PI[k, j >> 6] |= one << np.uint64(j & 63)
            if key[t] < 0:
                for w in range(W):
                    CONF[k, w] |= M[j, w]
            else:  # clash with every other use of j except the same colour
                for w in range(W):
                    CONF[k, w] |= M[j, w] & ~S[key[t], w]
        CONF[k, k >> 6] |= one << np.uint64(k & 63)
    lo = np.zeros(n_items, np.int64)
    hi = np.zeros(n_items, np.int64)
    for i in range(n_items):
        a = W
        e = 0
        for w in range(W):
            if M[i, w] != 0:
                if w < a:
                    a = w
                e = w + 1
        lo[i] = min(a, e)
        hi[i] = e
    return M, CONF, PI, lo, hi


@njit(cache=True)
def run(M, CONF, PI, lo, hi, n_primary, Lst, Ust, item, pos, opt, st, prof,
        budget, stop_on_solution, split_depth, randomize):
    """Advance the search by at most ``budget`` nodes (the contract of ``dlx.run``).

    ``Lst[l]`` / ``Ust[l]``: the live options and the uncovered primary items
    on entering level l; ``item[l]`` the item branched on there, ``pos[l]``
    the next option index to try, ``opt[l]`` the option tried.  ``st``:
    [0] level, [1] pc (2 enter level, 5 try next option, 8 leave level),
    [2] nodes, [3] solutions, [4] deepest level."""
    W = Lst.shape[1]
    WI = Ust.shape[1]
    l = st[0]
    pc = st[1]
    spent = 0
    zero = np.uint64(0)
    while True:
        if pc == 2:
            empty = True
            for w in range(WI):
                if Ust[l, w] != zero:
                    empty = False
                    break
            if empty:
                st[3] += 1
                pc = 8
                if stop_on_solution:
                    st[0] = l
                    st[1] = pc
                    st[2] += spent
                    return SOLUTION
                continue
            if l == split_depth:
                pc = 8
                st[0] = l
                st[1] = pc
                st[2] += spent
                return LEAF
            # the uncovered primary item with fewest live options (first one on ties)
            best = 1 << 62
            bi = -1
            ties = 0
            stop = False
            for wi in range(WI):
                u = Ust[l, wi]
                while u != zero:
                    b = _ctz(u)
                    u &= u - np.uint64(1)
                    i = (wi << 6) + np.int64(b)
                    c = 0
                    for w in range(lo[i], hi[i]):
                        c += np.int64(_popcount(Lst[l, w] & M[i, w]))
                        if c > best or (c == best and not randomize):
                            break
                    if c < best:
                        best = c
                        bi = i
                        ties = 1
                        if c == 0:
                            stop = True
                            break
                    elif c == best and randomize:
                        ties += 1
                        if np.random.random() * ties < 1.0:
                            bi = i
                if stop:
                    break
            item[l] = bi
            pos[l] = 0
            pc = 5
        elif pc == 5:
            i = item[l]
            k = pos[l]
            found = -1
            w = k >> 6
            if w < hi[i]:
                x = Lst[l, w] & M[i, w] & (~np.uint64(0) << np.uint64(k & 63))
                while True:
                    if x != zero:
                        found = (w << 6) + np.int64(_ctz(x))
                        break
                    w += 1
                    if w >= hi[i]:
                        break
                    x = Lst[l, w] & M[i, w]
            if found < 0:
                pc = 8
                continue
            pos[l] = found + 1
            opt[l] = found
            spent += 1
            prof[l] += 1
            for w in range(W):
                Lst[l + 1, w] = Lst[l, w] & ~CONF[found, w]
            for w in range(WI):
                Ust[l + 1, w] = Ust[l, w] & ~PI[found, w]
            l += 1
            if l > st[4]:
                st[4] = l
            pc = 2
            if spent >= budget:
                st[0] = l
                st[1] = pc
                st[2] += spent
                return BUDGET
        else:
            if l == 0:
                st[0] = 0
                st[1] = 9
                st[2] += spent
                return DONE
            l -= 1
            pc = 5
    return DONE


@njit(cache=True)
def start(Lst, Ust, n_opt, n_primary):
    """Level 0: every option live, every primary item uncovered."""
    one = np.uint64(1)
    for k in range(n_opt):
        Lst[0, k >> 6] |= one << np.uint64(k & 63)
    for j in range(n_primary):
        Ust[0, j >> 6] |= one << np.uint64(j & 63)
