"""Game End (rulebook: "Persia scoring example"): the score pad's four lines, as the final
standings show them (`score_breakdown`, issue 26 §2)."""

from __future__ import annotations

import random

from engine.rising_cultures import GAME


def play_out(seed: int):
    rng = random.Random(seed)
    state = GAME.setup(["ann", "bob"], seed)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    return state


def test_game_end_score_pad_lines_add_up_to_the_score():
    for seed in range(4):
        state = play_out(seed)
        pads = GAME.score_breakdown(state)
        assert [label for label, _ in pads[0]] == [
            "Buildings and leaders",
            "Civilization board",
            "Provinces",
            "Progress marker",
        ]
        assert [sum(points for _, points in pad) for pad in pads] == GAME.scores(state)
        assert sum(dict(pad)["Progress marker"] for pad in pads) == 3  # one player holds it: 3 VP
