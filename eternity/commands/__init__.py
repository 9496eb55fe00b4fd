"""The subcommands of `eternity`, one module each: ``add(sub)`` declares the command's arguments
and the function that runs it.  ``COMMANDS`` is their order in `eternity --help`."""

from eternity.commands import (
    check_proof,
    commit,
    decode,
    enumerate_forms,
    estimate,
    export,
    generate,
    info,
    list_puzzles,
    open_half,
    plot,
    prove,
    render,
    run,
    solve,
    solvers,
    table,
    tilability,
    verify,
)

COMMANDS = [solvers, list_puzzles, info, generate, enumerate_forms, solve, verify, render, decode, estimate, export,
            run, tilability, table, plot, commit, open_half, prove, check_proof]
