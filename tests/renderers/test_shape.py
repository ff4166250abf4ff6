"""One shape for every game's renderer (issue 18): a package `renderers/<game>/` whose modules are
those of `renderers/common/package.py`, so a reader finds the same kind of code under the same
file name in every game (renderers/README.md, "A game's renderer")."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import engine
import renderers
from renderers.common.package import MODULES

#: What each module offers the others (and `render_view`): the names a reader looks for first.
ENTRY_POINTS = {
    "board": ("draw", "places", "place_boxes"),
    "tables": ("draw",),
    "private": ("draw",),
    "alt": ("public", "tables", "private"),
    "labels": ("header_for",),
}


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_every_games_renderer_is_a_package_with_the_agreed_modules(game_id):
    module = renderers.module_for(game_id)
    assert hasattr(module, "__path__"), f"{module.__name__} is a single module, not a package renderers/<game>/"
    folder = Path(module.__file__).parent
    found = {p.stem for p in folder.glob("*.py")} - {"__init__"}
    assert found == set(MODULES), (
        f"{module.__name__} has {sorted(found)}; a game's renderer has {sorted(MODULES)} "
        "(a new kind of module is added for every game, in package.py and the README)"
    )
    assert not (folder.parent / f"{folder.name}.py").exists(), f"a stray single module beside {folder.name}/"
    for name in MODULES:
        sub = importlib.import_module(f"{module.__name__}.{name}")
        for function in ENTRY_POINTS.get(name, ()):
            assert callable(getattr(sub, function, None)), f"{sub.__name__} has no {function}()"
    assert set(ENTRY_POINTS) <= set(MODULES)


#: The order imports go in inside a game's package: a module imports only from those before it.
ORDER = ("labels", "parts", "board", "tables", "private", "alt", "__init__")


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_imports_inside_a_games_renderer_go_one_way(game_id):
    folder = Path(renderers.module_for(game_id).__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                used = [node.module] if node.module else [a.name for a in node.names]
                for name in used:
                    assert ORDER.index(name) < ORDER.index(path.stem), (
                        f"{folder.name}/{path.name} imports .{name}: imports go {' <- '.join(ORDER)}"
                    )
