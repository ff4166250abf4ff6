"""Phase I (income) and Phase II (draw, swaps, the four card uses, progress)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.rising_cultures import rules

from .helpers import DATA, GAME, act, at_play, cid, finish_opening, ids, lay_out, new_game, set_coins


def test_phase_1_income_from_board_and_played_cards():
    s = finish_opening(new_game(("rome", "persia")))
    lay_out(s, 0, buildings=["brewery", "thermae"])  # income +1 each
    before = s.players[0].coins
    assert GAME.to_act(s) == [0, 1] and GAME.legal_actions(s, 0) == ["income"]
    s, ev = act(s, 0, "income")
    assert s.players[0].coins == before + 3  # board 1 + Brewery 1 + Thermae 1
    assert "takes 3 coins income" in ev[0]


def test_phase_2_draw_4_both_players_simultaneously_in_any_order():
    s = finish_opening(new_game())
    top4 = s.players[1].deck[:4]
    s, _ = act(s, 1, "income")
    assert s.players[1].hand == top4 and len(s.players[1].deck) == 18
    assert GAME.to_act(s) == [0, 1]  # seat 0 still to take income, seat 1 swapping


def test_phase_2_swap_up_to_2_cards_for_1_coin_each():
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 5)
    assert {"swap 1", "swap 2", "done"} <= set(GAME.legal_actions(s, 0))
    next_card = s.players[0].deck[0]
    s, ev = act(s, 0, "swap 1")
    assert s.players[0].coins == 4 and next_card in s.players[0].hand and len(s.players[0].hand) == 5
    assert DATA.cards[next_card].name not in " ".join(ev)  # swap draws are private
    # for each new card, one card of the player's choice goes to the bottom - the new one is allowed
    assert f"bottom {DATA.slug[next_card]}" in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, f"bottom {DATA.slug[next_card]}")
    assert s.players[0].deck[-1] == next_card and len(s.players[0].hand) == 4
    assert DATA.cards[next_card].name not in " ".join(ev)


def test_phase_2_swap_the_number_of_cards_is_chosen_once_before_drawing():
    """RULES-NOTES "Swaps": "return 1 or 2 coins ... and draw a new card for each coin you
    return" is one choice made before drawing, so after `swap 1` no second paid swap
    follows (a free swap still may)."""
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 5)
    s.players[0].provinces = [9]  # Mauretania: 1 free swap a round, so the swap step stays open
    s, _ = act(s, 0, "swap 1")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.players[0].step == "swap" and GAME.legal_actions(s, 0) == ["swap free", "done"]
    with pytest.raises(
        IllegalAction,
        match=r"You have made your paid swap this round \(1 card\): the number "
        r"of cards, 1 or 2, is chosen once, before drawing.",
    ):
        GAME.apply(s, 0, "swap 1")
    s, _ = act(s, 0, "swap free")
    s, ev = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.players[0].coins == 4 and s.players[0].step == "ready"
    assert "is ready to play" in ev[-1]


def test_phase_2_swap_2_draws_two_then_two_bottom_choices():
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 2)
    s, _ = act(s, 0, "swap 2")
    assert s.players[0].coins == 0 and len(s.players[0].hand) == 6 and s.players[0].to_bottom == 2
    s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]).state
    s = GAME.apply(s, 0, GAME.legal_actions(s, 0)[0]).state
    assert len(s.players[0].hand) == 4 and s.players[0].step == "ready"  # no coins left: nothing more to decide


def test_phase_2_three_alternating_plays_marker_holder_first():
    for marker in (0, 1):
        s = at_play(marker=marker)
        order = []
        while s.phase == "play":
            seat = GAME.to_act(s)[0]
            order.append(seat)
            s = GAME.apply(s, seat, next(a for a in GAME.legal_actions(s, seat) if a.endswith(" coins"))).state
        assert order == [marker, 1 - marker] * 3


def test_phase_2_fourth_card_returns_to_top_of_deck_known_to_owner():
    s = at_play()
    while s.phase == "play":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, next(a for a in GAME.legal_actions(s, seat) if a.endswith(" coins"))).state
    # Phase III has started; each 4th card lies on top of its owner's deck
    for seat in (0, 1):
        p = s.players[seat]
        assert p.hand == [] and p.known_top == p.deck[0]
        assert GAME.view(s, seat)["players"][seat]["known_top"]["id"] == p.deck[0]
        assert GAME.view(s, 1 - seat)["players"][seat]["known_top"] is None


def test_use_1_receive_2_coins_card_to_public_discard_pile():
    s = at_play(coins=(0, 0))
    lay_out(s, 0, hand=["forum", "villa", "curia", "insula"])
    s, ev = act(s, 0, "play forum coins")
    assert s.players[0].coins == 2 and s.players[0].discard == [cid("rome", "forum")]
    assert GAME.view(s, None)["players"][0]["discard"][0]["name"] == "Forum"


def test_use_2_example_rome_horse_card_lines_up_with_printed_sword():
    """Rulebook example: Rome's horse card activates the sword on the board: 1 horse + 1 sword."""
    s = at_play()
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"], military=[])
    assert rules.military(s, 0) == {"sword": 0, "horse": 0, "shield": 0}
    s, ev = act(s, 0, "play market military")
    assert rules.military_area(s.players[0]) == {"sword": 1, "horse": 1, "shield": 0}
    assert "activates the printed sword" in ev[0]


