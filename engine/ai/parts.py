"""Which module holds each game's bot parts: `resample(state, seat, rng)` and `evaluate(state)`.

A registry here rather than a hook in each game's `game.py`: the bot is an
addition to the rules engines, and the games need not know it exists. A module
is imported only when its game is first searched.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: game id -> module defining `resample` and `evaluate`.
MODULES = {
    "rising-cultures": "engine.rising_cultures.resample",
    "rise-of-empires": "engine.rise_of_empires.resample",
    "cradle": "engine.cradle.resample",
    "mosaic": "engine.mosaic.resample",
}


def parts(game_id: str) -> ModuleType:
    """The module with this game's `resample` and `evaluate`, or KeyError naming the games that have one."""
    try:
        name = MODULES[game_id]
    except KeyError:
        raise KeyError(f"no bot for {game_id!r}; bots play: {', '.join(MODULES)}") from None
    return importlib.import_module(name)
