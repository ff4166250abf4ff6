"""12.0 Sample Game Turn, replayed action by action with the rulebook's own numbers."""

from __future__ import annotations

import pytest

from .helpers import GAME, act, actor, legal, new, restart

SANDRA, LISA, THOMAS, PETER = range(4)


def sample_start():
    """3.0 for Sandra (white), Lisa (green), Thomas (red), Peter (blue); Sandra starts, clockwise."""
    s = new(4, seed=12, names=["Sandra", "Lisa", "Thomas", "Peter"], colours=["white", "green", "red", "blue"])
    # The tiles the sample shows face up in the first game turn (5.0).
    s.offer_progress = [
        "mining",
        "iron-weapons",
        "haven",
        "iron-axe",
        "agriculture",
        "agriculture",
        "writing",
        "irrigation",
    ]
    s.offer_territory = [
        "plains",
        "mountain",
        "mountain",
        "mountain",
        "mountain",
        "forest",
        "forest",
        "island",
        "island",
        "forest",
    ]
    s.offer_city = ["athens", "rome", "carthage", "memphis", "tyre"]
    return restart(s, [SANDRA, LISA, THOMAS, PETER])


def play_actions():
    s = sample_start()
    # First action
    s = act(s, "take progress mining", "take city athens", "take progress iron-weapons", "take territory plains")
    # Second action
    s = act(
        s,
        "take territory mountain",
        "take empire 2 water 1-1",
        "place 2 mediterranean",
        "place 2 se-europe",
        "done",
        "take progress haven",
        "take territory forest",
    )
    # Third action
    s = act(
        s,
        "take territory mountain",
        "take territory mountain",
        "take empire 2 water 1-1",
        "place 2 mediterranean",
        "place 2 sw-europe",
        # Thomas fights, "Finally, he flips over his Iron Weapons tile" (6.1: after the action); Haven,
        # taken in his second action, is usable too, and left for later.
        "battle mediterranean green",
        "use iron-weapons",
        "remove mediterranean green",
        "done",
        "take progress iron-axe",
    )
    # Fourth action
    s = act(
        s, "take territory mountain", "take progress agriculture", "use haven", "trade 3 for 2 vp", "take city rome"
    )
    # Fifth action
    s = act(
        s,
        "trade 2 for 4 gold",
        "take territory island",
        "take territory forest",
        "take empire 3 1-1",
        "place 2 anatolia",
        "place 2 near-east",
        "place 1 sw-asia",
    )
    # Sixth action
    s = act(
        s,
        "take empire 2 0-1",
        "place 3 sw-europe",
        "place 2 nw-africa",
        "battle sw-europe red",
        "take empire 2 0-2",
        "place 1 anatolia",
        "done",
        "take progress agriculture",
    )
    # Peter concludes the Actions segment; he keeps Rome and pays its food upkeep (6.3), then the
    # Food, Income and VP phases follow up to the turn order choice.
    s = act(s, "trade 2 for 3 gold")
    assert actor(s) == PETER and legal(s) == ["keep cities", "discard rome"]
    step = GAME.apply(s, PETER, "keep cities")
    return step.state, step.events


@pytest.fixture(scope="module")
def played():
    return play_actions()


@pytest.fixture(scope="module")
def after_actions(played):
    return played[0]


def test_12_0_action_display_after_six_actions(after_actions):
    s = after_actions
    assert s.phase == "turn order"
    # Thomas took the eighth territory tile: the 4-player row is full.
    assert s.rows["territory"].count(-1) == 0
    assert s.players[THOMAS].vp == 2 + 3 and s.players[SANDRA].gold == 9  # trade VP, then the VP phase


