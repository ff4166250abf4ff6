"""Setup (rulebook "Setup" and "Create Your Individual Player Deck")."""

from __future__ import annotations

import pytest

from engine import IllegalAction

from .helpers import DATA, GAME, act, cid, finish_opening, new_game


def test_setup_seven_of_fifteen_provinces_in_ascending_order():
    rows = set()
    for seed in range(20):
        s = GAME.setup(["a", "b"], seed)
        assert len(s.row) == 7 and s.row == sorted(s.row) and len(set(s.row)) == 7
        assert all(1 <= p <= 15 for p in s.row)
        rows.add(tuple(s.row))
    assert len(rows) > 10  # drawn at random from the seed


def test_setup_civilization_choice_is_the_first_decision_each_civ_once():
    s = GAME.setup(["a", "b"], 3)
    assert GAME.to_act(s) == [0]
    assert GAME.legal_actions(s, 0) == ["civ rome", "civ persia", "civ egypt", "civ abbasid"]
    s, ev = act(s, 0, "civ persia")
    assert GAME.to_act(s) == [1] and "civ persia" not in GAME.legal_actions(s, 1)
    with pytest.raises(IllegalAction):
        GAME.apply(s, 1, "civ persia")
    s, ev = act(s, 1, "civ egypt")
    assert [p.civ for p in s.players] == ["persia", "egypt"]
    assert s.phase == "opening" and sorted(GAME.to_act(s)) == [0, 1]


def test_setup_each_player_takes_2_coins_board_coins_added():
    s = new_game(("rome", "abbasid"))
    assert s.players[0].coins == 2
    assert s.players[1].coins == 3  # the Abbasid board prints 1 coin in its resource area
    assert s.supply == 28 - 5


def test_setup_opening_draw_two_to_resource_area_one_top_one_bottom():
    s = new_game(("rome", "persia"), seed=5)
    p = s.players[0]
    hand = list(p.hand)
    assert len(hand) == 4 and len(p.deck) == 20
    first, second, top, bottom = hand
    slug = DATA.slug
    s, _ = act(s, 0, f"resource {slug[first]}")
    assert GAME.legal_actions(s, 0)[0].startswith("resource ")
    s, _ = act(s, 0, f"resource {slug[second]}")
    assert sorted(GAME.legal_actions(s, 0)) == sorted([f"top {slug[top]}", f"top {slug[bottom]}"])
    s, ev = act(s, 0, f"top {slug[top]}")
    p = s.players[0]
    assert p.resources == [first, second] and p.hand == []
    assert p.deck[0] == top and p.deck[-1] == bottom and len(p.deck) == 22
    assert p.step == "ready"
    assert not any(DATA.cards[c].name in " ".join(ev) for c in (top, bottom))  # private
    # the owner knows the card on top of their deck; nobody else does
    assert GAME.view(s, 0)["players"][0]["known_top"]["id"] == top
    assert GAME.view(s, 1)["players"][0]["known_top"] is None
    assert GAME.view(s, None)["players"][0]["known_top"] is None


def test_setup_coin_symbols_in_resource_area_pay_immediately():
    s = new_game(("rome", "persia"), seed=5)
    p = s.players[0]
    market = cid("rome", "market")
    p.hand[0] = market if market not in p.hand else p.hand[0]
    p.deck = [c for c in p.deck if c != market]
    s, ev = act(s, 0, "resource market")
    assert s.players[0].coins == 3 and "takes 1 coin" in ev[0]


def test_setup_progress_marker_to_a_random_player():
    assert {GAME.setup(["a", "b"], seed).marker for seed in range(30)} == {0, 1}


def test_setup_opening_decisions_are_simultaneous():
    s = new_game()
    assert GAME.to_act(s) == [0, 1]
    s, _ = act(s, 1, GAME.legal_actions(s, 1)[0])  # seat 1 may go first
    assert GAME.to_act(s) == [0, 1]
    s = finish_opening(s)
    assert s.round == 1 and s.phase == "draw"


def test_setup_rejects_wrong_player_count_and_unknown_options():
    with pytest.raises(ValueError, match="exactly 2"):
        GAME.setup(["a", "b", "c"], 1)
    with pytest.raises(ValueError, match="unknown option"):
        GAME.setup(["a", "b"], 1, {"expansion": True})
    with pytest.raises(ValueError, match="civs"):
        GAME.setup(["a", "b"], 1, {"civs": ["rome", "rome"]})
