"""The statements the zero-knowledge proofs are about, as arithmetic circuits over F_p.

Each circuit takes the shared witness and writes every constraint as a wire
that must be 0 (``engine.output``).  It is written once for both engines
(``mpc.py``): the prover runs it on three parties, the verifier on two.

``EdgeStatement``: an edge-matching board exists (every interior join
matched), or, with ``score``, a board with at least ``score`` matching joins.
The witness is the colour on each side of each cell, as placed (4 per cell),
and in score mode one bit per join (1: counted as matched).  Constraints:

* every cell shows a distinct piece of the puzzle, turned: the multisets
  {cell's colours up to rotation} and {pieces} are equal.  After the inputs
  are committed, challenges a, s, r are drawn; each 4-tuple t is mapped to
  g(t) = prod_k (s - (t_k + a t_(k+1) + a^2 t_(k+2) + a^3 t_(k+3))), the same
  for every rotation of t and, as a polynomial in a and s, different for
  tuples that are not rotations of each other; then
  prod_cells (r - g) - prod_pieces (r - g) = 0 (the polynomial identity test:
  a false claim passes with probability below 2^-48, Schwartz-Zippel);
* the rim: every side facing the outside is grey (0); with as many grey sides
  among the pieces as rim sides (checked in public), no grey side faces inward;
* the fixed pieces, turned as given;
* joins: each interior join's two colours are equal; in score mode e (e - 1)
  = 0, e * (difference) = 0 and sum(e) - score = 0, so at least ``score``
  joins match (a board with more simply leaves some unclaimed).

``XccStatement``: an exact cover of an XCC problem without colours (the
polyform puzzles, queens, rooks).  The witness is one bit per option and a
slack bit per secondary item; b (b - 1) = 0, and each primary item's options
sum to 1, each secondary item's options plus its slack to 1.
"""

from __future__ import annotations

import numpy as np

from puzzles.errors import UsageError
from puzzles.kinds.edge import EdgePuzzle, rotate
from puzzles.proofs import field as F

MAX_WITNESS = 200_000  # witness values: the proof carries one field element per value and round


def _rot(t, k: int):
    """The tuple (t_k, t_(k+1), t_(k+2), t_(k+3)) of a (..., 4) array."""
    return [t[..., (k + i) % 4] for i in range(4)]


def _g(t, a: int, s: int, mul, add_const):
    """prod over the 4 rotations of (s - L_a(rotation)), with 3 multiplications."""
    a2 = F.mul(F.const(a), F.const(a))
    a3 = F.mul(a2, F.const(a))
    terms = []
    for k in range(4):
        r = _rot(t, k)
        lin = F.add(F.add(r[0], F.mul(r[1], F.const(a))), F.add(F.mul(r[2], a2), F.mul(r[3], a3)))
        terms.append(add_const(F.neg(lin), s))
    return mul(mul(terms[0], terms[1]), mul(terms[2], terms[3]))


