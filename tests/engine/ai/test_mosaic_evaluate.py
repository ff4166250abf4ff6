"""Mosaic's `evaluate` counts the Empire Scorings still to come (engine/ai/README.md, "Mosaic:
Empire Scorings ahead"): a region led is worth something before a scoring card turns up."""

from __future__ import annotations

import math

import pytest

from engine.mosaic import board, scoring
from engine.mosaic.resample import LATER_SCORING, evaluate, evaluate_tally
from tests.engine.ai.positions import positions
from tests.engine.mosaic.helpers import D, blank_turn, hexes, to_play


def test_empire_gains_are_what_an_empire_scoring_gives_and_change_nothing():
    """The look ahead and the scoring share their code (`region_places`); checked against the
    scoring itself on random positions, governments and ties included."""
    checked = 0
    for state, _ in positions("mosaic", 60, seed=11):
        if state.phase != "play":
            continue
        before = state.copy()
        gains = scoring.empire_gains(D, state, board.influence(D, state))
        assert state == before
        scored = state.copy()
        scoring.empire_scoring(D, scored)
        assert gains == [q.vp - p.vp for p, q in zip(state.players, scored.players, strict=True)]
        checked += any(gains)
    assert checked >= 20


def leading_greece(scorings: int, due: int = 0, end_stage: str = ""):
    """Two players, alike but for one unit: p0 leads Greece (first 3 VP, p1 nothing)."""
    s = blank_turn(to_play(2, 3), 0)
    s.board = {h: v for h, v in s.board.items() if h not in hexes("greece")}
    for p in s.players:
        p.units, p.vp, p.techs, p.builds, p.wonders, p.government = {}, 0, [], [], [], ""
        p.golden_ages, p.achievements, p.unrest = [], [], 0
    s.players[0].units = {"greece": 1}
    s.scorings, s.scoring_due, s.end_stage = scorings, due, end_stage
    return s


def test_a_region_led_is_worth_more_while_scoring_cards_remain():
    early, late = leading_greece(0), leading_greece(2)
    gain = scoring.empire_gains(D, early, board.influence(D, early))
    assert gain[0] > gain[1]
    assert evaluate(early)[0] > evaluate(late)[0] > evaluate_tally(late)[0]
    assert evaluate_tally(early) == evaluate_tally(late)


def test_a_scoring_due_counts_in_full_and_none_once_the_end_has_begun():
    due = leading_greece(3, due=1, end_stage="rounds")
    ending = leading_greece(3, due=0, end_stage="rounds")
    one_card_left = leading_greece(2)
    assert evaluate(ending) == evaluate_tally(ending)
    assert LATER_SCORING < 1
    assert evaluate(due)[0] > evaluate(one_card_left)[0]


@pytest.mark.parametrize("scorings", [0, 1, 2])
def test_each_card_left_counts_the_same_share(scorings: int):
    s = leading_greece(scorings)
    tally = scoring.totals(D, s)
    gains = scoring.empire_gains(D, s, board.influence(D, s))
    ahead = LATER_SCORING * (3 - scorings)
    lead = tally[0] + ahead * gains[0] - tally[1] - ahead * gains[1]
    spread = 4.0 + 0.1 * sum(abs(t + ahead * g) for t, g in zip(tally, gains, strict=True)) / 2
    assert evaluate(s)[0] == pytest.approx(1 / (1 + math.exp(-lead / spread)))
