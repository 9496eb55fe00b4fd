"""DRAT certificates: a SAT solver's "unsatisfiable" checked, not believed.

A solver that says a CNF has no model can write the steps of its refutation as a DRAT proof: clauses
added (each a consequence the checker can confirm) and clauses deleted, ending in the empty clause.
CaDiCaL and Kissat write one next to their answer (binary DRAT by default), python-sat's CaDiCaL,
Glucose and Lingeling keep one in memory (text).  No packaged checker installs here (drat-trim is
neither a Debian nor a PyPI package), so this module is the checker:

- *forward* checking: every added clause, in order, must be RUP (reverse unit propagation: asserting
  its negation and propagating the clauses so far reaches a conflict) or, failing that, RAT on its first
  literal p (for every clause D holding -p, the resolvent on p is RUP);
- two watched literals a clause, in flat arrays, propagation in numba; the top-level assignment is kept
  between steps, and each check undoes what it assigned;
- a deleted clause is found by a hash of its literals; a deletion of a unit or of the reason of a
  top-level assignment is ignored (as drat-trim does by default).  Ignoring a deletion is always sound: a
  clause database with more clauses only makes RUP easier for consequences of the same formula, and a
  RAT check against more clauses is stricter;
- the proof checks when the empty clause is added, or when the clauses so far propagate to a conflict at
  the top level.  A proof that ends without either does not check.

Forward checking confirms every lemma, used or not, so it is slower than drat-trim's backward mode on
long proofs; on the boards here it is measured on the atlas's unsatisfiable boards
(``benchmarks/bench_certificates.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numba as nb
import numpy as np

# A proof larger than this is not read, and the answer stays the engine's claim: the checker holds about
# 8 bytes a proof byte while it parses and twice the literals while it checks.  The largest proof of the
# atlas's unsolvable boards is 55 MB (benchmarks/bench_certificates.py).
MAX_PROOF_BYTES = 256 * 2**20
MAX_NEW_VARS = 10_000_000  # variables a proof may add beyond the formula's (extension variables)


@dataclass
class Check:
    """The checker's verdict on one proof."""

    ok: bool
    reason: str  # why it does not check ("" when it does)
    lemmas: int  # clauses the proof adds
    deletions: int
    rat: int  # lemmas that needed the RAT check
    seconds: float
    proof_bytes: int
    late: bool = False  # the deadline stopped the check: the proof is neither accepted nor refuted


# ------------------------------------------------------------------ parsing


@nb.njit(cache=True)
def _parse_text(data, kinds, starts, lens, lits):  # pragma: no cover - numba
    """Text DRAT (``d`` before a deletion, literals ending in 0, ``c`` comments) into flat arrays.
    Returns (steps, literals), or (-1, position) at a byte that is not DRAT."""
    n = len(data)
    i = 0
    step = 0
    nl = 0
    open_ = False
    while i < n:
        c = data[i]
        if c == 32 or c == 9 or c == 10 or c == 13:
            i += 1
            continue
        if c == 99 and not open_:  # 'c': a comment to the end of the line
            while i < n and data[i] != 10:
                i += 1
            continue
        if c == 100 and not open_:  # 'd'
            kinds[step] = 1
            starts[step] = nl
            open_ = True
            i += 1
            continue
        neg = False
        if c == 45:
            neg = True
            i += 1
            if i >= n:
                return -1, i
            c = data[i]
        if c < 48 or c > 57:
            return -1, i
        v = 0
        while i < n and 48 <= data[i] <= 57:
            v = v * 10 + (data[i] - 48)
            if v >= 1 << 30:  # 2v + sign must fit the int32 literals: a variable this large is refused
                return -2, i
            i += 1
        if not open_:
            kinds[step] = 0
            starts[step] = nl
            open_ = True
        if v == 0:
            lens[step] = nl - starts[step]
            step += 1
            open_ = False
        else:
            lits[nl] = 2 * v + (1 if neg else 0)
            nl += 1
    if open_:
        return -1, n
    return step, nl


