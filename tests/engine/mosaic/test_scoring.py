"""Rulebook, "Empire Scoring", game end and final "Scoring"."""

from __future__ import annotations

import pytest

from engine.mosaic import GAME, board, scoring
from engine.mosaic.rules import SCORING

from .helpers import D, act, blank_turn, hexes, population, to_play


def empty_board(n=4):
    s = blank_turn(to_play(n, 2), 0)
    s.board.clear()
    s.wonder_hex.clear()
    for p in s.players:
        p.units, p.vp, p.techs, p.builds, p.wonders, p.government = {}, 0, [], [], [], ""
        p.leader = "artist"
        p.unrest = 0
    return s


def test_empire_scoring_influence_city_and_wonder_2_town_and_unit_1():
    s = empty_board()
    g = hexes("greece")
    s.board[g[0]] = "c0"
    s.board[g[1]] = "w0"
    s.board[g[2]] = "f1"
    s.board[g[3]] = "m1"
    s.players[1].units = {"greece": 1}
    assert board.influence(D, s)["greece"][:2] == [4, 3]


def test_empire_scoring_first_3_plus_cities_and_wonders_of_anyone_second_2():
    s = empty_board()
    g = hexes("greece")
    s.board[g[0]] = "c0"
    s.board[g[1]] = "c0"
    s.board[g[2]] = "c1"
    s.board[g[3]] = "w2"
    s.wonder_hex["sphinx"] = g[3]
    s.players[2].wonders = ["sphinx"]
    scoring.empire_scoring(D, s)
    # seat 0: 4 influence, first: 3 + 3 cities + 1 wonder; seats 1 and 2 tie for second (2 each): 0
    assert [p.vp for p in s.players] == [7, 0, 0, 0]


def test_empire_scoring_tied_first_all_score_and_next_lower_is_second():
    s = empty_board()
    g = hexes("egypt")
    s.board[g[0]] = "c0"
    s.board[g[1]] = "c1"
    s.players[2].units = {"egypt": 1}
    scoring.empire_scoring(D, s)
    assert [p.vp for p in s.players] == [5, 5, 2, 0]  # N21


def test_empire_scoring_regions_out_of_play_are_not_scored():
    s = empty_board(n=2)
    s.players[0].units = {"gaul": 3}
    scoring.empire_scoring(D, s)
    assert s.players[0].vp == 0


def test_empire_scoring_technology_influence_bonus():
    s = empty_board()
    t = next(t for t, c in D.technologies.items() if c.influence_piece == "city")
    s.players[0].techs = [t]
    s.board[hexes("italia")[0]] = "c0"
    assert board.influence(D, s)["italia"][0] == D.technologies[t].influence_value


@pytest.mark.parametrize(
    "gov,n,expected",
    [
        ("city-state", 4, 2),
        ("monarchy", 4, 3),
        ("oligarchy", 4, 4),
        ("oligarchy", 3, 2),
        ("republic", 4, 3),
        ("theocracy", 4, 4),
        ("tyranny", 4, 6),
        ("tyranny", 2, 4),
    ],
)
def test_empire_scoring_government_bonus(gov, n, expected):
    s = empty_board(n)
    p = s.players[0]
    p.government = gov
    p.population = 7
    p.wonders = ["sphinx"]
    p.golden_ages = ["art"]
    p.achievements = ["urban"]
    s.board[hexes("italia")[0]] = "c0"
    s.board[hexes("italia")[1]] = "c0"
    s.board[hexes("egypt")[0]] = "c0"
    assert scoring.government_bonus(D, s, 0, board.influence(D, s)) == expected


def test_empire_scoring_card_revealed_scores_after_the_revealers_action():
    s = empty_board()
    s.board[hexes("italia")[0]] = "c0"
    s.pop_deck = [SCORING, "pop01"]
    card = s.pop_offer[0]
    s.players[0].food = 20
    s, ev = act(s, population(card))
    assert s.scorings == 1 and s.pop_offer[0] == "pop01"
    assert any(e.startswith("Empire scoring") for e in ev)
    assert s.players[0].vp == 3 + 1


