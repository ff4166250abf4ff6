"""6.0 Player Actions, 6.1 progress, 6.2 territories, 6.3 cities and wonders, 6.5 trading."""

from __future__ import annotations

import pytest

from engine.rise_of_empires.phases import circles
from engine.rise_of_empires.scoring import food_change, income_of, vp_of
from engine.rise_of_empires.state import EMPTY

from .helpers import COMP, GAME, act, actor, legal, new, refuses, restart

W, R, B, G = range(4)


def a_turn(n=4, seed=1):
    return restart(new(n, seed), list(range(n)))


def b_turn(n=4, rows=None):
    s = new(n)
    s.turn = 2
    s.rows = {r: [EMPTY] * circles(COMP, n, r) for r in ("progress", "territory", "city", "empire", "trade")}
    for row, seats in (rows or {}).items():
        s.rows[row][: len(seats)] = seats
    return restart(s, list(range(n)))


def test_6_0_rows_have_circles_by_player_count():
    for n, c in ((2, 4), (3, 6), (4, 8), (5, 10)):
        s = new(n)
        assert len(s.rows["progress"]) == c and len(s.rows["trade"]) == c
        assert len(s.rows["empire"]) == min(c, 8)


def test_6_0_a_turn_discs_fill_a_row_from_the_right():
    s = a_turn()
    s = act(s, "take territory " + s.offer_territory[0])
    s = act(s, "take territory " + s.offer_territory[0])
    assert s.rows["territory"][:3] == [W, R, EMPTY]
    assert actor(s) == B


def test_6_0_a_full_row_cannot_be_chosen():
    s = a_turn(2)
    s.rows["territory"] = [R, R, R, R]
    s = restart(s, [W, R])
    assert not any(a.startswith("take territory") for a in legal(s))
    assert "not legal now" in refuses(s, "take territory " + s.offer_territory[0])


def test_6_0_only_an_action_that_can_be_performed():
    s = a_turn()
    s.players[W].resources = 0
    s.players[W].gold = 1
    s = restart(s, [W, R, B, G])
    options = legal(s)
    assert not any(a.startswith("trade") for a in options)  # no discs to trade
    assert [a for a in options if a.startswith("take city")] == ["take city memphis"]  # only the free city (0 gold)


def test_6_0_pass_only_when_nothing_is_possible():
    """Mayfair FAQ: a player who truly cannot perform any action places the disc without acting."""
    s = a_turn(2)
    s.offer_progress, s.offer_territory, s.offer_city, s.empire_track = [], [], [], []
    s.players[W].resources = 0
    s.rows["city"] = [R, R, R, R]
    s = restart(s, [W, R])
    assert legal(s) == ["pass progress", "pass territory", "pass empire", "pass trade"]
    s = act(s, "pass territory")
    assert s.players[W].actions == 1 and actor(s) == R
    assert s.rows["territory"][0] == W and all(c == EMPTY for c in s.rows["progress"])
    # The disc is on the display, so the B turn has its action (6.0: six actions a turn).
    assert s.players[W].vp == 0 and s.players[W].gold == 5


def test_6_0_b_turn_free_with_nothing_to_the_left():
    s = b_turn(rows={"progress": [W, R]})
    s = restart(s, [R, W, B, G])
    takes = [f"take progress {t}" for t in sorted(set(s.offer_progress))]
    assert legal(s) == takes + ["remove progress 2"]
    idle = act(s, "remove progress 2")  # 6.0: "remove an action disc but then do nothing"
    assert idle.rows["progress"][:2] == [W, EMPTY] and idle.players[R].progress == () and actor(idle) == W
    # The row's action with the disc, in one choice: nothing to its left, so nothing to pay.
    tile = takes[0].split(" ")[2]
    s = act(s, takes[0])
    assert s.players[R].progress == (tile,) and s.players[R].gold == 5 and s.rows["progress"][:2] == [W, EMPTY]
    assert actor(s) == W


