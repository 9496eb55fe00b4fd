"""The experiment runner: configs, instance families, cells in warm workers, the store, tables and plots.

The modules that moved into the ``cluster`` and ``studies`` rooms answer to their old names for a release
(``import experiments.search`` gives ``experiments.cluster.search``, with a ``DeprecationWarning``)."""

from puzzles._moved import install as _install

MOVED = {
    **{f"experiments.{m}": f"experiments.cluster.{m}" for m in ("beam_cluster", "cut", "dask_cluster", "search")},
    **{f"experiments.{m}": f"experiments.studies.{m}" for m in ("critical", "endgame", "size_weights", "tilability")},
}
_install(MOVED)
