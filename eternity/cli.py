"""The `eternity` command line (docs/ARCHITECTURE.md, "The command line").

Exit status: 0 answered; 1 `verify` found an invalid solution (otherwise a
bug); 2 bad input or usage, as one line on stderr; 3 a limit stopped the
work before an answer; 4 an internal error (a bug: one line, the traceback in
a file it names, or on stderr with --debug or ETERNITY_DEBUG=1).
"""

from __future__ import annotations

import argparse
import errno
import os
import sqlite3
import sys

from eternity.commands.common import EXIT_INTERNAL, EXIT_LIMIT, EXIT_OK, EXIT_USAGE, _Parser
from puzzles.errors import InputError, LimitReached, UsageError

# Help for the arguments that many commands share, or whose meaning their name says, by destination; a
# command's own text wins.  ``tests/test_hostile_input.py`` checks that no argument is left without help.
COMMON_HELP = {
    "puzzle": "a puzzle file (JSON, or a community piece list) or a built-in name (`eternity list`)",
    "solution": "a solution file (format eternity/solution, as `solve -o` writes it)",
    "json": "print JSON instead of text",
    "output": "the file to write (written whole; never one of the command's inputs)",
    "seed": "random seed: the same seed gives the same result",
    "name": "the name stored in the file",
    "planted": "also write the planted solution to this file",
    "rows": "board rows",
    "cols": "board columns",
    "frame_colors": "colours of the frame (the joins along the border)",
    "inner_colors": "colours of the inner joins",
    "grid": "the polyform grid: square, triangle, hexagon or drafter",
    "solver": "a registered solver (`eternity solvers`); default: edge-backtrack on edge matching, else backtrack",
    "opt": "a solver option K=V, repeated for more (`eternity solvers NAME` lists them)",
    "node_limit": "stop after this many search nodes",
    "from": "the CNF file `eternity export --to dimacs` wrote",
    "model": "the model an outside SAT solver printed for that CNF (v lines, or integers)",
    "to": "the format to write",
    "config": "an experiment config (TOML; experiments/configs/*.toml)",
    "executor": "local worker processes, or a Dask cluster (--scheduler, or a local one)",
    "quiet": "no progress (a live line on a terminal, else a log line every 15 s)",
    "db": "a results database (SQLite, as `eternity run` writes it)",
    "kind": "cactus (cells solved against time), hardness (time against inner colours), phase (the same, a panel a board size, Owen's critical point marked), clues (time against the clue density) or map (the winner at every point)",
    "commitment": "the commitment `eternity commit` wrote",
    "proof": "the proof `eternity prove` wrote",
}


def _fill_help(parser: argparse.ArgumentParser) -> None:
    """Give every argument without help the common text for its destination."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                _fill_help(sub)
        elif action.help is None and action.dest in COMMON_HELP:
            action.help = COMMON_HELP[action.dest]


def build_parser() -> argparse.ArgumentParser:
    """The parser, built from the subcommands' modules (``eternity.commands``), in their order."""
    from eternity.commands import COMMANDS

    ap = _Parser(prog="eternity", description="A workbench for hard tiling and edge-matching puzzles.")
    ap.add_argument("--version", action="version", version=f"eternity {_version()}")
    ap.add_argument(
        "--debug",
        action="store_true",
        help="an internal error shows its traceback here instead of writing it to a file",
    )
    sub = ap.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    for command in COMMANDS:
        command.add(sub)
    _fill_help(ap)
    return ap


def check_outputs(a) -> None:
    """Every file or directory the command will write, checked before any work (``puzzles.files.outputs``):
    writable, of the right kind, and none of them one of the command's inputs or another output."""
    from puzzles import catalog
    from puzzles.files import outputs

    files = {}
    for name, kind in getattr(a, "outputs", {}).items():
        value = getattr(a, name, None)
        if value is not None:
            option = "-o" if name == "output" else "--" + name.replace("_", "-")
            outputs.check(value, option, kind)
            if kind != "dir" and not os.path.exists(value) and catalog.shadows(value):
                raise UsageError(
                    f"{option} {value}: is the name of a built-in puzzle, which a file of that name would "
                    f"shadow; give a file name with a suffix (such as {value}.json)"
                )
            if kind != "dir":
                files[option] = value
    skip = set(getattr(a, "outputs", {})) | {"func", "outputs", "command"}
    inputs = [v for k, v in vars(a).items() if k not in skip and isinstance(v, str)]
    outputs.refuse_overwriting_inputs(files, inputs)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("eternity")
    except PackageNotFoundError:
        return "unknown (not installed)"


