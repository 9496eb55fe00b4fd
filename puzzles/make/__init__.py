"""Makers of instances: generators with a planted solution, scrambled pieces, hint pieces."""
