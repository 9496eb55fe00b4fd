"""Bad input: exit 2, one line on stderr naming the problem, no traceback, nothing written."""

import json
import os

import pytest

from eternity.cli import main

GOOD_EDGE = {
    "format": "eternity/edge",
    "version": 1,
    "rows": 2,
    "cols": 2,
    "pieces": [[0, 1, 1, 0], [0, 0, 1, 1], [1, 1, 0, 0], [1, 0, 0, 1]],
}


def _edge(**kw):
    d = dict(GOOD_EDGE)
    d.update(kw)
    return json.dumps(d)


def _poly(**kw):
    d = {
        "format": "eternity/polyform",
        "version": 1,
        "grid": "square",
        "region": {"cells": [[0, 0], [0, 1]]},
        "pieces": [{"name": "D", "cells": [[0, 0], [0, 1]]}],
    }
    d.update(kw)
    return json.dumps(d)


BAD_PUZZLES = {
    "empty": "",
    "whitespace": "   \n",
    "truncated": _edge()[:40],
    "random_bytes": b"\x89\xff\x00\x13garbage\xfe",
    "not_object": "[1, 2, 3]",
    "unknown_format": _edge(format="eternity/hex"),
    "unknown_version": _edge(version=7),
    "rows_string": _edge(rows="two"),
    "negative_rows": _edge(rows=-2),
    "zero_cols": _edge(cols=0),
    "too_few_pieces": _edge(pieces=[[0, 1, 1, 0]]),
    "piece_three_colours": _edge(pieces=[[0, 1, 1]] * 4),
    "negative_colour": _edge(pieces=[[0, -1, 1, 0]] * 4),
    "piece_not_list": _edge(pieces=["abcd"] * 4),
    "bad_fixed_cell": _edge(fixed=[{"cell": "9Z", "piece": 1, "rotation": 0}]),
    "off_board_cell": _edge(fixed=[{"cell": "C1", "piece": 1, "rotation": 0}]),
    "bad_rotation": _edge(fixed=[{"cell": "A1", "piece": 1, "rotation": 4}]),
    "no_such_piece": _edge(fixed=[{"cell": "A1", "piece": 99, "rotation": 0}]),
    "unknown_field": _edge(colour="red"),
    "unknown_grid": _poly(grid="penrose"),
    "duplicate_region_cells": _poly(region={"cells": [[0, 0], [0, 0]]}),
    "duplicate_piece_cells": _poly(pieces=[{"name": "D", "cells": [[0, 0], [0, 0]]}]),
    "region_too_big": _poly(region={"cells": [[0, 0], [0, 1], [0, 2]]}),
    "text_pieces_wrong_count": "1 2 3\n4 5 6\n",
    "text_not_numbers": "a b c d\n",
}


@pytest.mark.parametrize("name", sorted(BAD_PUZZLES))
def test_bad_puzzle_file(tmp_path, capsys, name):
    f = tmp_path / "bad.json"
    data = BAD_PUZZLES[name]
    f.write_bytes(data if isinstance(data, bytes) else data.encode())
    out = tmp_path / "out.svg"
    assert main(["render", str(f), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert str(f) in err
    assert not out.exists()


def test_missing_file(capsys):
    assert main(["info", "/no/such/puzzle.json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file" in err


def test_usage_error_is_one_line(capsys):
    assert main(["solve"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_bad_solution_files(tmp_path, capsys):
    sol = tmp_path / "s.json"
    cases = [
        "{",
        json.dumps(
            {"format": "eternity/solution", "version": 1, "placements": [{"cell": "Q99", "piece": 1, "rotation": 0}]}
        ),
        json.dumps(
            {"format": "eternity/solution", "version": 1, "placements": [{"cell": "A1", "piece": 1, "rotation": 9}]}
        ),
        json.dumps({"format": "eternity/solution", "version": 1, "puzzle": "00", "placements": []}),
        json.dumps({"format": "eternity/solution", "version": 2, "placements": []}),
    ]
    for text in cases:
        sol.write_text(text)
        assert main(["verify", "owen-a", str(sol)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_generate_writes_nothing_on_bad_arguments(tmp_path, capsys):
    out = tmp_path / "p.json"
    assert main("generate edge --rows -3 --cols 4 --frame-colors 2 --inner-colors 3 -o".split() + [str(out)]) == 2
    assert not out.exists()
    assert not os.listdir(tmp_path)


def test_solvers_lists_every_registered_solver_with_its_options(capsys):
    import json

    import solving
    from eternity.cli import main

    assert main(["solvers", "--json"]) == 0
    rows = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert set(rows) == set(solving.names())
    assert rows["edge-backtrack"]["options"]["order"]["default"] == "rowscan"
    assert "cadical195" in rows["sat"]["options"]["backend"]["choices"]


def test_options_packed_in_one_opt_get_a_hint(capsys):
    """``--opt threads=2,repair=0.1`` reads as threads = "2,repair=0.1": the error says so and
    how to write it."""
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--opt", "width=2,seed=3"]) == 2
    err = capsys.readouterr().err.strip()
    assert "'2,seed=3' is not an integer" in err and "two assignments" in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