def test_general_eliminates_one_opponent_unit_before_each_empire_scoring():
    s = empty_board()
    s.players[1].leader = "general"
    s.players[1].units = {"greece": 1}
    s.players[0].units = {"greece": 2}
    s.pop_deck = [SCORING, "pop01"]
    s.players[0].food = 20
    s, _ = act(s, population(s.pop_offer[0]))
    assert GAME.to_act(s) == [1]
    assert GAME.legal_actions(s, 1) == ["eliminate greece 0", "eliminate none"]
    s, ev = act(s, "eliminate greece 0")
    assert s.players[0].units["greece"] == 1
    assert s.players[0].vp == 3 and s.players[1].vp == 3  # tied after the removal
    assert s.seat == 1


def test_game_end_third_scoring_card_then_finish_round_then_one_more_round():
    s = empty_board()
    s.start = 0
    s.scorings = 2
    s.pop_deck = [SCORING, "pop01"]
    s.seat = 1
    s.players[1].food = 20
    before = s.turn_no
    s, _ = act(s, population(s.pop_offer[0]))
    assert s.end_stage == "rounds" and s.scorings == 3
    while not GAME.is_over(s):
        s, _ = act(
            s,
            "work food"
            if s.pending.top is None and s.stage == "main"
            else GAME.legal_actions(s, GAME.to_act(s)[0])[-1],
        )
    # seat 1's own turn, seats 2 and 3 finish the round, then one full round of 4 (N27)
    assert s.turn_no - before == 1 + 2 + 4


def test_game_end_two_tile_kinds_taken_triggers_scoring_and_the_end():
    s = empty_board()
    s.wonders = []
    s.golden_ages = []
    s.achievements = ["wealthy"]
    s.players[0].money = 60
    s.board[hexes("italia")[0]] = "c0"
    s, ev = act(s, "claim wealthy")
    assert s.end_stage == "rounds"
    assert s.players[0].vp == 3 + 1  # the extra empire scoring (N26)


def test_game_end_scribe_takes_2_extra_actions_after_the_final_round():
    s = empty_board()
    s.start = 0
    s.players[2].leader = "scribe"
    s.players[2].turns = 5
    s.end_stage, s.rounds_left = "rounds", 1
    s.seat = 3
    s, ev = act(s, "work food")
    assert not GAME.is_over(s) and s.seat == 2 and s.actions_left == 2
    s, _ = act(s, "work food", "work stone")
    assert GAME.is_over(s)


def test_final_scoring_every_line():
    s = empty_board()
    p = s.players[0]
    s.board[hexes("italia")[0]] = "c0"
    s.board[hexes("italia")[1]] = "f0"
    s.board[hexes("italia")[2]] = "w0"
    s.wonder_hex["great-pyramid"] = hexes("italia")[2]
    p.wonders = ["great-pyramid"]
    p.golden_ages = ["art"]
    p.achievements = ["urban"]
    p.vp = 10
    manu = next(c for c in D.builds.values() if c.type == "manufactory_town")
    proj = next(c for c in D.builds.values() if c.type == "project" and c.vp_pillar == "economy")
    p.builds = [manu.id, proj.id]
    p.goods = {g: 1 for g in manu.trade_goods}
    fixed = next(t for t, c in D.technologies.items() if c.vp_kind == "fixed" and c.vp == 2)
    p.techs = [fixed]
    p.unrest = 5  # artist cancels 3
    b = scoring.breakdown(D, s, 0)
    econ = board.symbols(D, p)["economy"]
    assert b["during play"] == 10 and b["cities"] == 2 and b["towns"] == 1
    assert b["wonders"] == 12 and b["golden ages"] == 6 and b["achievements"] == 6
    assert b["projects"] == econ and b["technologies"] == 2 and b["manufactory towns"] == 5
    assert b["leader"] == board.symbols(D, p)["culture"] and b["unrest"] == -2


def test_final_scoring_two_identical_manufactory_towns_both_score():
    s = empty_board()
    p = s.players[0]
    manu = next(c for c in D.builds.values() if c.type == "manufactory_town")
    p.builds = [manu.id, manu.id]  # two copies of the same town card
    p.goods = {g: 1 for g in manu.trade_goods}
    assert scoring.breakdown(D, s, 0)["manufactory towns"] == 10


