"""Quick-reference tables row by row: leaders' start bonuses, caches, trade goods, wonders, passives."""

from __future__ import annotations

import pytest

from engine.mosaic import GAME, board, rules, scoring, setup
from engine.mosaic.economy import production

from .helpers import D, blank_turn, hexes, to_play


def bare(n=4):
    s = blank_turn(to_play(n, 6), 0)
    for p in s.players:
        p.production = {t: 0 for t in p.production}
        p.population = 5
        p.techs, p.hidden, p.units, p.goods, p.builds, p.wonders = [], [], {}, {}, [], []
        p.unrest = 0
    return s


@pytest.mark.parametrize(
    "leader,resources,production,population",
    [
        ("magistrate", {"food": 5, "stone": 10}, {"food": 2, "stone": 2, "tax": 2}, 6),
        ("engineer", {"stone": 10, "money": 10}, {"stone": 5, "ideas": 3}, 5),
        ("general", {"money": 20}, {"tax": 10}, 6),
        ("scribe", {"food": 10, "ideas": 5}, {}, 5),
        ("artist", {"money": 15, "ideas": 5}, {"ideas": 5}, 5),
        ("priestess", {"money": 15, "food": 5}, {"tax": 6, "food": 3}, 5),
        ("philosopher", {"ideas": 10, "money": 10}, {"ideas": 8}, 5),
        ("farmer", {"food": 10, "money": 10}, {"food": 5}, 5),
        ("merchant", {"money": 30}, {"tariff": 5}, 5),
    ],
)
def test_leader_start_benefits_and_production(leader, resources, production, population):
    s = bare()
    p = s.players[0]
    p.leader = leader
    s.pending.items.clear()
    setup.leader_start(D, s, 0, [])
    for cur in ("food", "stone", "ideas", "money"):
        assert getattr(p, cur) == resources.get(cur, 0), cur
    for t in ("ideas", "food", "stone", "tax", "tariff"):
        assert p.production[t] == production.get(t, 0), t
    assert p.population == population
    if leader == "general":
        assert board.unit_total(p) == 1
    if leader in ("scribe", "philosopher"):
        assert s.pending.top.kind == "production"
    if leader in ("farmer", "merchant"):
        assert any(dd.data.get("purpose") == "start-town" for dd in s.pending.items)


@pytest.mark.parametrize("leader,cancel", [("artist", 3), ("priestess", 3), ("engineer", 0)])
def test_leader_unrest_cancel(leader, cancel):
    s = bare()
    s.players[0].leader = leader
    s.players[0].unrest = 5
    assert scoring.net_unrest(D, s.players[0]) == 5 - cancel


@pytest.mark.parametrize(
    "cache_id,check",
    [
        ("money-5", lambda p: p.money == 5),
        ("money-10", lambda p: p.money == 10),
        ("food-5", lambda p: p.food == 5),
        ("stone-5", lambda p: p.stone == 5),
        ("ideas-5", lambda p: p.ideas == 5),
        ("population-1", lambda p: p.population == 6),
        ("food-production-2", lambda p: p.production["food"] == 2),
        ("stone-production-2", lambda p: p.production["stone"] == 2),
        ("idea-production-2", lambda p: p.production["ideas"] == 2),
        ("military-unit-1", lambda p: p.units.get("italia") == 1),
        ("technology-card-face-down-1", lambda p: len(p.hidden) == 1),
    ],
)
def test_cache_tile_benefit_taken_immediately(cache_id, check):
    s = bare()
    h = hexes("italia", "cache")[0]
    s.board.pop(h, None)
    s.cache_on[h] = cache_id
    ev = []
    rules.put_piece(D, s, 0, h, "c", ev)
    assert check(s.players[0]) and h not in s.cache_on
    if cache_id.startswith("technology"):
        t = s.players[0].hidden[0]
        assert all(D.technologies[t].name not in e for e in ev)


@pytest.mark.parametrize("good,track,bonus", [("grain", "food", 2), ("stone", "stone", 2), ("fish", "food", 3)])
def test_trade_goods_stone_grain_plus_2_fish_plus_3_production(good, track, bonus):
    p = bare().players[0]
    rules.add_good(D, p, good)
    rules.add_good(D, p, good)
    assert p.production[track] == 2 * bonus and p.goods[good] == 2  # duplicates stack
    assert board.unique_goods(p) == 1


def test_wonder_fixed_vp_great_library_5_great_pyramid_12():
    s = bare()
    inf = board.influence(D, s)
    assert scoring.wonder_vp(D, s, 0, "great-library", inf) == 5
    assert scoring.wonder_vp(D, s, 0, "great-pyramid", inf) == 12


def test_government_oligarchy_adds_5_tax_and_tariff_production():
    p = bare().players[0]
    p.government = "oligarchy"
    assert production(D, p, "tax") == 5 and production(D, p, "tariff") == 5 and production(D, p, "food") == 0


@pytest.mark.parametrize("n,needed", [(2, 4), (3, 4), (4, 3), (6, 3)])
def test_achievement_imperial_control_4_regions_2_3_players_3_regions_4_plus(n, needed):
    s = bare(n)
    s.board.clear()
    regs = s.regions[:needed]
    for r in regs[:-1]:
        s.board[hexes(r)[0]] = "c0"
    sym = board.symbols(D, s.players[0])
    assert not rules.achievement_met(D, s, 0, "imperial", sym)
    s.board[hexes(regs[-1])[0]] = "c0"
    assert rules.achievement_met(D, s, 0, "imperial", sym)


def test_achievements_9_of_15_drawn_at_random():
    seen = set()
    for seed in range(6):
        s = GAME.setup(["a", "b", "c"], seed)
        assert len(s.achievements_in_play) == 9
        seen |= set(s.achievements_in_play)
    assert len(seen) > 9


def test_colosseum_and_hanging_gardens_cancel_unrest():
    p = bare().players[0]
    p.leader = "engineer"
    p.wonders = ["colosseum-of-rome", "hanging-gardens"]
    p.unrest = 10
    assert scoring.net_unrest(D, p) == 3


def test_technology_unrest_cancel_and_once_population_and_units():
    s = bare()
    p = s.players[0]
    t_unrest = next(t for t, c in D.technologies.items() if c.unrest_cancel == 2)
    t_pop = next(t for t, c in D.technologies.items() if c.population == 2)
    t_unit = next(t for t, c in D.technologies.items() if c.military_units == 1)
    ev = []
    for t in (t_unrest, t_pop, t_unit):
        rules.play_tech(D, s, 0, t, ev)
    p.unrest = 3
    assert scoring.net_unrest(D, p) == 1 and p.population == 7 and board.unit_total(p) == 1
