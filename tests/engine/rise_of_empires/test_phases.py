"""7.0 Food, 8.0 Income, 9.0 Victory Points, 10.0 Turn Order, 11.0 the end of an era and of the game."""

from __future__ import annotations

import random

import pytest

from engine.core import DecisionStack
from engine.rise_of_empires.flow import advance
from engine.rise_of_empires.phases import (
    bank_resources,
    collect_income,
    final_scoring,
    food_phase,
    halve_cubes,
    turn_order_choosers,
)
from engine.rise_of_empires.scoring import vp_of

from .helpers import COMP, GAME, act, actor, era_end, legal, new, restart

W, R, B, G = range(4)


def test_7_0_food_floor_costs_victory_points():
    """7.0 example: 2 food, down 4 -> 0 food and 2 VP lost; never below 0 VP."""
    s = new(2)
    s.players[W].food, s.players[W].vp = 2, 5
    s.players[W].territories = ["forest", "forest"]
    s.players[R].food, s.players[R].vp = 0, 1
    s.players[R].territories = ["mountain"]
    food_phase(COMP, s)
    assert (s.players[W].food, s.players[W].vp) == (0, 3)
    assert (s.players[R].food, s.players[R].vp) == (0, 0)


def test_7_0_top_of_the_track_pays_a_gold_per_two_food():
    """7.0 example: 19 food, up 4 -> 20 food and 1 gold."""
    s = new(2)
    s.players[W].food = 19
    s.players[W].territories = ["plains", "plains"]
    food_phase(COMP, s)
    assert (s.players[W].food, s.players[W].gold) == (20, 6)


def test_7_0_food_doubled_in_the_last_turn_with_white_and_red_numbers():
    s = new(2)
    s.turn = 6
    s.players[W].territories = ["mountain", "island"]
    s.players[W].progress = ["agriculture"]
    s.players[W].cities = ["alexandria"]  # produces 1 food (a white number)
    food_phase(COMP, s)
    assert s.players[W].food == 16 + 2 * (-3 + 1 + 2 + 1)


def test_7_0_controlled_region_food_shared_on_a_tie():
    s = new(2)
    s.cubes["mediterranean"] = [2, 2]
    food_phase(COMP, s)
    assert s.players[W].food == s.players[R].food == 17


def test_8_0_cubes_from_the_general_stock_only():
    s = new(2)
    s.players[W].territories = ["mountain"] * 3
    s.players[W].stock = 2
    collect_income(COMP, s, W)
    assert (s.players[W].pool, s.players[W].stock) == (7, 0)


def test_8_0_resource_discs_are_limited_to_the_bank():
    s = new(2)
    s.players[R].resources = 39
    s.players[W].resources = 0
    s.players[W].territories = ["town-resources", "town-resources"]
    assert bank_resources(COMP, s) == 1
    collect_income(COMP, s, W)
    assert s.players[W].resources == 1


def test_8_0_city_disc_upkeep_may_use_this_turns_income():
    s = new(4)
    s.players[W].cities = ["carthage"]  # 1 disc upkeep
    s.players[W].resources = 0
    s.players[W].territories = ["town-resources"]
    s.turn = 2  # a B turn with no discs left: straight to Food
    s.rows = {r: [-1] * 8 for r in s.rows}
    s = restart(s, [W, R, B, G])
    s = act(s, "keep cities")  # Carthage's 2 food (6.3)
    # 8.0: the Town's disc comes in before the upkeep is asked: it can be paid
    assert s.phase == "income" and s.players[W].resources == 1 and legal(s) == ["pay upkeep", "discard carthage"]
    s = act(s, "pay upkeep")
    assert s.phase == "era end"
    assert s.players[W].resources == 0 and s.players[W].cities == ["carthage"]


