"""The Epochs rules engine: four civilization games behind one contract.

`GAMES` maps a game id to its Game object (shared/DESIGN.md, "The engine
contract"); `get(id)` fetches one with a clear error. A game registers itself
here by being listed in `_GAME_MODULES` and exposing `GAME`; a package that
exists without `GAME` is a bug and fails loudly at import.
"""
from __future__ import annotations

import importlib

from .core import Game, IllegalAction, Step

#: game id -> module that defines `GAME` (in the order the bot lists them).
_GAME_MODULES = {
    "rising-cultures": "engine.rising_cultures",
    "rise-of-empires": "engine.rise_of_empires",
    "cradle": "engine.cradle",
    "mosaic": "engine.mosaic",
}


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for game_id, module in _GAME_MODULES.items():
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as err:
            if err.name == module:
                continue  # that game is not built yet
            raise
        games[game_id] = mod.GAME
    return games


GAMES: dict[str, Game] = _load()


def get(game_id: str) -> Game:
    """The game with this id, or KeyError naming the ones there are."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"no game {game_id!r}; available: {', '.join(GAMES) or 'none'}") from None


__all__ = ["GAMES", "Game", "IllegalAction", "Step", "get"]
