"""Which module holds each game's bot parts: `resample(state, seat, rng)` and `evaluate(state)`,
and its fast rollout move `draw(state, seat, rand)` (every game has one since issue 24).

A registry here rather than a hook in each game's `game.py`: the bot is an
addition to the rules engines, and the games need not know it exists. A module
is imported only when its game is first searched.

A `draw` gives a random legal action with the same distribution as a uniform
choice among `legal_actions(state, seat)`, without listing them all (listing
was a third of a decision); each is tested against that uniform choice
(tests/engine/ai/test_playout.py). A game without one is played out through
`legal_actions` (search.uniform).
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType

from engine.core import Game

from .search import Budget, Draw, Search

#: game id -> module defining `resample` and `evaluate`.
MODULES = {
    "rising-cultures": "engine.rising_cultures.resample",
    "rise-of-empires": "engine.rise_of_empires.resample",
    "cradle": "engine.cradle.resample",
    "mosaic": "engine.mosaic.resample",
}

#: game id -> module defining `draw`, the fast rollout move.
PLAYOUTS = {
    "rising-cultures": "engine.rising_cultures.playout",
    "rise-of-empires": "engine.rise_of_empires.playout",
    "cradle": "engine.cradle.playout",
    "mosaic": "engine.mosaic.playout",
}


def parts(game_id: str) -> ModuleType:
    """The module with this game's `resample` and `evaluate`, or KeyError naming the games that have one."""
    try:
        name = MODULES[game_id]
    except KeyError:
        raise KeyError(f"no bot for {game_id!r}; bots play: {', '.join(MODULES)}") from None
    return importlib.import_module(name)


def draw(game_id: str) -> Draw | None:
    """The game's fast rollout move, or None for a game that has none (then `legal_actions` serves)."""
    name = PLAYOUTS.get(game_id)
    if name is None:
        return None
    fast: Draw = importlib.import_module(name).draw
    return fast


def search(game: Game, limits: Budget, rand: random.Random) -> Search:
    """A search of `game` within `limits`: the game's `resample`, the evaluation `limits` names
    (`Budget.evaluation`) and its fast rollout move."""
    part = parts(game.id)
    return Search(game, part.resample, getattr(part, limits.evaluation), limits, rand, draw(game.id))
