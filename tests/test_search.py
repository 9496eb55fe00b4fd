"""One search across a Dask cluster (``experiments/cluster/search.py``): counts equal the local count with a worker
killed halfway, a first solution is verified, a killed client resumes from the ledger, bad requests are
one line."""

import os
import signal

import pytest

import solving
from eternity.cli import main
from puzzles import catalog
from puzzles.errors import InputError, UsageError
from puzzles.make import generate

pytest.importorskip("dask.distributed")

from dask.distributed import Client  # noqa: E402

from experiments.cluster.dask_cluster import local_cluster  # noqa: E402
from experiments.cluster.search import cut_depth, distributed_solve  # noqa: E402


def many(p) -> int:
    """A cut of 32 parts or more: the faults below land while parts are still left."""
    return cut_depth(solving.get("edge-backtrack"), p, 2, at_least=32)[0]


@pytest.fixture(scope="module")
def client():
    cluster = local_cluster(2)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_the_local_cluster_keeps_dask_housekeeping_quiet(client):
    """The workers of the product's local cluster run with the slowed housekeeping (handed over by their
    nannies), which leaves the cores to the search."""
    import dask

    from experiments.cluster.dask_cluster import QUIET

    got = client.run(lambda: {k: dask.config.get(k) for k in QUIET})
    assert len(got) == 2 and all(v == QUIET for v in got.values())
    assert client.run_on_scheduler(lambda dask_scheduler: dask_scheduler._tick_interval) == 1.0


def board(args=(5, 5, 2, 3, 7)):
    return generate.edge_puzzle(*args)[0]


def test_the_edge_cut_partitions_the_solutions():
    p = board((4, 4, 2, 3, 7))
    whole = solving.get("edge-backtrack").solve(p, mode="count").count
    s = solving.get("edge-backtrack")
    assert whole > 0
    for depth in (1, 2):
        parts = [solving.get("edge-backtrack", s.part_options(depth, i)) for i in range(s.split_parts(p, depth))]
        assert sum(x.solve(p, mode="count").count for x in parts) == whole


@pytest.mark.parametrize(
    "name, args",
    [("edge-backtrack", (5, 5, 2, 3, 7)), pytest.param("backtrack", (4, 5, 2, 3, 3), marks=pytest.mark.slow)],
)
def test_a_count_across_the_cluster_equals_the_local_count(client, name, args):
    p = board(args)
    local = solving.get(name).solve(p, mode="count").count
    res = distributed_solve(p, name, {}, "count", solving.Limits(), client=client)
    assert res.status == "solved" and res.count == local > 0
    assert res.stats["parts_done"] == res.stats["parts"] >= 16


def test_a_first_solution_across_the_cluster_is_verified(client):
    from puzzles.verify import verify

    p = board((6, 6, 2, 6, 1))
    res = distributed_solve(p, "edge-backtrack", {}, "first", solving.Limits(), client=client)
    assert res.status == "solved" and verify(p, res.solutions[0]).valid


def test_a_killed_client_resumes_from_the_ledger_with_the_same_count(client, tmp_path):
    p = board()
    seen = []

    def kill_after_some(info):
        seen.append(info)
        if info["parts_done"] >= 10:
            raise KeyboardInterrupt  # the client goes away with parts done and parts left

    with pytest.raises(KeyboardInterrupt):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client, ledger_dir=str(tmp_path),
                          progress=kill_after_some, depth=many(p))  # fmt: skip
    import shutil
    import sqlite3

    edited = tmp_path / "edited"
    shutil.copytree(tmp_path, edited, ignore=shutil.ignore_patterns("edited"))
    res = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                            ledger_dir=str(tmp_path), resume=True)  # fmt: skip
    assert res.count == 5_529_600 and 10 <= res.stats["resumed_parts"] < res.stats["parts"]
    assert res.evidence == solving.Evidence.FILE  # parts read back from the sealed ledger: it says so
    # a ledger edited by hand (one part's count changed) is refused, not summed into a count
    con = sqlite3.connect(edited / "ledger.sqlite")
    con.execute("UPDATE parts SET count = CAST(count AS INTEGER) + 1000 WHERE part = (SELECT MIN(part) FROM parts)")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="seal"):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                          ledger_dir=str(edited), resume=True)  # fmt: skip
    # a changed cut on resume, a file or garbage in place of a ledger, and a new directory: refused, nothing made
    with pytest.raises(UsageError, match="split-depth"):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                          ledger_dir=str(tmp_path), resume=True, depth=many(p) + 1)  # fmt: skip
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / "ledger.sqlite").write_bytes(b"not a ledger at all" * 10)
    with pytest.raises(InputError, match="not a ledger"):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                          ledger_dir=str(garbage), resume=True)  # fmt: skip
    with pytest.raises(UsageError, match="not a directory"):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                          ledger_dir=str(garbage / "ledger.sqlite"), resume=True)  # fmt: skip
    with pytest.raises(UsageError, match="no ledger"):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=client,
                          ledger_dir=str(tmp_path / "new"), resume=True)  # fmt: skip
    assert not (tmp_path / "new").exists()