def test_9_0_victory_points_from_cities_towns_progress_and_regions():
    s = new(2)
    p = s.players[W]
    p.cities = ["rome", "athens"]  # 2 + 1
    p.territories = ["town-gold"]  # 1
    p.progress = ["writing", "television", "ideology"]  # 1, 1 per city, 2 per region controlled
    s.cubes["sw-europe"] = [2, 1]  # control: 2
    s.cubes["se-europe"] = [1, 1]  # joint control: (2 + 1) // 2 = 1
    s.cubes["anatolia"] = [1, 2]  # second: 1
    assert vp_of(COMP, s, W) == 3 + 1 + 1 + 2 + 2 * 2 + 2 + 1 + 1


def test_10_0_fewest_vp_chooses_first():
    """10.0 example: Peter (fewest VP) first, then Lin, Uli, Michael."""
    s = new(4)
    for seat, vp in zip(range(4), (9, 3, 5, 7), strict=True):
        s.players[seat].vp = vp
    assert turn_order_choosers(s) == [R, B, G, W]


def test_10_0_turn_order_ties_by_tokens_then_previous_order():
    s = new(4)
    s.order = [W, R, B, G]
    for p in s.players:
        p.vp = 4
    s.players[B].gold = 4  # fewest tokens
    assert turn_order_choosers(s) == [B, G, R, W]  # then furthest back in the last order first


def test_10_0_positions_are_chosen_in_order_and_the_last_is_forced():
    s = new(3)
    for p in s.players:
        p.actions = 6  # every action of the A turn taken
    s.players[W].vp = 10
    s.players[R].vp = 5
    s = restart(s, [W, R, B])
    assert s.phase == "turn order" and actor(s) == B
    s = act(s, "choose position 3")
    assert actor(s) == R and legal(s) == ["choose position 1", "choose position 2"]
    s = act(s, "choose position 1")
    assert s.order == [R, W, B] and s.turn == 2


def test_11_0_era_end_keep_tiles_for_gold_and_cubes_then_halve_cubes():
    s = era_end(progress=["writing", "agriculture"], cities=["athens"], territories=["island"])
    s.cubes["sw-europe"] = [5, 1, 0, 0]
    s = restart(s, [W, R, B, G])
    assert s.phase == "era end" and actor(s) == W
    assert legal(s) == ["keep progress writing", "keep progress agriculture", "keep city athens", "done"]
    gold, pool = s.players[W].gold, s.players[W].pool
    s = act(s, "keep progress agriculture", "keep city athens", "done")
    p = s.players[W]
    assert p.progress == ("agriculture",) and p.cities == ("athens",) and p.territories == ("island",)
    assert (p.gold, p.pool) == (gold - 1, pool - 1)
    assert s.cubes["sw-europe"] == [2, 0, 0, 0]  # 5 -> remove 3; 1 -> remove 1


def test_11_0_no_upkeep_after_era_iii_and_final_scoring():
    s = new(2)
    s.turn = 6
    s.rows = {r: [-1] * 4 for r in s.rows}
    s.players[W].gold, s.players[W].resources = 8, 7  # 2 + 2 VP
    s.players[W].progress = ["writing"]
    s.cubes["russia"] = [3, 0]
    s = restart(s, [W, R])
    assert GAME.is_over(s)
    assert s.players[W].progress == ["writing"] and s.cubes["russia"] == [3, 0]
    assert s.players[W].vp == 1 + 4 + 4


def test_11_0_tie_goes_to_the_most_gold():
    s = new(3)
    s.phase = "over"
    for p, (vp, gold) in zip(s.players, ((20, 3), (20, 5), (18, 9)), strict=True):
        p.vp, p.gold = vp, gold
    assert GAME.winners(s) == [R]


def test_halving_and_final_scoring_helpers_report_events():
    s = new(2)
    s.cubes["anatolia"] = [3, 0]
    assert halve_cubes(s) and s.cubes["anatolia"] == [1, 0]
    assert final_scoring(COMP, s)[0].startswith("Final scoring")


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_law_6_random_games_end_for_every_player_count(n):
    """Random play ends, and every list of choices fits a menu (law 2: under 60), one choice at least."""
    for seed in range(n, n + 4):
        rng = random.Random(seed)
        s = new(n, seed=seed)
        while not GAME.is_over(s):
            options = legal(s)
            assert options and len(options) < 60
            assert options != ["done"], s.stack.top.kind  # a step with nothing to decide is played alone
            s = act(s, rng.choice(options))
        assert s.turn == 6 and GAME.winners(s)