def test_12_0_map_after_the_battles(after_actions):
    cubes = after_actions.cubes
    assert cubes["mediterranean"] == [0, 0, 1, 0]  # Thomas alone; Lisa lost 1 in battle, 1 to Iron Weapons
    assert cubes["sw-europe"] == [3, 0, 1, 0]  # Sandra's 0-1 battle cost Thomas one cube
    assert cubes["se-europe"] == [0, 2, 0, 0]
    assert cubes["anatolia"] == [0, 1, 0, 2]
    assert cubes["near-east"] == [0, 0, 0, 2] and cubes["sw-asia"] == [0, 0, 0, 1]
    assert cubes["nw-africa"] == [2, 0, 0, 0]


def test_12_0_food_sandra_7_lisa_16_thomas_18_peter_13(after_actions):
    s = after_actions
    assert [p.food for p in s.players] == [7, 16, 18, 13]


def test_12_0_income_and_victory_points(after_actions):
    s = after_actions
    # Collect income: Sandra 9 + 2 cubes, 2 + 3 discs; Peter 5 cubes, 3 discs, 2 gold.
    assert s.players[SANDRA].pool == 11 and s.players[SANDRA].resources == 5
    assert s.players[THOMAS].pool == 1 + 2
    assert s.players[PETER].pool == 0 + 5 and s.players[PETER].resources == 3 and s.players[PETER].gold == 5 - 4 + 3 + 2
    assert [p.vp for p in s.players] == [4, 4, 5, 8]


def test_12_0_income_lisa_follows_6_2_4(after_actions):
    """The sample prints 3 cubes (Mountain 2); 6.2.4 gives a Mountain 3 cubes: 4 (RULES-NOTES)."""
    s = after_actions
    lisa = s.players[LISA]
    assert lisa.pool == 0 + 1 + 3
    assert lisa.gold == 5 - 2 + 2


def test_12_0_turn_order_choice(after_actions):
    s = after_actions
    assert s.phase == "turn order"
    # Sandra and Lisa tie on 4 VP; Lisa has fewer game tokens and picks first.
    assert actor(s) == LISA and legal(s) == [f"choose position {k}" for k in (1, 2, 3, 4)]
    s = act(s, "choose position 2")
    assert actor(s) == SANDRA
    s = act(s, "choose position 1")
    assert actor(s) == THOMAS
    s = act(s, "choose position 4")  # Peter has no choice: third
    assert s.turn == 2 and s.half == "B" and s.order == [SANDRA, LISA, PETER, THOMAS]
    # The game turn ends: empire tiles return, used tiles flip back, the trade track empties.
    assert len(s.empire_track) == 8 and s.trade_used == {} and s.players[THOMAS].used == ()
    # 5.0: the two progress tiles nobody took stay available beside 8 new ones.
    assert s.offer_progress[:2] == ["writing", "irrigation"] and len(s.offer_progress) == 10
    assert GAME.to_act(s) == [SANDRA]


def test_12_0_food_income_and_vp_lines_give_the_rulebook_parts(played):
    """7.0-9.0 as the sample tells them: each line names what earned or cost what."""
    events = played[1]
    assert "Food: Sandra (white) -9 (3× Mountain -9) -> 7." in events
    assert "Food: Thomas (red) +2 (Forest -2, Mediterranean +2, Agriculture +2) -> 18." in events
    assert "Food: Peter (blue) -3 (Plains +2, Forest -2, Rome -3) -> 13." in events
    assert (
        "Income: Sandra (white) takes 5 resource discs (SW Europe 2, Mining 3) "
        "and 11 cubes (3× Mountain 9, NW Africa 2)."
    ) in events
    assert (
        "Income: Peter (blue) takes 2 gold (SW Asia 2), 3 resource discs (Near East 2, Iron Axe 1) "
        "and 5 cubes (Plains 1, Forest 2, Anatolia 2)."
    ) in events
    assert "Victory points: Sandra (white) scores 4 VP (SW Europe control 2, NW Africa control 2) -> 4." in events
    assert "Victory points: Thomas (red) scores 3 VP (Mediterranean control 2, SW Europe second 1) -> 5." in events
