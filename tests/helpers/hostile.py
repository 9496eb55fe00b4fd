"""What the hostile-input tests share: a small edge board on disk, the one-line refusal, a queens config."""

from pathlib import Path

from eternity.cli import main


def edge_board_on_disk(tmp_path: Path) -> Path:
    """A generated 3x3 edge board ``p.json`` and its planted solution ``s.json`` in ``tmp_path``."""
    assert (
        main(
            "generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split()
            + [str(tmp_path / "p.json"), "--planted", str(tmp_path / "s.json")]
        )
        == 0
    )
    return tmp_path


def one_line_exit_2(capsys, argv) -> str:
    capsys.readouterr()
    assert main(argv) == 2, argv
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("eternity: error:"), err
    return err[0]


def queens_config(path, head: str = "", names=("queens-5",), name: str = "c", mode: str | None = "count"):
    """A small experiment config over built-in queens puzzles, solved by backtrack, written to ``path``;
    ``head``: another top-level line (a time limit)."""
    lines = [f'name = "{name}"', *([head] if head else [])]
    listed = ", ".join(f'"{n}"' for n in names)
    lines.append(f'families = [{{kind = "builtin", name = "b", names = [{listed}]}}]')
    lines.append('solvers = [{name = "backtrack"' + (f', mode = "{mode}"' if mode else "") + "}]")
    path.write_text("\n".join(lines) + "\n")
    return path
