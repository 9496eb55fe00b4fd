"""CP-SAT's models by name, as the SAT encodings are named (``encoders.catalogue``).

``cpsat --opt encoding=NAME`` sets the model and join options together, so that a CP row and a SAT row of one
runner table (``encoding = [...]``) are both named encodings, and ``eternity encodings PUZZLE`` lists their sizes
(CP-SAT's variables and constraints) beside the CNFs'.
"""

from __future__ import annotations

# name -> (model, join, what it is)
CP_MODELS: dict[str, tuple[str, str, str]] = {
    "cpsat-placement": ("placement", "onehot", "a Boolean per placement and per (join, colour), tied by clauses"),
    "cpsat-placement-int": ("placement", "int", "a Boolean per placement, an integer colour per join"),
    "cpsat-placement-sum": ("placement", "sum", "a Boolean per placement, per-colour sums across each join"),
    "cpsat-table": ("table", "onehot", "a (piece, turn) and four colours per cell in one table constraint"),
    "cpsat-xcc": ("xcc", "onehot", "the exact cover with colours as Booleans and at-most-ones"),
}
