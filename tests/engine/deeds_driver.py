"""Words checked against deeds (issue 49): the game-independent driver of the per-game tests.

It plays seeded random games and yields, for every choice of every decision, the state before,
the seat, the choice and the state after it; each game's test reads the choice's words and
compares them with the two states. (Written beside issue 49's other driver, tests/engine/deeds.py
on another branch, with the same shape: the two are to be merged into one.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from engine.core import BaseGame, Choice


def deeds(
    game: BaseGame[Any], players: int, seed: int, options: dict[str, Any] | None = None
) -> Iterator[tuple[Any, int, Choice, Any]]:
    """One seeded random game: for every choice of every decision, (state, seat, choice, state
    after applying it). The game goes on with a random choice, reusing its state after.

    A choice's action is a legal action as `legal_actions` writes it (`problems` checks that), so
    each is played on a clone as `apply` plays it, without `apply`'s legality check, which costs
    as much as the rest (the cheap way that keeps every choice of every game)."""
    s = game.setup([f"p{i}" for i in range(players)], seed, options)
    rng = random.Random(seed)
    while not game.is_over(s):
        seat = rng.choice(game.to_act(s))
        choices = game.choices(s, seat)
        pick = rng.randrange(len(choices))
        chosen = s
        for i, c in enumerate(choices):
            after = game.clone(s)
            game.play(after, seat, c.action)
            yield s, seat, c, after
            if i == pick:
                chosen = after
        s = chosen
