"""What makes an undo need everyone's approval: bot/service/reveal.py (bot/DECISIONS.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from bot.service.reveal import reveals
from engine.core import Rng

from .fakegame import GAME as FAKE


@dataclass
class Cards:
    """Two hands, a face-down deck and a face-up table."""

    hands: list[list[str]] = field(default_factory=lambda: [["ace"], ["king"]])
    deck: list[str] = field(default_factory=lambda: ["queen", "jack"])
    table: list[str] = field(default_factory=list)
    phase: str = "play"
    rng: Rng = field(default_factory=lambda: Rng(5))


class CardGame:
    def view(self, s: Cards, seat: int | None) -> dict:
        out = {"table": list(s.table), "deck": len(s.deck), "phase": s.phase, "hand sizes": [len(h) for h in s.hands]}
        if seat is not None:
            out["hand"] = list(s.hands[seat])
        return out

    def dumps(self, s: Cards) -> str:
        return json.dumps({"hands": s.hands, "deck": s.deck, "table": s.table, "phase": s.phase, "rng": s.rng.state})


GAME = CardGame()
PLAYERS = ["ann", "bob"]


def test_drawing_from_a_face_down_deck_reveals():
    before = Cards()
    after = Cards(hands=[["ace", "queen"], ["king"]], deck=["jack"])
    assert reveals(GAME, before, after, 0, PLAYERS)


def test_playing_ones_own_card_face_up_does_not():
    before = Cards()
    after = Cards(hands=[[], ["king"]], table=["ace"])
    assert not reveals(GAME, before, after, 0, PLAYERS)


def test_taking_a_card_from_anothers_hand_reveals_it_to_the_taker():
    before = Cards()
    after = Cards(hands=[["ace", "king"], []])
    assert reveals(GAME, before, after, 0, PLAYERS)


def test_a_new_label_made_by_the_action_is_no_secret():
    assert not reveals(GAME, Cards(), Cards(phase="scoring"), 0, PLAYERS)


def test_any_use_of_the_states_random_generator_reveals():
    after = Cards()
    after.rng.next64()
    assert reveals(GAME, Cards(), after, 0, PLAYERS)


def test_a_game_may_decide_itself():
    class Honest(CardGame):
        def reveals(self, before, after, seat):
            return seat == 1

    assert not reveals(Honest(), Cards(), Cards(hands=[["ace", "queen"], ["king"]], deck=["jack"]), 0, PLAYERS)
    assert reveals(Honest(), Cards(), Cards(), 1, PLAYERS)


def test_the_fake_games_moves():
    state = FAKE.setup(PLAYERS, 3)
    for action, expected in (("take 1", False), ("draw", True), ("roll", True)):
        after = FAKE.apply(state, state.turn, action).state
        assert reveals(FAKE, state, after, state.turn, PLAYERS) is expected, action
