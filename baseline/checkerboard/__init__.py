"""The checkerboard problems of seed 003's chapter (its section 6.1), counted by exhaustive search."""
