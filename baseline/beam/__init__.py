"""`beam`: Selby and Riordan's beam search. Kernels apart from policy: ``kernels`` and ``frontier``
hold the numba side; ``run``, ``schedule``, ``snapshots`` and ``best`` the policy; ``xcc`` the beam over
XCC puzzles (polyforms, queens); ``repair`` the large-neighbourhood phase; ``codec`` the packed frontier."""
