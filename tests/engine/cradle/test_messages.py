"""What the players read: the view says what is being decided now and why (3.0, 5.3-5.6, 8.0),
the scoring line names what scored how many VP (7.2, 7.3)."""
from __future__ import annotations

import renderers
from engine.cradle import GAME
from engine.cradle.rounds import start_round
from engine.cradle.scoring import score_seat

from .helpers import act, in_round, position
from .test_combat import _battle


def _prompt(state) -> str:
    return GAME.view(state, None)["prompt"]


def test_7_2_scoring_line_names_each_part_with_its_vp():
    """7.2: 4 Areas 2 VP, 2 Cities 2 VP, a Wonder 2 VP; 7.3: Egypt control 2, Levant presence 1."""
    cities = {"memphis": ["memphis"], "thebes": ["abydos"]}
    board = {"zoan": ("1-3", 2), "memphis": ("1-3", 1), "thebes": ("1-3", 1), "sinai": ("1-3", 1),
             "judea": ("1-2", 1)}
    s = position({"1-3": 0, "1-2": 1}, board, cities=cities)
    s.wonders = {"great-pyramid": "memphis"}
    assert score_seat(s, 0).describe() == ("4 Areas 2 VP (1 per 2 Areas); Cities 2 VP; 1 Wonder 2 VP; "
                                           "Regions: Egypt control 2 VP, Levant presence 1 VP")


def test_7_2_parts_worth_nothing_are_left_out():
    s = position({"1-3": 0}, {"sinai": ("1-3", 1)})
    assert score_seat(s, 0).describe() == "1 Area 0 VP (1 per 2 Areas); Regions: Levant presence 1 VP"


def test_5_3_view_says_whose_armies_must_leave_the_start_area_and_why():
    s = position({"1-4": 0, "1-1": 1}, {"malgium": ("1-1", 1), "babylon": ("1-1", 3), "eshnunna": ("1-2", 1)},
                 rolls=[3, 4])
    s.cards["1-2"] = 2
    start_round(s, "1-4", [])
    assert _prompt(s) == ("1-4 Akkadian Empire arrives in its Start Area Malgium: bob moves 1 Army of 1-1 Sumer "
                          "to an adjacent vacant or friendly Area, one at a time (5.3).")


def test_5_5_view_names_the_battle_and_the_choice_after_losing_the_army():
    s = _battle("babylon", 2, rolls=[3, 1, 3])
    s, _ = act(s, "attack babylon")
    assert _prompt(s) == ("Battle for Babylon: 1-4 Akkadian Empire lost its attacking Army; ann commits another "
                          "from the pool (2 left) or withdraws (5.5).")


def test_5_5_view_says_the_combat_goes_on_while_the_army_stands():
    s = _battle("babylon", 2, rolls=[2, 5, 4])
    s, _ = act(s, "attack babylon")
    assert _prompt(s).startswith("Battle for Babylon: 1-4 Akkadian Empire's attacking Army still stands")


def test_5_6_non_combat_expansion_is_offered_in_the_prompt_only_to_current_civilizations():
    s = in_round(position({"1-2": 0}, {"elam": ("1-2", 1)}), "1-2", 0, 3)
    assert "Non-Combat Expansion" in _prompt(s)
    s = in_round(position({"1-2": 0}, {"elam": ("1-2", 1)}, epoch=2), "1-2", 0, 3, current=False)
    assert "Non-Combat Expansion" not in _prompt(s) and "previous-Epoch" in _prompt(s)


def test_possessive_of_a_plural_name_in_the_prompt():
    s = _battle("babylon", 2, rolls=[2, 5, 4], attacker="5-6", cards={"5-6": 0, "1-1": 1}, epoch=5)
    s, _ = act(s, "attack babylon")
    assert "5-6 Greeks' attacking Army" in _prompt(s)


def test_the_alt_text_carries_the_prompt_and_wonder_names():
    s = _battle("babylon", 2, rolls=[3, 1, 3])
    s.wonders = {"great-pyramid": "memphis"}
    s, _ = act(s, "attack babylon")
    alt = renderers.render("cradle", GAME.view(s, None)).alt
    assert "Now: Battle for Babylon: 1-4 Akkadian Empire lost its attacking Army" in alt
    assert "Wonders: Great Pyramid in Memphis" in alt