def test_use_2_highest_free_band_and_printed_symbol_only_while_covered():
    s = at_play()
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"], military=["castra"])
    s, _ = act(s, 0, "play villa military")  # band 2 (no printed symbol)
    assert s.players[0].military == ids(s, 0, "castra", "villa")
    assert rules.military_area(s.players[0]) == {"sword": 2, "horse": 1, "shield": 0}
    s.players[0].military = []  # once the card on band 1 is gone, the printed sword is inactive
    assert rules.military_area(s.players[0])["sword"] == 0


def test_use_2_no_military_use_when_all_bands_are_taken():
    s = at_play()
    lay_out(
        s,
        0,
        hand=["market", "forum", "villa", "curia"],
        military=["castra", "insula", "theatre", "portus", "augustus", "hadrian"],
    )
    assert not any(a.endswith(" military") for a in GAME.legal_actions(s, 0))


def test_use_3_example_market_one_time_coin_and_permanent_resources():
    """Rulebook example: Market adds 1 wood, 1 brick, 1 gold and 1 one-time coin."""
    s = at_play(coins=(0, 0))
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"], resources=[])
    s, ev = act(s, 0, "play market resources")
    assert s.players[0].coins == 1
    assert rules.resources(s, 0) == {"wood": 1, "brick": 1, "stone": 0, "gold": 1}
    s.phase, s.round = "draw", 2  # the coin does not persist: next income has no coin from Market
    assert rules.income(s, 0) == 1


def test_use_4_example_brewery_two_coins_for_the_missing_stone():
    """Rulebook example: 2 wood, 2 brick, no stone -> pay 2 coins; resources are not spent."""
    s = at_play(coins=(2, 0))
    # Portus (1 wood 1 gold) + Villa (1 wood 1 brick) + Forum (1 brick 1 gold): 2 wood, 2 brick, 0 stone
    lay_out(s, 0, hand=["brewery", "curia", "market", "insula"], resources=["portus", "villa", "forum"])
    have = rules.resources(s, 0)
    assert (have["wood"], have["brick"], have["stone"]) == (2, 2, 0)
    assert rules.build_price(s, 0, DATA.cards[cid("rome", "brewery")]) == (1, 2)
    assert "play brewery build" in GAME.legal_actions(s, 0)
    s, ev = act(s, 0, "play brewery build")
    assert s.players[0].coins == 0 and cid("rome", "brewery") in s.players[0].buildings
    assert rules.resources(s, 0) == have  # nothing spent
    assert "paying 2 coins for 1 missing" in ev[0]


def test_use_4_not_offered_when_the_shortfall_cannot_be_paid():
    s = at_play(coins=(1, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "forum"])
    assert "play brewery build" not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, "play brewery build")


