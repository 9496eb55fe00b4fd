"""At-most-one and exactly-one constraints as clauses, by encoding name.

Everything python-sat has comes from ``pysat.card`` (``EncType``):

==============  ===============================================  ======================
name            encoding                                         literature
==============  ===============================================  ======================
pairwise        one binary clause per pair                       (folklore)
seqcounter      sequential counter                               Sinz 2005
ladder          ladder / regular encoding                        Gent and Nightingale 2004
totalizer       totalizer                                        Bailleux and Boufkhad 2003
sortnetwrk      sorting network                                  Asin et al. 2011
cardnetwrk      cardinality network                              Asin et al. 2011
bitwise         binary / bitwise                                 Frisch et al. 2005
mtotalizer      modulo totalizer                                 Ogawa et al. 2013
kmtotalizer     k-modulo totalizer                               Morgado et al. 2014
==============  ===============================================  ======================

Written here because pysat lacks them:

* ``commander``: groups of 3 with a commander variable each, pairwise inside
  a group, recursively at most one commander (Klieber and Kwon 2007);
* ``product``: the 2-D product encoding (Chen 2010), pairwise on the rows
  and columns of a near-square grid of the literals.

Example::

    from pysat.formula import IDPool
    pool, clauses = IDPool(start_from=4), []
    exactly_one([1, 2, 3], "seqcounter", pool, clauses)
"""

from __future__ import annotations

import math

from pysat.card import CardEnc, EncType

from puzzles.errors import UsageError

PYSAT = {
    "pairwise": EncType.pairwise,
    "seqcounter": EncType.seqcounter,
    "ladder": EncType.ladder,
    "totalizer": EncType.totalizer,
    "sortnetwrk": EncType.sortnetwrk,
    "cardnetwrk": EncType.cardnetwrk,
    "bitwise": EncType.bitwise,
    "mtotalizer": EncType.mtotalizer,
    "kmtotalizer": EncType.kmtotalizer,
}
ENCODINGS = tuple(PYSAT) + ("commander", "product")


def at_most_one(lits: list[int], enc: str, pool, out: list[list[int]]) -> None:
    """Append clauses allowing at most one of ``lits`` to be true."""
    if len(lits) <= 1:
        return
    if len(lits) == 2 or enc == "pairwise":
        _pairwise(lits, out)
    elif enc in PYSAT:
        cnf = CardEnc.atmost(lits=lits, bound=1, vpool=pool, encoding=PYSAT[enc])
        out.extend(cnf.clauses)
    elif enc == "commander":
        _commander(lits, pool, out)
    elif enc == "product":
        _product(lits, pool, out)
    else:
        raise UsageError(f"unknown at-most-one encoding {enc!r} (known: {', '.join(ENCODINGS)})")


def exactly_one(lits: list[int], enc: str, pool, out: list[list[int]]) -> None:
    """Append to ``out`` the clauses that exactly one of ``lits`` is true, the at-most-one by encoding ``enc``."""
    out.append(list(lits))
    at_most_one(lits, enc, pool, out)


def _pairwise(lits, out) -> None:
    for i in range(len(lits)):
        for j in range(i + 1, len(lits)):
            out.append([-lits[i], -lits[j]])


def _commander(lits, pool, out, group: int = 3) -> None:
    if len(lits) <= group + 1:
        _pairwise(lits, out)
        return
    commanders = []
    for k in range(0, len(lits), group):
        g = lits[k : k + group]
        c = pool.id()
        commanders.append(c)
        _pairwise(g, out)
        for x in g:  # x -> c
            out.append([-x, c])
        out.append([-c] + g)  # c -> some x
    _commander(commanders, pool, out, group)


def _product(lits, pool, out) -> None:
    n = len(lits)
    p = math.ceil(math.sqrt(n))
    q = math.ceil(n / p)
    rows = [pool.id() for _ in range(p)]
    cols = [pool.id() for _ in range(q)]
    for k, x in enumerate(lits):
        r, c = divmod(k, q)
        out.append([-x, rows[r]])
        out.append([-x, cols[c]])
    at_most_one(rows, "product" if len(rows) > 4 else "pairwise", pool, out)
    at_most_one(cols, "product" if len(cols) > 4 else "pairwise", pool, out)
