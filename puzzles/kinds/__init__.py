"""The kinds of puzzle, one a module: edge matching, polyforms (with their grids and Eternity's own), Latin
squares, magic figures, queens in two and three dimensions, partitions, free-supply tilings, CNF formulas, and
the search orders of edge boards.  Each declares what ``puzzles.puzzle.Puzzle`` asks of a kind."""
