"""The layer order, read from the source: each module imports only from its own layer or a
lower one, and no modules import each other in a circle (DESIGN.md 1 and 7).

    engine  <-  bots  <-  table, driver  <-  session  <-  net  <-  ui  <-  cli

Every import counts, at the top of a module or inside a function (a lazy import is still a
dependency), and so does ``importlib.import_module("...")`` with a literal name. The
engine imports nothing of the package outside ``engine/``, and neither Textual, Rich nor
asyncio. The few modules with no layer of their own (the package's ``__init__``, its error
type, where its files live) sit at the bottom beside the engine, standard library only
(or below the engine's save code), and the engine does not import them.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pokeroulette_tui

PACKAGE = "pokeroulette_tui"
ROOT = Path(pokeroulette_tui.__file__).resolve().parent

#: The layers, lowest first: module name prefixes below the package (``""`` is the package's
#: own ``__init__``). A module belongs to the layer of its longest matching prefix.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("engine", ("engine", "", "errors", "paths", "codecache")),
    ("bots", ("bots",)),
    ("table", ("table", "driver", "simulate")),
    ("session", ("session",)),
    ("net", ("net",)),
    ("ui", ("ui",)),
    ("cli", ("cli", "__main__")),
)

#: What the engine may not import (top-level names), beyond the rest of the package.
ENGINE_FORBIDDEN = ("textual", "rich", "asyncio")


# -- the checker -------------------------------------------------------------------------------

def module_name(path: Path, root: Path, package: str) -> str:
    """``root/ui/app.py`` -> ``package.ui.app``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name a relative ``from`` import refers to."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base.pop()
    if level > 1:
        base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(path: Path, name: str, known: set[str]) -> set[str]:
    """Every module ``path`` (module ``name``) imports: top-level names of outside packages,
    and full names of the package's own modules (``from pkg import mod`` names ``pkg.mod``
    when that is a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()

    def add(target: str, names: tuple[str, ...] = ()) -> None:
        if not target:
            return
        subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
        found.update(subs)
        if not subs or len(subs) < len(names):
            found.add(target)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(name, is_package, node.level, node.module)
            add(target, tuple(a.name for a in node.names))
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                add(node.args[0].value)
    found.discard(name)
    return found


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Module -> the modules it imports, for every ``.py`` file under ``root``."""
    paths = {module_name(p, root, package): p for p in sorted(root.rglob("*.py"))
             if "__pycache__" not in p.parts}
    known = set(paths)
    return {name: imports_of(path, name, known) for name, path in paths.items()}


def layer_of(module: str, package: str = PACKAGE) -> int | None:
    """The index of ``module``'s layer in LAYERS; None outside the package."""
    if module != package and not module.startswith(package + "."):
        return None
    rest = module[len(package) + 1:]
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if prefix == "" and rest != "":
                continue
            matches = rest == prefix or rest.startswith(prefix + ".")
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index)
    if best is None:
        raise AssertionError(f"{module} belongs to no layer: add it to LAYERS")
    return best[1]


@dataclass(frozen=True)
class Violation:
    importer: str
    imported: str
    why: str

    def __str__(self) -> str:
        return f"{self.importer} imports {self.imported}: {self.why}"


def violations(graph: dict[str, set[str]], package: str = PACKAGE) -> list[Violation]:
    """Every import that goes up a layer, or out of the engine."""
    found = []
    engine = f"{package}.engine"
    for importer, imported in sorted(graph.items()):
        mine = layer_of(importer, package)
        in_engine = importer == engine or importer.startswith(engine + ".")
        for target in sorted(imported):
            theirs = layer_of(target, package)
            if in_engine:
                if target.split(".")[0] in ENGINE_FORBIDDEN:
                    found.append(Violation(importer, target, "the engine is pure Python"))
                elif theirs is not None and not (target == engine or target.startswith(engine + ".")):
                    found.append(Violation(importer, target,
                                           "the engine imports nothing of the package outside it"))
            elif theirs is not None and mine is not None and theirs > mine:
                found.append(Violation(importer, target,
                                       f"{LAYERS[mine][0]} is below {LAYERS[theirs][0]}"))
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other in a circle (Tarjan's strongly connected
    components of more than one module, or a module importing itself), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:  # iterative, so deep graphs need no recursion limit
        nonlocal counter
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for target in edges:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1 or node in graph.get(node, ()):
                        found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


# -- the package -------------------------------------------------------------------------------

GRAPH = import_graph(ROOT, PACKAGE)


