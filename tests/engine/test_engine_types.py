"""The engine is fully typed and tells events and commands apart
by ``match``/``isinstance`` (which mypy narrows), never by ``type(x) is X``.

That mypy finds nothing in the engine with every ``--strict`` flag is checked
by tests/test_lint.py: pyproject's [tool.mypy] override for
``momiji_tui.engine.*`` sets each flag ``--strict`` turns on (a second
``mypy --strict`` run here reported exactly the same errors, so it went).
"""

from __future__ import annotations

import ast
from pathlib import Path

import momiji_tui.engine

ENGINE = Path(momiji_tui.engine.__file__).parent


def type_is_comparisons(source: str) -> list[int]:
    """Lines of ``source`` comparing ``type(x)`` by identity: ``type(x) is X``
    directly, or through a name assigned ``type(x)`` in the same scope."""

    def is_type_call(node: ast.AST) -> bool:
        return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "type" and len(node.args) == 1)

    lines = []
    for scope in ast.walk(ast.parse(source)):
        if not isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        names = {t.id for n in ast.walk(scope) if isinstance(n, ast.Assign) and is_type_call(n.value)
                 for t in n.targets if isinstance(t, ast.Name)}
        for node in ast.walk(scope):
            if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops):
                sides = [node.left, *node.comparators]
                if any(is_type_call(x) or (isinstance(x, ast.Name) and x.id in names) for x in sides):
                    lines.append(node.lineno)
    return sorted(set(lines))


def test_type_is_finder_finds_both_forms():
    assert type_is_comparisons("def f(e):\n    t = type(e)\n    if t is A:\n        pass\n") == [3]
    assert type_is_comparisons("x = type(e) is A\ny = isinstance(e, A)\n") == [1]


def test_engine_never_compares_type_of_by_identity():
    found = {p.name: lines for p in sorted(ENGINE.glob("*.py"))
             if (lines := type_is_comparisons(p.read_text(encoding="utf-8")))}
    assert found == {}