def _solve_killing_a_worker(p, mode: str, limits, after: int):
    """A distributed solve on a fresh local cluster of two workers, one killed once ``after`` parts are done."""
    with local_cluster(2) as cluster:
        with Client(cluster) as c:
            pids = list(c.run(os.getpid).values())
            killed = []

            def kill_one(info):
                if not killed and info["parts_done"] >= after:
                    os.kill(pids[0], signal.SIGKILL)  # its running part goes to the other worker
                    killed.append(pids[0])

            res = distributed_solve(p, "edge-backtrack", {}, mode, limits, client=c, progress=kill_one, depth=many(p))
    return res, killed


def test_a_count_survives_a_worker_killed_halfway():
    res, killed = _solve_killing_a_worker(board(), "count", solving.Limits(), 5)
    assert killed and res.status == "solved" and res.count == 5_529_600  # the lost part ran again, counted once


def test_bad_requests_are_one_line(tmp_path, capsys):
    p = tmp_path / "p.json"
    assert main("generate edge --rows 3 --cols 3 --frame-colors 1 --inner-colors 2 -o".split() + [str(p)]) == 0
    capsys.readouterr()
    assert main(["solve", str(p), "--executor", "dask", "--solver", "beam"]) == 2
    assert "cannot split" in capsys.readouterr().err
    assert main(["solve", str(p), "--executor", "dask", "--scheduler", "tcp://127.0.0.1:9", "--mode", "count"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no Dask scheduler answers" in err[0]
    assert main(["solve", str(p), "--workers", "2"]) == 2
    assert "go with --executor dask" in capsys.readouterr().err


def test_knuths_estimate_of_a_subtree_is_near_its_size():
    """The cut's parts are sized by Knuth's estimate: unbiased, so many descents land near the tree."""
    from baseline.edge.probe import Prober

    p = catalog.load("brendan-4x4")
    nodes = solving.get("edge-backtrack").solve(p, mode="count").stats["nodes"]
    est = Prober(p).estimate((), 20_000)
    assert abs(est - nodes) / nodes < 0.25


def test_the_cut_on_paper_balances_better_after_re_cutting():
    from experiments.cluster.cut import lpt, simulate

    assert lpt([3, 3, 2, 2, 2, 2], 2) == 1.0 and lpt([10, 1, 1], 2) == 10 / 6
    (r,) = simulate(catalog.load("brendan-5x5"), [8], rate=1e7, probes=50)
    assert r.first_parts >= 16 * 8 and r.parts >= r.first_parts
    assert r.balance_recut <= max(r.balance, 1.05) and r.balance_recut < 2 and r.total > 0


def _no_perfect_board(rows=5, cols=5, frame=2, inner=5):
    """A board with two pieces' sides swapped that no perfect board solves (checked by a count)."""
    for seed in range(50):
        q = generate.swap_sides(generate.edge_puzzle(rows, cols, frame, inner, seed)[0], seed)
        if q is not None and solving.get("edge-backtrack").solve(q, mode="count").count == 0:
            return q
    raise AssertionError("no unsolvable board drawn")


def test_best_mode_across_the_cluster_returns_the_best_part_board_verified(client, tmp_path):
    from puzzles.verify import verify

    p = _no_perfect_board()
    local = solving.get("edge-backtrack").solve(p, mode="best")
    res = distributed_solve(p, "edge-backtrack", {}, "best", solving.Limits(), client=client, ledger_dir=str(tmp_path))
    assert res.status == "solved" and res.stats["proven"]
    rep = verify(p, res.solutions[0], allow_mismatch=True)
    assert rep.legal and rep.complete and p.n_joins - len(rep.mismatches) == res.best_score
    # at least as good as any part reported (the ledger holds every part's board), and never above the
    # whole board's optimum (the parts' first cells match, so it may be below it)
    import sqlite3

    con = sqlite3.connect(tmp_path / "ledger.sqlite")
    scores = [s for (s,) in con.execute("SELECT score FROM parts") if s is not None]
    con.close()
    assert scores and res.best_score == max(scores) == res.stats["part_scores"][0]
    assert res.best_score <= local.best_score < p.n_joins


def test_a_shared_incumbent_prunes_a_part():
    """A part told that a board as good as its own best exists elsewhere finds nothing better, in fewer
    placements."""
    p = _no_perfect_board()
    s = solving.get("edge-backtrack")
    opts = s.part_options(2, 0)
    alone = solving.get("edge-backtrack", opts).solve(p, mode="best")
    told = solving.get("edge-backtrack", opts).solve(
        p, mode="best", limits=solving.Limits(incumbent=lambda: alone.best_score)
    )
    assert alone.status == "solved" and told.status == "unsatisfiable"
    assert told.stats["nodes"] < alone.stats["nodes"] and told.stats["incumbent"] == alone.best_score


def test_best_mode_survives_a_worker_killed():
    from puzzles.verify import verify

    p = _no_perfect_board()
    res, killed = _solve_killing_a_worker(p, "best", solving.Limits(time_s=20), 3)
    assert killed and res.status == "solved" and res.best_score is not None
    rep = verify(p, res.solutions[0], allow_mismatch=True)
    assert rep.legal and rep.complete and p.n_joins - len(rep.mismatches) == res.best_score


def test_a_portfolio_across_the_cluster_runs_its_members_as_tasks(client):
    from puzzles.verify import verify

    p = board((5, 5, 2, 4, 1))
    members = {"members": "edge-backtrack:order=rowscan;backtrack"}
    res = distributed_solve(p, "portfolio", members, "first", solving.Limits(time_s=20), client=client)
    assert res.status == "solved" and verify(p, res.solutions[0]).valid
    assert res.stats["member"] in res.stats["members"] == ["edge-backtrack:order=rowscan", "backtrack"]
    count = distributed_solve(p, "portfolio", members, "count", solving.Limits(time_s=20), client=client)
    assert count.status == "solved" and count.count == solving.get("edge-backtrack").solve(p, mode="count").count
    q = _no_perfect_board()
    best = distributed_solve(q, "portfolio", {"members": "edge-backtrack;beam:width=64"}, "best",
                             solving.Limits(time_s=5), client=client)  # fmt: skip
    rep = verify(q, best.solutions[0], allow_mismatch=True)
    assert best.status == "solved" and q.n_joins - len(rep.mismatches) == best.best_score
    assert best.best_score == solving.get("edge-backtrack").solve(q, mode="best").best_score  # the exhaustive member


def test_a_lost_scheduler_ends_in_a_limit_and_a_new_one_resumes_the_ledger(tmp_path):
    """The scheduler stopped halfway: the client says so (status limit, the ledger kept); a search
    resumed on a new cluster counts what is left, once."""
    import logging
    import threading

    import dask

    p = board()
    with dask.config.set({"distributed.comm.timeouts.connect": "3s"}):
        cluster = local_cluster(2)
        c = Client(cluster)
        # the workers outlive the scheduler stopped on purpose: their heartbeats' "connection refused" is expected,
        # and kept off the suite's output
        c.run(lambda: logging.getLogger("distributed").setLevel(logging.CRITICAL))
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        stopped = []

        def stop_scheduler(info):
            if not stopped and info["parts_done"] >= 5:
                stopped.append(1)
                stop = lambda dask_scheduler: dask_scheduler.stop()  # noqa: E731
                threading.Thread(target=lambda: c.run_on_scheduler(stop), daemon=True).start()

        res = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=c, progress=stop_scheduler,
                                ledger_dir=str(tmp_path), depth=many(p))  # fmt: skip
        for closing in (c.close, cluster.close):
            try:
                closing(timeout=5)
            except Exception:  # the scheduler is gone already
                pass
    assert stopped and res.status == "limit" and "scheduler was lost" in res.message
    assert 5 <= res.stats["parts_done"] < res.stats["parts"]
    with local_cluster(2) as cluster:
        with Client(cluster) as c2:
            again = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), client=c2,
                                      ledger_dir=str(tmp_path), resume=True)  # fmt: skip
    assert again.count == 5_529_600 and again.stats["resumed_parts"] == res.stats["parts_done"]


