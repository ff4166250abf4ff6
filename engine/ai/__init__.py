"""Fill-in bots that play a seat from that seat's knowledge only (issue 14; README.md here).

Two calls, on two sides of an honesty boundary:

- `infostate(game, state, seat, seed)` runs where the true state is (the
  service): it redraws everything `seat` may not know and returns the text of
  that imagined state. Two states that differ only in what `seat` cannot see
  give the same text for the same seed.
- `decide(game_id, infostate_text, seat, level, seed)` runs anywhere (a worker
  process): it never sees the true state, only that text, and returns one legal
  action. It is a pure function of its arguments (all plain, picklable values),
  so the same arguments give the same action in any process.

`resample(game_id, state, seat, rng)` and `evaluate(game_id, state)` expose each
game's two parts (engine/<game>/resample.py) for tests and tools.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import engine
from engine.core import Game, Rng

from .levels import DEFAULT, LEVELS, budget
from .parts import MODULES, parts, search
from .search import Budget

#: The games bots can play.
GAMES = tuple(MODULES)


def _game(game: Game | str) -> Game:
    return engine.get(game) if isinstance(game, str) else game


def resample(game_id: str, state: Any, seat: int, rng: Rng) -> Any:
    """A state `seat` cannot tell from `state`: all it does not know redrawn with `rng`."""
    return parts(game_id).resample(state, seat, rng)


def evaluate(game_id: str, state: Any) -> list[float]:
    """Each seat's estimated share of the win in `state` (adds up to 1)."""
    estimated: list[float] = parts(game_id).evaluate(state)
    return estimated


def infostate(game: Game | str, state: Any, seat: int, seed: int) -> str:
    """What `seat` may know of `state`, as a state text for `decide` (the hidden parts imagined)."""
    g = _game(game)
    if not 0 <= seat < len(g.scores(state)):
        raise ValueError(f"no seat {seat} in this game")
    return g.dumps(resample(g.id, state, seat, Rng.from_seed(seed, "infostate")))


def decide(game_id: str, infostate_text: str, seat: int, level: str = DEFAULT, seed: int = 0) -> str:
    """The action the bot at `seat` takes, from `infostate(...)`'s text only.

    Raises ValueError when `seat` has nothing to do in that state, or the level
    is unknown; KeyError for a game without a bot.
    """
    game = engine.get(game_id)
    limits = budget(level, game_id)
    state = game.loads(infostate_text)
    if seat not in game.to_act(state):
        raise ValueError(f"seat {seat} is not to act now (to act: {game.to_act(state)})")
    rand = random.Random(_seed(seed, level, seat, infostate_text))
    return search(game, limits, rand).choose(state, seat)


def _seed(seed: int, level: str, seat: int, text: str) -> int:
    """The search's own seed: stable across processes (unlike `hash`), and different per position."""
    digest = hashlib.sha256(f"{seed}\n{level}\n{seat}\n{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


__all__ = ["Budget", "GAMES", "LEVELS", "decide", "evaluate", "infostate", "resample"]
