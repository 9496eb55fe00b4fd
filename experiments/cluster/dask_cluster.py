"""A local Dask cluster that leaves the cores to the search: Dask's housekeeping, slowed.

Dask's defaults suit short tasks on many cores: every process checks its event loop every 20 ms
(``admin.tick``), samples its own stack every 10 ms (the worker's profiler), reads the machine's load
every 0.5 s (``admin.system-monitor``) and its memory every 0.1 s, and the scheduler looks for work to
steal every 0.1 s.  Idle, a cluster of two workers burned 19% of a core on this with the defaults (the
scheduler and client 7.9%, each worker 5.5%) and 1.8% with ``QUIET`` (measured over 20 s on this kind
of machine).  On two cores with two workers that is the difference between the search having 1.8
cores and having 1.98.  The searches here run for seconds to hours a task, so none of these needs to
be fast: a worker killed is still seen at once (its connection closes), a memory limit is still held
(checked each second), and work stealing still balances.

For a cluster started by hand (``dask scheduler``, ``dask worker``), the same settings go in a Dask
configuration file on each machine (docs/howto/dask.md).
"""

from __future__ import annotations

from puzzles.errors import UsageError
from solving.extras import require

QUIET = {
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.scheduler.work-stealing-interval": "1s",
}


def local_cluster(workers: int, **kwargs):
    """A ``LocalCluster`` of ``workers`` single-threaded worker processes with ``QUIET`` housekeeping (the
    nannies hand the configuration to their workers) and no fixed port: the scheduler's HTTP routes listen
    on a free loopback port (its default, 8787, is one a second cluster would find taken, and say so)."""
    require("cluster", "a Dask cluster")
    import dask
    import distributed  # noqa: F401  (its configuration defaults load before they are set)
    from dask.distributed import LocalCluster

    with dask.config.set(QUIET):
        return LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", **kwargs
        )


CONNECT_TIMEOUT_S = 5.0  # a scheduler that has not answered by then is not there


def check_local_workers(workers: int, flag: str) -> None:
    """Refuse a local cluster of more than twice the cores' workers: more only take turns on the cores, and
    their start-up alone outlasts short limits (16 on 2 cores: a millisecond count took 21 s)."""
    import os

    most = 2 * (os.cpu_count() or 1)
    if workers > most:
        raise UsageError(
            f"{flag} {workers}: a local cluster on {os.cpu_count()} cores runs at most {most} workers; a larger "
            "cluster is a --scheduler"
        )


def connect(scheduler: str | None, workers: int):
    """(client, cluster): a client of the scheduler at ``scheduler``, or of a local cluster of ``workers``
    single-threaded processes.  A scheduler that does not answer is bad input, said within the timeout."""
    require("cluster", "--executor dask")
    from dask.distributed import Client

    if scheduler:
        scheme = scheduler.split("://", 1)[0] if "://" in scheduler else "tcp"
        if scheme not in ("tcp", "inproc", "ws"):
            raise UsageError(
                f"--scheduler {scheduler}: a {scheme}:// scheduler needs a security configuration this command "
                "does not take; give a tcp:// address (host:port)"
            )
        try:
            return Client(scheduler, timeout=CONNECT_TIMEOUT_S), None
        except (OSError, TimeoutError, ValueError) as e:
            raise UsageError(f"--scheduler {scheduler}: no Dask scheduler answers there ({type(e).__name__})") from None
    import logging

    check_local_workers(workers, "--workers")
    # the parts a first solution cancels are not news: the workers' warnings about them stay quiet
    cluster = local_cluster(workers, silence_logs=logging.ERROR)
    return Client(cluster), cluster