def test_7_0_the_food_forecast_in_the_view_is_doubled_in_the_last_turn():
    """7.0: "In the last game turn, double the amount of food points gained/lost" - the view's forecast too."""
    s = new(2)
    s.players[W].territories = ["mountain"]
    assert GAME.view(s, None)["players"][W]["forecast"]["food"] == -3
    s.turn = 6
    assert GAME.view(s, None)["players"][W]["forecast"]["food"] == -6


def test_10_0_example_peter_lin_uli_michael():
    """10.0 example: Peter (fewest VP) takes 1, Lin (third) takes 4, Uli takes 3, Michael has no choice: 2."""
    PETER, LIN, ULI, MICHAEL = range(4)
    s = new(4)
    for p in s.players:
        p.actions = 6
    for seat, vp in ((PETER, 2), (LIN, 5), (ULI, 6), (MICHAEL, 9)):
        s.players[seat].vp = vp
    s = restart(s, [MICHAEL, ULI, LIN, PETER])
    assert actor(s) == PETER
    s = act(s, "choose position 1", "choose position 4", "choose position 3")
    assert s.order == [PETER, MICHAEL, ULI, LIN]


def test_7_0_food_lines_say_what_the_ends_of_the_track_cost_or_give():
    """7.0 examples: 2 food, down 4 -> 2 VP lost; 19 food, up 4 -> 1 gold."""
    s = new(2)
    s.players[W].food, s.players[W].vp = 2, 5
    s.players[W].territories = ["forest", "forest"]
    s.players[R].food = 19
    s.players[R].territories = ["plains", "plains"]
    s.order = [W, R]
    assert food_phase(COMP, s) == [
        "Food: p0 (white) -4 (2× Forest -4) -> 0, 2 food short: loses 2 VP.",
        "Food: p1 (red) +4 (2× Plains +4) -> 20, 3 food beyond the top of the track: takes 1 gold (1 per 2 food).",
    ]


def test_8_0_income_line_says_when_the_stock_or_bank_runs_short():
    s = new(2)
    s.players[W].territories = ["mountain"] * 3
    s.players[W].stock = 2
    assert collect_income(COMP, s, W) == [
        "Income: p0 (white) takes 2 cubes (3× Mountain 9; 9 earned, but the general stock held only 2)."
    ]
    assert collect_income(COMP, s, R) == ["Income: p1 (red) earns nothing."]


def test_8_0_disc_upkeep_line_names_the_cities():
    s = new(4)
    s.players[W].cities = ("carthage", "venice", "athens")  # 1 disc each for Carthage and Venice
    s.turn = 4  # a B turn with no disc left: Food, then Income
    s.rows = {r: [-1] * 8 for r in s.rows}
    s.order = [W, R, B, G]
    s.phase, s.cursor, s.stack = "actions", 0, DecisionStack()
    advance(COMP, s)
    s = act(s, "keep cities")  # Carthage's food upkeep (6.3)
    s.players[W].resources = 2
    step = GAME.apply(s, W, "pay upkeep")
    assert "p0 (white) pays 2 resource discs of city upkeep (Carthage 1, Venice 1, 8.0)." in step.events


def test_10_0_turn_order_is_the_turn_order_track_for_the_heads_up():
    """The service pings the player after the one whose turn starts (issue 12 §3): in Rise
    of Empires that is the next player on the turn order track, not in seat order."""
    from engine.rise_of_empires import GAME

    state = GAME.setup(["a", "b", "c"], 1)
    state.order = [2, 0, 1]
    assert GAME.turn_order(state) == [2, 0, 1]
