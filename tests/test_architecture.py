"""ARCHITECTURE "Layers": the engine and the bots stay pure, imports point down."""

from __future__ import annotations

import ast
import importlib
import inspect
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold():
    """import-linter contracts in pyproject.toml (engine/bots: no textual,
    asyncssh, platformdirs, files, clocks or network; layers point down)."""
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "0 broken" in result.stdout


def test_engine_and_bots_import_without_textual():
    """At run time too: importing the engine and bots loads no UI or SSH code."""
    code = (
        "import sys, momiji_tui.engine, momiji_tui.bots, momiji_tui.engine.narrate\n"
        "bad = [m for m in ('textual', 'rich', 'asyncssh', 'platformdirs') if m in sys.modules]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_help_does_not_import_textual():
    """``momiji --help`` stays fast: the CLI imports the app lazily."""
    code = (
        "import sys\nfrom momiji_tui import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        "sys.exit(1 if 'textual' in sys.modules else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "momiji" in result.stdout


# --------------------------------------------------- ui/ without a circle
UI = ROOT / "momiji_tui" / "ui"
# The table engineer's modules (branch t13-table) that move into ui/screens/table.py,
# ui/widgets/table_* and ui/models/ in their own change: left where they are here.


def _ui_sources() -> dict[str, Path]:
    """Every module of ``momiji_tui.ui`` by dotted name below ``ui`` (``screens.menu``)."""
    out = {}
    for path in sorted(UI.rglob("*.py")):
        rel = path.relative_to(UI).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        if parts:
            out[".".join(parts)] = path
    return out


def _imports(tree: ast.AST) -> list[str]:
    """Absolute names of the packages a module's source imports (relative ones as '.name')."""
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names.append("." * node.level + (node.module or ""))
    return names


def test_issue13_every_screen_in_screens_every_widget_in_widgets_pure_modules_in_models():
    """Layout of ui/: a Screen lives in ``ui/screens/``, a Widget in
    ``ui/widgets/``, an App in ``ui/app.py`` or ``ui/lobby.py``; a module with
    no Textual import lives in ``ui/models/``."""
    from textual.app import App
    from textual.screen import Screen
    from textual.widget import Widget

    misplaced = []
    for name, path in _ui_sources().items():
        top = name.split(".")[0]
        module = importlib.import_module(f"momiji_tui.ui.{name}")
        textual_classes = False
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            if issubclass(cls, App):
                want = {"app", "lobby"}
            elif issubclass(cls, Screen):
                want = {"screens"}
            elif issubclass(cls, Widget):
                want = {"widgets"}
            else:
                continue
            textual_classes = True
            if top not in want:
                misplaced.append(f"{cls.__name__} in ui/{name}.py (belongs in {' or '.join(sorted(want))})")
        textual = any(i.split(".")[0] == "textual" for i in _imports(ast.parse(path.read_text())))
        if not textual and not textual_classes and top != "models" and path.name != "__init__.py":
            misplaced.append(f"ui/{name}.py imports no Textual (belongs in ui/models/)")
    assert misplaced == []


def test_issue13_no_ui_module_imports_inside_a_function():
    """No import circle dodged by importing inside a function: every ``from .``
    import of ui/ is at module level (the app imports its screens at the top)."""
    nested = []
    for name, path in _ui_sources().items():
        for fn in ast.walk(ast.parse(path.read_text())):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(fn):
                    if isinstance(node, ast.ImportFrom) and node.level > 0:
                        nested.append(f"ui/{name}.py:{node.lineno} {fn.name}")
    assert nested == []


def test_issue13_no_screen_method_is_looked_up_by_name():
    """Broadcasts are Signals: no ``getattr(screen, "refresh_table")`` (or any
    other method looked up by a string) in ui/."""
    lookups = []
    for name, path in _ui_sources().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr")
                    and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)):
                lookups.append(f"ui/{name}.py:{node.lineno} {node.func.id}(…, {node.args[1].value!r})")
    assert lookups == []


def test_issue13_keymap_ids_come_from_the_screens_the_apps_register():
    """Every Screen class of ui/ is registered by an app (``SCREEN_CLASSES``),
    and the key map's ids are exactly the ids of the registered classes' own
    BINDINGS (no hand list)."""
    from textual.screen import Screen

    from momiji_tui.ui.app import MomijiApp
    from momiji_tui.ui.keymap import all_bindings
    from momiji_tui.ui.lobby import LobbyApp

    registered = set(LobbyApp.SCREEN_CLASSES)
    assert set(MomijiApp.SCREEN_CLASSES) <= registered
    screens = set()
    for name in _ui_sources():
        module = importlib.import_module(f"momiji_tui.ui.{name}")
        screens |= {c for c in vars(module).values()
                    if inspect.isclass(c) and issubclass(c, Screen) and c.__module__ == module.__name__}
    bases = {c for c in screens if any(o is not c and issubclass(o, c) for o in screens)}  # SizedScreen
    assert screens - bases - registered == set()
    owners = LobbyApp.keymap_owners()
    expected = {b.id for owner in owners for b in owner.__dict__.get("BINDINGS", ()) if getattr(b, "id", None)}
    assert set(all_bindings(owners)) == expected
    assert "lobby.new" in expected and "lobby.new" not in all_bindings(MomijiApp.keymap_owners())


def test_issue13_ui_layers_contract_is_kept():
    """import-linter's layers inside ui/ (app → screens → widgets → models)
    and 'ui models import no textual' are declared and kept."""
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    out = result.stdout
    assert "ui: lobby → app → commands | keymap | themes → screens → widgets → models KEPT" in out, out[-3000:]
    assert "ui models import no Textual KEPT" in out, out[-3000:]


def _names_set(tree: ast.AST, *, arguments: bool = False) -> set[str]:
    """The names ``tree`` defines or sets: functions, classes, attributes set
    on ``self``/``cls``, assigned names (and, with ``arguments``, arguments)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif arguments and isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _private_textual_names() -> set[str]:
    """The private names (``_name``, not dunder) Textual's own source defines
    or sets: methods, attributes set on ``self``/``cls``, class attributes."""
    import textual

    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        names |= _names_set(ast.parse(path.read_text(encoding="utf-8")))
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _own_names(trees: list[ast.AST]) -> set[str]:
    """The names momiji_tui defines or sets itself (its own privates)."""
    return set().union(*(_names_set(tree, arguments=True) for tree in trees))


FENCE = ROOT / "momiji_tui" / "textual_fence.py"
MISSING_API = {"_modal_binding_chain"}
"""Textual's private names used for want of a public API, not for a defect:
``Screen._modal_binding_chain`` (every binding a key reaches, those hidden
by ``check_action`` included: ``ui/screens/table.py`` explains a
refused key with it); docs/TEXTUAL_DEFECTS.md, "Missing API"."""


def test_only_the_fence_touches_textual_s_private_modules_and_attributes():
    """``momiji_tui/textual_fence.py`` is the one module that imports
    ``textual._*`` or uses a private name of Textual's (``._compositor``,
    ``_dirty_widgets``, ``_check_refresh``…): everything else is drawn with
    Textual's public API. (import-linter sees an external package only as a
    whole, so its submodules and attributes are checked here.)"""
    sources = {path: ast.parse(path.read_text(encoding="utf-8"))
               for path in sorted((ROOT / "momiji_tui").rglob("*.py")) if path != FENCE}
    private = _private_textual_names() - _own_names(list(sources.values())) - MISSING_API
    assert {"_compositor", "_dirty_widgets", "_check_refresh", "_divide_cache"} <= private  # the check sees them
    found = []
    for path, tree in sources.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and (
                    node.module.startswith("textual._") or (
                        node.module == "textual" and any(a.name.startswith("_") for a in node.names))):
                found.append(f"{path.name}:{node.lineno} imports {node.module}")
            elif isinstance(node, ast.Import) and any(a.name.startswith("textual._") for a in node.names):
                found.append(f"{path.name}:{node.lineno} imports a private Textual module")
            elif isinstance(node, ast.Attribute) and node.attr in private and not (
                    isinstance(node.value, ast.Name) and node.value.id in ("os", "sys")):
                found.append(f"{path.name}:{node.lineno} uses .{node.attr}")
    assert found == []
