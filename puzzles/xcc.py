"""Exact cover with colours (XCC), Knuth TAOCP 7.2.2.1, as flat arrays.

Every puzzle compiles to one of these, so every generic solver (the numba
backtracker, CP-SAT, the SAT encoders) sees the same problem.

Layout (CSR, ready for numba)::

    items    0 .. n_primary-1            primary: covered exactly once
             n_primary .. n_items-1      secondary: at most once, or, when
                                          coloured, by options that agree
    option k covers opt_items[opt_ptr[k]:opt_ptr[k+1]]
             with colours opt_colors[...] (0 = no colour, only on secondary items)

``decode[k]`` maps option k back to what it means in the puzzle (a placement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class XCC:
    """An exact-cover-with-colours problem with a decoding of its options."""

    item_names: list[str]
    n_primary: int
    opt_ptr: np.ndarray
    opt_items: np.ndarray
    opt_colors: np.ndarray
    decode: Sequence[Any]  # a list, or a table that decodes on access (``polyform.PlacementTable``)
    color_names: list[str] = field(default_factory=lambda: [""])

    @property
    def n_items(self) -> int:
        """Items, primary then secondary."""
        return len(self.item_names)

    @property
    def n_options(self) -> int:
        """Options (each a set of items, some with a colour)."""
        return len(self.opt_ptr) - 1

    def option(self, k: int) -> list[tuple[int, int]]:
        """(item, colour) pairs of option k."""
        a, b = self.opt_ptr[k], self.opt_ptr[k + 1]
        return list(zip(self.opt_items[a:b].tolist(), self.opt_colors[a:b].tolist()))

    def to_knuth(self) -> str:
        """Knuth's text format, as read by dlx2, dlx3 and miniexact.

        ``| comment`` lines, then one line of items (primary ``|`` secondary),
        then one option a line; a coloured item is written ``item:colour``.
        """
        prim = self.item_names[: self.n_primary]
        sec = self.item_names[self.n_primary :]
        lines = [f"| {self.n_items} items, {self.n_options} options (eternity)"]
        lines.append(" ".join(prim) + (" | " + " ".join(sec) if sec else ""))
        for k in range(self.n_options):
            words = []
            for it, col in self.option(k):
                name = self.item_names[it]
                words.append(f"{name}:{self.color_names[col]}" if col else name)
            lines.append(" ".join(words))
        return "\n".join(lines) + "\n"

    def is_solution(self, chosen: Sequence[int]) -> bool:
        """Check a set of options against the XCC rules (used by tests)."""
        cover = np.zeros(self.n_items, dtype=np.int64)
        colour = np.zeros(self.n_items, dtype=np.int64)
        for k in chosen:
            for it, col in self.option(k):
                if col == 0:
                    cover[it] += 1
                elif colour[it] not in (0, col):
                    return False
                else:
                    colour[it] = col
        if np.any(cover[: self.n_primary] != 1):
            return False
        sec = cover[self.n_primary :]
        if np.any(sec > 1):
            return False
        # an uncoloured use of a secondary item excludes any coloured use
        return not np.any((sec == 1) & (colour[self.n_primary :] != 0))

    def restrict(self, forced: Sequence[int]) -> tuple[XCC, np.ndarray]:
        """The sub-problem left once the ``forced`` options are chosen.

        Returns the reduced problem and, for each of its options, the index of
        the option in ``self``.  Counting the sub-problems of a complete split
        of the search tree and adding gives the count of the whole.
        """
        taken = np.zeros(self.n_items, dtype=bool)
        colour = np.zeros(self.n_items, dtype=np.int64)
        for k in forced:
            a, b = self.opt_ptr[k], self.opt_ptr[k + 1]
            cols = self.opt_colors[a:b]
            taken[self.opt_items[a:b][cols == 0]] = True
            colour[self.opt_items[a:b][cols != 0]] = cols[cols != 0]
        ptr = self.opt_ptr.astype(np.int64)
        owner = np.repeat(np.arange(self.n_options), np.diff(ptr))
        fixed = colour[self.opt_items] != 0
        # an option survives when it takes no taken item and agrees with every fixed colour
        bad = taken[self.opt_items] | (fixed & (self.opt_colors != colour[self.opt_items]))
        kept = np.nonzero(np.bincount(owner[bad], minlength=self.n_options) == 0)[0] if self.n_options else owner
        keep_items = np.nonzero(~taken & (colour == 0))[0]
        new_index = np.full(self.n_items, -1, dtype=np.int64)
        new_index[keep_items] = np.arange(len(keep_items))
        # the surviving options' entries, minus those on colour-fixed items, renumbered
        entry = np.isin(owner, kept) & ~fixed
        counts = np.bincount(owner[entry], minlength=self.n_options)[kept]
        sub = XCC(
            item_names=[self.item_names[i] for i in keep_items],
            n_primary=int(np.count_nonzero(keep_items < self.n_primary)),
            opt_ptr=np.concatenate([[0], np.cumsum(counts)]).astype(np.int32),
            opt_items=new_index[self.opt_items[entry]].astype(np.int32),
            opt_colors=self.opt_colors[entry].astype(np.int32),
            decode=take_decode(self.decode, kept),
            color_names=self.color_names,
        )
        return sub, kept.astype(np.int64)

    def reorder(self, order: np.ndarray) -> XCC:
        """The same problem with its options in ``order`` (a permutation of
        their indices): searches try options in input order, so a shuffled
        copy gives a randomised search."""
        order = np.asarray(order, dtype=np.int64)
        _, idx = option_entries(self.opt_ptr, order)
        new_ptr = np.concatenate([[0], np.cumsum(np.diff(self.opt_ptr.astype(np.int64))[order])])
        return XCC(
            item_names=self.item_names,
            n_primary=self.n_primary,
            opt_ptr=new_ptr.astype(np.int32),
            opt_items=self.opt_items[idx],
            opt_colors=self.opt_colors[idx],
            decode=take_decode(self.decode, order),
            color_names=self.color_names,
        )


def take_decode(decode, rows) -> Sequence[Any]:
    """``[decode[k] for k in rows]``, or the decoding's own ``take`` when it has one (a table of
    integers, such as the polyform placements, stays one: no objects built)."""
    if hasattr(decode, "take"):
        return decode.take(rows)
    return [decode[k] for k in np.asarray(rows, dtype=np.int64).tolist()]


def option_entries(opt_ptr: np.ndarray, options: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries of ``options``, concatenated in their order: for each entry
    its position in ``options`` and its index into the item arrays."""
    ptr = np.asarray(opt_ptr, dtype=np.int64)
    options = np.asarray(options, dtype=np.int64)
    lens = ptr[options + 1] - ptr[options]
    rows = np.repeat(np.arange(len(options)), lens)
    return rows, np.repeat(ptr[options] - np.cumsum(lens) + lens, lens) + np.arange(int(lens.sum()))


