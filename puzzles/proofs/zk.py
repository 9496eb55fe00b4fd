"""Non-interactive zero-knowledge proofs of a solution: ZKB++ over F_p with Fiat-Shamir (SHA-256).

Each of ``rounds`` parallel repetitions runs the statement's circuit
(``circuits.py``) as a three-party computation in the head (``mpc.py``):

1. the prover draws a 16-byte seed per party and round, shares the witness
   (parties 0 and 1 from their tapes, party 2 the rest) and commits to each
   party's input: h_i = SHA-256(seed_i [|| party 2's share]);
2. the circuit's challenges a, s, r come from SHAKE-128 of the statement and
   every h (so the witness is fixed before them);
3. the prover runs the circuit and commits to each party's view:
   c_i = SHA-256(seed_i [|| party 2's share] || its multiplication outputs);
4. the challenge of each round, e in {0, 1, 2}, comes from SHAKE-128 of the
   statement, a, s, r, every c and every output share;
5. the proof opens parties e and e+1 of each round (their seeds, party 2's
   share if it is one of them, party e+1's multiplication outputs) and gives
   h and c of party e+2.

The checker recomputes party e's view from its seed and party e+1's, both
parties' output shares (the third follows: the outputs must be 0), every
commitment, and both challenges; the proof checks when the round challenges
it derives are those the proof was opened for.  A false statement needs a
wrong view in each round, found with probability 1/3 a round: the soundness
error is (2/3)^rounds, 2^-40.4 at the default 69 rounds.  docs/PROOFS.md has
the argument and the simulator.

The file is versioned JSON, written compactly in one canonical form; a file
that is not byte for byte that form does not check (an altered proof is
never "the same proof written differently").
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import secrets
from typing import Any

import numpy as np

from puzzles.errors import InputError, UsageError
from puzzles.proofs import field as F
from puzzles.proofs.circuits import statement
from puzzles.proofs.mpc import SEED_BYTES, ProverEngine, VerifierEngine

FORMAT = "eternity/zk-proof"
VERSION = 1
DEFAULT_BITS = 40
MAX_ROUNDS = 1000


def rounds_for(bits: int) -> int:
    """Rounds that bring the soundness error (2/3)^rounds to 2^-bits or below."""
    return math.ceil(bits / math.log2(1.5))


def bits_of(rounds: int) -> float:
    """The soundness of ``rounds`` rounds in bits: the error is (2/3)^rounds = 2^-bits."""
    return rounds * math.log2(1.5)


def floor_refusal(rounds: int, min_bits: float) -> str | None:
    """Why a proof of ``rounds`` rounds is refused under the floor ``min_bits``, or None.  The prover chooses
    the rounds, so a forger with no solution picks few: a round of a false statement passes with probability
    up to 2/3, so one or two rounds are forged in a few tries.  Only
    the checker's floor, not the proof's own figure, says how much a proof that checks is worth."""
    if bits_of(rounds) >= min_bits:
        return None
    return (
        f"{rounds} rounds give a soundness error of 2^-{bits_of(rounds):.1f}, weaker than the floor 2^-{min_bits:g} "
        f"(a proof needs at least {rounds_for(math.ceil(min_bits))} rounds; a lower floor is --min-bits)"
    )


def _sha(*parts: bytes) -> bytes:
    h = hashlib.sha256()
    for p in parts:
        h.update(len(p).to_bytes(8, "little"))
        h.update(p)
    return h.digest()


def _b(a: np.ndarray) -> bytes:
    return np.ascontiguousarray(a, dtype="<u8").tobytes()


def _header(puzzle_hash: str, st, rounds: int) -> bytes:
    return json.dumps(
        {
            "format": FORMAT,
            "version": VERSION,
            "puzzle": puzzle_hash,
            "statement": st.kind,
            "score": getattr(st, "score", None),
            "rounds": rounds,
        },
        sort_keys=True,
    ).encode()


def _phase1(header: bytes, h: list[list[bytes]]) -> tuple[int, int, int]:
    """The circuit's challenges a, s, r from the input commitments (h[party][round])."""
    raw = hashlib.shake_128(b"eternity/zk/phase1" + header + b"".join(x for row in h for x in row)).digest(24)
    a, s, r = (int(v) for v in F.from_bytes(raw))
    return a, s, r


def _trits(digest: bytes, rounds: int) -> np.ndarray:
    """The round challenges in {0, 1, 2} from the Fiat-Shamir digest (bytes below 255, mod 3)."""
    stream = hashlib.shake_128(b"eternity/zk/trits" + digest).digest(4 * rounds + 64)
    out = [b % 3 for b in stream if b < 255][:rounds]
    if len(out) < rounds:  # vanishingly unlikely; stretch the stream
        return _trits(_sha(digest), rounds)
    return np.array(out, np.int64)


