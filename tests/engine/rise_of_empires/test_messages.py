"""What the players read: event lines name the rulebook's terms and the result, the view says what is
being decided now and why (6.0, 6.4, 6.4.5), refusals name the rule that stands in the way."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.rise_of_empires import GAME
from engine.rise_of_empires.phases import game_result

from .helpers import act, era_end, new, refuses, restart
from .test_actions import b_turn
from .test_empire import R, W, empire_turn


def _events(state, action):
    return GAME.apply(state, GAME.to_act(state)[0], action).events


def test_6_4_taking_an_empire_tile_says_what_its_numbers_mean():
    s = empire_turn()
    (line,) = _events(s, "take empire 1 water 1-2")
    assert line == ("p0 (white) takes the empire tile 1 water 1-2 (1 region, water · attacker loses 1, defender 2).")


def test_6_4_5_era_ii_names_only_the_top_battle_row():
    s = empire_turn(turn=3)
    (line,) = _events(s, "take empire 2 1-2 1-2")
    assert line.endswith("(2 regions · attacker loses 1, defender 2).")


def test_6_4_placing_counts_cubes_in_words_and_shows_the_region_after():
    s = empire_turn(cubes={"anatolia": [0, 2, 0, 0]})
    s = act(s, "take empire 2 0-1")
    (line,) = _events(s, "place 1 anatolia")
    assert line == "p0 (white) places 1 cube in Anatolia (now white 1, red 2)."


def test_6_4_5_battle_example_names_who_lost_what_and_the_result():
    """Dan (3 cubes) attacks Peter (2) in the Med with the "1" water tile: Peter loses 2, Dan 1."""
    s = empire_turn(cubes={"mediterranean": [0, 2, 0, 0]})
    s = act(s, "take empire 1 water 1-2", "place 3 mediterranean")
    (line,) = _events(s, "battle mediterranean red")
    assert line == (
        "p0 (white) attacks p1 (red) in Mediterranean: red loses 2 cubes, white loses 1 cube (now white 2)."
    )


def test_6_4_new_empire_refusal_names_its_first_region():
    """Mayfair FAQ: a new empire is one region plus regions next to it, not next to later ones."""
    s = empire_turn()
    s = act(s, "take empire 3 1-1", "place 2 se-europe", "place 2 anatolia")
    msg = refuses(s, "place 1 near-east")
    assert "new empire spreads only next to its first region" in msg and "SE Europe" in msg
    assert "before this placement" not in msg


def test_6_4_later_play_refusal_still_names_regions_held_before():
    s = empire_turn(cubes={"sw-europe": [3, 0, 0, 0]})
    s = act(s, "take empire 2 0-1")
    msg = refuses(s, "place 1 near-east")
    assert "before this placement" in msg and "first region" not in msg


def test_6_4_view_says_what_the_placement_decision_is():
    s = empire_turn()
    s = act(s, "take empire 3 1-1", "place 2 se-europe")
    view = GAME.view(s, None)
    assert view["doing"] == "placing cubes"
    assert view["prompt"] == "p0 (white) places cubes with empire tile 3 1-1: 1 of 3 regions used, 3 cubes in the pool."
    s = act(s, "place 1 anatolia", "place 1 sw-europe")
    assert "3 of 3 regions used, 1 cube in the pool" in GAME.view(s, None)["prompt"]


def test_6_0_view_names_the_pending_payment_for_a_b_turn_disc():
    s = b_turn(rows={"city": [W, R, R]})  # W's disc in circle 1 has two discs to its left
    s = restart(s, [W, R, 2, 3])
    s = act(s, "remove city 1")
    view = GAME.view(s, None)
    assert view["doing"] == "paying for a disc"
    assert view["prompt"] == "p0 (white) pays 2 for a removed disc."


def test_6_0_removing_a_disc_says_why_it_costs_and_the_payment_what_was_paid():
    s = b_turn(rows={"city": [W, R, R]})
    s = restart(s, [W, R, 2, 3])
    (line,) = _events(s, "remove city 1")
    assert line == (
        "p0 (white) removes a disc from the city row without taking its action and must pay 2, "
        "one per disc to its left (6.0)."
    )
    s = act(s, "remove city 1")
    assert _events(s, "pay 1 gold 1 resource") == ["p0 (white) pays 1 gold and 1 resource disc for the disc (6.0)."]
    assert _events(s, "pay 2 cubes") == ["p0 (white) pays 2 cubes for the disc (6.0)."]


def test_6_0_a_capped_cost_says_so():
    """RULES-NOTES 6.0: the cost is capped at what the player holds."""
    s = b_turn(rows={"city": [W, R, R]})
    p = s.players[W]
    p.gold = p.pool = p.resources = p.vp = 0
    p.food = 1
    s = restart(s, [W, R, 2, 3])
    (line,) = _events(s, "remove city 1")
    assert line.endswith("(6.0); 2 discs are to its left, but it holds only 1 to pay with.")


def test_6_2_territory_and_trade_events_use_the_right_words():
    a = empire_turn()
    a.offer_territory = ["island"]
    assert _events(a, "take territory island") == ["p0 (white) takes an Island territory tile."]
    a.players[W].resources = 1
    assert _events(a, "trade 1 for 2 gold") == ["p0 (white) trades 1 resource disc for 2 gold."]


def test_6_4_5_a_battle_ends_the_placement():
    """6.4.5: battles come after placing; choosing one ends the placement, and the second battle
    of an Era III tile is no time to place."""
    s = empire_turn(turn=5, cubes={"anatolia": [1, 2, 0, 0], "russia": [1, 0, 1, 0]})
    s = act(s, "take empire 2 1-2 1-2", "place 1 anatolia")
    s = act(s, "battle anatolia red")
    assert s.stack.top.kind == "battle" and GAME.view(s, None)["doing"] == "choosing a second battle"
    assert "Placing for this empire tile is over" in refuses(s, "place 1 anatolia")


def test_6_5_trade_refusal_names_the_box_as_the_action_does():
    s = empire_turn()
    s.players[W].resources = 2
    s.trade_used = []
    msg = refuses(s, "trade 3 for 2 vp")
    assert "The 3 for 2 VP box needs 3 resource discs; you have 2 (6.5)." in msg


def test_6_1_using_a_weapon_tile_says_what_comes_next():
    """6.1 example: Dan uses the Weapons tile and removes a green cube from the world map."""
    s = empire_turn(cubes={"anatolia": [2, 2, 0, 0]})
    s.players[W].progress = ["iron-weapons"]
    s = restart(s, [W, R, 2, 3])
    (line,) = _events(s, "use iron-weapons")
    assert line == (
        "p0 (white) uses Iron Weapons (flipped face down) to remove 1 cube of another player "
        "in a region where both have cubes (6.1)."
    )
    s = act(s, "use iron-weapons")
    assert _events(s, "remove anatolia red") == [
        "p0 (white) removes 1 cube of p1 (red) in Anatolia (now white 2, red 1)."
    ]


def test_11_0_era_end_names_the_tiles_returned_to_the_box():
    s = restart(era_end(progress=["writing", "agriculture"], cities=["athens", "memphis"]), [W, R, 2, 3])
    s = act(s, "keep cities")  # Memphis's food upkeep (6.3)
    assert s.phase == "era end" and s.stack.top.seat == W
    s = act(s, "keep progress agriculture")
    assert (
        _events(s, "done")[0] == "p0 (white) returns Writing, the city Athens and the city Memphis to the box (11.0)."
    )


def _over(vp_gold):
    s = new(len(vp_gold))
    for p, (vp, gold) in zip(s.players, vp_gold, strict=True):
        p.vp, p.gold = vp, gold
    return s


def test_11_0_final_line_names_the_winner():
    assert game_result(_over([(30, 1), (45, 2), (20, 9)]))[-1] == "The game ends: p1 (red) wins with 45 VP."


def test_11_0_final_line_names_the_gold_tie_break_when_it_decides():
    s = _over([(45, 8), (45, 5), (20, 9)])
    assert game_result(s) == [
        "Final standings (VP): white 45, red 45, blue 20.",
        "The game ends: p0 (white) wins: tied with p1 (red) on 45 VP, ahead on the tie-break, most gold "
        "(8 against 5) (11.0).",
    ]
    assert GAME.winners(_finished(s)) == [W]


def test_11_0_final_line_names_a_shared_win():
    s = _over([(45, 8), (45, 8), (20, 9)])
    assert game_result(s)[-1] == (
        "The game ends: p0 (white) and p1 (red) share the win: tied on 45 VP and on the "
        "tie-break, most gold (8 gold each) (11.0)."
    )


def _finished(s):
    s.phase = "over"
    return s


def test_11_0_a_played_game_ends_with_the_result_line():
    """The last event of a whole game names its winner (and it is the engine's winner)."""
    import random

    rng = random.Random(3)
    s = new(3, seed=3)
    events = []
    while not GAME.is_over(s):
        step = GAME.apply(s, GAME.to_act(s)[0], rng.choice(GAME.legal_actions(s, GAME.to_act(s)[0])))
        s, events = step.state, events + step.events
    (winner,) = GAME.winners(s)
    assert events[-1].startswith(f"The game ends: {s.players[winner].name} ({s.players[winner].colour}) win")


def test_names_as_players_read_them():
    """Issue 13: `place 1 SW Europe` is `place 1 sw-europe`; a refused name typed as printed still reaches the rule."""
    s = empire_turn()
    s = act(s, "take empire 2 0-1")
    s = act(s, "place 1 SW Europe")
    assert s.cubes["sw-europe"][W] == 1
    assert "Russia is an Era III region (6.4.1)" in refuses(s, "place 1 Russia")
    s = empire_turn()
    s.offer_progress = ["writing"]
    assert "Iron Weapons is not among the face-up progress tiles" in refuses(s, "take progress Iron Weapons")


def test_not_your_turn_says_what_the_player_to_act_is_deciding():
    s = empire_turn()
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, R, "take empire 2 0-1")
    assert str(err.value) == ("It is not p1's turn; waiting for p0. p0 (white) is choosing an action.")