def test_use_4_one_leader_at_a_time_new_leader_covers_the_old():
    s = at_play(coins=(20, 0))
    lay_out(s, 0, hand=["trajan", "forum", "villa", "curia"], leaders=[["hadrian"]])
    s, ev = act(s, 0, "play trajan build")
    assert s.players[0].leaders == [ids(s, 0, "hadrian", "trajan")]
    assert rules.active_cards(s.players[0]) == ids(s, 0, "trajan")
    assert rules.military(s, 0)["shield"] == 0  # Hadrian's +1 shield is covered


def test_optional_progress_example_market_flipped_after_brewery():
    """Rulebook example: after the Brewery, Rome flips its last-played resource card (Market)."""
    s = at_play(coins=(10, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "market"])
    s, _ = act(s, 0, "play brewery build")
    assert GAME.legal_actions(s, 0) == ["progress yes", "progress no"]
    s, ev = act(s, 0, "progress yes")
    p = s.players[0]
    assert p.progress == ids(s, 0, "market") and p.resources == ids(s, 0, "portus", "villa")
    assert rules.level(p) == 1
    assert rules.resources(s, 0)["gold"] == 1  # Market no longer provides resources
    assert "progress level 1" in ev[0]


def test_optional_progress_may_be_declined():
    s = at_play(coins=(10, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "market"])
    s, _ = act(s, 0, "play brewery build")
    s, _ = act(s, 0, "progress no")
    assert s.players[0].progress == [] and len(s.players[0].resources) == 3 and GAME.to_act(s) == [1]


def test_unlocked_abilities_usable_from_that_turn_on():
    """Rome's level 2 discount, unlocked by a progress move, applies to the next build."""
    s = at_play(coins=(10, 0))
    lay_out(
        s, 0, hand=["market", "forum", "villa", "curia"], resources=["insula", "theatre"], progress=["colosseum"]
    )  # level 1; Insula + Theatre: 2 wood 2 brick 2 stone, no gold
    curia = DATA.cards[cid("rome", "curia")]  # requires 1 brick 1 stone 1 gold
    assert rules.build_price(s, 0, curia) == (1, 2)
    s, _ = act(s, 0, "play market build")
    s, _ = act(s, 0, "progress yes")  # Theatre flips: level 2 (1 missing resource costs 1 coin)
    assert rules.level(s.players[0]) == 2
    assert rules.build_price(s, 0, curia) == (1, 1)


def test_wrong_seat_and_unreadable_actions_are_refused_state_unchanged():
    s = at_play()
    before = GAME.dumps(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 1, GAME.legal_actions(s, 0)[0])
    assert err.value.kind == "not-your-turn"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "fly to the moon")
    assert err.value.kind == "unreadable" and "Legal now" in str(err.value)
    assert GAME.dumps(s) == before


def test_phase_2_no_swaps_in_round_7_the_deck_is_empty():
    s = finish_opening(new_game())
    s.round = 7
    for p in s.players:
        p.deck = p.deck[:4]
    set_coins(s, 0, 5)
    s, _ = act(s, 0, "income")
    assert s.players[0].deck == [] and s.players[0].step == "ready"  # nothing to swap with


def test_28_coins_are_conserved_supply_never_negative():
    import random

    for seed in range(5):
        rng = random.Random(seed)
        s = GAME.setup(["a", "b"], seed, {"civs": ["egypt", "persia"]})
        while not GAME.is_over(s):
            held = sum(p.coins for p in s.players) + sum(len(c) for c in s.nile_coins)
            assert s.supply >= 0 and held + s.supply == 28
            seat = rng.choice(GAME.to_act(s))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state


def test_phase_2_cards_put_at_the_bottom_stay_known_to_their_owner_only():
    """Setup and swaps: the player knows which cards they put at the bottom of their deck."""
    s = finish_opening(new_game())
    opening_bottom = s.players[0].deck[-1]
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 5)
    s, _ = act(s, 0, "swap 1")
    new_card = s.players[0].hand[-1]  # the swap draw: put straight back, at the bottom
    s, _ = act(s, 0, f"bottom {DATA.slug[new_card]}")
    own = GAME.view(s, 0)["players"][0]["known_bottom"]
    assert [c["id"] for c in own] == [opening_bottom, new_card] == s.players[0].deck[-2:]
    assert GAME.view(s, 1)["players"][0]["known_bottom"] is None
    assert GAME.view(s, None)["players"][0]["known_bottom"] is None