def _phase2(header: bytes, abc: tuple[int, int, int], com: list[list[bytes]], out: np.ndarray) -> bytes:
    """The Fiat-Shamir digest: statement, circuit challenges, view commitments, output shares (3, R, k)."""
    return _sha(b"eternity/zk/phase2", header, repr(abc).encode(), b"".join(x for row in com for x in row), _b(out))


def prove(
    puzzle,
    placements,
    puzzle_hash: str,
    score: int | None = None,
    rounds: int | None = None,
    check_witness: bool = True,
) -> dict:
    """A proof (as a dict ready for JSON) that ``placements`` solve ``puzzle`` (or score at least ``score``).

    ``check_witness=False`` lets a test build the proof a cheater would: it then does not check."""
    st = statement(puzzle, score)
    R = rounds or rounds_for(DEFAULT_BITS)
    if not 1 <= R <= MAX_ROUNDS:
        raise UsageError(f"prove: rounds must be 1..{MAX_ROUNDS}, not {R}")
    w = st.witness(placements)
    header = _header(puzzle_hash, st, R)
    seeds = [[secrets.token_bytes(SEED_BYTES) for _ in range(R)] for _ in range(3)]
    eng = ProverEngine(seeds, st.n_in, st.n_mult)
    x = eng.share_inputs(w)
    h = [[_sha(b"in", seeds[i][t], _b(x[2, t]) if i == 2 else b"") for t in range(R)] for i in range(3)]
    abc = _phase1(header, h)
    st.circuit(eng, x, *abc)
    views, outs = eng.view_bytes(), eng.output_shares()
    if check_witness and np.any(F.add(F.add(outs[0], outs[1]), outs[2]) != 0):
        raise UsageError("prove: the solution does not satisfy the statement (run `eternity verify`)")
    com = [
        [_sha(b"view", seeds[i][t], _b(x[2, t]) if i == 2 else b"", _b(views[i, t])) for t in range(R)]
        for i in range(3)
    ]
    digest = _phase2(header, abc, com, outs)
    e = _trits(digest, R)
    openings = []
    for t in range(R):
        i, j, k = int(e[t]), (int(e[t]) + 1) % 3, (int(e[t]) + 2) % 3
        openings.append(
            {
                "seeds": [seeds[i][t].hex(), seeds[j][t].hex()],
                "x2": base64.b64encode(_b(x[2, t])).decode() if 2 in (i, j) else None,
                "z": base64.b64encode(_b(views[j, t])).decode(),
                "h": h[k][t].hex(),
                "c": com[k][t].hex(),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "puzzle": puzzle_hash,
        "statement": st.kind,
        "score": getattr(st, "score", None),
        "rounds": R,
        "challenge": digest.hex(),
        "openings": openings,
    }


def dumps(proof: dict) -> str:
    """The one canonical text of a proof."""
    return json.dumps(proof, sort_keys=True, separators=(",", ":")) + "\n"


def parse(text: str, source: str, puzzle_hash: str) -> dict:
    """A proof file read and validated (InputError naming the file and field otherwise)."""
    from puzzles.files.formats import _json

    d = _json(source, text)  # the readers' one wording of bad JSON (line, column, what)
    if not isinstance(d, dict):
        raise InputError(source, None, "expected a JSON object at the top level")
    if d.get("format") != FORMAT:
        raise InputError(source, "format", f"{d.get('format')!r} is not {FORMAT!r}")
    if d.get("version") != VERSION:
        raise InputError(source, "version", f"{d.get('version')!r} (this program reads version {VERSION})")
    if d.get("puzzle") != puzzle_hash:
        raise InputError(source, "puzzle", "this proof is about a different puzzle (its hash differs)")
    keys = {"format", "version", "puzzle", "statement", "score", "rounds", "challenge", "openings"}
    if set(d) != keys:
        raise InputError(source, None, f"fields {sorted(set(d) ^ keys)} missing or unknown")
    if d["statement"] not in ("edge", "xcc"):
        raise InputError(source, "statement", f"{d['statement']!r} is not edge or xcc")
    if not isinstance(d["rounds"], int) or isinstance(d["rounds"], bool) or not 1 <= d["rounds"] <= MAX_ROUNDS:
        raise InputError(source, "rounds", f"must be an integer 1..{MAX_ROUNDS}")
    if d["score"] is not None and (not isinstance(d["score"], int) or isinstance(d["score"], bool)):
        raise InputError(source, "score", "must be an integer or null")
    if not isinstance(d["openings"], list) or len(d["openings"]) != d["rounds"]:
        raise InputError(source, "openings", f"must be a list of {d['rounds']} rounds")
    if not isinstance(d["challenge"], str):
        raise InputError(source, "challenge", "must be a hex string")
    return d


def _unhex(v: Any, n: int, where: str, source: str) -> bytes:
    try:
        b = bytes.fromhex(v) if isinstance(v, str) else None
    except ValueError:
        b = None
    if b is None or len(b) != n or b.hex() != v:
        raise InputError(source, where, f"must be {2 * n} lowercase hex digits")
    return b


def _unb64(v: Any, n: int, where: str, source: str) -> np.ndarray:
    try:
        raw = base64.b64decode(v, validate=True) if isinstance(v, str) else b""
    except ValueError:
        raw = b""
    if len(raw) != 8 * n or base64.b64encode(raw).decode() != v:
        raise InputError(source, where, f"must hold {n} field elements in base64")
    a = np.frombuffer(raw, dtype="<u8").astype(np.uint64)
    if np.any(a >= F.P):
        raise InputError(source, where, "holds a value outside the field")
    return a


def check(puzzle, text: str, source: str, puzzle_hash: str, min_bits: float = DEFAULT_BITS) -> tuple[bool, dict]:
    """Whether the proof in ``text`` checks; (ok, the parsed proof).  Bad files raise InputError.

    A proof weaker than ``min_bits`` bits of soundness does not check, whatever it holds: ``d["refused"]``
    says why, and no round of it is looked at."""
    d = parse(text, source, puzzle_hash)
    weak = floor_refusal(d["rounds"], min_bits)
    if weak:
        return False, {**d, "refused": weak}
    if d["statement"] != ("edge" if puzzle.kind == "edge" else "xcc"):
        raise InputError(source, "statement", f"{d['statement']!r} does not fit a {puzzle.kind} puzzle")
    st = statement(puzzle, d["score"])
    R = d["rounds"]
    if text != dumps(d):
        return False, d  # not the canonical text: altered
    digest = _unhex(d["challenge"], 32, "challenge", source)
    e = _trits(digest, R)
    seeds, x2, z, hk, ck = [], [], np.zeros((R, st.n_mult), np.uint64), [], []
    for t, o in enumerate(d["openings"]):
        where = f"openings.{t}"
        if not isinstance(o, dict) or set(o) != {"seeds", "x2", "z", "h", "c"}:
            raise InputError(source, where, "must have the fields seeds, x2, z, h, c")
        if not isinstance(o["seeds"], list) or len(o["seeds"]) != 2:
            raise InputError(source, where + ".seeds", "must be two seeds")
        seeds.append((_unhex(o["seeds"][0], SEED_BYTES, where + ".seeds", source),
                      _unhex(o["seeds"][1], SEED_BYTES, where + ".seeds", source)))  # fmt: skip
        needs_x2 = 2 in (int(e[t]), (int(e[t]) + 1) % 3)
        if needs_x2 != (o["x2"] is not None):
            return False, d
        x2.append(_unb64(o["x2"], st.n_in, where + ".x2", source) if needs_x2 else None)
        z[t] = _unb64(o["z"], st.n_mult, where + ".z", source)
        hk.append(_unhex(o["h"], 32, where + ".h", source))
        ck.append(_unhex(o["c"], 32, where + ".c", source))
    header = _header(puzzle_hash, st, R)
    eng = VerifierEngine(e, seeds, x2, z, st.n_in, st.n_mult)
    x = eng.share_inputs()
    # input commitments of every party, in party order
    h = [[b""] * R for _ in range(3)]
    for t in range(R):
        for slot in (0, 1):
            i = int(eng.pid[slot, t])
            h[i][t] = _sha(b"in", seeds[t][slot], _b(x[slot, t]) if i == 2 else b"")
        h[(int(e[t]) + 2) % 3][t] = hk[t]
    abc = _phase1(header, h)
    st.circuit(eng, x, *abc)
    views, outs2 = eng.view_bytes(), eng.output_shares()
    com = [[b""] * R for _ in range(3)]
    outs = np.zeros((3,) + outs2.shape[1:], np.uint64)
    third = F.neg(F.add(outs2[0], outs2[1]))  # the outputs are 0: the third share is the rest
    for t in range(R):
        for slot in (0, 1):
            i = int(eng.pid[slot, t])
            com[i][t] = _sha(b"view", seeds[t][slot], _b(x[slot, t]) if i == 2 else b"", _b(views[slot, t]))
            outs[i, t] = outs2[slot, t]
        k = (int(e[t]) + 2) % 3
        com[k][t] = ck[t]
        outs[k, t] = third[t]
    return _phase2(header, abc, com, outs) == digest, d
