"""Proofs of holding a solution without showing it ([Selby2001]'s closing question).

``split``: Selby and Riordan's protocol: commit to the two halves of a solved
board, open the half a challenger names.  ``zk``: a non-interactive
zero-knowledge proof (MPC-in-the-head, ZKBoo / ZKB++ with Fiat-Shamir) that a
solution, or an edge-matching board with at least S matching joins, exists.
docs/PROOFS.md states what each commits to, what it opens and why it is sound
and hides the solution.
"""