def test_6_0_b_turn_pays_one_per_disc_to_the_left_in_one_choice():
    s = b_turn(rows={"empire": [B, R, EMPTY, G], "progress": [G]})
    s = restart(s, [B, W, R, G])
    s = act(s, "remove empire 1")
    # Two discs to the left (the empty circle is free); blue has no VP, so any mix of the other four,
    # the cheapest first (food the Food phase can spare), then each good alone.
    assert legal(s) == [
        "pay 2 food",
        "pay 2 gold",
        "pay 2 cubes",
        "pay 2 resources",
        "pay 1 gold 1 cube",
        "pay 1 gold 1 resource",
        "pay 1 gold 1 food",
        "pay 1 cube 1 resource",
        "pay 1 cube 1 food",
        "pay 1 resource 1 food",
    ]
    s = act(s, "pay 1 gold 1 food")
    p = s.players[B]
    # Doing nothing after removing still costs the full amount.
    assert (p.gold, p.food) == (4, 15)
    assert s.rows["empire"][:4] == [EMPTY, R, EMPTY, G] and actor(s) == R  # white has no disc


def test_6_0_printing_waives_the_position_cost():
    s = b_turn(rows={"city": [W, R, B]})
    s.players[W].progress = ["printing"]
    s = restart(s, [W, R, B, G])
    s = act(s, "take city athens")  # two discs to the left, nothing to pay
    assert s.players[W].cities == ("athens",) and s.players[W].gold == 5 - 2 and actor(s) == R


def test_6_0_b_turn_cost_capped_by_assets():
    s = b_turn(rows={"city": [W, R, B]})
    p = s.players[W]
    p.gold = p.pool = p.resources = p.vp = 0
    p.food = 1
    s = restart(s, [W, R, B, G])
    s = act(s, "remove city 1")
    assert legal(s) == ["pay 1 food"]  # two discs to the left, one food to pay with
    s = act(s, "pay 1 food")
    assert s.players[W].food == 0 and actor(s) == R


def test_6_1_previous_era_tiles_cost_gold():
    s = a_turn()
    s.turn = 5
    s.offer_progress = ["writing", "printing", "ideology"]
    s.players[W].gold = 2
    s = restart(s, [W, R, B, G])
    assert {"take progress writing", "take progress printing", "take progress ideology"} <= set(legal(s))
    s = act(s, "take progress writing")
    assert s.players[W].gold == 0
    s.turn = 3
    s.players[R].gold = 0
    assert "take progress writing" not in legal(s)


def test_6_1_no_duplicate_progress_tiles():
    s = a_turn()
    s.offer_progress = ["agriculture", "agriculture"]
    s.players[W].progress = ["agriculture"]
    s = restart(s, [W, R, B, G])
    assert "take progress agriculture" not in legal(s)


def test_6_1_free_action_waits_for_every_other_player_then_once_per_turn():
    s = a_turn()
    s.offer_progress = ["haven", "writing"]
    s = restart(s, [W, R, B, G])
    s = act(s, "take progress haven")
    for _ in range(3):
        assert not any(a.startswith("use") for a in GAME.legal_actions(s, actor(s)))
        s = act(s, "take territory " + s.offer_territory[0])
    assert actor(s) == W and "use haven" in legal(s)
    s = act(s, "use haven")
    assert (s.players[W].gold, s.players[W].resources) == (4, 3)
    assert "use haven" not in legal(s)  # face down until the next game turn


def test_6_1_weapons_remove_enemy_cubes_where_you_are():
    s = a_turn()
    s.players[W].progress = ["steel-weapons"]
    s.cubes["anatolia"] = [1, 3, 0, 0]
    s.cubes["se-europe"] = [0, 0, 2, 0]
    s = restart(s, [W, R, B, G])
    s = act(s, "use steel-weapons")
    assert legal(s) == ["remove anatolia red"]
    s = act(s, "remove anatolia red")
    assert s.cubes["anatolia"] == [1, 1, 0, 0] and s.players[R].stock == 27


