"""The engine is pure: stdlib only, no textual, rich or asyncio (DESIGN.md 1)."""

from __future__ import annotations

import ast
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import pokeroulette_tui.engine as engine_pkg

FORBIDDEN = ("textual", "rich", "asyncio")
ENGINE_DIR = Path(engine_pkg.__file__).parent
MODULES = sorted(m.name.removeprefix("pokeroulette_tui.engine.") for m in
                 pkgutil.walk_packages([str(ENGINE_DIR)], prefix="pokeroulette_tui.engine."))
"""Every module of the engine, its sub-packages' too (``casino.board``)."""


def _source(module: str) -> Path:
    path = ENGINE_DIR.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def test_engine_has_the_expected_modules():
    for name in ("cards", "rules", "hands", "matching", "betting", "state", "roulette", "draw",
                 "scoring", "game", "view", "events", "actions", "save", "casino.board",
                 "casino.odds", "casino.game"):
        assert name in MODULES


def test_importing_every_engine_module_loads_no_ui_or_async_library():
    imports = "; ".join(f"import pokeroulette_tui.engine.{m}" for m in MODULES)
    code = (f"import sys; {imports}; "
            f"bad = sorted(n for n in sys.modules if n.split('.')[0] in {FORBIDDEN!r}); "
            "print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "", f"engine imports pulled in: {out.stdout.strip()}"


def _imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            if node.args and isinstance(node.args[0], ast.Constant):
                roots.add(str(node.args[0].value).split(".")[0])
    return roots


@pytest.mark.parametrize("module", MODULES)
def test_engine_source_imports_only_the_stdlib_and_the_engine(module):
    roots = _imported_roots(_source(module))
    assert not roots & set(FORBIDDEN), f"{module} imports {roots & set(FORBIDDEN)}"
    allowed = set(sys.stdlib_module_names) | {"pokeroulette_tui", "__future__"}
    assert roots <= allowed, f"{module} imports non-stdlib {roots - allowed}"


@pytest.mark.parametrize("module", MODULES)
def test_engine_source_reaches_only_into_the_engine(module):
    """Inside the package, the engine imports only engine modules (never ui, net, bots)."""
    tree = ast.parse(_source(module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.startswith("pokeroulette_tui"):
            assert node.module.startswith("pokeroulette_tui.engine"), (module, node.module)
        if isinstance(node, ast.ImportFrom) and node.level > 1:
            pytest.fail(f"{module} reaches outside the engine with a relative import")
