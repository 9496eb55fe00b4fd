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

from baseline.runtime.kernel import BUDGET, COUNT, DEEPEST, DONE, FINISHED, LEAF, LEVEL, PHASE, SOLUTION, pause

__all__ = ["build", "run", "start"]


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


def _rows(cols: tuple[np.ndarray, np.ndarray], n_rows: int, n_cols: int) -> np.ndarray:
    """Bit rows (n_rows x words, uint64; bit c of row r set for each (r, c) pair)."""
    r, c = (np.asarray(a, np.int64) for a in cols)
    out = np.zeros((n_rows, (n_cols + 63) >> 6), np.uint64)
    np.bitwise_or.at(out, (r, c >> 6), np.left_shift(np.uint64(1), (c & 63).astype(np.uint64)))
    return out


def build(n_items, n_primary, opt_ptr, opt_items, opt_colors):
    """Bit matrices of an XCC problem (numpy: built once, not a hot loop).

    Returns M (items x words: options containing the item), CONF (options x
    words: the options each clashes with, itself included), PI (options x
    item-words: the primary items it covers), and lo/hi, the first and one
    past the last non-zero word of each row of M."""
    n_opt = opt_ptr.shape[0] - 1
    owner = np.repeat(np.arange(n_opt), np.diff(opt_ptr))
    items = opt_items.astype(np.int64)
    M = _rows((items, owner), n_items, n_opt)
    # the clash row of each (option, item) entry: every option using the item, except
    # those giving a coloured item the same colour
    clash = M[items]
    coloured = opt_colors != 0
    if coloured.any():
        pairs = items[coloured] * (int(opt_colors.max()) + 1) + opt_colors[coloured]
        keys, key = np.unique(pairs, return_inverse=True)
        S = _rows((key, owner[coloured]), len(keys), n_opt)
        clash[coloured] &= ~S[key]
    CONF = np.bitwise_or.reduceat(clash, opt_ptr[:-1], axis=0) if n_opt else clash[:0]
    CONF |= _rows((np.arange(n_opt), np.arange(n_opt)), n_opt, n_opt)  # each option clashes with itself
    primary = items < n_primary
    PI = _rows((owner[primary], items[primary]), n_opt, max(n_primary, 1))
    nz = M != 0
    any_ = nz.any(axis=1)
    lo = np.where(any_, nz.argmax(axis=1), 0).astype(np.int64)
    hi = np.where(any_, M.shape[1] - nz[:, ::-1].argmax(axis=1), 0).astype(np.int64)
    return M, CONF, PI, lo, hi


@njit(cache=True, inline="always")
def is_empty(Ust, l):
    """No primary item left uncovered at level l."""
    for w in range(Ust.shape[1]):
        if Ust[l, w] != np.uint64(0):
            return False
    return True


@njit(cache=True, inline="always")
def fewest_options(Lst, Ust, M, lo, hi, l, randomize):
    """The uncovered primary item with the fewest live options at level l (Knuth's MRV): the first
    one on ties, or one of them at random with ``randomize``.  Counting stops early at the best so far."""
    zero = np.uint64(0)
    best = 1 << 62
    bi = -1
    ties = 0
    for wi in range(Ust.shape[1]):
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
                    return bi
            elif c == best and randomize:
                ties += 1
                if np.random.random() * ties < 1.0:
                    bi = i
    return bi


@njit(cache=True, inline="always")
def next_option(Lst, M, hi, l, i, k):
    """The first live option at or after index k that covers item i (-1: none): a word scan of
    ``Lst[l] & M[i]``."""
    w = k >> 6
    if w >= hi[i]:
        return -1
    x = Lst[l, w] & M[i, w] & (~np.uint64(0) << np.uint64(k & 63))
    while True:
        if x != np.uint64(0):
            return (w << 6) + np.int64(_ctz(x))
        w += 1
        if w >= hi[i]:
            return -1
        x = Lst[l, w] & M[i, w]


@njit(cache=True)
def run(M, CONF, PI, lo, hi, Lst, Ust, item, pos, st, prof, budget, stop_on_solution, split_depth, randomize):
    """Advance the search by at most ``budget`` nodes (the contract of ``dlx.run``).

    ``Lst[l]`` / ``Ust[l]``: the live options and the uncovered primary items
    on entering level l; ``item[l]`` the item branched on there, ``pos[l]``
    the next option index to try (so ``pos[l] - 1`` is the option tried).  ``st``:
    [0] level, [1] pc (2 enter level, 5 try next option, 8 leave level),
    [2] nodes, [3] solutions, [4] deepest level."""
    W = Lst.shape[1]
    WI = Ust.shape[1]
    l = st[LEVEL]
    pc = st[PHASE]
    spent = 0
    while True:
        if pc == 2:
            if is_empty(Ust, l):
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
            bi = fewest_options(Lst, Ust, M, lo, hi, l, randomize)
            item[l] = bi
            pos[l] = 0
            pc = 5
        elif pc == 5:
            i = item[l]
            found = next_option(Lst, M, hi, l, i, pos[l])
            if found < 0:
                pc = 8
                continue
            pos[l] = found + 1
            spent += 1
            prof[l] += 1
            for w in range(W):
                Lst[l + 1, w] = Lst[l, w] & ~CONF[found, w]
            for w in range(WI):
                Ust[l + 1, w] = Ust[l, w] & ~PI[found, w]
            l += 1
            st[DEEPEST] = max(st[DEEPEST], l)
            pc = 2
            if spent >= budget:
                pause(st, l, pc, spent)
                return BUDGET
        else:
            if l == 0:
                pause(st, 0, FINISHED, spent)
                return DONE
            l -= 1
            pc = 5
    return DONE


def start(Lst, Ust, n_opt, n_primary):
    """Level 0: every option live, every primary item uncovered."""
    Lst[0] = _rows((np.zeros(n_opt), np.arange(n_opt)), 1, n_opt)[0]
    Ust[0] = _rows((np.zeros(n_primary), np.arange(n_primary)), 1, max(n_primary, 1))[0]