@pytest.mark.parametrize(
    "section,tile,cubes,food",
    [
        ("6.2.1", "plains", 1, 2),
        ("6.2.2", "island", 1, 1),
        ("6.2.3", "forest", 2, -2),
        ("6.2.4", "mountain", 3, -3),
    ],
)
def test_6_2_1_to_6_2_4_each_territory_type(section, tile, cubes, food):
    s = new(2)
    s.players[W].territories = [tile]
    assert income_of(COMP, s, W)["cubes"] == cubes and food_change(COMP, s, W) == food, section


def test_6_2_territory_tiles():
    s = new(2)
    p = s.players[W]
    p.territories = ["plains", "island", "forest", "mountain"]
    assert income_of(COMP, s, W)["cubes"] == 1 + 1 + 2 + 3
    assert food_change(COMP, s, W) == 2 + 1 - 2 - 3
    p.territories = ["forest", "forest", "forest"]  # 6.2: duplicates allowed
    assert income_of(COMP, s, W)["cubes"] == 6


def test_6_2_5_town_tiles_give_a_vp_and_one_benefit():
    s = new(2)
    towns = [t for t in COMP.territories.values() if t.kind == "town"]
    for t in towns:
        s.players[W].territories = [t.id]
        inc = income_of(COMP, s, W)
        assert vp_of(COMP, s, W) == 1
        assert inc["gold"] + inc["resources"] + inc["cubes"] + food_change(COMP, s, W) == 1


def test_6_3_city_costs_gold_and_earns_vp():
    s = a_turn()
    s = act(s, "take city athens")
    assert s.players[W].gold == 3 and s.players[W].cities == ("athens",)
    assert vp_of(COMP, s, W) == 1 and "athens" not in s.offer_city


def test_6_3_wonder_costs_gold_discs_cubes_and_scores_at_once():
    s = b_turn(rows={"city": [W]})
    s.turn = 4
    s.offer_city = ["great-wall"]
    p = s.players[W]
    p.gold, p.resources, p.pool = 3, 3, 2
    s = restart(s, [W, R, B, G])
    s = act(s, "take city great-wall")
    assert (p.vp, p.gold, p.resources, p.pool) == (0, 3, 3, 2)  # the old object is untouched
    p = s.players[W]
    assert (p.vp, p.gold, p.resources, p.pool, p.stock) == (8, 0, 0, 0, 27)
    assert p.cities == () and s.offer_city == []


def test_6_3_city_upkeep_choice():
    """6.3: "If you cannot or do not want to pay the cost, you must discard": keep (pay) or discard, city by city."""
    s = b_turn()
    s.players[W].cities = ["rome", "carthage"]  # Rome: 3 food; Carthage: 2 food and 1 disc
    s.players[W].resources = 0
    s.players[W].food = 3  # 3 - 5 would go below zero
    s.rows = {r: [EMPTY] * 8 for r in s.rows}
    s = restart(s, [W, R, B, G])
    assert s.phase == "food" and legal(s) == ["keep cities", "discard carthage", "discard rome"]
    s = act(s, "discard rome")  # asked again while a city with food upkeep is left
    assert legal(s) == ["keep cities", "discard carthage"]
    s = act(s, "keep cities")
    assert s.players[W].food == 3 - 2
    # Income: no disc comes in, so Carthage's disc cannot be paid: it must go.
    assert s.phase == "income" and legal(s) == ["discard carthage"]
    s = act(s, "discard carthage")
    assert s.players[W].cities == []


def test_6_3_upkeep_is_asked_even_when_it_can_be_paid():
    """6.3: "cannot or do not want to pay": a player who can pay may still discard (issue 22); keeping
    and paying come first, the usual choice."""
    s = b_turn()
    s.players[W].cities = ["rome", "carthage"]
    s.players[W].food, s.players[W].resources = 5, 1
    s.rows = {r: [EMPTY] * 8 for r in s.rows}
    s = restart(s, [W, R, B, G])
    assert s.phase == "food" and legal(s) == ["keep cities", "discard carthage", "discard rome"]
    s = act(s, "keep cities")
    assert s.phase == "income" and legal(s) == ["pay upkeep", "discard carthage"]
    s = act(s, "pay upkeep")
    assert s.phase == "era end"  # turn 2 ends Era I
    p = s.players[W]
    assert p.cities == ["rome", "carthage"] and p.food == 0 and p.resources == 0


