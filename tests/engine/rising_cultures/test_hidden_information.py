"""Hidden information in the action log: actions that name a face-down card."""

from __future__ import annotations

import random

import engine

GAME = engine.get("rising-cultures")


def test_setup_and_swaps_the_card_put_on_or_under_the_deck_is_not_named_in_public():
    """Setup: "1 of your choice at the top and 1 at the bottom"; Phase II swaps put a card
    at the bottom. Which card is the owner's secret, so the public form of the action hides it."""
    rng = random.Random(3)
    state = GAME.setup(["a", "b"], 3)
    seen = set()
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        verb, _, card = action.partition(" ")
        public = GAME.public_action(action)
        if verb in ("top", "bottom"):
            assert card not in public and public.startswith(verb)
            seen.add(verb)
        else:
            assert public == action
        state = GAME.apply(state, seat, action).state
    assert seen == {"top", "bottom"}
