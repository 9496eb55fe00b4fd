"""Research studies of Eternity that use the runner: the measured critical size of a polyform set, the end game's
fates and score, the size weights of a tilability fit, and Selby's tilability model fitted from excess-piece
exhausts.  They sit above the runner: the runner and its rooms never import them (the import contracts in
pyproject.toml; the polyform families ask ``critical`` for a set's critical size, the one named exception)."""
