"""5.1 Army Pool, 5.2 Civilization Bonus and areas, 5.3 Start Area, 5.4 Growth, 5.6 Non-Combat Expansion."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.cradle import GAME
from engine.cradle.rounds import start_round
from engine.cradle.state import State

from .helpers import Scripted, act, in_round, position, text


def _start(state: State, civ: str) -> list[str]:
    events: list[str] = []
    start_round(state, civ, events)
    return events


# ---- 5.1 -----------------------------------------------------------------------


def test_5_1_previous_epoch_pool_seven_areas_give_two():
    """ "Blue player has Armies in 7 Areas; round down to 6; 6/3=2; add 2 Armies to the pool.\""""
    areas = ["mari", "assur", "babylon", "eshnunna", "nineveh", "hanigalbat", "carchemish"]
    s = position({"1-6": 0, "2-1": 0}, {a: ("1-6", 1) for a in areas}, epoch=2)
    events = _start(s, "1-6")
    assert s.rnd.pool == 2 and not s.rnd.current and s.rnd.bonus == 0
    assert "7 Areas: 2 Armies" in text(events)


@pytest.mark.parametrize("n", [1, 2])
def test_5_1_one_or_two_areas_no_growth(n):
    areas = ["mari", "assur"][:n]
    s = position({"1-6": 0}, {a: ("1-6", 1) for a in areas}, epoch=2)
    events = _start(s, "1-6")
    assert s.rnd is None
    assert events == [f"1-6 Amorites (ann) occupies {n} Area{'s' if n == 2 else ''}: no growth this round (5.1)."]


def test_5_1_no_armies_the_civilization_vanishes():
    s = position({"1-6": 0}, {}, epoch=2)
    events = _start(s, "1-6")
    assert s.rnd is None and "1-6" in s.gone and "vanished" in text(events)


def test_5_1_pool_limited_by_the_counter_mix():
    # 15 of ann's 16 Epoch I counters are on the map in 12 Areas: 12//3 = 4 wanted, 1 counter left
    areas = [
        "mari",
        "assur",
        "babylon",
        "eshnunna",
        "nineveh",
        "hanigalbat",
        "carchemish",
        "yamhad",
        "ur",
        "uruk",
        "sumer",
        "malgium",
    ]
    board = {a: ("1-6", 1) for a in areas}
    board["mari"] = ("1-6", 3)
    board["assur"] = ("1-6", 2)
    s = position({"1-6": 0}, board, epoch=2)
    events = _start(s, "1-6")
    assert s.rnd.pool == 1 and "counter mix" in text(events)


def test_5_1_current_pool_is_the_card_armies_plus_bonus():
    s = position({"1-4": 0}, rolls=[3, 4])  # 7: no bonus
    _start(s, "1-4")
    assert s.rnd.pool == 12 - 1  # the first Army already stands in Malgium
    assert s.civ_at["malgium"] == "1-4"


# ---- 5.2 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "roll,check",
    [
        ((1, 1), lambda r: r.pool == 5 + 3 - 1),
        ((1, 2), lambda r: r.military),
        ((2, 2), lambda r: r.seafaring),
        ((3, 3), lambda r: r.guides),
        ((4, 5), lambda r: r.wonder_min == 3),
        ((5, 5), lambda r: r.culture_min == 4),
        ((6, 6), lambda r: r.pool == 5 + 3 - 1 and r.military),
    ],
)
def test_5_2_civilization_bonus_chart(roll, check):
    s = position({"1-2": 0}, rolls=list(roll))
    events = _start(s, "1-2")
    assert check(s.rnd)
    assert f"rolls {roll[0]} and {roll[1]} = {sum(roll)}" in text(events)


def test_5_2_bonus_lasts_one_round_and_only_current_epoch():
    s = position(
        {"1-2": 0, "2-2": 0}, {"elam": ("1-2", 1), "ur": ("1-2", 1), "anshan": ("1-2", 1)}, epoch=2, rolls=[6, 6]
    )
    _start(s, "1-2")
    assert s.rnd.bonus == 0 and not s.rnd.military and s.rnd.pool == 1
    assert s.rng.used == []  # no roll for a previous-Epoch Civilization


def test_5_2_own_previous_civilization_is_hostile():
    s = in_round(position({"1-2": 0, "4-2": 0}, {"elam": ("4-2", 1), "ur": ("1-2", 2)}, epoch=4), "4-2", 0, 3)
    assert "attack ur" in GAME.legal_actions(s, 0)
    assert "place ur" not in GAME.legal_actions(s, 0)


# ---- 5.3 -----------------------------------------------------------------------


