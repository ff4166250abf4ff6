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
    board = {"zoan": ("1-3", 2), "memphis": ("1-3", 1), "thebes": ("1-3", 1), "sinai": ("1-3", 1), "judea": ("1-2", 1)}
    s = position({"1-3": 0, "1-2": 1}, board, cities=cities)
    s.wonders = {"great-pyramid": "memphis"}
    assert score_seat(s, 0).describe() == (
        "4 Areas 2 VP (1 per 2 Areas); Cities 2 VP; 1 Wonder 2 VP; Regions: Egypt control 2 VP, Levant presence 1 VP"
    )


def test_7_2_parts_worth_nothing_are_left_out():
    s = position({"1-3": 0}, {"sinai": ("1-3", 1)})
    assert score_seat(s, 0).describe() == "1 Area 0 VP (1 per 2 Areas); Regions: Levant presence 1 VP"


def test_5_3_view_says_whose_armies_must_leave_the_start_area_and_why():
    s = position(
        {"1-4": 0, "1-1": 1}, {"malgium": ("1-1", 1), "babylon": ("1-1", 3), "eshnunna": ("1-2", 1)}, rolls=[3, 4]
    )
    s.cards["1-2"] = 2
    start_round(s, "1-4", [])
    assert _prompt(s) == (
        "1-4 Akkadian Empire arrives in its Start Area Malgium: bob moves 1 Army of 1-1 Sumer "
        "to adjacent vacant or friendly Areas (5.3)."
    )


def test_5_5_log_says_the_battle_may_go_on_after_losing_the_army():
    s = _battle("babylon", 2, rolls=[3, 1, 3])
    s, events = act(s, "attack babylon")
    assert events[-1].endswith(
        "1-1 Sumer loses an Army and 1-4 Akkadian Empire loses the attacking Army; "
        "another Army may attack it again (5.5)."
    )
    assert _prompt(s).startswith("ann grows 1-4 Akkadian Empire: 2 Armies left in the Army Pool")


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
    assert "Now: ann grows 1-4 Akkadian Empire" in alt
    assert "Wonders: Great Pyramid in Memphis" in alt


# ---- refusals name the rule in the way ------------------------------------------


def _refusal(state, action) -> str:
    from engine import IllegalAction

    before = (dict(state.civ_at), dict(state.count), state.rnd.pool, state.rnd.step)
    try:
        GAME.apply(state, GAME.to_act(state)[0], action)
    except IllegalAction as err:
        assert (dict(state.civ_at), dict(state.count), state.rnd.pool, state.rnd.step) == before
        return str(err)
    raise AssertionError(f"{action!r} was accepted")


def _elam(pool=3, **flags):
    return in_round(position({"1-2": 0, "1-1": 1}, {"elam": ("1-2", 1), "sumer": ("1-1", 1)}), "1-2", 0, pool, **flags)


def test_5_4_refusals_for_place_and_attack_say_why():
    s = _elam()
    assert "Elam is already held by 1-2 Elam: `place elam`" in _refusal(s, "attack elam")
    assert "Malgium is empty: `place malgium`" in _refusal(s, "attack malgium")
    assert "Thrace is not next to an Area of 1-2 Elam (5.4)." in _refusal(s, "place thrace")
    assert "There is no Area 'atlantis'" in _refusal(s, "place atlantis")


def test_5_4_too_many_armies_for_one_area_says_how_many_fit():
    s = _elam(pool=2)
    assert (
        "3 Armies do not fit: Malgium takes 2 more (Plains holds 3, Terrain Chart; 2 Armies in the pool)."
        in _refusal(s, "place 3 malgium")
    )
    assert "There is no Area 'atlantis'" in _refusal(s, "place 2 atlantis")


def test_5_5_placing_into_a_hostile_area_is_an_attack():
    s = in_round(position({"1-2": 0, "1-1": 1}, {"ur": ("1-2", 1), "sumer": ("1-1", 1)}), "1-2", 0, 3)
    assert "Sumer is held by 1-1 Sumer: entering it is an `attack sumer`" in _refusal(s, "place sumer")