def main(argv: list[str] | None = None) -> int:
    """The `eternity` command: parse ``argv``, run the subcommand, and map errors to exit statuses (module docstring)."""
    argv = sys.argv[1:] if argv is None else argv
    from puzzles.files.formats import whole_numbers

    whole_numbers()
    if not argv:  # the command list, not "required: command"
        build_parser().print_help()
        return EXIT_OK
    debug = "--debug" in argv  # before parsing, so that an error in the parser is shown in full too
    try:
        a = build_parser().parse_args(argv)
        debug = a.debug
        check_outputs(a)
        if getattr(a, "json", False) is True:  # stdout holds the JSON alone, whatever an engine prints meanwhile
            from eternity.commands.common import json_stdout

            with json_stdout():
                return a.func(a)
        return a.func(a)
    except (InputError, UsageError) as e:
        print(f"eternity: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except LimitReached as e:  # a limit that ran out before the work began (a file still being read)
        print(f"eternity: limit: {e}", file=sys.stderr)
        return EXIT_LIMIT
    except KeyboardInterrupt:
        print("eternity: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`eternity list | head -1`): nothing more to say
        return 0
    except sqlite3.OperationalError as e:  # the machine, not a bug: a full disk under a results database
        if not any(w in str(e) for w in _STORAGE_WORDS):
            return _internal_error(argv, e, debug)
        db = _database_named(argv)
        print(
            f"eternity: error: {db + ': ' if db else ''}the database could not be written ({e}); what was stored "
            "before is kept: make room and run the same command again",
            file=sys.stderr,
        )
        return EXIT_USAGE
    except OSError as e:
        if e.errno not in _NAME_ERRNOS + _STORAGE_ERRNOS:
            return _internal_error(argv, e, debug)
        name = str(e.filename or "")
        shown = name if len(name) <= 200 else name[:100] + "..." + name[-60:]
        print(
            f"eternity: error: {shown}: {(e.strerror or str(e)).lower()}", file=sys.stderr
        )  # a file name the system refuses
        return EXIT_USAGE
    except Exception as e:  # a bug, not bad input: say so, and keep the traceback
        return _internal_error(argv, e, debug)


def _database_named(argv: list[str]) -> str | None:
    """The database a command line names (``--db DB``, or a positional ``*.sqlite``), for the error line."""
    for i, w in enumerate(argv):
        if w == "--db" and i + 1 < len(argv):
            return argv[i + 1]
        if w.startswith("--db="):
            return w[5:]
    return next((w for w in argv if w.endswith((".sqlite", ".db"))), None)


_NAME_ERRNOS = (errno.ENAMETOOLONG, errno.ELOOP, errno.ENOTDIR)
_STORAGE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)  # the machine's storage, not a bug
_STORAGE_WORDS = ("disk is full", "disk I/O error", "readonly database", "unable to open database file")


def _internal_error(argv: list[str], e: Exception, debug: bool = False) -> int:
    """One line naming the command (and the solver, when a solve failed) and the error, the traceback
    in a file it names (or on stderr with --debug or ETERNITY_DEBUG=1): exit 4, apart from bad input's 2."""
    import tempfile
    import traceback

    text = "".join(traceback.format_exception(e))
    where = next((w for w in argv if not w.startswith("-")), "eternity")
    notes = [n for n in getattr(e, "__notes__", ()) if n.startswith("solver ")]
    if notes:
        where += f" ({notes[-1]})"
    if debug or os.environ.get("ETERNITY_DEBUG"):
        print(text, file=sys.stderr, end="")
        where_tb = "above"
    else:
        fd, path = tempfile.mkstemp(prefix="eternity-internal-error-", suffix=".txt")
        with os.fdopen(fd, "w") as f:
            f.write("eternity " + " ".join(argv) + "\n\n" + text)
        where_tb = f"in {path}"
    print(
        f"eternity: internal error in {where}: {type(e).__name__}: {e} (a bug, not your input; the traceback is "
        f"{where_tb})",
        file=sys.stderr,
    )
    return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
