"""`example`: a complete solver in one file -- Knuth's Algorithm X with colours in plain Python.

It is the example of the docs' "Add a solver" page (docs/howto/add-solver.md), which includes this file whole,
and the module of the example package beside it (pyproject.toml).  tests/test_plugins.py installs that package
outside the tree and runs it through `eternity solve` and `eternity run`; tests/test_architecture.py runs it
through the agreement tests.  Slow on purpose: an example, not a competitor.
"""

import time

from solving import Limits, Option, Opts, SolverBase, enumerated


class ExampleOptions(Opts):
    """The options of `example`: each a typed attribute, read as ``self.opts.NAME``."""

    choose = Option(str, "fewest", "the item to cover next: the one with the fewest options, or the first open", ("fewest", "first"))  # fmt: skip


class Example(SolverBase):
    """`example`: Algorithm X with colours in plain Python (the docs' plug-in example)."""

    name = "example"
    MODES = ("first", "count", "all")
    Options = ExampleOptions
    opts: ExampleOptions

    def solve(self, puzzle, *, mode="first", limits=None, progress=None):
        self.check(puzzle, mode)
        limits, t0 = limits or Limits(), time.perf_counter()
        x = puzzle.to_xcc()  # every puzzle compiles to exact cover with colours
        opts = [x.option(k) for k in range(x.n_options)]
        by_item = [[k for k in range(x.n_options) if any(i == it for i, _ in opts[k])] for it in range(x.n_primary)]
        want, found, count, nodes = limits.wanted(mode), [], 0, 0
        state: dict[int, int] = {}  # item -> colour it holds (0: covered plainly)

        def fits(k):
            return all(i not in state or (c and state[i] == c) for i, c in opts[k])

        def search(path) -> bool:  # True: stop (enough solutions or a limit)
            nonlocal count, nodes
            if (
                limits.time_s is not None
                and time.perf_counter() - t0 > limits.time_s
                or limits.nodes is not None
                and nodes >= limits.nodes
            ):
                return True
            open_items = [it for it in range(x.n_primary) if it not in state]
            if not open_items:
                count += 1
                if mode != "count":
                    found.append([x.decode[k] for k in path])
                return want is not None and count >= want
            if self.opts.choose == "fewest":  # the option, typed: mypy knows it is a str
                item = min(open_items, key=lambda it: sum(fits(k) for k in by_item[it]))
            else:
                item = open_items[0]
            for k in [k for k in by_item[item] if fits(k)]:
                nodes += 1
                new = [i for i, _ in opts[k] if i not in state]
                state.update({i: c for i, c in opts[k]})
                stop = search(path + [k])
                for i in new:
                    del state[i]
                if stop:
                    return True
            return False

        stopped = search([])
        stats = {"nodes": nodes, "time_s": time.perf_counter() - t0}
        return enumerated(mode, complete=not stopped, solutions=found, count=count, stats=stats, wanted=want)