def test_terrain_chart_stacking_refusal_names_the_limit():
    s = in_round(position({"1-2": 0}, {"south-zagros": ("1-2", 1)}), "1-2", 0, 3)
    msg = _refusal(s, "place south-zagros")
    assert "South Zagros already holds 1 Army, the stacking limit for Mountain (Terrain Chart)." in msg


def test_5_6_non_combat_refusals_name_the_limit():
    s = _elam(tried_culture=True, tried_wonder=True)
    assert "already tried a Cultural Achievement this Epoch" in _refusal(s, "culture")
    assert "Colonization needs Seafaring" in _refusal(s, "colonize")
    s = _elam(seafaring=True)
    assert "Colonization needs an Area of 1-2 Elam on the Aegean" in _refusal(s, "colonize")
    s = in_round(position({"1-2": 0}, {"elam": ("1-2", 1)}, epoch=2), "1-2", 0, 3, current=False)
    assert "Only a Civilization of the current Epoch" in _refusal(s, "culture")


def test_5_5_during_a_battle_refusals_point_to_continue_or_commit():
    s = _battle("babylon", 2, rolls=[2, 5, 4])
    s, _ = act(s, "attack babylon")
    assert "goes on while the attacking Army stands: `continue` (5.5)" in _refusal(s, "done")
    s = _battle("babylon", 2, rolls=[3, 1, 3])
    s, _ = act(s, "attack babylon")
    assert "`attack` the Area again to place another Army into it, or grow elsewhere (5.5)" in _refusal(s, "commit")


def test_last_move_keeps_what_the_move_did_and_what_happens_now():
    """A move that ends a round runs on into the next (bonus roll, Start Area): the view keeps both ends."""
    from engine.cradle.game import last_lines

    events = [f"e{i}" for i in range(9)]
    assert last_lines(events) == ["e0", "e1", "… 5 more in the log …", "e7", "e8"]
    assert last_lines(events[:4]) == events[:4]


def test_the_alt_text_shows_the_tail_of_a_long_move():
    s = in_round(position({"1-2": 0}, {"elam": ("1-2", 1)}), "1-2", 0, 1)
    s.last = ["ann: done", "a", "b", "… 3 more in the log …", "y", "z"]
    alt = renderers.render("cradle", GAME.view(s, None)).alt
    assert "Last move: ann: done; a; b; … 3 more in the log …; y; z." in alt


def test_8_0_raid_line_says_who_lost_what_and_who_places_the_raider():
    from engine.cradle.epoch_end import advance_events, begin_events

    from .helpers import Scripted

    board = {a: ("1-1", 2) for a in ["sumer", "uruk", "ur", "babylon", "malgium", "eshnunna"]}
    s = position({"1-1": 0}, board, vp=[10, 3, 5, 7], rolls=[6, 1])
    begin_events(s, [])
    advance_events(s, [])
    assert _prompt(s) == (
        "Barbarian Raids strike 1-1 Sumer: bob, in last place, places a raiding Army in a border Area of it (8.0)."
    )
    s.rng = Scripted([2])
    s, events = act(s, "raid babylon", seat=1)
    assert events[0] == (
        "Barbarians raid Babylon: 1-1 Sumer loses 2 Armies; bob (last place) puts one upside-down Army there (8.0)."
    )


def _refused(state, seat, action) -> str:
    from engine import IllegalAction

    before = {k: v for k, v in vars(state.copy()).items() if k != "rng"}
    try:
        GAME.apply(state, seat, action)
    except IllegalAction as err:
        assert {k: v for k, v in vars(state).items() if k != "rng"} == before  # nothing changed
        return str(err)
    raise AssertionError(f"{action!r} was accepted")


