"""7.0 Player Scoring, line by line: where each player's VPs came from, in the rulebook's words,
as the final standings show them (`score_breakdown`, issue 26 §2; engine/cradle/points.py)."""

from __future__ import annotations

import json
import random

from engine.cradle import GAME
from engine.cradle.flow import score_participant
from engine.cradle.points import NOT_ITEMISED, SOURCES

from .helpers import PLAYERS, act, in_round, position

EGYPT = ["zoan", "memphis", "thebes", "nubia"]


def lines(state, seat: int = 0) -> dict[str, int]:
    """The seat's breakdown, its lines worth something."""
    return {source: vp for source, vp in GAME.score_breakdown(state)[seat] if vp}


def play_out(seed: int, players: int, **options):
    rng = random.Random(seed)
    state = GAME.setup([f"p{i}" for i in range(players)], seed, options)
    while not GAME.is_over(state):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    return state


def test_7_0_every_vp_of_a_whole_game_has_its_line():
    for seed, players, options in ((0, 4, {}), (1, 5, {"non_player": True}), (2, 6, {})):
        state = play_out(seed, players, **options)
        parts = GAME.score_breakdown(state)
        assert [[source for source, _ in seat] for seat in parts] == [list(SOURCES)] * players  # nothing unaccounted
        assert [sum(vp for _, vp in seat) for seat in parts] == GAME.scores(state)
        assert sum(vp for seat in parts for source, vp in seat if source == "Regions") > 0
        assert GAME.loads(GAME.dumps(state)).vp_by == state.vp_by  # the record is saved with the game (law 4)


def test_7_1_non_combat_expansion_vps_each_have_their_line():
    s = position({"1-1": 0}, {"sumer": ("1-1", 1)}, cities={"sumer": ["lagash"]}, rolls=[6, 6])
    s, _ = act(in_round(s, "1-1", 0, 3), "wonder sumer")
    s, _ = act(s, "culture")
    assert lines(s) == {"Wonders built": 2, "Cultural Achievement": 4}
    crete = position({"2-1": 0}, {"crete": ("2-1", 1)}, epoch=2, rolls=[4])
    crete, _ = act(in_round(crete, "2-1", 0, 2, seafaring=True), "colonize")
    assert lines(crete) == {"Colonization": 3}


def test_7_2_area_control_lines():
    cities = {"memphis": ["memphis"], "thebes": ["abydos"]}
    board = {"zoan": ("1-3", 2), "memphis": ("1-3", 1), "thebes": ("1-3", 1), "sinai": ("1-3", 1), "judea": ("1-2", 1)}
    s = position({"1-3": 0, "1-2": 1}, board, cities=cities)
    s.wonders = {"great-pyramid": "memphis"}
    score_participant(s, 0, [])
    # 4 Areas (2), 2 Cities, the Great Pyramid controlled (2); Egypt control 2 + Levant presence 1
    assert lines(s) == {"Areas": 2, "Cities": 2, "Wonders controlled": 2, "Regions": 3}
    assert s.vp[0] == 9


def test_6_1_commerce_has_its_line_beside_the_cities():
    cities = {"sumer": ["lagash"], "ur": ["ur"], "uruk": ["uruk"]}
    s = position({"1-1": 0}, {"sumer": ("1-1", 1), "ur": ("1-1", 1), "uruk": ("1-1", 1)}, cities=cities)
    score_participant(s, 0, [])
    assert lines(s)["Cities"] == 3 and lines(s)["Commerce"] == 1


def test_6_2_a_bonus_area_held_by_its_civilization_has_its_line():
    s = position({"1-2": 0}, {"ur": ("1-2", 1)})  # 6.2: "the 1-2 Elam card shows 'Bonus Area: Ur'"
    score_participant(s, 0, [])
    assert lines(s)["Bonus Areas"] == 1


def test_7_3_region_status_of_every_epoch_adds_up_in_one_line():
    s = position({"1-3": 0}, {a: ("1-3", 1) for a in EGYPT})
    score_participant(s, 0, [])  # Egypt domination 4, 4 Areas 2
    del s.civ_at["nubia"], s.count["nubia"]
    score_participant(s, 0, [])  # an Epoch later: Egypt control 2, 3 Areas 1
    assert lines(s) == {"Areas": 3, "Regions": 6}
    assert s.vp[0] == 9


def test_7_0_vps_on_the_track_before_the_record_are_not_itemised():
    s = position({"1-3": 0}, {"zoan": ("1-3", 1)}, vp=[5, 0, 0, 0])
    score_participant(s, 0, [])  # Egypt presence 1
    assert lines(s) == {"Regions": 1, NOT_ITEMISED: 5}
    assert lines(s, 1) == {}


def test_7_0_a_game_saved_before_the_record_loads_with_its_vps_not_itemised():
    saved = json.loads(GAME.dumps(GAME.setup(PLAYERS, 1)))
    del saved["vp_by"]
    saved["vp"][0] = 7
    state = GAME.loads(json.dumps(saved))
    assert lines(state) == {NOT_ITEMISED: 7} and lines(state, 1) == {}
    score_participant(state, 0, [])  # it goes on recording what it scores from now on
    assert [sum(vp for _, vp in seat) for seat in GAME.score_breakdown(state)] == GAME.scores(state)
