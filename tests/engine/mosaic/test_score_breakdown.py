"""Scoring (rules summary, final scoring): every line of the final tally, as the final
standings show them (`score_breakdown`, issue 26 §2)."""

from __future__ import annotations

import random

from engine.mosaic.game import GAME


def test_scoring_final_tally_lines_add_up_to_the_final_score():
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.setup(["ann", "bob", "cy"], seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
        tallies = GAME.score_breakdown(state)
        assert [label for label, _ in tallies[0]][:4] == ["During play", "Cities", "Towns", "Wonders"]
        assert [sum(points for _, points in tally) for tally in tallies] == GAME.scores(state)
