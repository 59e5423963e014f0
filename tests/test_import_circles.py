"""ARCHITECTURE "Sessions": the modules of ``ssh/`` and ``session/`` import
each other without a circle, counting the imports made only for the type
checker (``if TYPE_CHECKING:``) and inside functions: a shared type lives in
the lower module, or two modules that need each other are one."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "momiji_tui"


def _imports(path: Path, package: str) -> set[str]:
    """The ``momiji_tui`` modules ``path`` imports anywhere in it (dotted names)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("momiji_tui.")}


def _graph(*folders: str) -> dict[str, set[str]]:
    modules = {}
    for folder in folders:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            name = f"momiji_tui.{folder}.{path.stem}"
            modules[name] = path
    return {name: _imports(path, name.rsplit(".", 1)[0]) & set(modules) - {name}
            for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle found by a depth-first walk (each reported once per start)."""
    circles: list[list[str]] = []
    done: set[str] = set()

    def walk(name: str, path: list[str]) -> None:
        for target in sorted(graph[name]):
            if target in path:
                circles.append(path[path.index(target):] + [target])
            elif target not in done:
                walk(target, path + [target])
        done.add(name)

    for start in sorted(graph):
        if start not in done:
            walk(start, [start])
    return circles


def test_the_ssh_and_session_modules_import_each_other_without_a_circle():
    graph = _graph("ssh", "session")
    assert "momiji_tui.session.shared_table" in graph["momiji_tui.session.lobby"]  # the walk sees imports
    assert _circles(graph) == []


def test_a_circle_hidden_under_type_checking_is_found(tmp_path):
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c", "a"]]
