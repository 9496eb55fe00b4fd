"""The solving layer: the contract between the model (``puzzles``) and the solvers.

``contract``: Status, Limits, SolveResult, the Solver protocol and SolverBase;
``options``: Option (a solver option, declared once) and the one parser of
``KEY=VALUE`` text; ``registry``: solvers by name from entry points;
``verified``: ``solve_verified``, the one accepted path to an answer.  This package imports
``puzzles`` and nothing above it; solver packages import this one.
"""

from .contract import (
    ANSWERED,
    COMPLETE,
    KINDS,
    MODES,
    BuildLate,
    Evidence,
    Limits,
    Mode,
    Progress,
    Solver,
    SolverBase,
    SolveResult,
    Stats,
    Status,
    answered,
    claim,
    cnf_certificate,
    enumerated,
    enumerated_claim,
    is_claim,
    models_checked,
    past,
)
from .options import Option, Opts, assignments
from .registry import default_solver, get, names, register, solver_class
from .verified import accepted, check_answer, evidence_of, solve_verified

__all__ = [
    "ANSWERED",
    "answered",
    "BuildLate",
    "Evidence",
    "claim",
    "COMPLETE",
    "enumerated_claim",
    "models_checked",
    "default_solver",
    "cnf_certificate",
    "is_claim",
    "past",
    "KINDS",
    "MODES",
    "Limits",
    "Mode",
    "Option",
    "Opts",
    "Progress",
    "SolveResult",
    "Stats",
    "Solver",
    "SolverBase",
    "Status",
    "accepted",
    "check_answer",
    "assignments",
    "enumerated",
    "evidence_of",
    "get",
    "names",
    "register",
    "solve_verified",
    "solver_class",
]
