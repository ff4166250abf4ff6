"""5.5 Combat, the Terrain Chart's combat modifiers, 6.1 Military and 6.3 Persia's doubles.

Dice are scripted: the attacker's two dice, then the defender's one (two on a Mountain).
"""

from __future__ import annotations

from engine.cradle import GAME

from .helpers import act, in_round, position, text


def _battle(
    area, defenders=1, rolls=(), attacker="1-4", pool=3, military=False, guides=False, epoch=1, cards=None, board=None
):
    cards = cards or {"1-4": 0, "1-1": 1}
    defender = [c for c in cards if cards[c] == 1][0]
    home = next(iter(sorted(_neighbours(area) - {area})))
    b = {home: (attacker, 1), area: (defender, defenders)}
    b.update(board or {})
    s = position(cards, b, epoch=epoch, rolls=list(rolls))
    return in_round(s, attacker, 0, pool, military=military, guides=guides)


def _neighbours(area):
    from engine.cradle.data import components

    return set(components().adjacent[area])


def test_5_5_attacker_keeps_higher_die_defender_rolls_one():
    s = _battle("babylon", 2, rolls=[2, 5, 4])
    s, events = act(s, "attack babylon")
    assert "rolls 2 and 5 (keeps 5)" in events[-1] and "rolls 4:" in events[-1]
    assert s.count["babylon"] == 1 and s.civ_at["babylon"] == "1-1"
    assert GAME.legal_actions(s, 0) == ["continue"]  # the attacking Army lives: the battle goes on


def test_5_5_lower_result_loses_ties_cost_both():
    s = _battle("babylon", 2, rolls=[3, 1, 3])
    s, events = act(s, "attack babylon")
    assert "loses an Army and" in events[-1]
    assert s.count["babylon"] == 1 and s.rnd.step == "grow"
    assert "another Army may attack it again (5.5)" in events[-1]


def test_5_5_combat_continues_until_the_area_is_friendly():
    s = _battle("babylon", 2, rolls=[6, 1, 2, 5, 5, 1])
    s, _ = act(s, "attack babylon")
    s, events = act(s, "continue")
    assert s.civ_at["babylon"] == "1-4" and s.count["babylon"] == 1
    assert "takes Babylon" in text(events) and s.rnd.step == "grow"


def test_5_5_after_losing_the_army_attack_again_or_grow_elsewhere():
    """5.5: "If the Attacker loses and still wishes to continue the battle, another Army must be placed
    into the Area": the next growth step, `attack babylon` again or growth elsewhere (RULES-NOTES 5.5)."""
    s = _battle("babylon", 1, rolls=[1, 2, 6, 6, 5, 3], pool=3)
    s, _ = act(s, "attack babylon")
    assert s.rnd.pool == 2 and s.rnd.step == "grow"
    legal = GAME.legal_actions(s, 0)
    assert "attack babylon" in legal and "commit" not in legal and "withdraw" not in legal
    s2, events = act(s, "attack babylon")
    assert s2.rnd.pool == 1 and s2.civ_at["babylon"] == "1-4"
    s3, events = act(s, "place mari")  # a neutral Area next to the attacker's Arabia
    assert s3.civ_at["babylon"] == "1-1" and s3.civ_at["mari"] == "1-4" and s3.rnd.pool == 1


def test_5_5_last_army_lost_ends_the_battle():
    s = _battle("babylon", 1, rolls=[1, 2, 6], pool=1)
    s, events = act(s, "attack babylon")
    assert "no Armies left" in text(events) and s.civ_at["babylon"] == "1-1"


def test_terrain_plains_no_modifier_tie_costs_both():
    s = _battle("babylon", 1, rolls=[4, 2, 4])
    s, events = act(s, "attack babylon")
    assert "babylon" not in s.civ_at and "left empty" in text(events)


def test_terrain_rough_defender_wins_ties():
    s = _battle("nubia", 1, rolls=[4, 2, 4], cards={"2-2": 0, "1-3": 1}, attacker="2-2", epoch=2)
    s, events = act(s, "attack nubia")
    assert s.count["nubia"] == 1 and "Rough: the defender wins ties" in events[-1]
    assert "2-2 Middle Kingdom of Egypt loses the attacking Army" in events[-1]
    assert "1-3 Old Kingdom of Egypt loses" not in events[-1]


def test_terrain_mountain_defender_rolls_two_dice():
    s = _battle("south-zagros", 1, rolls=[5, 1, 2, 6], cards={"1-4": 0, "1-5": 1})
    s, events = act(s, "attack south-zagros")
    assert "rolls 2 and 6 (Mountain, keeps 6)" in events[-1]
    assert s.civ_at["south-zagros"] == "1-5" and "1-4 Akkadian Empire loses the attacking Army" in events[-1]


def test_terrain_desert_attacker_eliminated_on_1_to_3_but_can_still_win():
    s = _battle("arabia", 1, rolls=[3, 1, 2])
    s, events = act(s, "attack arabia")
    assert "Desert: a 1-3 eliminates the attacker" in text(events)
    assert "arabia" not in s.civ_at  # the defender lost too: the Desert is left empty
    s = _battle("arabia", 1, rolls=[4, 1, 2])
    s, _ = act(s, "attack arabia")
    assert s.civ_at["arabia"] == "1-4"


def test_terrain_empty_desert_removes_entering_army_on_1_2():
    s = in_round(position({"1-4": 0}, {"babylon": ("1-4", 1)}, rolls=[2]), "1-4", 0, 3)
    s, events = act(s, "place arabia")
    assert "arabia" not in s.civ_at and "rolls 2, the Army is lost" in text(events) and s.rnd.pool == 2
    s = in_round(position({"1-4": 0}, {"babylon": ("1-4", 1)}, rolls=[3]), "1-4", 0, 3)
    s, events = act(s, "place arabia")
    assert s.civ_at["arabia"] == "1-4"


