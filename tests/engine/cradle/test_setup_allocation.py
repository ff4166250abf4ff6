"""2.0 Setting up the Game and 3.0 New Civilization Allocation."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from engine import IllegalAction
from engine.cradle import GAME
from engine.cradle.allocation import begin_allocation
from engine.cradle.data import components
from engine.cradle.state import State

from .helpers import PLAYERS, Scripted, act, position

C = components()


def test_2_0_setup_zero_vps_epoch_one_cities_and_one_card_each():
    s = GAME.setup(PLAYERS, 3)
    assert s.vp == [0, 0, 0, 0] and s.epoch == 1
    held = sorted(s.cards.values())
    assert held == [0, 1, 2, 3]
    assert all(card.startswith("1-") for card in s.cards)  # the rest of Epoch I is removed
    epoch1 = {c.id for c in C.cities.values() if c.epoch == 1}
    placed = {c for v in s.cities.values() for c in v}
    missing = epoch1 - placed  # only a No City Bonus civilization entering its Start Area may have razed one
    assert all(s.civ_at.get(C.cities[c].area) == "1-5" for c in missing)
    assert {c for c in placed if C.cities[c].epoch > 1} == set()


def test_2_0_wrong_player_count_and_options_refused():
    with pytest.raises(IllegalAction, match="4-6 players"):
        GAME.setup(PLAYERS[:3], 1)
    with pytest.raises(IllegalAction, match="only for 4-5"):
        GAME.setup(PLAYERS + ["eve", "fay"], 1, {"non_player": True})
    with pytest.raises(IllegalAction, match="Unknown option"):
        GAME.setup(PLAYERS, 1, {"dummies": 2})
    with pytest.raises(IllegalAction, match="true or false"):
        GAME.setup(PLAYERS, 1, {"non_player": "maybe"})


def _allocation(vp: list[int], last_armies: list[int], rolls: Sequence[int] = ()) -> tuple[State, list[str]]:
    s = position({}, epoch=2, vp=vp, rolls=rolls)
    s.last_armies = list(last_armies)
    s.rng = Scripted(rolls)
    events: list[str] = []
    begin_allocation(s, events)
    return s, events


def test_3_0_draw_order_fewest_vps_first():
    s, _ = _allocation([10, 4, 7, 2], [0, 0, 0, 0])
    assert s.alloc.order == [3, 1, 2, 0]
    assert GAME.to_act(s) == [3]


def test_3_0_draw_order_ties_fewest_armies_then_die_roll():
    s, events = _allocation([5, 5, 5, 9], [8, 3, 8, 1], rolls=[2, 6])
    # bob (fewest Armies) first; ann and cyd roll: cyd's 6 beats ann's 2
    assert s.alloc.order == [1, 2, 0, 3]
    assert "ann rolls 2, cyd rolls 6" in "\n".join(events)


def test_3_0_drawer_keeps_or_passes_and_holder_must_pass():
    s, _ = _allocation([1, 2, 3, 4], [0, 0, 0, 0])
    assert GAME.legal_actions(s, 0) == ["keep", "pass bob", "pass cyd", "pass dee"]
    s, events = act(s, "pass cyd")
    assert "ann passes the card face down to cyd" in events[0]
    # bob draws next; bob has no card yet
    assert GAME.to_act(s) == [1]
    s, _ = act(s, "keep")
    # cyd already holds the passed card: must pass, to ann or dee
    assert GAME.to_act(s) == [2]
    assert GAME.legal_actions(s, 2) == ["pass ann", "pass dee"]
    with pytest.raises(IllegalAction):
        GAME.apply(s, 2, "keep")


def _without_summary(view):
    """The Epoch Civilization Summary Card (1.5) lists every card of the Epoch: leave it out."""
    return {k: v for k, v in view.items() if k != "summary"}


def test_3_0_passed_card_concealed_from_receiver_until_all_dealt():
    s, _ = _allocation([1, 2, 3, 4], [0, 0, 0, 0])
    drawn = s.alloc.drawn
    name = C.card_name(drawn)
    assert GAME.view(s, 0)["allocation"]["private"]["drawn"]["card"] == drawn
    for seat in (None, 1, 2, 3):
        assert drawn not in json.dumps(_without_summary(GAME.view(s, seat)))
    s, events = act(s, "pass bob")
    assert name not in "\n".join(events)
    assert drawn not in json.dumps(_without_summary(GAME.view(s, 1)))  # bob may not look at it yet
    assert GAME.view(s, 0)["allocation"]["private"]["passed"]["1"]["card"] == drawn  # ann remembers
    while s.phase == "allocate" and s.alloc is not None:
        seat = GAME.to_act(s)[0]
        s, events = act(s, GAME.legal_actions(s, seat)[-1])
    text = "\n".join(events)
    assert "The cards are revealed" in text and name in text
    assert s.cards[drawn] == 1
    assert any(c["card"] == drawn for c in GAME.view(s, None)["cards"]["1"])


def test_3_0_every_player_gets_exactly_one_card_and_the_rest_leave():
    rng = random.Random(5)
    s, _ = _allocation([0, 0, 0, 0], [0, 0, 0, 0])
    while s.alloc is not None:
        seat = GAME.to_act(s)[0]
        s, _ = act(s, rng.choice(GAME.legal_actions(s, seat)))
    epoch2 = [c for c in s.cards if c.startswith("2-")]
    assert sorted(s.cards[c] for c in epoch2) == [0, 1, 2, 3]
    assert s.deck == []
