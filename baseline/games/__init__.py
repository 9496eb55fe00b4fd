"""The games of seed 003's chapter, as exhaustive searches: each game's positions valued from the end."""
