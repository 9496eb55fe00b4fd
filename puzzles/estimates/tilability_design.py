"""The state designs of the tilability sampler: which regions, how many pieces on offer.

Apart from ``puzzles.estimates.tilability`` (numpy) so that the command line can offer them as choices
without loading it.  ``last``: what a random partial tiling of the board leaves; ``first``: what
the first pieces of one cover from a random edge of the board; ``apart``: that, with the state's
pieces drawn from those that did not cut its region.
"""

REGIONS = ("last", "first", "apart")


def offer_limit(n_pieces: int, k: int, regions: str) -> int:
    """The most pieces a state can be offered: ``apart`` keeps the k that cut its region out."""
    return n_pieces - (k if regions == "apart" else 0)
