"""Issue 13: every game accepts the names players read, not only slugs.

For states of random games of every game, each legal action with a hyphenated
name is typed the way a player reads it (`Play Julius Caesar build`,
`place South Zagros`): the game must do exactly what the listed action does.
"""

from __future__ import annotations

import random

import pytest

import engine


def as_read(action: str) -> str:
    """`place south-zagros` -> `Place South Zagros`: spaces for hyphens, words capitalised."""
    return " ".join(w.capitalize() for w in action.replace("-", " ").split(" "))


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_names_typed_with_spaces_do_what_the_listed_action_does(game_id: str):
    game = engine.get(game_id)
    tried = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.setup([f"p{i}" for i in range(game.max_players)], seed)
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            legal = game.legal_actions(state, seat)
            named = [a for a in legal if "-" in a]
            if named:
                action = rng.choice(named)
                typed = game.apply(state, seat, as_read(action))
                listed = game.apply(state, seat, action)
                assert game.dumps(typed.state) == game.dumps(listed.state) and typed.events == listed.events
                tried += 1
            state = game.apply(state, seat, rng.choice(legal)).state
    assert tried > 0
