"""Rulebook, "Setup": one test per step."""

from __future__ import annotations

import pytest

from engine.mosaic import GAME
from engine.mosaic.rules import SCORING

from .helpers import D, act, new, to_play


@pytest.mark.parametrize("n,out", [(2, {"hispania", "gaul"}), (3, {"hispania"}), (4, set()), (5, set()), (6, set())])
def test_setup_regions_out_of_play_by_player_count(n, out):
    s = new(n)
    assert set(D.regions) - set(s.regions) == out
    assert "assyria" in s.regions  # N06: the seventh region is always in play


def test_setup_regions_out_of_play_have_no_trade_goods_or_caches_and_cannot_be_built():
    s = to_play(2)
    for h in list(s.goods_on) + list(s.cache_on):
        assert D.hexes[h].region not in ("hispania", "gaul")
    s.pending.items.clear()
    s.pending.push("place", s.seat, purpose="start-city")
    legal = GAME.legal_actions(s, s.seat)
    assert legal and all("hispania" not in a and "gaul" not in a for a in legal)


def test_setup_each_player_starts_with_5_population():
    s = new(5)
    assert all(p.population == 5 for p in s.players)


def test_setup_10_fish_tiles_one_on_each_port_hex():
    s = new(2)
    ports = [h for h, x in D.hexes.items() if x.kind == "port"]
    assert len(ports) == 10 and sorted(s.fish_on) == sorted(ports)  # N30: also out-of-play ports


def test_setup_cache_tiles_on_each_cache_hex_in_play():
    s = new(6)
    cache_hexes = {h for h, x in D.hexes.items() if x.kind == "cache"}
    assert set(s.cache_on) == cache_hexes and len(cache_hexes) == 28


def test_setup_trade_goods_on_open_hexes_and_x_tiles_removed():
    s = new(4)
    assert all(D.hexes[h].kind == "land" for h in s.goods_on)
    assert "x" not in s.goods_on.values()
    blanks = D.trade_goods["x"].count
    open_hexes = sum(1 for x in D.hexes.values() if x.kind == "land")
    assert len(s.goods_on) <= open_hexes and len(s.goods_on) >= open_hexes - blanks


def _tech_scoring_index(n, seed):
    s = new(n, seed)
    deck = s.tech_deck
    return deck.index(SCORING) + len([t for t in s.tech_offer if t]), len(deck) + len(s.tech_offer) - 1


@pytest.mark.parametrize("seed", range(5))
def test_setup_technology_scoring_card_in_bottom_third_for_4_to_6_players(seed):
    pos, total = _tech_scoring_index(5, seed)
    assert pos >= total * 2 // 3 - 1


@pytest.mark.parametrize("seed", range(5))
def test_setup_technology_scoring_card_in_middle_third_for_2_to_3_players(seed):
    pos, total = _tech_scoring_index(3, seed)
    assert total // 3 - 1 <= pos <= total * 2 // 3 + 1


def test_setup_starting_cards_dealt_5_each_rest_shuffled_into_deck():
    s = new(3)
    assert all(len(p.hand) == 5 and all(D.technologies[t].starting for t in p.hand) for p in s.players)
    leftover_s = [t for t in s.tech_deck + s.tech_offer if t != SCORING and D.technologies[t].starting]
    assert len(leftover_s) == 30 - 15


@pytest.mark.parametrize("seed", range(4))
def test_setup_build_deck_scoring_card_in_bottom_half(seed):
    s = new(4, seed)
    assert s.build_deck.index(SCORING) + 5 >= (len(s.build_deck) + 5 - 1) // 2


@pytest.mark.parametrize("n,size", [(2, 10), (3, 10), (4, 12), (5, 12), (6, 14)])
def test_setup_population_and_tax_tariff_decks_sized_by_player_count(n, size):
    s = new(n)
    for deck, offer in ((s.pop_deck, s.pop_offer), (s.tax_deck, s.tax_offer)):
        assert len(deck) + len(offer) == size + 1
        assert deck.count(SCORING) == 1
        assert deck.index(SCORING) + 2 >= size // 2  # bottom half


