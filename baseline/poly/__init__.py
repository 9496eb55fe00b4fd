"""Selby's polyform engine (the most constrained site, pockets, bit boards) and its tree-size probes."""
