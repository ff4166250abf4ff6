"""Board images: a view (dict) in, PNG bytes and alt text out (shared/DESIGN.md, "Rendering").

`render(game_id, view, seat, part, highlight)` finds the game's renderer lazily —
the package `renderers.<game id with '-' replaced by '_'>`, which exposes
`render(view, seat, part, highlight) -> Image` and has the same modules in every
game (README, "A game's renderer") — so adding a game means adding one package,
not editing this dispatcher. Renderers only ever see views (never the raw state),
so they cannot leak what a seat may not know.

A view is drawn as one of three images (`part`, issue 26): "map", the handover's
picture readable on a phone, with the places of the last move framed (`highlight`:
place names as the view names them, e.g. a choice's `refers`); "tables", the
player tables, offers and legend; "private", a seat's image.

Importing this package costs nothing (no Pillow, no renderer): the bot's main
process names `renderers:render` as a job for its drawing workers and receives
`Image`s back without ever loading the drawing code. `warm()` is what each
drawing worker runs once before its first board.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping, Sequence
from types import ModuleType
from typing import Any

from .image import PARTS, Image

__all__ = ["PARTS", "Image", "module_for", "render", "warm"]


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


def render(
    game_id: str,
    view: Mapping[str, Any],
    seat: int | None = None,
    part: str | None = None,
    highlight: Sequence[str] = (),
) -> Image:
    """Draw `view` (from `engine.get(game_id).view(state, seat)`) as the image `part`:

    - "map" (the default when `seat` is None): the header and the map, the places named
      in `highlight` framed as the last move (names the view does not hold are ignored);
    - "tables": player tables, offers and the legend;
    - "private" (the default for a seat): that seat's image.

    Positional, so a drawing worker's job can name it: `("renderers:render", game_id,
    view, None, "map", ["ur"])`. An unknown part raises ValueError."""
    return module_for(game_id).render(view, seat, part, tuple(highlight))


def warm(games: Iterable[str] | None = None) -> None:
    """Load every renderer, its fonts, icons and the static layers of a game's opening
    board (its map, tables and a private image), so that a fresh drawing worker's first board
    costs what any other does. The boards are drawn from each game's own setup at its
    smallest player count; a game without a renderer is skipped."""
    import engine  # noqa: PLC0415 - only a worker warming up needs the rules

    for game_id in games if games is not None else list(engine.GAMES):
        try:
            module_for(game_id)
        except KeyError:
            continue
        game = engine.get(game_id)
        state = game.setup([f"Player {i + 1}" for i in range(game.min_players)], 1)
        render(game_id, game.view(state, None), None, "map")
        render(game_id, game.view(state, None), None, "tables")
        render(game_id, game.view(state, 0), 0, "private")
