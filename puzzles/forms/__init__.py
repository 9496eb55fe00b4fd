"""Counting the forms themselves: free polyforms of a grid by canonical growth (the check of a grid's geometry),
and polydrafters and polydudes by Redelmeier's method.  The drafter counter's numba kernel stays here, beside the
grid it counts on: it is an enumeration of the model's shapes, not a solver's search (``baseline/``), and the
model's floor imports nothing from the solvers."""