def test_every_module_has_a_layer():
    assert f"{PACKAGE}.engine.rules" in GRAPH and f"{PACKAGE}.ui.app" in GRAPH
    for module in GRAPH:
        layer_of(module)  # raises for a module in no layer


def test_each_module_imports_only_its_own_layer_or_lower_ones():
    found = violations(GRAPH)
    assert not found, "imports against the layer order:\n  " + "\n  ".join(map(str, found))


def test_no_modules_import_each_other_in_a_circle():
    found = cycles(GRAPH)
    assert not found, "import cycles:\n  " + "\n  ".join(" <-> ".join(c) for c in found)


def test_the_network_code_never_imports_the_screens_or_the_command_line():
    for module, imported in GRAPH.items():
        if module.startswith(f"{PACKAGE}.net"):
            bad = {m for m in imported if m.startswith((f"{PACKAGE}.ui", f"{PACKAGE}.cli"))}
            assert not bad, f"{module} imports {sorted(bad)}"


# -- the checker catches what it is for --------------------------------------------------------

def write_package(root: Path, files: dict[str, str]) -> Path:
    pkg = root / "pkg"
    for rel, text in files.items():
        path = pkg / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    for folder in [pkg, *(p for p in pkg.rglob("*") if p.is_dir())]:
        (folder / "__init__.py").touch()
    return pkg


def test_the_checker_catches_an_upward_import_a_lazy_one_and_an_impure_engine(tmp_path):
    pkg = write_package(tmp_path, {
        "engine/cards.py": "import asyncio\nfrom ..bots import simple\n",
        "engine/rules.py": "from . import cards\n",          # fine: within the engine
        "bots/simple.py": "from pkg.engine import rules\n",  # fine: downward
        "net/client.py": "def later():\n    from pkg.ui.screens import lobby\n",
        "ui/screens/lobby.py": "import importlib\nimportlib.import_module('pkg.cli')\n",
        "cli.py": "from pkg.net import client\n",             # fine: downward
    })
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.engine.rules"] == {"pkg.engine.cards"}
    found = {(v.importer, v.imported) for v in violations(graph, "pkg")}
    assert found == {
        ("pkg.engine.cards", "asyncio"),
        ("pkg.engine.cards", "pkg.bots.simple"),
        ("pkg.net.client", "pkg.ui.screens.lobby"),       # inside a function: still counted
        ("pkg.ui.screens.lobby", "pkg.cli"),               # import_module("...") too
    }
    assert cycles(graph) == [["pkg.bots.simple", "pkg.engine.cards", "pkg.engine.rules"],
                             ["pkg.cli", "pkg.net.client", "pkg.ui.screens.lobby"]]


def test_a_layered_package_passes(tmp_path):
    pkg = write_package(tmp_path, {
        "engine/cards.py": "import random\n",
        "engine/rules.py": "from . import cards\nfrom .cards import shuffle\n",
        "bots/simple.py": "from pkg.engine import rules\n",
        "table.py": "from pkg import bots, errors\nfrom pkg.engine.rules import RuleSet\n",
        "errors.py": "",
        "session.py": "from pkg.table import Table\n",
        "net/client.py": "import asyncio\nfrom pkg.session import Session\n",
        "ui/app.py": "import textual\ndef later():\n    from pkg.net.client import RemoteSession\n",
        "cli.py": "from pkg.errors import CliError\ndef main():\n    from pkg.ui import app\n",
    })
    graph = import_graph(pkg, "pkg")
    assert graph["pkg.table"] == {"pkg.bots", "pkg.errors", "pkg.engine.rules"}
    assert violations(graph, "pkg") == [] and cycles(graph) == []


def test_the_checker_finds_a_cycle_through_lazy_imports(tmp_path):
    pkg = write_package(tmp_path, {
        "cli.py": "def main():\n    from pkg.net import launch\n",
        "net/launch.py": "from pkg.ui.screens.lobby import LobbyApp\n",
        "ui/screens/lobby.py": "from pkg.cli import main\n",
        "ui/app.py": "from pkg.ui import config\n",
        "ui/config.py": "from pkg.ui.app import make_app\n",
    })
    graph = import_graph(pkg, "pkg")
    assert cycles(graph) == [["pkg.cli", "pkg.net.launch", "pkg.ui.screens.lobby"],
                             ["pkg.ui.app", "pkg.ui.config"]]
    assert {(v.importer, v.imported) for v in violations(graph, "pkg")} == {
        ("pkg.net.launch", "pkg.ui.screens.lobby"), ("pkg.ui.screens.lobby", "pkg.cli")}
