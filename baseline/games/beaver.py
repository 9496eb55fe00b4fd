"""The Busy Beaver (seed 003, section 6.5): every n-card Turing machine enumerated, halting decided.

A machine has n cards (states) and two symbols; a card says, for the symbol read, what to write, which way
to move and which card is next, or to stop.  Each of the 2n entries can be written 4(n + 1) ways, so there
are (4(n + 1))^(2n) machines: 20,736 with two cards, 16,777,216 with three (the chapter's "(16^2)^3 =
about 17 million").  Each is run from card 1 on a blank tape, in numba, until it is decided:

* it **halts** within ``steps`` steps: its steps (the stopping one included) and the ones on its tape;
* it is a **cycler**: its whole configuration (card, head, tape) comes back, so it repeats forever.  A
  configuration is kept at steps 1, 2, 4, 8, ... and compared with every later one (Brent's scheme: a
  cycle of period p after a preperiod m is seen by step 2 max(m, p) + p);
* it is a **translated cycler**: at two steps where the head stands on a cell never visited before, on
  the same side, in the same card, with the same cells behind it as far back as the head went between
  the two, the machine repeats its run from the first to the second shifted along the tape, forever;
* it has **no stop** in any card: it never halts, whatever it does;
* **backward reasoning** refutes it: from each stop entry (a card reading a symbol), every way the
  machine could have got there is followed back step by step, each adding what it needs of the tape;
  when every chain meets a contradiction within ``depth`` steps, no run longer than that can stop, and the
  machine already ran ``steps`` > ``depth`` steps without stopping;
* its **n-grams close** (the closed-position-set method of the Busy Beaver Challenge's deciders): the run
  is abstracted to the card, the symbol under the head and the n cells on each side of it; the sets of
  n-cell windows seen left and right of the head, and the abstract positions, are grown together until
  nothing new appears.  Every real configuration of the run has its abstraction in that closed set, so
  when no abstract position reads a stop entry, the machine never stops (n = 1..4 are tried);
* its **repeated words close**: the tape is cut into blocks of b cells, runs of one block are kept as
  (block, count) with counts from ``many`` on merged into "``many`` or more", and the run is followed
  block by block over these abstract tapes (taking one block off "``many`` or more" leaves either as many
  or exactly ``many`` - 1: both are followed).  Every real run has its image among the abstract runs, so
  when the set of abstract positions closes without reading a stop entry, the machine never stops
  (b = 1..4, ``many`` = 2, 3);
* a **closed tape language** is found for it: a regular language of configurations that holds the first,
  holds the successor of each of its members and holds no configuration reading a stop entry (the
  language is the certificate, found by a SAT solver and checked separately: ``encoders.tape_language``,
  passed in by the caller as ``decide``, since this layer does not reach the encoders);
* otherwise it stays **undecided** within the limits, and is listed as such.

The champions are the halting machines with the most ones (the chapter's 3MAX1) and the most steps
(3MAXOP).  They are the true maxima only when no machine is left undecided: a machine decided not to
halt cannot raise them, and one left undecided might.
"""

from __future__ import annotations

import numpy as np
from numba import njit

HALTS, CYCLER, TRANSLATED, UNDECIDED, NO_STOP, BACKWARD, NGRAMS, WORDS, LANGUAGE = 0, 1, 2, 3, 4, 5, 6, 7, 8
OUTCOMES = (
    "halts", "cycler", "translated cycler", "undecided", "no stop card", "backward reasoning", "closed n-grams",
    "repeated words", "closed tape language",
)  # fmt: skip
WORD_SHAPES = tuple((b, many) for b in (1, 2, 3, 4) for many in (2, 3))  # the repeated-words decider's tries
WORD_SEGMENTS = 12  # runs a side at most
WORD_POSITIONS = 100_000  # abstract positions at most, a try
NGRAM_SIZES = (1, 2, 3, 4)  # window sizes the closed-position-set decider tries, smallest first
NGRAM_CONTEXTS = 200_000  # abstract positions at most, a window size
BACKWARD_DEPTH = 30  # steps followed back from a stop
BACK = 128  # cells behind a new cell kept at each record, for the translated-cycler test
RECORDS = 512  # records kept a side

