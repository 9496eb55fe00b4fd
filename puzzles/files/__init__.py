"""Files: one reader or writer a module.  Puzzle and solution files (``formats`` and the pydantic schema it reads
through), safe input, community piece lists, Heule's board files, the viewer's URLs, tilability weights, SVG
pictures, and where outputs go."""
