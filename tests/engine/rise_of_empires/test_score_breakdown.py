"""Where each player's victory points came from, in the rulebook's words, as the final standings
show them (`score_breakdown`, issue 26 §2; engine/rise_of_empires/points.py): 9.0 every game turn,
6.3 wonders and 6.5 trading at once, 11.0 at the end; lost to 6.0 B-turn payments and 7.0 food."""

from __future__ import annotations

import dataclasses
import json
import random

from engine.rise_of_empires.actions import use_tile
from engine.rise_of_empires.phases import final_scoring, food_phase, vp_phase
from engine.rise_of_empires.points import NOT_ITEMISED, SOURCES, TRADING, gain_vp

from .helpers import COMP, GAME, act, legal, new, restart
from .test_actions import a_turn, b_turn

W, R, B, G = range(4)


def lines(state, seat: int = W) -> dict[str, int]:
    """The seat's breakdown, its lines worth something."""
    return {source: vp for source, vp in GAME.score_breakdown(state)[seat] if vp}


def test_9_0_every_vp_of_a_whole_game_has_its_line():
    for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4)):
        rng = random.Random(seed)
        s = new(n, seed=seed)
        while not GAME.is_over(s):
            s = act(s, rng.choice(legal(s)))
        parts = GAME.score_breakdown(s)
        assert [[source for source, _ in seat] for seat in parts] == [list(SOURCES)] * n  # nothing unaccounted
        assert [sum(vp for _, vp in seat) for seat in parts] == GAME.scores(s)
        assert all(dict(seat)["Regions"] > 0 for seat in parts)
        assert GAME.loads(GAME.dumps(s)) == s  # the record is saved with the game (law 4)


def test_9_0_victory_points_lines_cities_territories_progress_tiles_regions():
    s = new(2)
    p = s.players[W]
    p.cities = ("rome", "athens")  # 2 + 1
    p.territories = ("town-gold",)  # 1
    p.progress = ("writing", "television", "ideology")  # 1, 1 per city, 2 per region controlled
    s.cubes["sw-europe"] = [2, 1]  # control: 2
    s.cubes["se-europe"] = [1, 1]  # joint control: (2 + 1) // 2 = 1
    s.cubes["anatolia"] = [1, 2]  # second: 1
    vp_phase(COMP, s)
    vp_phase(COMP, s)  # a second game turn adds to the same lines
    assert lines(s) == {"Cities": 6, "Territories": 2, "Progress tiles": 2 * (1 + 2 + 4), "Regions": 8}
    assert lines(s, R) == {"Regions": 2 * (1 + 1 + 2)}


def test_6_3_a_wonder_scores_at_once_on_its_line():
    s = b_turn(rows={"city": [W]})
    s.turn = 4
    s.offer_city = ["great-wall"]
    p = s.players[W]
    p.gold, p.resources, p.pool = 3, 3, 2
    s = act(restart(s, [W, R, B, G]), "take city great-wall")
    assert lines(s) == {"Wonders": 8}


def test_6_5_trading_for_victory_points_has_its_line():
    s = a_turn()
    s.players[W].resources = 7
    s.turn = 5
    s = act(s, "trade 7 for 6 vp")  # 6.5 example: Dan in Era III
    assert lines(s) == {"Trading": 6}


def test_6_1_a_progress_tile_exchanging_victory_points_goes_on_the_progress_tiles_line():
    """No shipped exchange tile pays or gives VP, but the data may (a corrected file): Haven made
    to give 2 VP for 1 gold."""
    haven = dataclasses.replace(COMP.progress["haven"], gain="vp", gain_amount=2)
    comp = dataclasses.replace(COMP, progress={**COMP.progress, "haven": haven})
    s = new(2)
    use_tile(comp, s, W, "haven")
    assert lines(s) == {"Progress tiles": 2} and s.players[W].gold == 4


def test_6_0_victory_points_paid_for_a_b_turn_disc_are_a_loss_on_their_line():
    s = b_turn(rows={"progress": [W, W, W, W, W]})
    p = s.players[W]
    p.gold, p.pool, p.resources, p.food = 0, 0, 0, 0
    gain_vp(p, TRADING, 4)
    s = restart(s, [W, R, B, G])
    s = act(s, "remove progress 1")  # four of white's own discs to its left, VP the only good
    assert legal(s) == ["pay 4 vp"]
    s = act(s, "pay 4 vp")
    assert s.players[W].vp == 0
    assert lines(s) == {"Trading": 4, "Paid for action discs": -4}


def test_7_0_food_shortage_costs_victory_points_on_their_line():
    """7.0 example: 2 food, down 4 -> 0 food and 2 VP lost."""
    s = new(2)
    p = s.players[W]
    p.food, p.territories = 2, ("forest", "forest")
    gain_vp(p, TRADING, 5)
    food_phase(COMP, s)
    assert lines(s) == {"Trading": 5, "Food shortage": -2}


def test_11_0_final_gold_and_resource_discs_each_have_their_line():
    s = new(2)
    s.players[W].gold, s.players[W].resources = 8, 7  # 2 + 2 VP
    s.players[R].gold = 3  # 1 VP
    final_scoring(COMP, s)
    assert lines(s) == {"Final gold": 2, "Final resource discs": 2}
    assert lines(s, R) == {"Final gold": 1}


def test_9_0_vp_on_the_track_before_the_record_are_not_itemised():
    s = new(2)
    s.players[W].vp = 5
    s.players[W].cities = ("athens",)
    vp_phase(COMP, s)
    assert lines(s) == {"Cities": 1, NOT_ITEMISED: 5}
    assert [sum(vp for _, vp in seat) for seat in GAME.score_breakdown(s)] == GAME.scores(s)


def test_9_0_a_game_saved_before_the_record_loads_with_its_vp_not_itemised():
    saved = json.loads(GAME.dumps(new(2)))
    for p in saved["players"]:
        del p["vp_by"]
    saved["players"][W]["vp"] = 7
    s = GAME.loads(json.dumps(saved))
    assert lines(s) == {NOT_ITEMISED: 7} and lines(s, R) == {}