class EdgeStatement:
    """The statement "I hold a solution of this edge-matching puzzle" as an arithmetic circuit."""

    kind = "edge"

    def __init__(self, puzzle: EdgePuzzle, score: int | None = None):
        p = puzzle
        if p.n_pieces != p.n_cells:
            raise UsageError(
                f"prove: {p.n_pieces} pieces for {p.n_cells} cells: the proof covers puzzles whose "
                "pieces fill the board exactly"
            )
        self.p, self.score = p, score
        self.n = p.n_cells
        self.joins = p.joins()
        self.rim = [(x, d) for x in range(self.n) for d in range(4) if p.outside_sides(x)[d]] if p.bordered else []
        if p.bordered and int((p.pieces == 0).sum()) != len(self.rim):
            raise UsageError(
                f"prove: the pieces have {int((p.pieces == 0).sum())} grey sides for "
                f"{len(self.rim)} rim sides: no board obeys the border rule"
            )
        if score is not None and not 0 <= score <= len(self.joins):
            raise UsageError(f"prove: --score {score} is out of range 0..{len(self.joins)}")
        self.n_in = 4 * self.n + (len(self.joins) if score is not None else 0)
        self.n_mult = 3 * self.n + (self.n - 1) + (2 * len(self.joins) if score is not None else 0)
        if self.n_in > MAX_WITNESS:
            raise UsageError(f"prove: {self.n_in:,} witness values (the most is {MAX_WITNESS:,})")

    def witness(self, placements) -> np.ndarray:
        """The prover's secret inputs of the circuit, from a solution's placements."""
        w = np.zeros(self.n_in, np.uint64)
        board = {int(pl[0]): (int(pl[1]), int(pl[2])) for pl in placements}
        for x in range(self.n):
            piece, r = board.get(x, (0, 0))
            w[4 * x : 4 * x + 4] = [F.const(int(v)) for v in rotate(self.p.pieces[piece], r)]
        if self.score is not None:
            shown = w[: 4 * self.n].astype(np.int64).reshape(self.n, 4)
            matched = [j for j, (x, side, y) in enumerate(self.joins) if shown[x, side] == shown[y, (side + 2) % 4]]
            for j in matched[: self.score]:  # claim exactly `score` of them
                w[4 * self.n + j] = 1
        return w

    def circuit(self, eng, x: np.ndarray, a: int, r: int, s: int) -> None:
        """Evaluate the statement's circuit on the engine ``eng`` (prover or verifier) with the round's challenges."""
        S, R = x.shape[0], x.shape[1]
        c = x[:, :, : 4 * self.n].reshape(S, R, self.n, 4)
        g = _g(c, a, s, eng.mul, eng.add_const)  # (S, R, n)
        t = eng.add_const(F.neg(g), r)
        while t.shape[2] > 1:  # the product of all cells, as a tree
            half = t.shape[2] // 2
            prod = eng.mul(t[:, :, :half], t[:, :, half : 2 * half])
            t = np.concatenate([prod, t[:, :, 2 * half :]], axis=2)
        eng.output(eng.add_const(t, -self.piece_product(a, r, s)))
        if self.rim:
            cells, sides = np.array(self.rim).T
            eng.output(c[:, :, cells, sides])
        for f in self.p.fixed:
            want = rotate(self.p.pieces[f.piece], f.rotation)
            for d in range(4):
                eng.output(eng.add_const(c[:, :, f.cell, d], -int(want[d])))
        if not self.joins:
            return
        xs, sides, ys = np.array(self.joins).T
        diff = F.sub(c[:, :, xs, sides], c[:, :, ys, (sides + 2) % 4])
        if self.score is None:
            eng.output(diff)
            return
        e = x[:, :, 4 * self.n :]
        eng.output(eng.mul(e, eng.add_const(e, -1)))
        eng.output(eng.mul(e, diff))
        total = F.matsum(e, np.ones((e.shape[2], 1), np.uint64))
        eng.output(eng.add_const(total, -self.score))

    def piece_product(self, a: int, r: int, s: int) -> int:
        """prod over the pieces of (r - g(piece)), in public."""
        pcs = np.array([[F.const(int(v)) for v in row] for row in self.p.pieces], np.uint64)[None, None]

        def mul(u, v):
            return F.mul(u, v)

        g = _g(pcs, a, s, mul, lambda u, k: F.add(u, F.const(k)))[0, 0]
        t = F.sub(np.full_like(g, F.const(r)), g)
        out = 1
        for v in t.tolist():
            out = out * int(v) % F.P
        return out


class XccStatement:
    """The statement "I hold a solution of this exact cover" as an arithmetic circuit."""

    kind = "xcc"

    def __init__(self, puzzle):
        xcc = puzzle.to_xcc()
        if np.any(xcc.opt_colors != 0):
            raise UsageError(
                f"prove: {puzzle.kind} puzzles compile to an exact cover with colours, which this "
                "proof does not cover (edge-matching puzzles have their own statement)"
            )
        self.p, self.xcc = puzzle, xcc
        self.n_opt, self.n_sec = xcc.n_options, xcc.n_items - xcc.n_primary
        self.n_in = self.n_opt + self.n_sec
        self.n_mult = self.n_in
        if self.n_in > MAX_WITNESS:
            raise UsageError(f"prove: {self.n_in:,} witness values (options; the most is {MAX_WITNESS:,})")
        ptr = np.asarray(xcc.opt_ptr, np.int64)
        owner = np.repeat(np.arange(self.n_opt), np.diff(ptr))
        inc = np.zeros((self.n_in, xcc.n_items), np.uint64)
        inc[owner, np.asarray(xcc.opt_items, np.int64)] = 1
        inc[self.n_opt + np.arange(self.n_sec), xcc.n_primary + np.arange(self.n_sec)] = 1  # the slack bits
        self.incidence = inc

    def _key(self, pl):
        return tuple(tuple(sorted(map(tuple, v))) if isinstance(v, (tuple, list)) else int(v) for v in pl)

    def witness(self, placements) -> np.ndarray:
        """The prover's secret inputs of the circuit, from a solution's placements."""
        index = {self._key(self.xcc.decode[k]): k for k in range(self.n_opt)}
        w = np.zeros(self.n_in, np.uint64)
        for pl in placements:
            k = index.get(self._key(pl))
            if k is None:
                raise UsageError(f"prove: the placement {tuple(pl)} is not an option of the puzzle")
            w[k] = 1
        used = self.incidence[: self.n_opt].astype(np.int64).T @ w[: self.n_opt].astype(np.int64)
        w[self.n_opt :] = np.clip(1 - used[self.xcc.n_primary :], 0, 1).astype(np.uint64)
        return w

    def circuit(self, eng, x: np.ndarray, a: int, r: int, s: int) -> None:
        """Evaluate the statement's circuit on the engine ``eng`` (prover or verifier) with the round's challenges."""
        eng.output(eng.mul(x, eng.add_const(x, -1)))
        eng.output(eng.add_const(F.matsum(x, self.incidence), -1))


def statement(puzzle, score: int | None = None):
    """The statement a proof about ``puzzle`` is made of."""
    if puzzle.kind == "edge":
        return EdgeStatement(puzzle, score)
    if score is not None:
        raise UsageError("prove: --score is for edge-matching puzzles (the Eternity II score)")
    return XccStatement(puzzle)
