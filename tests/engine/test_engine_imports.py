"""The engine's modules import one another without a cycle, and
stay small (STYLE: rarely over 400 lines).

A cycle (decide ↔ legal was one, half hidden in a function-level import)
makes the import order matter and the modules impossible to read alone.
``grimp`` (installed with import-linter) sees every import, lazy ones too.
"""

from __future__ import annotations

from pathlib import Path

import grimp

import momiji_tui.engine

ENGINE = "momiji_tui.engine"
MAX_LINES = 400


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The import cycles among ``modules``: each strongly connected component
    of more than one module (or a module importing itself), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def edges(m: str) -> list[str]:
        return sorted(graph.find_modules_directly_imported_by(m) & modules)

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        on_stack.add(m)
        for n in edges(m):
            if n not in index:
                visit(n)
                low[m] = min(low[m], low[n])
            elif n in on_stack:
                low[m] = min(low[m], index[n])
        if low[m] == index[m]:
            component = []
            while True:
                n = stack.pop()
                on_stack.discard(n)
                component.append(n)
                if n == m:
                    break
            if len(component) > 1 or m in edges(m):
                found.append(sorted(component))

    for m in sorted(modules):
        if m not in index:
            visit(m)
    return found


def test_engine_modules_import_each_other_without_a_cycle():
    graph = grimp.build_graph("momiji_tui")
    # The package itself re-exports its modules; its children never import it.
    modules = {m for m in graph.find_descendants(ENGINE)}
    assert modules, "no engine modules found"
    assert _cycles(graph, modules) == []
    assert not any(ENGINE in graph.find_modules_directly_imported_by(m) for m in modules), (
        "an engine module imports the engine package itself")


def test_cycle_finder_finds_a_cycle():
    """The check above can fail: a graph with a cycle is reported."""
    graph = grimp.ImportGraph()
    for m in ("p.a", "p.b", "p.c"):
        graph.add_module(m)
    graph.add_import(importer="p.a", imported="p.b")
    graph.add_import(importer="p.b", imported="p.a")
    graph.add_import(importer="p.b", imported="p.c")
    assert _cycles(graph, {"p.a", "p.b", "p.c"}) == [["p.a", "p.b"]]


def test_engine_modules_stay_under_400_lines():
    root = Path(momiji_tui.engine.__file__).parent
    long = {p.name: n for p in root.glob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}