@pytest.mark.parametrize(
    "wonder,setup_fn,vp",
    [
        ("colosseum-of-rome", lambda s: s.players[0].units.update({"italia": 1, "greece": 1}), 8),
        ("stonehenge", lambda s: setattr(s.players[0], "population", 9), 4),
        (
            "temple-of-artemis",
            lambda s: (s.players[0].units.update({"italia": 2}), s.players[1].units.update({"italia": 1})),
            3,
        ),
        ("lighthouse-of-alexandria", lambda s: s.players[0].goods.update({"wine": 2, "fish": 1}), 2),
        ("sphinx", lambda s: s.board.__setitem__(hexes("italia")[5], "w1"), 8),
        (
            "colossus-of-rhodes",
            lambda s: (s.board.__setitem__(hexes("italia")[5], "c1"), s.board.__setitem__(hexes("italia")[6], "c0")),
            4,
        ),
    ],
)
def test_final_scoring_wonder_vp(wonder, setup_fn, vp):
    s = empty_board()
    s.wonder_hex[wonder] = hexes("italia")[0]
    s.board[hexes("italia")[0]] = "w0"
    s.players[0].wonders = [wonder]
    setup_fn(s)
    assert scoring.wonder_vp(D, s, 0, wonder, board.influence(D, s)) == vp


def test_final_scoring_hanging_gardens_3_per_adjacent_city_any_owner():
    s = empty_board()
    h = hexes("egypt")[5]
    s.wonder_hex["hanging-gardens"] = h
    s.board[h] = "w0"
    s.players[0].wonders = ["hanging-gardens"]
    nbs = D.neighbours[h][:2]
    s.board[nbs[0]] = "c1"
    s.board[nbs[1]] = "c0"
    assert scoring.wonder_vp(D, s, 0, "hanging-gardens", board.influence(D, s)) == 6
    assert scoring.unrest_cancel(D, s.players[0]) == 3 + 3  # artist + gardens


def test_final_scoring_unrest_floored_at_zero():
    s = empty_board()
    s.players[0].unrest = 1
    assert scoring.net_unrest(D, s.players[0]) == 0


def test_final_ties_most_wonders_then_most_money():
    s = empty_board()
    s.phase = "over"
    s.final = [10, 10, 10, 3]
    s.players[0].wonders = ["sphinx"]
    s.players[1].wonders = ["stonehenge"]
    s.players[0].money, s.players[1].money = 4, 9
    assert GAME.winners(s) == [1]
    s.players[1].money = 4
    assert GAME.winners(s) == [0, 1]


def test_final_ties_the_last_line_names_the_winner_and_the_tie_break_that_decided():
    """ "The player with the most points wins. If there is a tie, the tied player with the most wonders
    wins. If there is still a tie, the player with the most money" - the game's last line says which."""
    from engine.mosaic.scoring import result_text

    s = empty_board()
    s.phase = "over"
    s.final = [10, 8, 7, 3]
    assert result_text(s) == "p0 wins."
    s.final = [10, 10, 10, 3]
    s.players[0].wonders = ["sphinx"]
    s.players[1].wonders = ["stonehenge"]
    s.players[0].money, s.players[1].money = 4, 9
    assert result_text(s) == (
        "p0, p1 and p2 tie on 10 points; p0 and p1 have the most wonders (1); p1 wins with the most money (p0 4, p1 9)."
    )
    s.players[2].wonders = ["great-pyramid", "colossus-of-rhodes"]
    assert result_text(s) == "p0, p1 and p2 tie on 10 points; p2 wins with the most wonders (p0 1, p1 1, p2 2)."
    s.final = [10, 10, 3, 3]
    s.players[1].money = 4
    assert result_text(s) == "p0 and p1 tie on 10 points, 1 wonder and 4 money; they share the win."
    assert GAME.winners(s) == [0, 1]


def test_final_line_of_a_whole_game_names_the_winners():
    import random

    s = GAME.setup(["a", "b", "c"], 4)
    rng = random.Random(4)
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        s = step.state
    last = step.events[-1]
    assert last.startswith("Game over. Final scores: ")
    assert all(s.players[w].name in last.split(". ", 2)[-1] for w in GAME.winners(s))


def test_final_scoring_lines_in_the_view_add_up_to_the_score():
    import random

    s = GAME.setup(["a", "b", "c"], 4)
    rng = random.Random(4)
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    for p in GAME.view(s, None)["players"]:
        assert sum(p["score_lines"].values()) == p["score"] == s.final[p["seat"]]
        assert p["score_lines"]["unrest"] <= 0