def test_3_0_refusals_in_the_allocation_say_why():
    from .test_setup_allocation import _allocation

    s, _ = _allocation([10, 4, 7, 2], [0, 0, 0, 0])  # draw order dee, bob, cyd, ann
    s, _ = act(s, "pass bob", seat=3)
    assert GAME.to_act(s) == [1] and "keep" not in GAME.legal_actions(s, 1)
    assert (
        "bob already received a passed card this Epoch, and a drawer who already holds a card must pass "
        "the drawn one to a player without one (3.0)."
    ) in _refused(s, 1, "keep")
    assert "There is no player `zed` at this table." in _refused(s, 1, "pass zed")
    assert "bob already received a passed card" in _refused(s, 1, "pass bob")
    s, _ = act(s, "pass ann", seat=1)
    assert GAME.to_act(s) == [2]
    assert (
        "ann has already received a card this Epoch; a card is passed only to a player without one (3.0)."
        in _refused(s, 2, "pass ann")
    )
    fresh, _ = _allocation([10, 4, 7, 2], [0, 0, 0, 0])
    assert "To keep the drawn card say `keep`" in _refused(fresh, 3, "pass dee")


def test_8_0_event_refusals_name_the_areas_it_may_strike():
    from engine.cradle.epoch_end import advance_events, begin_events

    board = {a: ("1-1", 2) for a in ["sumer", "uruk", "ur", "babylon", "malgium", "eshnunna"]}
    board["elam"] = ("1-2", 1)
    s = position({"1-1": 0, "1-2": 2}, board, vp=[10, 3, 5, 7], rolls=[6, 1])
    begin_events(s, [])
    advance_events(s, [])
    assert GAME.to_act(s) == [1]
    assert "Barbarian Raids strike 1-1 Sumer only; Elam is not an Area of it (8.0)." in _refused(s, 1, "raid elam")
    assert "Now Barbarian Raids strike 1-1 Sumer: `raid <area>` (8.0)." in _refused(s, 1, "revolt sumer")


def test_5_3_refusal_while_armies_are_displaced_says_what_must_happen_first():
    s = position(
        {"1-4": 0, "1-1": 1}, {"malgium": ("1-1", 1), "babylon": ("1-1", 3), "eshnunna": ("1-2", 1)}, rolls=[3, 4]
    )
    s.cards["1-2"] = 2
    start_round(s, "1-4", [])
    assert (
        "1 Army of 1-1 Sumer must first leave Malgium for adjacent vacant or friendly Areas, within stacking (5.3)."
    ) in _refused(s, 1, "move babylon")


def test_counts_agree_with_their_nouns_and_verbs():
    """ "1 Epoch I card leaves", "1 Army returns": one of a thing is singular in every line."""
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 4, {"non_player": True})  # 5 of the 6 Epoch I cards dealt
    assert "1 Epoch I card leaves the game unseen." in s.last
    from engine.cradle.board import unused

    assert unused(1) == "1 Army returns unused" and unused(2) == "2 Armies return unused"


def test_public_texts_never_say_your():
    """The public view is read by everyone: its prompt and log name players, never "your"."""
    import random
    import re

    rng = random.Random(5)
    s = GAME.setup(["ann", "bob", "cyd", "dee", "eve"], 5, {"non_player": True})
    while not GAME.is_over(s):
        public = GAME.view(s, None)
        assert not re.search(r"\byour?\b", " ".join([public["prompt"], *public["last_move"]]), re.I)
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state


def test_5_4_view_says_growth_must_attack_when_only_hostile_areas_are_left():
    """Issue 22: with no friendly room and no neutral Area in reach, each Army placed fights (5.4, 5.5)."""
    board = {"nubia": ("6-1", 2), "thebes": ("5-2", 2)}  # Nubia (Rough) holds 2 and borders only Thebes
    s = in_round(position({"6-1": 0, "5-2": 1}, board, epoch=6), "6-1", 0, 4)
    assert _prompt(s) == (
        "ann grows 6-1 Kush: only hostile Areas are left to grow into, so each Army placed must attack "
        "(4 Armies left in the Army Pool) (5.4, 5.5)."
    )
