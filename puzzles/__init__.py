"""The model: puzzles, their XCC form, files, the verifier, Owen's estimates and the generators."""