def test_6_5_trading_one_player_per_box_and_by_era():
    s = a_turn()
    options = [a for a in legal(s) if a.startswith("trade")]
    assert options == ["trade 1 for 2 gold", "trade 2 for 3 gold", "trade 2 for 4 gold"]  # Era I boxes for 2 discs
    s = act(s, "trade 2 for 4 gold")  # 6.5 example: Michael's 2-4 box
    assert s.players[W].gold == 9 and s.players[W].resources == 0
    s.players[R].resources = 7
    assert "trade 2 for 4 gold" not in legal(s) and "trade 3 for 2 vp" in legal(s)
    s.turn = 5
    s.trade_used = {}
    assert "trade 7 for 6 vp" in legal(s) and "trade 2 for 4 gold" not in legal(s)
    s = act(s, "trade 7 for 6 vp")  # 6.5 example: Dan in Era III
    assert s.players[R].vp == 6


def test_6_0_example_peter_pays_two_for_the_empire_disc():
    """6.0 example: Peter (red) in the B turn; green and white discs to the left of his empire disc cost him 2."""
    s = b_turn(rows={"empire": [R, G, W], "progress": [W, G]}, n=4)
    s = restart(s, [R, W, B, G])
    empire = sorted({a for a in legal(s) if a.startswith("take empire")})
    assert empire and legal(s) == empire + ["remove empire 1"]
    s = act(s, "take empire 2 0-1")
    assert s.stack.top.kind == "pay" and s.stack.top.data["cost"] == 2
    s = act(s, "pay 1 gold 1 resource")
    p = s.players[R]
    assert (p.gold, p.resources) == (4, 1) and s.stack.top.kind == "place" and p.empires


def test_6_1_example_dan_uses_weapons_with_his_agriculture_action():
    """6.1 example: Dan takes Agriculture and uses the Weapons tile he acquired earlier. Taking a tile has
    no further step, so the free action comes before it (RULES-NOTES 6.1): the same result."""
    s = a_turn()
    s.offer_progress = ["agriculture"]
    s.players[W].progress = ["iron-weapons"]
    s.cubes["anatolia"] = [1, 0, 0, 1]
    s = restart(s, [W, R, B, G])
    assert "take progress agriculture" in legal(s) and "use iron-weapons" in legal(s)
    s = act(s, "use iron-weapons", "remove anatolia green")
    assert actor(s) == W  # the free action is not the turn's action
    s = act(s, "take progress agriculture")
    p = s.players[W]
    assert s.cubes["anatolia"] == [1, 0, 0, 0] and p.used == ("iron-weapons",) and "agriculture" in p.progress
    assert actor(s) == R  # the turn ends with its action: no `done` after it


def test_6_1_free_actions_offered_alongside_the_steps_of_the_turn():
    """RULES-NOTES 6.1: Iron Weapons is offered beside placing, beside the battle and after the action."""
    s = a_turn()
    s.players[W].progress = ["iron-weapons"]
    s.cubes["anatolia"] = [1, 2, 0, 0]
    s.players[W].pool = 2
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 0-1")
    assert "use iron-weapons" in legal(s)  # alongside placing
    s = act(s, "place 2 anatolia")
    assert legal(s) == ["battle anatolia red", "done", "use iron-weapons"]
    s = act(s, "battle anatolia red")
    # 6.1 "before or after": the tile is still usable once the action is done
    assert legal(s) == ["done", "use iron-weapons"] and s.stack.top.kind == "after"
    s = act(s, "done")
    assert actor(s) == R and "iron-weapons" not in s.players[W].used


