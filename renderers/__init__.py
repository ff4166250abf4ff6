"""Board images: a view (dict) in, PNG bytes and alt text out (shared/DESIGN.md, "Rendering").

`render(game_id, view, seat=seat)` finds the game's module lazily —
`renderers.<game id with '-' replaced by '_'>`, which exposes
`render(view, seat) -> Image` — so adding a game means adding one module, not
editing this dispatcher. Renderers only ever see views (never the raw state),
so they cannot leak what a seat may not know.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Mapping

from .common import Image

__all__ = ["Image", "module_for", "render"]


def module_name(game_id: str) -> str:
    return f"{__name__}.{game_id.replace('-', '_')}"


def module_for(game_id: str) -> ModuleType:
    """The renderer module of `game_id`; KeyError if there is none."""
    if not isinstance(game_id, str) or not game_id or not all(ch.isalnum() or ch == "-" for ch in game_id):
        raise KeyError(f"no renderer for game {game_id!r}")
    name = module_name(game_id)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as err:
        if err.name == name:
            raise KeyError(f"no renderer for game {game_id!r}") from None
        raise
    if not callable(getattr(module, "render", None)):
        raise KeyError(f"renderer module {name} has no render(view, seat)")
    return module


def render(game_id: str, view: Mapping[str, Any], *, seat: int | None = None) -> Image:
    """Draw `view` (from `engine.get(game_id).view(state, seat)`) for `seat` (None: public)."""
    return module_for(game_id).render(view, seat)
