"""How a summary table is written out: each cell's text, the footnote that defines the columns shown (and no
other), and LaTeX in booktabs with a caption, as a paper takes it."""

from __future__ import annotations

from .cells import CLOCKS

# the engine's statistics a table may show (``experiments.cell.ENGINE_STATS``): sizes of its input and its work
ENGINE_COLUMNS = ("vars", "clauses", "constraints", "conflicts", "decisions", "propagations")

# the summary's footnote: the clock, then a definition of each column shown, and of no other
CLOCK_NOTE = "Times on the {clock} clock ({means})."
COLUMN_NOTES = {
    "par2_s": "par2: mean, an unsolved cell counted as twice the time limit.",
    "median_s": "median: an unsolved cell counted as longer than any, '> LIMIT' when fewer than half the cells "
    "are solved.",
    "solved": "solved: cells answered (solved or unsatisfiable).",
    "verified": "verified: cells whose returned solutions the verifier checked and accepted (a count returns none "
    "to check).",
    "claimed": "claimed: of the solved, the cells whose answer rests on an engine's word alone (an unsatisfiable "
    "or a count with no certificate, exhaustion or checked models; blank: stored before answers carried their "
    "evidence).",
    "approximate": "approximate: of the solved, the cells whose answer is an estimate (a count within an "
    "interval, not exact).",
    "wrong": "wrong: answers the runner refuted (unsatisfiable on a board with a planted solution, a count other "
    "evidence contradicts); not counted as solved.",
    "errors": "errors: error, memout or unavailable cells.",
    "unavailable": "unavailable: cells that could not run on this machine (a binary, an extra or a backend not "
    "installed; the message in the store names it).",
    "mean_score": "mean_score (mode best): the mean best score.",
    "optimal": "optimal: cells whose score is proven the best possible.",
    "median_iqr": "median_iqr: the interquartile range of the answered cells' times.",
    "par2_ci": "par2_ci: a bootstrap 95% interval of PAR-2.",
    "vs_best": "vs_best: against the best configuration of the same mode in its family and class (most "
    "answered, then the lowest par2), the Wilcoxon signed-rank p-value on the cells both ran, with n, the pairs "
    "that differ (the least p that n allows is 2/2^n, shown as p>= where it cannot reach 5%); n.s.: not "
    "significant at 5%, the two ranked by noise.",
    "overloaded": "overloaded: cells measured while the machine was overloaded (their times are not the "
    "solver's alone).",
    "mean_nodes": "mean_nodes: the mean of the nodes or placements a solver reports.",
}
for _k in ENGINE_COLUMNS:
    COLUMN_NOTES[f"mean_{_k}"] = f"mean_{_k}: the mean of the engine's own count of {_k}, where it reports one."


def notes_for(cols: list[str], clock: str) -> str:
    """The footnote of a summary that shows ``cols``: the clock and each shown column's definition."""
    out = [CLOCK_NOTE.format(clock=clock, means=CLOCKS[clock])]
    for c in cols:
        key = c.replace(f"_{clock}_s", "_s") if c.endswith(f"_{clock}_s") else c
        if key in COLUMN_NOTES:
            out.append(COLUMN_NOTES[key])
    return " ".join(out)


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1e5 else f"{v:.3e}"
    return str(v)


def _cell(r: dict, c: str) -> str:
    if c == "mean_score" and r.get(c) is not None:
        return f"{r[c]:.1f}"
    if c.removeprefix("mean_") in ENGINE_COLUMNS and r.get(c) is not None:  # counts: whole, grouped by thousands
        return f"{r[c]:,.0f}"
    return _fmt(r.get(c))


TEXT_COLUMNS = ("family", "class", "solver", "best", "board", "peak", "vs_best", "par2_ci", "median_iqr")


def _tex(text: str) -> str:
    """Text as LaTeX typesets it: its special characters escaped."""
    out = []
    for ch in text:
        if ch in "&%$#_{}":
            out.append("\\" + ch)
        elif ch == "~":
            out.append("\\textasciitilde{}")
        elif ch == "^":
            out.append("\\textasciicircum{}")
        elif ch == "\\":
            out.append("\\textbackslash{}")
        elif ch in "<>":
            out.append("\\textless{}" if ch == "<" else "\\textgreater{}")
        else:
            out.append(ch)
    return "".join(out)


def _latex(cols: list[str], rows: list[dict], caption: str, notes: str) -> str:
    """A booktabs table a paper takes as it is: text columns left, numbers right, rules above, below the
    header and below the rows, the caption above and the columns' definitions under the table
    (``\\usepackage{booktabs}``)."""
    align = "".join("l" if c in TEXT_COLUMNS else "r" for c in cols)
    lines = [
        "\\begin{table}[htbp]",
        "\\centering",
        f"\\caption{{{_tex(caption)}}}",
        f"\\begin{{tabular}}{{{align}}}",
        "\\toprule",
        " & ".join(_tex(c) for c in cols) + " \\\\",
        "\\midrule",
    ]
    for r in rows:
        lines.append(" & ".join(_tex(_cell(r, c)) for c in cols) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}", f"\\par\\smallskip\\footnotesize {_tex(notes)}", "\\end{table}"]
    return "\n".join(lines) + "\n"
