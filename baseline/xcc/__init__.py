"""Exact cover with colours (Algorithm C): dancing links, bitsets, memoised counting and ZDDs, and
`backtrack`, the solver that picks among them (and Selby's engine from ``baseline.poly``)."""
