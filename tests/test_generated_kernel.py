"""The kernel generated for each board (``baseline.edge.generated_source``): the same counts and trees as the
table kernel, verified answers, resumable at any budget, more than 64 pieces, and a cache that
other processes load."""

import os
import subprocess
import sys

import numpy as np
import pytest
from helpers.boards import small
from hypothesis import given, settings
from hypothesis import strategies as st

import solving
from baseline.edge import generated_cache, generated_source, generated_tables
from baseline.edge.backtrack import EdgeSearch
from baseline.edge.tables import EdgeTables
from baseline.runtime.kernel import COUNT, DONE, NODES
from puzzles import catalog
from puzzles.kinds.edge import EdgePuzzle, Fixed
from puzzles.make import generate
from solving import Limits, Status, solve_verified


def run(p, mode="count", limits=None, **opts):
    """The generated kernel unless asked otherwise: the boards here are below option auto's size."""
    opts.setdefault("kernel", "generated")
    return solving.get("edge-backtrack", opts).solve(p, mode=mode, limits=limits)


def with_fixed(p: EdgePuzzle, sol, cells) -> EdgePuzzle:
    fixed = [Fixed(pl.cell, pl.piece, pl.rotation) for pl in sol if pl.cell in cells]
    return EdgePuzzle(p.rows, p.cols, p.pieces, fixed=fixed, name="fixed")


