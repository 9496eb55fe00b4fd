"""CP models: every puzzle as CP-SAT, CPMpy and MiniZinc models, and the solvers that run them."""