class XCCBuilder:
    """Collects named items and options, then freezes them into an ``XCC``."""

    def __init__(self) -> None:
        self.primary: list[str] = []
        self.secondary: list[str] = []
        self._options: list[tuple[list[tuple[str, str | None]], Any]] = []

    def add_primary(self, name: str) -> None:
        """An item every solution covers exactly once."""
        self.primary.append(name)

    def add_secondary(self, name: str) -> None:
        """An item covered at most once, or by options that agree on its colour."""
        self.secondary.append(name)

    def add_option(self, items: list[tuple[str, str | None]] | list[str], meaning: Any) -> None:
        """An option: its items (a name, or a (secondary name, colour) pair) and the placement it means
        (what ``decode`` gives back for it in a solution)."""
        norm = [(x, None) if isinstance(x, str) else (x[0], x[1]) for x in items]
        self._options.append((norm, meaning))

    def build(self) -> XCC:
        """The problem in flat arrays (a ``ValueError`` for a repeated item or an option naming an unknown one)."""
        names = self.primary + self.secondary
        if len(set(names)) != len(names):
            raise ValueError("duplicate item names")
        index = {n: i for i, n in enumerate(names)}
        colors = [""]
        cindex: dict[str, int] = {}
        ptr, items, cols, decode = [0], [], [], []
        for row, meaning in self._options:
            for name, col in row:
                items.append(index[name])
                if col is None:
                    cols.append(0)
                else:
                    if col not in cindex:
                        cindex[col] = len(colors)
                        colors.append(col)
                    cols.append(cindex[col])
            ptr.append(len(items))
            decode.append(meaning)
        return XCC(
            item_names=names,
            n_primary=len(self.primary),
            opt_ptr=np.asarray(ptr, dtype=np.int32),
            opt_items=np.asarray(items, dtype=np.int32),
            opt_colors=np.asarray(cols, dtype=np.int32),
            decode=decode,
            color_names=colors,
        )