def test_5_3_kush_enters_nubia_and_the_enemy_moves_out():
    s = position({"6-1": 0, "3-2": 1}, {"nubia": ("3-2", 2), "thebes": ("3-2", 1)}, epoch=6, rolls=[3, 4])
    s.order = [0, 1]
    _start(s, "6-1")
    # both Egyptian Armies must leave Nubia; its only neighbour, Thebes, is friendly with room
    assert s.civ_at["nubia"] == "6-1" and s.count["nubia"] == 1
    assert s.civ_at["thebes"] == "3-2" and s.count["thebes"] == 3


def test_5_3_displaced_army_chooses_vacant_or_friendly_area():
    s = position(
        {"1-4": 0, "1-1": 1}, {"malgium": ("1-1", 1), "babylon": ("1-1", 3), "eshnunna": ("1-2", 1)}, rolls=[3, 4]
    )
    s.cards["1-2"] = 2
    _start(s, "1-4")
    assert s.rnd.step == "displace" and GAME.to_act(s) == [1]
    # Babylon is full (3 on Plains), Eshnunna hostile: Sumer, Elam, South Zagros are vacant
    assert GAME.legal_actions(s, 1) == ["move elam", "move south-zagros", "move sumer"]
    s, events = act(s, "move sumer", seat=1)
    assert s.civ_at["sumer"] == "1-1" and s.civ_at["malgium"] == "1-4"
    assert "enters the map at Malgium" in text(events)


def test_5_3_displaced_army_with_nowhere_to_go_is_removed():
    # Nubia borders only Thebes, held by a third Civilization
    s = position({"6-1": 0, "3-2": 1, "5-2": 2}, {"nubia": ("3-2", 1), "thebes": ("5-2", 3)}, epoch=6, rolls=[3, 4])
    events = _start(s, "6-1")
    assert s.civ_at["nubia"] == "6-1"
    assert "nowhere to go" in text(events)


@pytest.mark.parametrize("roll,survives", [(1, False), (2, False), (3, True), (6, True)])
def test_terrain_displaced_army_entering_an_empty_desert_rolls(roll, survives):
    """Terrain Chart: "If desert is unoccupied, the army entering the space is removed on a roll of 1-2."
    Libyan Egypt enters Zoan; the Old Kingdom Army there can only go to the empty Sinai Desert
    (Memphis is held by a third Civilization)."""
    s = position(
        {"5-2": 0, "1-3": 1, "2-2": 2}, {"zoan": ("1-3", 1), "memphis": ("2-2", 1)}, epoch=5, rolls=[3, 4, roll]
    )
    events = _start(s, "5-2")
    assert s.rng.used == [3, 4, roll] and s.civ_at["zoan"] == "5-2"
    assert f"moving out of Zoan enters the empty Desert of Sinai: rolls {roll}" in text(events)
    assert (s.civ_at.get("sinai") == "1-3") is survives


def test_5_3_several_displaced_armies_move_together():
    """One choice moves as many Armies as the Area holds (`move 2 <area>`)."""
    s = position(
        {"1-4": 0, "1-1": 1},
        {"malgium": ("1-1", 3), "babylon": ("1-1", 2), "eshnunna": ("1-2", 1), "elam": ("1-2", 1), "sumer": ("1-2", 1)},
        rolls=[3, 4],
    )
    s.cards["1-2"] = 2
    _start(s, "1-4")
    # Babylon (friendly) has room for 1, South Zagros (vacant Mountain) for 1
    assert GAME.legal_actions(s, 1) == ["move babylon", "move south-zagros"]
    s = position(
        {"1-4": 0, "1-1": 1},
        {"malgium": ("1-1", 3), "eshnunna": ("1-2", 1), "elam": ("1-2", 1), "sumer": ("1-2", 1)},
        rolls=[3, 4],
    )
    s.cards["1-2"] = 2
    _start(s, "1-4")
    assert GAME.legal_actions(s, 1) == ["move babylon", "move 2 babylon", "move 3 babylon", "move south-zagros"]
    s, events = act(s, "move 3 babylon", seat=1)
    assert s.count["babylon"] == 3 and s.civ_at["malgium"] == "1-4"
    assert "3 Armies of 1-1 Sumer move from Malgium to Babylon." in events


# ---- 5.4 -----------------------------------------------------------------------


def test_5_4_sumerians_can_place_in_uruk_ur_sumer():
    s = position({"1-1": 0}, rolls=[3, 4])
    _start(s, "1-1")
    legal = GAME.legal_actions(s, 0)
    assert {"place sumer", "place uruk", "place ur"} <= set(legal)
    assert "place thrace" not in legal and "done" not in legal


@pytest.mark.parametrize("area,limit", [("babylon", 3), ("nubia", 2), ("south-zagros", 1), ("arabia", 1)])
def test_5_4_stacking_by_terrain(area, limit):
    s = in_round(position({"1-2": 0}, {area: ("1-2", limit - 1)} if limit > 1 else {area: ("1-2", 1)}), "1-2", 0, 5)
    if limit > 1:
        s, _ = act(s, f"place {area}")
        assert s.count[area] == limit
    assert f"place {area}" not in GAME.legal_actions(s, 0)


