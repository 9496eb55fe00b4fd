"""The runner on a Dask cluster: the cluster itself (local or a scheduler's address), a count or a search cut
into parts and spread over its workers, and the beam across them.  The runner's `--executor dask` and `solve
--executor dask` use it; it imports nothing of the runner's own rooms."""