def test_big_parts_are_cut_again_and_the_count_holds(client, tmp_path):
    """Parts that run past their budget are stopped and their children run instead, as deep as needed:
    the count is the local count, each solution once, also when the client is killed and resumed."""
    p = catalog.load("brendan-6x6")
    opts = dict(client=client, recut_s=0.1, depth=1)
    res = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), **opts)
    assert res.status == "solved" and res.count == 260 and res.stats["recuts"] > 0

    def kill_after_some(info):  # the first report comes with the first part done; later ones every 0.5 s
        if info["parts_done"] >= 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), **opts, ledger_dir=str(tmp_path),
                          progress=kill_after_some)  # fmt: skip
    again = distributed_solve(p, "edge-backtrack", {}, "count", solving.Limits(), **opts, ledger_dir=str(tmp_path),
                              resume=True)  # fmt: skip
    assert again.status == "solved" and again.count == 260 and again.stats["resumed_parts"] >= 1


def test_the_children_of_a_part_partition_it():
    p = board((4, 4, 2, 3, 7))
    s = solving.get("edge-backtrack")
    for part in range(s.split_parts(p, 1)):
        whole = solving.get("edge-backtrack", s.part_options(1, part)).solve(p, mode="count").count
        kids = s.part_children(p, 1, part)
        assert (
            sum(solving.get("edge-backtrack", s.part_options(2, j)).solve(p, mode="count").count for j in kids) == whole
        )