def test_5_4_one_army_at_a_time_until_the_pool_is_empty():
    s = in_round(position({"1-2": 0, "1-1": 1}, {"elam": ("1-2", 1)}), "1-2", 0, 2)
    s, _ = act(s, "place ur")
    assert s.rnd.pool == 1 and s.count["ur"] == 1
    with pytest.raises(IllegalAction, match="not legal"):
        GAME.apply(s, 0, "place thrace")


def test_5_4_hostile_placement_starts_combat():
    s = in_round(position({"1-2": 0, "1-1": 1}, {"elam": ("1-2", 1), "ur": ("1-1", 1)}, rolls=[6, 2, 1]), "1-2", 0, 2)
    s, events = act(s, "attack ur")
    assert "Battle for Ur" in text(events) and s.civ_at["ur"] == "1-2"


# ---- 5.6 -----------------------------------------------------------------------


def test_5_6_colonization_needs_seafaring_and_a_colonization_sea():
    s = in_round(position({"2-1": 0}, {"crete": ("2-1", 1)}, epoch=2, rolls=[4]), "2-1", 0, 2, seafaring=True)
    assert "colonize" in GAME.legal_actions(s, 0)
    s2, events = act(s, "colonize")
    assert s2.vp[0] == 3 and "rolls 4, success" in text(events) and s2.rnd.pool == 1
    s.rng = Scripted([3])
    s3, events = act(s, "colonize")
    assert s3.vp[0] == 0 and "fails" in text(events)
    inland = in_round(position({"2-6": 0}, {"north-zagros": ("2-6", 1)}, epoch=2), "2-6", 0, 2, seafaring=True)
    assert "colonize" not in GAME.legal_actions(inland, 0)
    plain = in_round(position({"2-3": 0}, {"babylon": ("2-3", 1)}, epoch=2), "2-3", 0, 2)
    assert "colonize" not in GAME.legal_actions(plain, 0)


def test_5_6_wonder_once_per_epoch_in_a_friendly_city():
    s = in_round(
        position({"1-1": 0}, {"sumer": ("1-1", 1), "uruk": ("1-1", 1)}, cities={"sumer": ["lagash"]}, rolls=[3]),
        "1-1",
        0,
        3,
    )
    assert [a for a in GAME.legal_actions(s, 0) if a.startswith("wonder")] == ["wonder sumer"]
    s, events = act(s, "wonder sumer")
    assert "fails" in text(events) and s.vp[0] == 0
    assert "wonder sumer" not in GAME.legal_actions(s, 0)  # once per Epoch


def test_5_6_wonder_success_scores_two_and_places_a_marker():
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}, cities={"sumer": ["lagash"]}, rolls=[4]), "1-1", 0, 3)
    s, events = act(s, "wonder sumer")
    assert s.vp[0] == 2 and s.wonders == {"statue-of-zeus": "sumer"}
    assert "builds the Statue of Zeus" in text(events)


def test_5_6_only_seven_wonders_and_destroyed_ones_are_not_rebuilt():
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}, cities={"sumer": ["lagash"]}), "1-1", 0, 3)
    s.wonders = {
        w: "memphis"
        for w in [
            "statue-of-zeus",
            "great-pyramid",
            "tomb-of-mausolis",
            "temple-of-artemis",
            "hanging-gardens",
            "colossus-of-rhodes",
        ]
    }
    s.lost_wonders = ["lighthouse-of-alexandria"]
    assert not any(a.startswith("wonder") for a in GAME.legal_actions(s, 0))


def test_5_6_cultural_achievement_on_5_6_once_per_epoch():
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}, rolls=[5]), "1-1", 0, 3)
    s2, events = act(s, "culture")
    assert s2.vp[0] == 4 and "culture" not in GAME.legal_actions(s2, 0)
    s.rng = Scripted([4])
    s3, _ = act(s, "culture")
    assert s3.vp[0] == 0 and s3.rnd.pool == 2 and "culture" not in GAME.legal_actions(s3, 0)


def test_5_6_previous_epoch_civilizations_have_no_non_combat_expansion():
    s = in_round(
        position({"1-1": 0, "2-1": 0}, {"sumer": ("1-1", 1)}, epoch=2, cities={"sumer": ["lagash"]}),
        "1-1",
        0,
        2,
        current=False,
    )
    legal = GAME.legal_actions(s, 0)
    assert "culture" not in legal and not any(a.startswith("wonder") for a in legal)