@nb.njit(cache=True)
def _parse_binary(data, kinds, starts, lens, lits):  # pragma: no cover - numba
    """Binary DRAT ('a' or 'd', then literals as variable-length integers 2v + sign, then 0)."""
    n = len(data)
    i = 0
    step = 0
    nl = 0
    while i < n:
        c = data[i]
        if c != 97 and c != 100:
            return -1, i
        kinds[step] = 0 if c == 97 else 1
        starts[step] = nl
        i += 1
        while True:
            u = 0
            shift = 0
            while True:
                if i >= n or shift > 35:
                    return -1, i
                b = data[i]
                i += 1
                u |= (b & 127) << shift
                shift += 7
                if b < 128:
                    break
            if u == 0:
                break
            if u < 2 or u >= (1 << 31):
                return -1, i
            lits[nl] = u
            nl += 1
        lens[step] = nl - starts[step]
        step += 1
    return step, nl


def parse(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A DRAT proof, text or binary, as (kinds: 0 add 1 delete, starts, lengths, literals 2v+sign)."""
    buf = np.frombuffer(data, np.uint8)
    cap = len(buf) + 1
    steps_cap = cap // 2 + 1  # every step ends in a 0 and a separator (text) or its 0 byte and its letter (binary)
    kinds, starts, lens = np.zeros(steps_cap, np.int8), np.zeros(steps_cap, np.int64), np.zeros(steps_cap, np.int32)
    lits = np.zeros(cap, np.int32)
    steps, nl = (_parse_binary if _is_binary(data) else _parse_text)(buf, kinds, starts, lens, lits)
    if steps == -2:
        raise ValueError(f"the proof names a variable of 2^30 or more (byte {nl}), past the checker's range")
    if steps < 0:
        raise ValueError(f"not a DRAT proof (byte {nl})")
    return kinds[:steps], starts[:steps], lens[:steps], lits[:nl]


TEXT_BYTES = frozenset(b"0123456789- \t\r\ndc")


def _is_binary(data: bytes) -> bool:
    """Binary DRAT starts with 'a' or 'd' and soon has a byte text DRAT cannot have (drat-trim's test)."""
    head = data[:64]
    return bool(head) and head[0] in (97, 100) and any(b not in TEXT_BYTES for b in head)


def clauses_array(clauses: list[list[int]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A CNF's clauses as (starts, lengths, literals 2v+sign)."""
    lens = np.fromiter((len(c) for c in clauses), np.int64, len(clauses))
    starts = np.zeros(len(clauses), np.int64)
    if len(clauses):
        starts[1:] = np.cumsum(lens)[:-1]
    flat = np.fromiter((x for c in clauses for x in c), np.int64, int(lens.sum()))
    lits = (2 * np.abs(flat) + (flat < 0)).astype(np.int32)
    return starts, lens, lits


# ------------------------------------------------------------------ checking

_OK, _FAILED, _NO_EMPTY, _LATE = 0, 1, 2, 3
CLOCK_EVERY = 256  # lemmas (and RAT candidates) between two looks at the clock


@nb.njit(cache=True)
def _now():  # pragma: no cover - numba
    with nb.objmode(t="float64"):
        t = time.perf_counter()
    return t


@nb.njit(cache=True)
def _mix(x):  # pragma: no cover - numba
    x = (x ^ (x >> 31)) * 0x3FB5D329728EA185
    x = (x ^ (x >> 27)) * 0x1DADEF4BC2DD44D
    return x ^ (x >> 33)


@nb.njit(cache=True)
def _check(n_lits, fstarts, flens, flits, kinds, pstarts, plens, plits, deadline):  # pragma: no cover - numba
    """Forward DRAT check.  Returns (code, failing step, rat checks, deletions ignored).  ``deadline`` (on
    ``time.perf_counter``; inf: none) stops it with ``_LATE`` within ``CLOCK_EVERY`` lemmas of passing."""
    ticks = 0
    n_cl = len(flens) + len(kinds)
    total = len(flits) + len(plits)
    arena = np.zeros(total + 1, np.int64)
    cstart = np.zeros(n_cl + 1, np.int64)
    clen = np.zeros(n_cl + 1, np.int64)
    alive = np.zeros(n_cl + 1, np.bool_)
    hnext = np.full(n_cl + 1, -1, np.int64)
    wnext = np.full(2 * (n_cl + 1), -1, np.int64)
    whead = np.full(n_lits, -1, np.int64)
    val = np.zeros(n_lits, np.int8)  # 1 true, -1 false, by literal
    reason = np.full(n_lits // 2 + 1, -1, np.int64)
    trail = np.zeros(n_lits // 2 + 1, np.int64)
    mark = np.zeros(n_lits, np.int64)
    stamp = 0
    table = dict()
    table[np.int64(0)] = np.int64(-1)
    n_trail = 0
    qhead = 0
    used = 0
    n_stored = 0
    rat_checks = 0
    ignored = 0
    inconsistent = False
    tmp = np.zeros(total + 16, np.int64)

    for step in range(len(flens) + len(kinds)):
        if step < len(flens):
            kind = 0
            s0 = fstarts[step]
            ln = flens[step]
            src = flits
        else:
            k = step - len(flens)
            kind = kinds[k]
            s0 = pstarts[k]
            ln = plens[k]
            src = plits
        # the clause, duplicates dropped; a tautology is skipped (it is true and constrains nothing)
        stamp += 1
        m = 0
        taut = False
        for t in range(ln):
            x = src[s0 + t]
            if mark[x] == stamp:
                continue
            if mark[x ^ 1] == stamp:
                taut = True
            mark[x] = stamp
            tmp[m] = x
            m += 1
        h = np.int64(m)
        for t in range(m):
            h += _mix(tmp[t])
        if kind == 1:  # a deletion: find the clause by its literals
            if taut or inconsistent:
                continue
            c = table[h] if h in table else np.int64(-1)
            prev = -1
            found = -1
            while c >= 0:
                if alive[c] and clen[c] == m:
                    same = True
                    for t in range(m):
                        if mark[arena[cstart[c] + t]] != stamp:
                            same = False
                            break
                    if same:
                        found = c
                        break
                prev = c
                c = hnext[c]
            if found < 0:
                ignored += 1
                continue
            if m <= 1:  # a unit: its assignment stays
                ignored += 1
                continue
            w0 = arena[cstart[found]]
            w1 = arena[cstart[found] + 1]
            if (val[w0] == 1 and reason[w0 >> 1] == found) or (val[w1] == 1 and reason[w1 >> 1] == found):
                ignored += 1  # the reason of a top-level assignment: kept
                continue
            alive[found] = False
            if prev < 0:
                if hnext[found] >= 0:
                    table[h] = hnext[found]
                else:
                    table[h] = -1
            else:
                hnext[prev] = hnext[found]
            continue
        if inconsistent:
            return _OK, step, rat_checks, ignored
        if taut:
            continue
        if step >= len(flens):  # a lemma: RUP, else RAT on its first literal
            ticks += 1
            if ticks % CLOCK_EVERY == 0 and _now() > deadline:
                return _LATE, step, rat_checks, ignored
            ok = _rup(tmp, 0, m, val, trail, n_trail, reason, whead, wnext, arena, cstart, clen, alive)
            if not ok:
                if m == 0:
                    return _FAILED, step, rat_checks, ignored
                rat_checks += 1
                ok = True
                p = tmp[0]
                for d in range(n_stored):
                    if not alive[d]:
                        continue
                    has = False
                    for t in range(clen[d]):
                        if arena[cstart[d] + t] == (p ^ 1):
                            has = True
                            break
                    if not has:
                        continue
                    ticks += 1
                    if ticks % CLOCK_EVERY == 0 and _now() > deadline:
                        return _LATE, step, rat_checks, ignored
                    # the resolvent: the lemma and D without -p; a tautology needs no check
                    r = m
                    tautr = False
                    for t in range(clen[d]):
                        y = arena[cstart[d] + t]
                        if y == (p ^ 1):
                            continue
                        if mark[y ^ 1] == stamp:
                            tautr = True
                            break
                        tmp[r] = y
                        r += 1
                    if tautr:
                        continue
                    if not _rup(tmp, 0, r, val, trail, n_trail, reason, whead, wnext, arena, cstart, clen, alive):
                        ok = False
                        break
                if not ok:
                    return _FAILED, step, rat_checks, ignored
            if m == 0:
                return _OK, step, rat_checks, ignored
        elif m == 0:  # the formula holds the empty clause
            return _OK, step, rat_checks, ignored
        # store the clause: non-false literals first, so its watches are the best two
        c = n_stored
        n_stored += 1
        cstart[c] = used
        clen[c] = m
        a = 0
        for t in range(m):
            if val[tmp[t]] != -1:
                arena[used + a] = tmp[t]
                a += 1
        for t in range(m):
            if val[tmp[t]] == -1:
                arena[used + a] = tmp[t]
                a += 1
        used += m
        alive[c] = True
        hnext[c] = table[h] if h in table else np.int64(-1)
        table[h] = c
        if m >= 2:  # watch the first two literals (the non-false ones, where there are two)
            for j in range(2):
                node = 2 * c + j
                x = arena[cstart[c] + j]
                wnext[node] = whead[x]
                whead[x] = node
        first = arena[cstart[c]]
        if m == 1 or val[arena[cstart[c] + 1]] == -1:  # a unit under the top-level assignment
            if val[first] == -1:
                inconsistent = True
            elif val[first] == 0:
                val[first] = 1
                val[first ^ 1] = -1
                reason[first >> 1] = c
                trail[n_trail] = first
                n_trail += 1
                n_trail, qhead, conflict = _propagate(
                    val, trail, n_trail, qhead, reason, whead, wnext, arena, cstart, clen, alive
                )
                if conflict:
                    inconsistent = True
    if inconsistent:
        return _OK, len(flens) + len(kinds), rat_checks, ignored
    return _NO_EMPTY, len(flens) + len(kinds), rat_checks, ignored


@nb.njit(cache=True)
def _rup(lits, s, e, val, trail, n_trail, reason, whead, wnext, arena, cstart, clen, alive):  # pragma: no cover
    """Whether the clause lits[s:e] is RUP: its negation propagates to a conflict.  The top-level
    assignment (trail[:n_trail], all propagated) is left as it was."""
    top = n_trail
    n = n_trail
    conflict = False
    for t in range(s, e):
        x = lits[t]
        if val[x] == 1:
            conflict = True  # the clause is true at the top level: its negation conflicts at once
            break
        if val[x] == 0:
            val[x ^ 1] = 1
            val[x] = -1
            reason[x >> 1] = -1
            trail[n] = x ^ 1
            n += 1
    if not conflict:
        n, _, conflict = _propagate(val, trail, n, top, reason, whead, wnext, arena, cstart, clen, alive)
    for t in range(top, n):
        y = trail[t]
        val[y] = 0
        val[y ^ 1] = 0
        reason[y >> 1] = -1
    return conflict


@nb.njit(cache=True)
def _propagate(val, trail, n_trail, qhead, reason, whead, wnext, arena, cstart, clen, alive):  # pragma: no cover
    """Unit propagation over two watched literals; (trail length, queue head, conflict)."""
    while qhead < n_trail:
        false_lit = trail[qhead] ^ 1
        qhead += 1
        prev = -1
        node = whead[false_lit]
        while node >= 0:
            nxt = wnext[node]
            c = node >> 1
            j = node & 1
            if not alive[c]:  # a deleted clause: dropped from the list on the way
                if prev < 0:
                    whead[false_lit] = nxt
                else:
                    wnext[prev] = nxt
                node = nxt
                continue
            s0 = cstart[c]
            other = arena[s0 + 1 - j]
            if val[other] == 1:
                prev = node
                node = nxt
                continue
            moved = False
            for t in range(2, clen[c]):
                y = arena[s0 + t]
                if val[y] != -1:
                    arena[s0 + t] = arena[s0 + j]
                    arena[s0 + j] = y
                    if prev < 0:
                        whead[false_lit] = nxt
                    else:
                        wnext[prev] = nxt
                    wnext[node] = whead[y]
                    whead[y] = node
                    moved = True
                    break
            if moved:
                node = nxt
                continue
            if val[other] == -1:
                return n_trail, qhead, True
            val[other] = 1
            val[other ^ 1] = -1
            reason[other >> 1] = c
            trail[n_trail] = other
            n_trail += 1
            prev = node
            node = nxt
    return n_trail, qhead, False


def certify(clauses: list[list[int]], proof: bytes, stats: dict, deadline: float | None = None) -> Check:
    """``check``, with its verdict and cost written into a solve's ``stats`` (``certificate``: "checked" or
    why not; its seconds, bytes and lemmas), as every solver that brings a proof reports it.  ``deadline``:
    the solve's time limit (on ``time.perf_counter``), which the check counts against."""
    result = check(clauses, proof, deadline)
    stats.update(
        certificate="checked" if result.ok else result.reason,
        certificate_s=result.seconds,
        certificate_bytes=result.proof_bytes,
        certificate_lemmas=result.lemmas,
    )
    return result


def check(clauses: list[list[int]], proof: bytes, deadline: float | None = None) -> Check:
    """Whether ``proof`` (DRAT, text or binary) refutes the CNF ``clauses`` (lists of DIMACS literals).
    ``deadline`` (on ``time.perf_counter``; None: none): a check still running then stops, and the proof is
    not checked ("the time limit ended the check"), so the answer stays the engine's claim."""
    t0 = time.perf_counter()
    if len(proof) > MAX_PROOF_BYTES:
        return Check(False, f"the proof is larger than {MAX_PROOF_BYTES >> 20} MB", 0, 0, 0, 0.0, len(proof))
    try:
        kinds, pstarts, plens, plits = parse(proof)
    except ValueError as e:
        return Check(False, str(e), 0, 0, 0, time.perf_counter() - t0, len(proof))
    fstarts, flens, flits = clauses_array(clauses)
    top = max(int(flits.max(initial=0)), int(plits.max(initial=0)))
    if top > int(flits.max(initial=0)) + 2 * MAX_NEW_VARS:  # the checker's arrays are as long as the variables
        return Check(
            False, f"the proof names a variable more than {MAX_NEW_VARS:,} past the formula's", 0, 0, 0,
            time.perf_counter() - t0, len(proof),
        )  # fmt: skip
    late = np.inf if deadline is None else float(deadline)
    code, step, rat, _ = _check(top + 2, fstarts, flens, flits, kinds, pstarts, plens, plits, late)
    n_add = int(np.count_nonzero(kinds == 0))
    n_del = len(kinds) - n_add
    reason = ""
    if code == _FAILED:
        reason = f"step {int(step) - len(clauses) + 1} of the proof adds a clause that is neither RUP nor RAT"
    elif code == _NO_EMPTY:
        reason = "the proof does not derive the empty clause"
    elif code == _LATE:
        reason = f"the time limit ended the check at step {int(step) - len(clauses) + 1} of the proof"
    return Check(code == _OK, reason, n_add, n_del, int(rat), time.perf_counter() - t0, len(proof), code == _LATE)
