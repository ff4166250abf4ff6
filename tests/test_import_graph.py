"""No import circles among the project's own modules (issue 18).

Arrows point one way (shared/DESIGN.md, "The house"): when two modules need each
other, what both need belongs in a third. This test reads every module under
`engine/`, `bot/` and `renderers/` with `ast` (nothing is imported, so a module
that cannot be imported here is still checked), draws an arrow for each import of
another project module, and fails naming every circle it finds.

What counts as an arrow, and why:
- every `import` and `from ... import` anywhere in a module: at the top, inside a
  function, under `if TYPE_CHECKING:`, in a `try`. An import moved into a function
  or behind `TYPE_CHECKING` hides a circle from the interpreter, not from the
  reader: the two modules still know each other, so it still counts.
- `import a.b.c` and `from a.b import c` point at the module `a.b.c` (when `c` is
  a module, else at `a.b`), and at the packages Python runs on the way there (`a`,
  `a.b`) unless the importer is inside them: a package's `__init__` re-exporting its
  submodules would otherwise close a circle with every submodule that imports a sibling.
- modules looked up by name at run time (`importlib.import_module` in the game,
  renderer and bot-part registries, the workers' `"module:function"` jobs) are not
  arrows: a registry names its plugins as data, and the plugins may import the
  registry's package (each game's `resample.py` imports `engine.ai.pools`, which runs
  `engine.ai`, whose `parts` names those `resample` modules).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "bot", "renderers")

Graph = Mapping[str, set[str]]


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the project's packages."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """The project modules one import statement points at."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                yield alias.name
        return
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        base = package[: len(package) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    for alias in node.names:
        if f"{target}.{alias.name}" in known:
            yield f"{target}.{alias.name}"
        elif target in known:
            yield target


def _packages_run(target: str, importer: str) -> Iterator[str]:
    """The packages above `target` that importing it runs, leaving out those `importer` is in."""
    parts = target.split(".")
    for i in range(1, len(parts)):
        package = ".".join(parts[:i])
        if not (importer == package or importer.startswith(package + ".")):
            yield package


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports (anywhere in its text)."""
    modules = module_names(root)
    known = set(modules)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _imported(node, name, path.name == "__init__.py", known):
                    graph[name].add(target)
                    graph[name].update(p for p in _packages_run(target, name) if p in known)
        graph[name].discard(name)
    return graph


def strongly_connected(graph: Graph) -> list[list[str]]:
    """The groups of modules that can each reach all the others (Tarjan), each sorted, larger than one."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def a_circle(graph: Graph, group: list[str]) -> list[str]:
    """One shortest circle through the first module of a group, as a path that ends where it starts."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for succ in sorted(graph[node] & members):
                if succ == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if succ not in came_from:
                    came_from[succ] = node
                    following.append(succ)
        frontier = following
    raise AssertionError(f"{group} is not a circle")


def describe(graph: Graph) -> list[str]:
    """One line per tangle of modules: one circle through it, then every arrow inside it."""
    lines = []
    for group in strongly_connected(graph):
        arrows = [f"{m} -> {n}" for m in group for n in sorted(graph[m] & set(group))]
        lines.append(f"{' -> '.join(a_circle(graph, group))} (arrows inside: {'; '.join(arrows)})")
    return lines


def test_no_import_circles():
    circles = describe(import_graph())
    assert not circles, "import circles (move what both sides need into a module of its own):\n" + "\n".join(circles)


# --- the checker itself ---------------------------------------------------------


def write(root: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_a_circle_through_a_function_level_or_type_checking_import_is_found(tmp_path):
    root = write(
        tmp_path,
        {
            "engine/__init__.py": "",
            "engine/game/__init__.py": "from . import flow\n",
            "engine/game/flow.py": "from .setup import deal\n",
            "engine/game/setup.py": "def deal():\n    from engine.game import rules\n",
            "engine/game/rules.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .flow import Phase\n"
            ),
            "bot/__init__.py": "",
            "bot/a.py": "import bot.b\n",
            "bot/b.py": "from bot import a\n",
            "renderers/__init__.py": "",
        },
    )
    graph = import_graph(root)
    assert describe(graph) == [
        "bot.a -> bot.b -> bot.a (arrows inside: bot.a -> bot.b; bot.b -> bot.a)",
        "engine.game.flow -> engine.game.setup -> engine.game.rules -> engine.game.flow (arrows inside: "
        "engine.game.flow -> engine.game.setup; engine.game.rules -> engine.game.flow; "
        "engine.game.setup -> engine.game.rules)",
    ]


def test_a_package_importing_its_own_submodules_is_no_circle(tmp_path):
    root = write(
        tmp_path,
        {
            "engine/__init__.py": "from .core import Game\n",
            "engine/core.py": "Game = object\n",
            "engine/game/__init__.py": "from .flow import GAME\n",
            "engine/game/flow.py": "from engine.core import Game\nfrom . import rules\nGAME = Game()\n",
            "engine/game/rules.py": "from ..core import Game\n",
            "bot/__init__.py": "",
            "renderers/__init__.py": "",
        },
    )
    graph = import_graph(root)
    assert graph["engine.game.flow"] == {"engine.core", "engine.game.rules"}
    assert graph["engine.game.rules"] == {"engine.core"}
    assert describe(graph) == []


def test_importing_a_submodule_runs_its_package_and_that_counts(tmp_path):
    root = write(
        tmp_path,
        {
            "engine/__init__.py": "",
            "engine/game/__init__.py": "from bot import hooks\n",
            "engine/game/flow.py": "",
            "bot/__init__.py": "",
            "bot/hooks.py": "from engine.game.flow import *\n",
            "renderers/__init__.py": "",
        },
    )
    graph = import_graph(root)
    assert graph["bot.hooks"] == {"engine", "engine.game", "engine.game.flow"}
    assert describe(graph) == [
        "bot.hooks -> engine.game -> bot.hooks (arrows inside: bot.hooks -> engine.game; engine.game -> bot.hooks)",
    ]