def test_5_4_growth_continues_until_the_army_pool_is_empty():
    """5.4 "This continues until the Army Pool is empty"; 5.7 ends the round only then: no `done`
    while an Army can be placed, and the refusal says why (RULES-NOTES 5.4)."""
    s = in_round(position({"1-1": 0, "1-2": 1}, {"sumer": ("1-1", 1)}), "1-1", 0, 2)
    s.order = [0]
    assert "done" not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match=r"until the Army Pool is empty \(5.4, 5.7\)"):
        GAME.apply(s, 0, "done")
    s, events = act(s, "place sumer")
    assert s.rnd.civ == "1-1" and s.rnd.pool == 1 and "round ends" not in text(events)
    s, events = act(s, "place sumer")
    assert "1-1 Sumer's round ends (1 Area)." in events


def test_5_4_done_only_when_no_army_can_be_placed():
    """Hemmed in (Does Not Expand in Epoch VI, its Areas full), the rest may still go to
    Non-Combat Expansion or back unused; with nothing at all to do the round ends at once."""
    s = in_round(position({"5-4": 0, "6-1": 1}, {"nineveh": ("5-4", 3)}, epoch=6), "5-4", 0, 2)
    s.order = [0]
    s.rnd.current = True  # a current Civilization that cannot place: culture or `done`
    assert GAME.legal_actions(s, 0) == ["culture", "done"]
    s2, events = act(s, "done")
    assert "5-4 Neo Assyria cannot place another Army and stops; 2 Armies return unused (5.4)." in events
    s.rnd.current = False
    from engine.cradle.flow import advance

    events = []
    advance(s, events)
    assert "5-4 Neo Assyria has nowhere to grow; 2 Armies return unused (5.4)." in events


def test_5_4_golden_count_sumer_first_step():
    """Sumer in Sumer (Lagash), 8 Armies left: 17 places (up to 3 at once on Plains, 2 more in Sumer),
    a Wonder, culture (no `done`: RULES-NOTES 5.4)."""
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}, cities={"sumer": ["lagash"]}), "1-1", 0, 8)
    assert GAME.legal_actions(s, 0) == [
        "place babylon",
        "place 2 babylon",
        "place 3 babylon",
        "place elam",
        "place 2 elam",
        "place 3 elam",
        "place malgium",
        "place 2 malgium",
        "place 3 malgium",
        "place sumer",
        "place 2 sumer",
        "place ur",
        "place 2 ur",
        "place 3 ur",
        "place uruk",
        "place 2 uruk",
        "place 3 uruk",
        "wonder sumer",
        "culture",
    ]
    assert GAME.legal_actions(s, 1) == []


def test_5_4_several_armies_into_one_area_in_one_choice():
    """`place 3 uruk` places three Armies one at a time with nothing rolled between them: the same as three
    `place uruk` (RULES-NOTES 5.4); limited by stacking and the pool; a Desert takes one, with its roll."""
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}), "1-1", 0, 2)
    legal = GAME.legal_actions(s, 0)
    assert "place 2 uruk" in legal and "place 3 uruk" not in legal  # 2 left in the pool
    s2, events = act(s, "place 2 uruk")
    assert s2.count["uruk"] == 2 and (s2.rnd is None or s2.rnd.civ != "1-1")
    assert "1-1 Sumer places 2 Armies in Uruk (2 there)." in events
    one_by_one, _ = act(act(s, "place uruk")[0], "place uruk")
    assert one_by_one.civ_at == s2.civ_at and one_by_one.count == s2.count
    babylon = in_round(position({"1-4": 0}, {"babylon": ("1-4", 1)}), "1-4", 0, 5)
    assert "place 2 arabia" not in GAME.legal_actions(babylon, 0)


def test_5_1_current_pool_is_the_card_plus_the_bonus_beyond_the_counter_mix():
    """Persia's 16 Armies + 3 bonus: the counter mix (16) limits Previous Epoch pools only (RULES-NOTES 5.1)."""
    s = position({"6-6": 0}, epoch=6, rolls=[1, 1])
    events = _start(s, "6-6")
    assert s.rnd.pool == 16 + 3 - 1  # the first Army stands in Anshan
    assert "Army Pool of 19 (16 + 3 bonus)." in text(events)


def test_5_2_raiders_are_hostile_to_everyone():
    s = in_round(position({"1-1": 1, "2-3": 1}, {"babylon": ("2-3", 1), "mari": ("r1", 1)}, epoch=2), "2-3", 1, 3)
    assert "attack mari" in GAME.legal_actions(s, 1)  # even the raiders' own player attacks them


def test_5_7_round_end_line_reads_as_english():
    s = in_round(position({"1-6": 0, "1-1": 1}, {"mari": ("1-6", 1)}), "1-6", 0, 1)
    s.order = [0]
    _, events = act(s, "place mari")
    assert "1-6 Amorites' round ends (1 Area)." in events