def test_6_0_b_turn_disc_removed_from_a_row_with_nothing_to_perform_does_nothing():
    """6.0: "you may remove an action disc but then do nothing" - with nothing performable, no question is asked."""
    s = b_turn(rows={"territory": [W], "progress": [R]})
    s.offer_territory = []
    s = restart(s, [W, R, B, G])
    s = act(s, "remove territory 1")
    assert actor(s) == R and s.rows["territory"][0] == EMPTY
    assert s.last == "p0 (white) removes a disc from the territory row without taking its action."


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_6_0_pass_at_every_player_count(n):
    """Mayfair FAQ (asked for 5 players), read for every count: no performable action -> place the disc, do nothing."""
    s = a_turn(n)
    s.offer_progress, s.offer_territory, s.offer_city, s.empire_track = [], [], [], []
    s.players[W].resources = 0
    s = restart(s, list(range(n)))
    assert legal(s) == [f"pass {row}" for row in ("progress", "territory", "city", "empire", "trade")]
    s = act(s, "pass city")
    assert s.rows["city"][0] == W and s.players[W].actions == 1 and actor(s) == R
    s.players[R].resources = 1  # red can trade: no pass for red
    assert "pass city" not in legal(restart(s, [R, *[i for i in range(n) if i != R]]))


def _rome_behind_one_disc(gold, pool, resources, food, vp):
    """B turn: white's city disc has red's to its left (cost 1); Rome (4 gold) is on offer."""
    s = b_turn(rows={"city": [W, R]})
    s.offer_city = ["rome"]
    p = s.players[W]
    p.gold, p.pool, p.resources, p.food, p.vp = gold, pool, resources, food, vp
    return restart(s, [W, R, B, G])


def test_6_0_b_turn_payment_leaves_what_the_chosen_action_needs():
    """The disc is paid for first (6.0), then the city (6.3): the payment may not spend Rome's 4 gold."""
    s = _rome_behind_one_disc(gold=4, pool=1, resources=0, food=1, vp=0)
    assert "take city rome" in legal(s)
    s = act(s, "take city rome")
    assert legal(s) == ["pay 1 food", "pay 1 cube"]
    s = act(s, "pay 1 food")
    assert s.players[W].cities == ("rome",) and s.players[W].gold == 0


def test_6_0_b_turn_action_refused_when_the_payment_would_leave_too_little():
    s = _rome_behind_one_disc(gold=4, pool=0, resources=0, food=0, vp=0)
    assert "take city rome" not in legal(s)
    assert "paying it would leave too little for `take city rome`" in refuses(s, "take city rome")
    assert "You have no disc in the progress row" in refuses(s, "take progress " + s.offer_progress[0])


def test_6_0_b_turn_a_particular_disc_then_its_action():
    """RULES-NOTES 6.0: the player chooses which disc; one other than the cheapest is removed, paid for,
    and then its row's action is chosen."""
    s = b_turn(rows={"city": [W, R, W]})
    s = restart(s, [W, R, B, G])
    assert {"remove city 1", "remove city 3"} <= set(legal(s))
    idle = act(s, "remove city 3")  # the cheapest: nothing to its left, no action
    assert actor(idle) == R and idle.rows["city"][:3] == [W, R, EMPTY]
    s = act(s, "remove city 1")  # red and white to its left: 2 to pay
    assert s.stack.top.kind == "pay" and s.stack.top.data["cost"] == 2
    s = act(s, "pay 2 food")
    assert s.stack.top.kind == "b-row" and "take city athens" in legal(s) and "done" in legal(s)
    s = act(s, "take city athens")
    assert s.players[W].cities == ("athens",) and s.rows["city"][:3] == [EMPTY, R, W]


# ---- issue 22: the choices the rulebook gives, offered again ----------------------------------------