@pytest.mark.parametrize("probes", [False, True])
def test_the_beam_over_the_cluster_equals_the_one_process_beam(client, monkeypatch, probes):
    """The polyform beam whose levels two workers expand (and probe, and whose end game they exhaust) makes
    the same levels and the same tiling as the one-process beam with the same width and seed (with the
    lookahead and the boundary tables on)."""
    from experiments.cluster import beam_cluster
    from experiments.cluster.beam_cluster import cluster_beam
    from puzzles.verify import verify

    monkeypatch.setattr(beam_cluster, "SMALL_FRONTIER", 2)  # the tortoise's frontier is small: split it anyway
    p = catalog.load("eternity1-tortoise")
    opts = {"width": 300, "seed": 2, "look": 1, "tables": 12, "per_parent": 1}
    if probes:
        opts |= {"probe_at": 30, "probe_nodes": 50}
    alone = solving.get("beam", opts).solve(p, mode="first", limits=solving.Limits())
    split = cluster_beam(p, opts, solving.Limits(), client=client)
    assert split.stats["levels_split"] > 10
    if probes:
        assert split.stats["probe_states"] > 0  # the probes ran on the workers
    else:
        assert split.stats["endgame_states"] > 0  # the end game ran on the workers
    assert split.status == alone.status == "solved"
    assert split.solutions == alone.solutions
    assert split.stats["deepest"] == alone.stats["deepest"]  # the pieces' deepest is a maximum, not a sum
    assert verify(p, split.solutions[0]).valid
    strip = ("time_s", "sites_s", "expand_s")
    assert [{k: v for k, v in lv.items() if k not in strip} for lv in split.stats["levels"]] == [
        {k: v for k, v in lv.items() if k not in strip} for lv in alone.stats["levels"]
    ]


def test_solve_runs_the_polyform_beam_over_the_cluster(capsys):
    """`solve --solver beam --executor dask` on a polyform: one beam over a local cluster, its tiling verified."""
    assert main(["solve", "eternity1-boat", "--solver", "beam", "--executor", "dask", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("solved") and "levels split" in out and "verified True" in out


def test_the_cluster_beams_pieces_add_their_counts_and_keep_the_deepest():
    from experiments.cluster.beam_cluster import _tally

    stats = {"endgame_states": 3, "endgame_deepest": 190}
    _tally(stats, {"endgame_states": 2, "endgame_nodes": 10, "endgame_deepest": 185})
    _tally(stats, {"endgame_states": 1, "endgame_nodes": 5, "endgame_deepest": 196})
    assert stats == {"endgame_states": 6, "endgame_nodes": 15, "endgame_deepest": 196}
