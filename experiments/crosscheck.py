"""The runner's cross-check: the stored answers of one run held against each other and against what is known of
an instance (a planted solution), so that an answer its evidence refutes is stored ``wrong``.  Evidence is
weighed, not counted: a verified board or verified models outrank any claim, and a claim never outvotes them."""

from __future__ import annotations

import solving


def _planted_refuted(row: dict, solvable: bool | None) -> str | None:
    """Why a row's answer is wrong given that its instance has a planted solution, or None.  A part of a split
    count is not the instance: a part without solutions is an answer like any other, summed into the whole."""
    if row.get("mode") == "count-part":
        return None
    if solvable and row.get("status") == solving.Status.UNSAT.value:
        return f"wrong: unsatisfiable ({row.get('evidence') or 'no evidence'}), but the instance has a planted solution"
    return None


def disagreements(rows: list[dict]) -> list[tuple[str, str, str, str]]:
    """Answers on one instance that the run's evidence refutes: (key, config, instance, why) for each row found
    wrong.  Evidence is weighed, not counted:

    - a verified board (any mode but best) proves the instance has a solution, and a count of N models each
      verified and found distinct proves it has at least N: an "unsatisfiable" or a smaller count, whatever
      stands behind it, is wrong;
    - a count whose completeness the project checked (an exhaustion, a diagram, a sealed file, models
      enumerated to a checked certificate) outranks a count that rests in whole or in part on an engine's word;
      the claim that differs from it is wrong;
    - two checked counts that differ are both flagged: one of the project's own searches is then at fault,
      a bug to report, not a claim to weigh;
    - claims alone are weighed by majority (the count most rows give); a claim never outvotes a count of
      verified models."""
    from collections import Counter, defaultdict

    by_inst: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        if r["mode"] in ("first", "count", "all", "sample") and r["status"] in ANSWERED_VALUES:
            by_inst[r["instance"]].append(r)
    out = []
    for inst, rs in by_inst.items():
        boards = [r for r in rs if r["status"] == "solved" and r.get("verified") == 1]
        lower = [r for r in rs if r["mode"] == "count" and r["status"] == "solved" and solving.models_checked(r.get("evidence"))]  # fmt: skip
        floor, floor_by = max(((r["count"] or 0, r["config"]) for r in lower), default=(0, ""))
        if boards and floor < 1:
            floor, floor_by = 1, boards[0]["config"]
        # an approximate count (ApproxMC's) is not held against exact ones, nor they against it
        counts = [r for r in rs if r["mode"] == "count" and r.get("count") is not None and not _approx(r)]
        counts += [r for r in rs if r["status"] == "unsatisfiable" and r["mode"] != "count"]
        # "no solution" has no tolerance: an approximate count of 0 is refuted by a board like any other
        counts += [r for r in rs if r["status"] == "unsatisfiable" and r["mode"] == "count" and _approx(r)]
        flagged = set()

        def wrong(r: dict, why: str) -> None:
            flagged.add(r["key"])
            out.append((r["key"], r["config"], inst, why))

        for r in counts:  # refuted by checked models: nothing outranks a board the verifier accepted
            n = 0 if r["status"] == "unsatisfiable" else r["count"]
            if n < floor:
                said = "unsatisfiable" if n == 0 else f"count {n}"
                proof = "a verified board" if floor == 1 and boards else f"{floor} distinct verified models"
                verb = "refutes" if proof.startswith("a ") else "refute"
                wrong(r, f"wrong: {said} ({r.get('evidence') or 'no evidence'}), but {proof} ({floor_by}) {verb} it")
        # an "unsatisfiable" in any mode that rests on an engine's word, beside a checked count of models
        found = [r for r in counts if r["mode"] == "count" and r.get("evidence") in solving.COMPLETE and r["count"]]
        for r in counts:
            if found and r["status"] == "unsatisfiable" and r["key"] not in flagged:
                if r.get("evidence") not in solving.COMPLETE:
                    ev = found[0]
                    wrong(r, f"wrong: unsatisfiable ({r.get('evidence') or 'no evidence'}), but checked evidence "
                             f"gives count {ev['count']} ({ev['evidence']}, {ev['config']})")  # fmt: skip
        counts = [r for r in counts if r["mode"] == "count" and r["key"] not in flagged and not _approx(r)]
        if len({r["count"] for r in counts}) < 2:
            continue
        checked = [r for r in counts if r.get("evidence") in solving.COMPLETE]
        sure = Counter(r["count"] for r in checked)
        if len(sure) > 1:  # evidence against evidence: every one of them is suspect
            for r in checked:
                others = sorted(c for c in sure if c != r["count"])
                wrong(r, f"wrong: count {r['count']} ({r['evidence']}), where other evidence gives {others[0]}")
            continue
        ref, source = (
            (next(iter(sure)), f"checked evidence gives {{}} ({checked[0]['evidence']})")
            if sure
            else (Counter(r["count"] for r in counts).most_common(1)[0][0], "most solvers give {}")
        )
        for r in counts:
            # a claim never outvotes checked models: a count whose every model was verified stands unless
            # checked evidence refutes it
            if r["count"] != ref and (sure or not solving.models_checked(r.get("evidence"))):
                said = f"count {r['count']} ({r.get('evidence') or 'no evidence'})"
                wrong(r, f"wrong: {said}, where {source.format(ref)}")
    return out


def _approx(r: dict) -> bool:
    return str(r.get("evidence") or "").startswith("approximate")


ANSWERED_VALUES = frozenset(s.value for s in solving.ANSWERED)