def test_6_0_b_turn_any_split_pay_2_gold_2_vp_keeps_rome_affordable():
    """6.0 "one gold, one player cube, one resource disc, one food point, or one victory point for each
    disc": with 4 of every good and 4 owed, paying 2 gold and 2 VP keeps the 4 gold Rome costs (6.3);
    paying 4 gold does not."""
    s = b_turn(rows={"progress": [W, W, W, W, W], "city": [W]})
    s.offer_city = ["rome"]
    p = s.players[W]
    p.gold, p.pool, p.resources, p.food, p.vp = 6, 4, 4, 4, 4
    s = restart(s, [W, R, B, G])
    s = act(s, "remove progress 1")  # four of white's own discs to its left: 4 to pay
    assert s.stack.top.kind == "pay" and s.stack.top.data["cost"] == 4
    assert "pay 4 gold" in legal(s) and "pay 2 gold 2 vp" not in legal(s)  # 70 splits: in steps
    why = refuses(s, "pay 2 gold 2 vp")
    assert "70 ways to pay 4" in why and "`pay 2 gold first`, then `pay 2 vp`" in why
    kept = act(s, "pay 2 gold first")
    assert "pay 2 vp" in legal(kept) and "pay 1 gold 1 vp" not in legal(kept)  # gold is settled
    kept = act(kept, "pay 2 vp", "done")  # then nothing with the progress disc
    spent = act(s, "pay 4 gold", "done")
    assert (kept.players[W].gold, kept.players[W].vp) == (4, 2) and spent.players[W].gold == 2
    assert actor(kept) == W and "take city rome" in legal(kept)
    assert actor(spent) == W and "take city rome" not in legal(spent)
    assert act(kept, "take city rome").players[W].cities == ("rome",)


def test_6_1_haven_after_the_last_trade_keeps_the_city_upkeep_paid():
    """6.1 "before or after performing your regular action": White's last action of Era I B trades 2 discs
    for 4 gold (6.5); Haven, unusable before (no gold), turns a gold into the disc Carthage's upkeep
    needs (8.0). Without it Carthage must be discarded and its VP are lost."""
    s = b_turn(rows={"trade": [W]})
    p = s.players[W]
    p.progress, p.cities = ("haven",), ("carthage",)
    p.gold, p.resources, p.food = 0, 2, 10
    s = restart(s, [W, R, B, G])
    assert "use haven" not in legal(s)  # no gold to pay with before the trade
    s = act(s, "trade 2 for 4 gold")
    assert s.stack.top.kind == "after" and legal(s) == ["done", "use haven"]
    without = act(s, "done", "keep cities")
    assert legal(without) == ["discard carthage"]  # no disc for the upkeep
    without = act(without, "discard carthage")
    with_haven = act(s, "use haven", "keep cities")  # the after step ends by itself: nothing else to use
    assert legal(with_haven) == ["pay upkeep", "discard carthage"]
    with_haven = act(with_haven, "pay upkeep")
    assert without.phase == with_haven.phase == "era end"
    assert with_haven.players[W].cities == ("carthage",) and without.players[W].cities == ()
    assert with_haven.players[W].vp == without.players[W].vp + COMP.cities["carthage"].vp


def test_6_3_discard_rome_in_game_turn_5_before_the_doubled_food_of_turn_6():
    """6.3 "If you cannot or do not want to pay the cost, you must discard" with 7.0 "In the last game turn,
    double the amount of food": 6 food, a Mountain (-3) and Rome (-3). Keeping Rome in turn 5 (+2 VP)
    leaves the track at 0 for the doubled turn 6; discarding it then saves 3 food and ends 1 VP better."""
    s = new(4)
    s.turn = 5
    for q in s.players:
        q.actions = 6  # every action of the A turn taken, no disc left for turn 6
    s.rows = {r: [EMPTY] * 8 for r in s.rows}
    p = s.players[W]
    p.cities, p.territories, p.food, p.vp = ("rome",), ("mountain",), 6, 20
    s = restart(s, [W, R, B, G])
    assert s.phase == "food" and legal(s) == ["keep cities", "discard rome"]  # the track could pay

    def to_the_end(state, turn_6):
        while not GAME.is_over(state):
            options = legal(state)
            state = act(state, turn_6 if turn_6 in options else options[0])
        return state.players[W].vp

    discard_now = act(s, "discard rome")
    keep_now = act(s, "keep cities")
    assert keep_now.players[W].food == 0 and discard_now.players[W].food == 3
    best_keeping = max(to_the_end(keep_now, "keep cities"), to_the_end(keep_now, "discard rome"))
    assert to_the_end(discard_now, "keep cities") == best_keeping + 1