@settings(max_examples=10, deadline=None)
@given(
    small,
    st.sampled_from(["rowscan", "spiral", "colscan", "frame-first"]),
    st.sampled_from(["shape", "depth"]),
    st.sampled_from(["masks", "lists"]),
)
def test_the_generated_kernel_walks_the_table_kernels_tree(args, order, unroll, candidates):
    """Count, placements and the merged copies' factor are the table kernel's, for both ways of
    writing the code out and both forms of the candidates, with and without fixed cells."""
    *shape, seed, fix = args
    p, sol = generate.edge_puzzle(*shape, seed)
    if fix:
        p = with_fixed(p, sol, {0, p.n_cells - 1, p.n_cells // 2})
    a = run(p, order=order, kernel="tables")
    b = run(p, order=order, kernel="generated", unroll=unroll, candidates=candidates)
    assert b.stats["kernel"] == "generated"
    assert (a.count, a.stats["nodes"]) == (b.count, b.stats["nodes"])
    opts = {"order": order, "unroll": unroll, "candidates": candidates, "kernel": "generated"}
    first, ok = solve_verified(solving.get("edge-backtrack", opts), p, "first")
    assert ok and first.status == (Status.SOLVED if a.count else Status.UNSAT)


def test_brendan_counts_are_the_known_ones():
    assert run(catalog.load("brendan-5x5")).count == 16
    r = run(catalog.load("brendan-6x6"), unroll="depth")
    assert (r.count, r.stats["nodes"]) == (260, 69_284_103)  # the table kernel's tree (docs: the kernel)


@pytest.mark.parametrize("budget", [1, 7, 1000])
def test_a_search_resumes_at_any_budget(budget):
    """Stopped after every ``budget`` placements and resumed, the kernel counts what one call counts."""
    p = generate.edge_puzzle(4, 4, 2, 3, 5)[0]
    whole = run(p)
    s = EdgeSearch(EdgeTables(p, "rowscan", merge=True), profile=False)
    s.generate("shape")
    while s.step(budget, False) != DONE:
        pass
    assert int(s.st[COUNT]) * s.t.labelled == whole.count and int(s.st[NODES]) == whole.stats["nodes"]


def test_all_mode_lists_every_board_and_first_pauses_on_each():
    p = generate.edge_puzzle(3, 3, 2, 2, 4)[0]
    n = run(p, kernel="tables").count
    r = run(p, mode="all", limits=Limits(solutions=10**6))
    assert len(r.solutions) == n >= 1
    assert len({tuple((x.cell, x.piece, x.rotation) for x in s) for s in r.solutions}) == n


def test_more_than_64_pieces_use_several_words():
    """72 pieces: the availability mask spans two words (lists by default there); a count and a first
    board agree."""
    p, _ = generate.edge_puzzle(9, 8, 4, 24, 2)
    t = EdgeTables(p, "rowscan", merge=True)
    shape, _, _ = generated_source.shape_of(t)
    assert shape.words == 2 and shape.lists
    a = run(p, kernel="tables", limits=Limits(time_s=60))
    for cands in ("masks", "lists"):
        b = run(p, unroll="shape", candidates=cands, limits=Limits(time_s=60))
        assert a.status == b.status == Status.SOLVED and (a.count, a.stats["nodes"]) == (b.count, b.stats["nodes"])
    first, ok = solve_verified(
        solving.get("edge-backtrack", {"unroll": "shape", "kernel": "generated"}), p, "first", Limits(time_s=60)
    )
    assert ok and first.status == Status.SOLVED


def test_keys_with_two_rotations_of_a_piece_get_two_entries():
    """A piece showing the same two colours on its known sides in two rotations (three sides alike)
    is tried in both: the second rotation lies in a further entry of the key."""
    pieces = np.array([[1, 1, 1, 2], [1, 1, 2, 1], [2, 1, 1, 1], [1, 2, 1, 1]], np.int64)
    p = EdgePuzzle(2, 2, pieces, name="three-alike")  # no grey: an unbordered board
    assert not p.bordered
    t = EdgeTables(p, "rowscan")
    gt = generated_tables.gen_tables(t, np.zeros(p.n_cells + 1, np.int64), np.zeros(1, np.int64))
    assert (gt.e_next >= 0).any()
    assert run(p, kernel="tables", identical="distinct").count == run(p, identical="distinct").count


def test_the_cache_is_shared_by_processes_and_written_whole(tmp_path):
    """A second process loads the kernel the first compiled: numba's files are left as the first wrote
    them (none recompiled, none rewritten), a fact of the files and not of the clock."""
    env = {**os.environ, "ETERNITY_KERNEL_DIR": str(tmp_path)}
    code = (
        "import solving; from puzzles import catalog;"
        "r = solving.get('edge-backtrack', {'kernel': 'generated'}).solve(catalog.load('brendan-4x4'), mode='count');"
        "print(r.stats['compile_s'], r.count)"
    )
    snapshots = []
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        secs, n = out.stdout.split()
        assert n == "36" and float(secs) >= 0
        numba_files = sorted(_numba_dir(tmp_path).glob("kernel_*"))
        snapshots.append({f.name: (f.stat().st_mtime_ns, f.read_bytes()) for f in numba_files})
    files = list(tmp_path.glob("kernel_*.py"))
    assert len(files) == 1 and not list(tmp_path.glob("*.tmp"))
    assert files[0].read_text().startswith('"""Generated by baseline/edge/generated_source.py')
    assert snapshots[0] and snapshots[1] == snapshots[0]


def test_an_unusable_cache_falls_back_to_a_private_one(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("ETERNITY_KERNEL_DIR", str(blocker / "kernels"))  # no directory can be made there
    monkeypatch.setattr(generated_cache, "_loaded", {})
    r = run(generate.edge_puzzle(3, 3, 1, 2, 1)[0])
    assert r.status == Status.SOLVED and r.stats["kernel"] == "generated"


def test_profile_counts_placements_per_depth_only_when_asked():
    p = catalog.load("brendan-4x4")
    assert "nodes_per_level" not in run(p).stats
    r = run(p, profile=True)
    assert sum(r.stats["nodes_per_level"]) == r.stats["nodes"]
    assert r.stats["nodes_per_level"] == run(p, kernel="tables").stats["nodes_per_level"]


def test_the_generated_source_names_the_slots_and_codes_as_the_hand_written_kernels_do():
    """No raw state slot or return code in a generated kernel: the names of baseline.runtime.kernel."""
    import re

    t = EdgeTables(catalog.load("brendan-4x4"), "rowscan")
    for unroll in ("shape", "depth"):
        src = generated_source.source(generated_source.shape_of(t, unroll=unroll)[0])
        assert not re.search(r"st\[\d\]|return \d", src), unroll
        assert "st[PHASE] = FINISHED" in src and "return SOLUTION" in src


def test_the_cache_key_covers_the_modules_the_kernel_imports(monkeypatch):
    """A change in bits.py or the slot names makes a new kernel file (numba's cache checks only the file's own
    time stamp, so the old name would load stale machine code)."""
    src = "def kernel(): pass\n"
    before = generated_cache.key(src)
    assert generated_cache.key(src) == before and generated_cache.key(src + "\n") != before
    monkeypatch.setattr(generated_cache, "_dependencies", lambda: b"bits.py as edited")
    assert generated_cache.key(src) != before


def test_the_cache_keeps_the_kernels_used_last(tmp_path):
    pyc = _numba_dir(tmp_path)
    pyc.mkdir()
    for i in range(6):
        f = tmp_path / f"kernel_{i:02d}.py"
        f.write_text("")
        (pyc / f"kernel_{i:02d}.kernel-1.py311.nbi").write_text("")
        os.utime(f, (1000 + i, 1000 + i))
    gone = generated_cache.evict(tmp_path, keep=4)
    assert sorted(gone) == ["kernel_00", "kernel_01"]
    assert sorted(p.stem for p in tmp_path.glob("kernel_*.py")) == [f"kernel_{i:02d}" for i in range(2, 6)]
    assert sorted(p.name.split(".")[0] for p in pyc.iterdir()) == [f"kernel_{i:02d}" for i in range(2, 6)]
    assert generated_cache.evict(tmp_path, keep=4) == []


def test_a_damaged_or_swapped_kernel_cache_is_rebuilt(tmp_path):
    """numba loads its cache by the source file's time stamp alone; the seal beside each key finds a truncated
    index (once an UnpicklingError in every count) and machine code of another kernel under the right name
    (once a wrong count), and the kernel is compiled again."""
    env = {**os.environ, "ETERNITY_KERNEL_DIR": str(tmp_path)}
    code = (
        "import solving; from puzzles import catalog, generate;"
        "a = solving.get('edge-backtrack', {'kernel': 'generated'}).solve(catalog.load('brendan-4x4'), mode='count');"
        "b = solving.get('edge-backtrack', {'kernel': 'generated', 'order': 'colscan'})"
        ".solve(generate.edge_puzzle(3, 3, 1, 2, 1)[0], mode='count');"
        "print(a.count, b.count, a.stats['compile_s'])"
    )

    def counts():
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        a, b, secs = out.stdout.split()
        return int(a), int(b), float(secs)

    right = counts()[:2]
    assert right[0] == 36
    nbc = sorted(_numba_dir(tmp_path).glob("kernel_*.nbc"))
    nbi = sorted(_numba_dir(tmp_path).glob("kernel_*.nbi"))
    assert len(nbc) >= 2 and len(list(tmp_path.glob("kernel_*.seal"))) >= 2
    with open(nbi[0], "r+b") as f:  # a truncated index
        f.truncate(10)
    assert counts()[:2] == right
    data = [p.read_bytes() for p in nbc[:2]]  # each kernel's machine code under the other's name
    nbc[0].write_bytes(data[1])
    nbc[1].write_bytes(data[0])
    assert counts()[:2] == right
    warm = counts()
    assert warm[:2] == right and generated_cache.sealed(tmp_path, nbc[0].name.split(".")[0])


def _numba_dir(d):
    """Where numba keeps a kernel folder's cache files: beside it, or under NUMBA_CACHE_DIR where that is set."""
    from baseline.edge.generated_cache import numba_dir

    return numba_dir(d)
