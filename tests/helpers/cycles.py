"""Print, as JSON, the import circles among the modules of the packages named on the command line.

A circle is a strongly connected component of more than one module in grimp's import graph
(imports inside functions included), found by Tarjan's algorithm."""

import json
import sys

import grimp


def cycles(packages: list[str]) -> list[list[str]]:
    graph = grimp.build_graph(*packages, cache_dir=None)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:  # recursive: the module graph is shallow
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.find_modules_directly_imported_by(v)):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in sorted(graph.modules):
        if m not in index:
            visit(m)
    return sorted(out)


if __name__ == "__main__":
    print(json.dumps(cycles(sys.argv[1:])))
