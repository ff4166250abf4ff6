"""The Epochs rules engine: four civilization games behind one contract.

`GAMES` maps a game id to its Game object (shared/DESIGN.md, "The engine
contract"); `get(id)` fetches one with a clear error. A game registers itself
here by being listed in `_GAME_MODULES` and exposing `GAME`; a package that
exists without `GAME` is a bug and fails loudly when it is first used.

The games are imported on first use, not all at once: loading a game's
component data takes 20-250 ms, and a script or a terminal table playing one
game should not wait for the other three (`epochs script` answered its first
line some 100 ms sooner).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator, Mapping

from .core import Game, IllegalAction, Step

#: game id -> module that defines `GAME` (in the order the bot lists them).
_GAME_MODULES = {
    "rising-cultures": "engine.rising_cultures",
    "rise-of-empires": "engine.rise_of_empires",
    "cradle": "engine.cradle",
    "mosaic": "engine.mosaic",
}


class _Games(Mapping[str, Game]):
    """The registered games by id (in `_GAME_MODULES` order), each imported when first looked up."""

    def __init__(self, modules: Mapping[str, str]) -> None:
        # a game whose package is not there (not built yet) is not offered
        self._modules = {g: m for g, m in modules.items() if importlib.util.find_spec(m) is not None}
        self._games: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = importlib.import_module(self._modules[game_id]).GAME
        return game

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._modules

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self._modules)})"


GAMES: Mapping[str, Game] = _Games(_GAME_MODULES)


def get(game_id: str) -> Game:
    """The game with this id, or KeyError naming the ones there are."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise KeyError(f"no game {game_id!r}; available: {', '.join(GAMES) or 'none'}") from None


__all__ = ["GAMES", "Game", "IllegalAction", "Step", "get"]