def test_setup_offers_5_technologies_5_builds_2_population_2_tax_tariff():
    s = new(4)
    assert [len(s.tech_offer), len(s.build_offer), len(s.pop_offer), len(s.tax_offer)] == [5, 5, 2, 2]
    assert all(s.tech_offer + s.build_offer + s.pop_offer + s.tax_offer)


def test_setup_tiles_9_wonders_9_golden_ages_6_governments_9_of_15_achievements():
    s = new(4)
    assert len(s.wonders) == 9 and len(s.golden_ages) == 9 and len(s.governments) == 6
    assert len(s.achievements) == 9 and len(D.achievements) == 15


def test_setup_leader_draft_starts_right_of_start_player_and_passes_right():
    s = new(4, 3)
    first = GAME.to_act(s)[0]
    assert first == (s.start - 1) % 4
    s, _ = act(s, GAME.legal_actions(s, first)[0])
    assert GAME.to_act(s) == [(s.start - 2) % 4]
    assert len(s.leader_pool) == 8


def test_setup_starting_technology_draft_pick_1_of_5_pass_left():
    s = new(3, 2)
    while s.phase == "leaders":
        s, _ = act(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    assert sorted(GAME.to_act(s)) == [0, 1, 2]  # simultaneous picks
    hands = [list(p.hand) for p in s.players]
    for seat in range(3):
        s = GAME.apply(s, seat, "draft 1").state
    for seat in range(3):
        assert s.players[seat].hand == hands[(seat - 1) % 3][1:]  # the rest came from the right neighbour
        assert s.players[seat].picks == [hands[seat][0]]


def test_setup_draft_hands_and_picks_are_private():
    s = new(3, 2)
    while s.phase == "leaders":
        s, _ = act(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    card = s.players[0].hand[1]
    assert GAME.legal_actions(s, 0) == ["draft 1", "draft 2", "draft 3", "draft 4", "draft 5"]
    step = GAME.apply(s, 0, "draft 2")  # N45: the action text (logged publicly) names a position, not the card
    assert all(card not in e and D.technologies[card].name not in e for e in step.events)
    public = str(GAME.view(step.state, None))
    assert card not in public
    assert card in GAME.view(step.state, 0)["private"]["drafted"]
    assert card not in str(GAME.view(step.state, 1))


def test_setup_start_cities_clockwise_from_start_player_take_cache_and_trade_good():
    s = new(4, 5)
    while s.phase != "setup":
        s, _ = act(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    order, took = [], 0
    while s.pending and s.pending.top.data.get("purpose") == "start-city":
        seat = GAME.to_act(s)[0]
        order.append(seat)
        legal = GAME.legal_actions(s, seat)
        if legal[0].startswith("region"):
            s, _ = act(s, legal[0])
            legal = GAME.legal_actions(s, seat)
        # choose a hex holding a trade good when there is one
        good = [a for a in legal if a.split()[1] in s.goods_on]
        pick = (good or legal)[0]
        h = pick.split()[1]
        had = s.goods_on.get(h)
        s, _ = act(s, pick)
        assert s.board[h] == f"c{seat}"
        if had:
            assert s.players[seat].goods.get(had) == 1
            took += 1
    assert order == [(s.start + i) % 4 for i in range(4)] and took >= 1


def test_setup_leader_start_benefits_and_starting_technologies_are_played():
    s = to_play(4, 7)
    for p in s.players:
        lead = D.leaders[p.leader]
        assert len(p.techs) + len(p.hidden) >= 5
        assert all(D.technologies[t].starting for t in p.techs[:5])
        for track, v in lead.production.items():
            assert p.production[track] >= v
    # the first turn belongs to the start player
    assert s.seat == s.start and s.stage == "main"


def test_setup_invalid_player_count_is_refused():
    from engine.core import IllegalAction

    with pytest.raises(IllegalAction, match="2-6"):
        GAME.setup(["a"], 1)