# seed 003's figures (section 6.5): 3MAX1, 3MAXOP and the number of three-card machines
CHAPTER = {"max_ones": 6, "max_steps": 21, "machines": 16**6}
# its machines, cards as ((write, move, next) on 0, on 1), next 0 meaning stop
EXAMPLES: dict[str, tuple] = {
    "stops after writing two 1's": (((1, "R", 2), (1, "R", 3)), ((1, "L", 3), (1, "R", 2)), ((1, "L", 2), (1, "R", 0))),
    "never stops, writes 1's forever": (((1, "R", 2), (1, "R", 2)), ((1, "L", 1), (1, "R", 1)), ((1, "L", 2), (1, "R", 0))),
    "writes six 1's in 11 operations": (((1, "R", 2), (1, "L", 3)), ((1, "R", 3), (1, "R", 0)), ((1, "L", 1), (0, "L", 2))),
    "performs the most operations": (((1, "R", 2), (1, "R", 0)), ((1, "L", 2), (0, "R", 3)), ((1, "L", 3), (1, "L", 1))),
}  # fmt: skip


@njit(cache=True, inline="always")
def _decode(m, n, tr):
    """Machine number m into tr[card, symbol] = (write, move 0 left / 1 right, next card, n for stop)."""
    base = 4 * (n + 1)
    for k in range(2 * n):
        d = m % base
        m //= base
        tr[k // 2, k % 2, 0] = d & 1
        tr[k // 2, k % 2, 1] = (d >> 1) & 1
        tr[k // 2, k % 2, 2] = d >> 2


@njit(cache=True)
def _run(tr, n, steps, tape, snap, rec_t, rec_s, rec_p, rec_tape, hist):
    """Run one machine from card 0 on a blank tape: (outcome, steps, ones)."""
    size = tape.shape[0]
    mid = size // 2
    head, state = mid, 0
    lo, hi = mid, mid  # the cells visited
    snap_state, snap_head, snap_lo, snap_hi = 0, mid, mid, mid
    snap[mid] = 0
    n_right, n_left = 0, 0
    outcome, t = UNDECIDED, 0
    for t in range(1, steps + 1):
        sym = tape[head]
        w, mv, nx = tr[state, sym, 0], tr[state, sym, 1], tr[state, sym, 2]
        tape[head] = w
        if nx == n:
            outcome = HALTS
            break
        state = nx
        head += 1 if mv == 1 else -1
        if head <= 0 or head >= size - 1:
            break  # off the tape kept: undecided
        hist[t] = head
        fresh = 0
        if head > hi:
            hi = head
            fresh = 1
        elif head < lo:
            lo = head
            fresh = -1
        # a cycler: the configuration kept at the last power of two comes back
        if state == snap_state and head == snap_head and lo == snap_lo and hi == snap_hi:
            same = True
            for c in range(lo, hi + 1):
                if tape[c] != snap[c]:
                    same = False
                    break
            if same:
                outcome = CYCLER
                break
        if t & (t - 1) == 0:  # a power of two: keep this configuration
            snap_state, snap_head, snap_lo, snap_hi = state, head, lo, hi
            for c in range(lo, hi + 1):
                snap[c] = tape[c]
        if fresh != 0:  # a record on one side: test it against the earlier ones of that side and card
            side = 0 if fresh > 0 else 1
            k = n_right if side == 0 else n_left
            found = False
            for j in range(k):
                if rec_s[side, j] != state:
                    continue
                t0, p0 = rec_t[side, j], rec_p[side, j]
                far = 0  # how far behind its record the head went between the two records
                for u in range(t0, t + 1):
                    back = (p0 - hist[u]) if side == 0 else (hist[u] - p0)
                    if back > far:
                        far = back
                if far >= BACK:
                    continue
                same = True
                for b in range(far + 1):
                    now = tape[head - b] if side == 0 else tape[head + b]
                    if now != rec_tape[side, j, b]:
                        same = False
                        break
                if same:
                    found = True
                    break
            if found:
                outcome = TRANSLATED
                break
            if k < RECORDS:
                rec_t[side, k], rec_s[side, k], rec_p[side, k] = t, state, head
                for b in range(BACK):
                    c = head - b if side == 0 else head + b
                    rec_tape[side, k, b] = tape[c] if 0 <= c < size else 0
                if side == 0:
                    n_right += 1
                else:
                    n_left += 1
    ones = 0
    for c in range(lo, hi + 1):
        ones += tape[c]
        tape[c] = 0
        snap[c] = 0
    return outcome, t, ones


@njit(cache=True)
def _survey(n, first, last, steps, out):
    size = 2 * steps + 8
    tape = np.zeros(size, np.int8)
    snap = np.zeros(size, np.int8)
    rec_t = np.zeros((2, RECORDS), np.int64)
    rec_s = np.zeros((2, RECORDS), np.int64)
    rec_p = np.zeros((2, RECORDS), np.int64)
    rec_tape = np.zeros((2, RECORDS, BACK), np.int8)
    hist = np.zeros(steps + 2, np.int64)
    tr = np.zeros((n, 2, 3), np.int64)
    for m in range(first, last):
        _decode(m, n, tr)
        stops = False
        for k in range(n):
            for sym in range(2):
                if tr[k, sym, 2] == n:
                    stops = True
        if not stops:
            out[m - first, 0] = NO_STOP
            out[m - first, 1] = 0
            out[m - first, 2] = 0
            continue
        o, t, ones = _run(tr, n, steps, tape, snap, rec_t, rec_s, rec_p, rec_tape, hist)
        out[m - first, 0] = o
        out[m - first, 1] = t
        out[m - first, 2] = ones


def _table(cards) -> np.ndarray:
    """The chapter's cards, ((write, move, next) on 0, on 1) a card, next 0 to stop, as ``_run`` takes them."""
    n = len(cards)
    tr = np.zeros((n, 2, 3), np.int64)
    for k, card in enumerate(cards):
        for sym, (w, mv, nx) in enumerate(card):
            tr[k, sym] = (w, 1 if mv == "R" else 0, n if nx == 0 else nx - 1)
    return tr


def _cards(tr: np.ndarray) -> list:
    n = tr.shape[0]
    return [
        [
            (int(tr[k, s, 0]), "R" if tr[k, s, 1] else "L", 0 if tr[k, s, 2] == n else int(tr[k, s, 2]) + 1)
            for s in (0, 1)
        ]
        for k in range(n)
    ]


def _buffers(steps: int):
    size = 2 * steps + 8
    return (
        np.zeros(size, np.int8), np.zeros(size, np.int8), np.zeros((2, RECORDS), np.int64),
        np.zeros((2, RECORDS), np.int64), np.zeros((2, RECORDS), np.int64), np.zeros((2, RECORDS, BACK), np.int8),
        np.zeros(steps + 2, np.int64),
    )  # fmt: skip


def run_machine(cards, steps: int = 1000) -> dict:
    """One machine given as the chapter writes it: its outcome, steps and ones."""
    o, t, ones = _run(_table(cards), len(cards), steps, *_buffers(steps))
    return {"outcome": OUTCOMES[o], "steps": int(t), "ones": int(ones)}


def machines(n: int) -> int:
    """How many machines of ``n`` cards there are (the survey's universe)."""
    return (4 * (n + 1)) ** (2 * n)


def survey(n: int, steps: int = 1000, chunk: int = 1 << 20, progress=None, decide=None) -> dict:
    """Every n-card machine run and decided (module docstring): the outcomes, the champions by ones and by
    steps (how many machines reach each, and one of them), and the machines left undecided.

    ``decide(tr)``, when given, is the last decider: it takes a machine the others leave undecided and
    returns a certificate that it never stops (an object with ``as_json()``) or None.  The certificates
    are returned under ``certificates``, by machine number."""
    if n < 1 or n > 3:
        raise ValueError("cards: 1, 2 or 3 (four cards are 25.6 billion machines)")
    total = machines(n)
    counts = np.zeros(len(OUTCOMES), np.int64)
    best: dict[str, tuple[int, int, int]] = {"ones": (-1, 0, 0), "steps": (-1, 0, 0)}
    undecided: list[int] = []
    certificates: dict[int, dict] = {}
    out = np.zeros((min(chunk, total), 3), np.int64)
    for first in range(0, total, chunk):
        last = min(total, first + chunk)
        _survey(n, first, last, steps, out)
        got = out[: last - first]
        counts += np.bincount(got[:, 0], minlength=len(OUTCOMES))
        halted = got[:, 0] == HALTS
        for key, col in (("ones", 2), ("steps", 1)):
            if halted.any():
                top = int(got[halted, col].max())
                hits = np.nonzero(halted & (got[:, col] == top))[0]
                v, k, m = best[key]
                if top > v:
                    best[key] = (top, len(hits), first + int(hits[0]))
                elif top == v:
                    best[key] = (v, k + len(hits), m)
        tr = np.zeros((n, 2, 3), np.int64)
        for i in np.nonzero(got[:, 0] == UNDECIDED)[0]:
            _decode(first + int(i), n, tr)
            if steps > BACKWARD_DEPTH and backward_refutes(tr):
                counts[UNDECIDED] -= 1
                counts[BACKWARD] += 1
            elif any(ngrams_close(tr, k) for k in NGRAM_SIZES):
                counts[UNDECIDED] -= 1
                counts[NGRAMS] += 1
            elif any(repeated_words_close(tr, b, many) for b, many in WORD_SHAPES):
                counts[UNDECIDED] -= 1
                counts[WORDS] += 1
            elif decide is not None and (proof := decide(tr.copy())) is not None:
                counts[UNDECIDED] -= 1
                counts[LANGUAGE] += 1
                certificates[first + int(i)] = proof.as_json()
            else:
                undecided.append(first + int(i))
        if progress is not None:
            progress(last, total)
    champions = {key: {"value": v, "machines": k, "example": _cards_of(n, m)} for key, (v, k, m) in best.items()}
    return {
        "cards": n,
        "machines": total,
        "steps_limit": steps,
        "outcomes": {OUTCOMES[i]: int(c) for i, c in enumerate(counts)},
        "max_ones": champions["ones"],
        "max_steps": champions["steps"],
        "undecided_examples": [_cards_of(n, m) for m in undecided[:5]],
        "undecided_machines": undecided,
        "certificates": certificates,
        "decided": int(counts[UNDECIDED]) == 0,
    }


def backward_refutes(tr: np.ndarray, depth: int = BACKWARD_DEPTH) -> bool:
    """True when no configuration leads to a stop within ``depth`` steps back (module docstring)."""
    n = tr.shape[0]
    into: dict[int, list] = {k: [] for k in range(n)}
    for k in range(n):
        for sym in range(2):
            w, mv, nx = (int(x) for x in tr[k, sym])
            if nx < n:
                into[nx].append((k, sym, w, 1 if mv == 1 else -1))

    def alive(state: int, head: int, tape: dict, d: int) -> bool:
        if d == depth:
            return True
        for k, sym, w, step in into[state]:
            before = head - step
            if tape.get(before, w) != w:
                continue
            if alive(k, before, {**tape, before: sym}, d + 1):
                return True
        return False

    stops = [(k, sym) for k in range(n) for sym in range(2) if tr[k, sym, 2] == n]
    return not any(alive(k, 0, {0: sym}, 0) for k, sym in stops)


def ngrams_close(tr: np.ndarray, k: int, limit: int = NGRAM_CONTEXTS) -> bool:
    """True when the closed set of abstract positions with k-cell windows (module docstring) has none that
    reads a stop entry: the machine never stops.  False when one does (it may stop) or the set passes
    ``limit`` positions.

    An abstract position is (card, left window, symbol under the head, right window), the left window
    farthest cell first, the right one nearest first.  A move right pushes the written symbol onto the left
    window (the window that results joins the left set) and pops the right one: the head reads its nearest
    cell, and the cell that comes into view is any that makes a window of the right set.  A move left is
    the mirror image.  The sets start with the blank windows."""
    n = tr.shape[0]
    blank = (0,) * k
    left, right = {blank}, {blank}
    start = (0, blank, 0, blank)
    seen = {start}
    while True:
        grown = False
        new: list = []
        for q, lw, sym, rw in list(seen):
            w, mv, nx = (int(x) for x in tr[q, sym])
            if nx == n:
                return False  # a stop entry is read
            if mv == 1:
                pushed = lw[1:] + (w,)
                if pushed not in left:
                    left.add(pushed)
                    grown = True
                rest = rw[1:]
                for g in right:
                    if g[:-1] == rest:
                        new.append((nx, pushed, rw[0], g))
            else:
                pushed = (w,) + rw[:-1]
                if pushed not in right:
                    right.add(pushed)
                    grown = True
                rest = lw[:-1]
                for g in left:
                    if g[1:] == rest:
                        new.append((nx, g, lw[-1], pushed))
        for c in new:
            if c not in seen:
                seen.add(c)
                grown = True
        if len(seen) > limit:
            return False
        if not grown:
            return True


def repeated_words_close(
    tr: np.ndarray, block: int, many: int, segments: int = WORD_SEGMENTS, limit: int = WORD_POSITIONS
) -> bool:
    """True when the abstract runs over repeated blocks (module docstring) close without reading a stop
    entry: the machine never stops.  False when one reads a stop (it may stop), or a side holds more than
    ``segments`` runs, or there are more than ``limit`` abstract positions.

    An abstract position is (card, the head's cell in its block, the block under the head, the runs to the
    left nearest last, the runs to the right nearest last); a side's blank beyond its runs is implied."""
    n = tr.shape[0]
    zero = (0,) * block

    def push(side: tuple, w: tuple) -> tuple:
        if not side and w == zero:
            return side  # blank onto blank
        if side and side[-1][0] == w:
            return side[:-1] + ((w, min(side[-1][1] + 1, many)),)
        return side + ((w, 1),)

    def pop(side: tuple) -> list:
        if not side:
            return [(zero, side)]
        w, c = side[-1]
        if c == 1:
            return [(w, side[:-1])]
        if c < many:
            return [(w, side[:-1] + ((w, c - 1),))]
        return [(w, side), (w, side[:-1] + ((w, many - 1),))]  # "many or more", less one

    start = (0, 0, zero, (), ())
    seen = {start}
    todo = [start]
    inside = (1 << block) * block * n  # steps within one block past which it repeats inside it for ever
    while todo:
        q, pos, cur, left, right = todo.pop()
        cells = list(cur)
        steps = 0
        while 0 <= pos < block and steps <= inside:
            w, mv, nx = (int(x) for x in tr[q, cells[pos]])
            if nx == n:
                return False
            cells[pos] = w
            pos += 1 if mv == 1 else -1
            q = nx
            steps += 1
        if steps > inside:
            continue
        if pos >= block:
            moved = push(left, tuple(cells))
            nexts = [(q, 0, c, moved, r) for c, r in pop(right)]
        else:
            moved = push(right, tuple(cells))
            nexts = [(q, block - 1, c, lft, moved) for c, lft in pop(left)]
        for cfg in nexts:
            if len(cfg[3]) > segments or len(cfg[4]) > segments:
                return False
            if cfg not in seen:
                seen.add(cfg)
                todo.append(cfg)
        if len(seen) > limit:
            return False
    return True


def _cards_of(n: int, m: int) -> list:
    tr = np.zeros((n, 2, 3), np.int64)
    _decode(m, n, tr)
    return _cards(tr)


def chapter_examples(steps: int = 1000) -> dict:
    """The chapter's four machines run: what each does beside what the chapter says."""
    return {what: run_machine(cards, steps) for what, cards in EXAMPLES.items()}
