"""Edge matching: the candidate tables of a search order and `edge-backtrack`, the backtracker."""