def test_bonus_desert_guides_ignore_desert_rules():
    s = in_round(position({"1-4": 0}, {"babylon": ("1-4", 1)}, rolls=[]), "1-4", 0, 3, guides=True)
    s, events = act(s, "place arabia")
    assert s.civ_at["arabia"] == "1-4" and "Desert" not in text(events)


def test_6_1_military_cancels_rough_tie_rule():
    s = _battle("nubia", 1, rolls=[4, 2, 4], cards={"2-2": 0, "1-3": 1}, attacker="2-2", epoch=2, military=True)
    s, events = act(s, "attack nubia")
    assert "nubia" not in s.civ_at and "Military: no Rough tie rule" in text(events)


def test_6_1_military_cancels_mountain_second_die():
    s = _battle("south-zagros", 1, rolls=[5, 1, 2], cards={"1-4": 0, "1-5": 1}, military=True)
    s, events = act(s, "attack south-zagros")
    assert s.civ_at["south-zagros"] == "1-4" and "Military: the defender rolls one die" in text(events)


def test_6_1_military_does_not_cancel_the_desert_penalty():
    s = _battle("arabia", 1, rolls=[3, 1, 2], military=True)
    s, _ = act(s, "attack arabia")
    assert "arabia" not in s.civ_at


def test_6_1_military_trait_applies_while_current():
    s = position({"1-4": 0, "1-1": 1}, {"malgium": ("1-4", 1), "babylon": ("1-1", 1)}, rolls=[3, 4])
    from engine.cradle.rounds import start_round

    s.civ_at.pop("malgium")
    s.count.pop("malgium")
    start_round(s, "1-4", [])
    assert s.rnd.military  # Akkadian Empire: Military
    s2 = position({"1-4": 0, "2-1": 0}, {a: ("1-4", 1) for a in ["malgium", "babylon", "sumer"]}, epoch=2)
    start_round(s2, "1-4", [])
    assert not s2.rnd.military  # previous Epoch: traits lost


def _persia(rolls, pool=12):
    board = {
        "anshan": ("6-6", 1),
        "elam": ("1-2", 3),
        "media": ("1-2", 2),
        "kavir": ("1-2", 1),
        "south-zagros": ("1-2", 1),
    }
    s = position({"6-6": 0, "1-2": 1}, board, epoch=6, rolls=rolls)
    return in_round(s, "6-6", 0, pool, military=True)


def test_6_3_persia_doubles_counted_once_per_attacked_area():
    """The rulebook's example: doubles rolled twice in the Judean attacks count once."""
    board = {"damascus": ("6-6", 1), "judea": ("5-2", 2)}
    s = position(
        {"6-6": 0, "5-2": 1},
        board,
        epoch=6,
        rolls=[
            3,
            3,
            1,  # doubles; Judea loses one
            4,
            4,
            2,
        ],
    )  # doubles again; Judea taken
    s = in_round(s, "6-6", 0, 10, military=True)
    s, events = act(s, "attack judea")
    assert s.rnd.doubles == ["judea"] and "(1 of 4 Areas)" in text(events)
    s, events = act(s, "continue")
    assert s.rnd.doubles == ["judea"] and "of 4 Areas" not in text(events)
    assert s.civ_at["judea"] == "6-6" and s.rnd.pool == 9


def test_6_3_persia_ends_expansion_on_fourth_area_with_doubles():
    board = {
        "anshan": ("6-6", 1),
        "elam": ("1-2", 1),
        "media": ("1-2", 1),
        "kavir": ("1-2", 1),
        "south-zagros": ("1-2", 2),
    }
    s = position(
        {"6-6": 0, "1-2": 1},
        board,
        epoch=6,
        rolls=[
            4,
            4,
            1,  # Elam: doubles, taken
            5,
            5,
            1,  # Media: doubles, taken
            6,
            6,
            1,  # Kavir: doubles, taken
            3,
            3,
            1,
        ],
    )  # South Zagros: doubles in a 4th Area; one defender is left
    s = in_round(s, "6-6", 0, 10, military=True)
    s.order = [0]
    for area in ("elam", "media", "kavir"):
        s, _ = act(s, f"attack {area}")
        assert s.civ_at[area] == "6-6"
    assert s.rnd.doubles == ["elam", "media", "kavir"] and s.rnd.pool == 7
    s, events = act(s, "attack south-zagros")
    log = text(events)
    assert "Persia rolled doubles attacking South Zagros (4 of 4 Areas)" in log
    assert "attacking Persian Army in South Zagros is withdrawn" in log
    assert "Persia's expansion ends (rule 6.3): 6 Armies return unused" in log
    assert s.civ_at["south-zagros"] == "1-2" and s.count["south-zagros"] == 1
    assert "6-6 Persia's round ends" in log


def test_6_3_only_persia_counts_doubles():
    s = _battle("babylon", 2, rolls=[3, 3, 1])
    s, _ = act(s, "attack babylon")
    assert s.rnd.doubles == []


def test_terrain_desert_won_in_battle_needs_no_entry_roll():
    """The entry roll is for an unoccupied Desert (Terrain Chart); a Desert won in battle was occupied."""
    s = _battle("arabia", 1, rolls=[4, 1, 2])  # 4 beats 2, no penalty: the defender's last Army falls
    s, events = act(s, "attack arabia")
    assert s.civ_at["arabia"] == "1-4" and s.rng.used == [4, 1, 2]
    assert "empty Desert" not in text(events)
