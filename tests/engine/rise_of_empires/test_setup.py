"""3.0 Starting Play, 4.0 General Course of Play, 5.0 New Tiles, 5.1 two- and three-player games."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.rise_of_empires.phases import new_tiles

from .helpers import COMP, GAME, act, legal, new


def test_3_0_every_player_starts_the_same():
    s = new(5)
    for p, colour in zip(s.players, ["white", "red", "blue", "green", "yellow"], strict=True):
        assert (p.colour, p.vp, p.food, p.gold, p.resources, p.pool, p.stock) == (colour, 0, 16, 5, 2, 5, 25)
        assert p.progress == p.territories == p.cities == ()


def test_3_0_colours_can_be_chosen_and_must_differ():
    s = new(2, colours=["green", "yellow"])
    assert [p.colour for p in s.players] == ["green", "yellow"]
    with pytest.raises(ValueError, match="different"):
        new(2, colours=["green", "green"])
    with pytest.raises(ValueError, match="2-5 players"):
        new(6)


def test_3_0_random_start_player_then_clockwise():
    starts = set()
    for seed in range(12):
        s = new(4, seed)
        first = s.order[0]
        starts.add(first)
        assert s.order == [(first + i) % 4 for i in range(4)]
        assert GAME.to_act(s) == [first]
    assert len(starts) > 1


def test_3_0_progress_stacks_era_i_on_top():
    s = new(3)
    assert all(COMP.progress[t].era == 1 for t in s.offer_progress)
    deck = s.progress_deck
    assert [COMP.progress[t].era for t in deck] == [1] * 8 + [2] * 16 + [3] * 16


def test_5_0_new_tiles_in_the_first_turn():
    s = new(4)
    assert len(s.offer_progress) == 8 and len(s.offer_territory) == 10
    assert sorted(s.offer_city) == sorted(c.id for c in COMP.cities.values() if c.era == 1 and c.half == "A")
    assert len(s.empire_track) == 8
    assert all(COMP.empire(t, 1).side == 1 for t in s.empire_track)
    assert len(s.territory_deck) == 30


def _next_turn(s, turn):
    s.turn = turn
    new_tiles(COMP, s)
    return s


def test_5_0_unselected_tiles_set_aside_wonders_back_to_the_box():
    s = new(4)
    s.turn = 2
    s.offer_city = ["babylon", "pyramids"]
    s.offer_progress = ["writing"]
    s.offer_territory = ["island"]
    s = _next_turn(s, 3)
    assert s.offer_city[0] == "babylon" and "pyramids" not in s.offer_city
    assert s.offer_progress[0] == "writing" and len(s.offer_progress) == 9
    assert s.offer_territory[0] == "island" and len(s.offer_territory) == 11


def test_5_0_eight_city_tiles_from_era_iii_and_territories_run_out():
    s = new(5)
    for turn in (2, 3, 4):
        s = _next_turn(s, turn)
    assert s.territory_deck == []
    before = len(s.offer_territory)
    s.offer_city = []
    s = _next_turn(s, 5)
    assert len(s.offer_city) == 8 and len(s.offer_territory) == before


def test_5_0_empire_tiles_return_and_flip_from_turn_3():
    s = new(4)
    s.empire_track = s.empire_track[:3]
    s.players[0].empires = ["e1"]
    s = _next_turn(s, 2)
    assert len(s.empire_track) == 8 and s.players[0].empires == ()
    s = _next_turn(s, 3)
    from engine.rise_of_empires.actions import row_actions

    assert "take empire 4 water 1-1" in row_actions(COMP, s, 0, "empire")  # e3's Era II/III side


def test_5_0_trade_track_emptied():
    s = new(4)
    s.trade_used = {2: 1}
    s = _next_turn(s, 2)
    assert s.trade_used == {}


@pytest.mark.parametrize("players", [2, 3])
def test_5_1_unselected_tiles_leave_the_game_with_2_or_3_players(players, monkeypatch):
    monkeypatch.setitem(COMP.progress, "writing", dataclasses.replace(COMP.progress["writing"], red_bottom=True))
    s = new(players)
    s.offer_progress = ["writing", "irrigation"]
    s.offer_territory = ["island"]
    s.offer_city = ["athens"]
    s = _next_turn(s, 2)
    assert s.offer_progress[0] == "writing" and "irrigation" not in s.offer_progress[:1]
    assert len(s.offer_progress) == 9 and len(s.offer_territory) == 10
    assert "athens" not in s.offer_city


def test_4_0_three_eras_of_two_turns_each_then_the_end():
    rng = random.Random(3)
    s = new(3, seed=3)
    seen = []
    while not GAME.is_over(s):
        if (s.turn, s.half) not in seen:
            seen.append((s.turn, s.half))
        s = act(s, rng.choice(legal(s)))
    assert seen == [(1, "A"), (2, "B"), (3, "A"), (4, "B"), (5, "A"), (6, "B")]
    assert GAME.to_act(s) == [] and GAME.winners(s)


@pytest.mark.parametrize("players", [2, 3])
def test_5_1_red_lower_part_keeps_any_tile_kind_on_offer(players, monkeypatch):
    """5.1: "Do not remove any tile with its lower part in red" - progress, territory and city tiles alike."""
    monkeypatch.setitem(COMP.territories, "island", dataclasses.replace(COMP.territories["island"], red_bottom=True))
    monkeypatch.setitem(COMP.cities, "athens", dataclasses.replace(COMP.cities["athens"], red_bottom=True))
    s = new(players)
    s.offer_territory = ["island", "forest"]
    s.offer_city = ["athens", "rome"]
    s = _next_turn(s, 2)
    assert s.offer_territory[0] == "island" and len(s.offer_territory) == 11
    assert s.offer_city[0] == "athens" and "rome" not in s.offer_city
