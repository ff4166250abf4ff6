"""End of the Game: scoring, covered leaders, ties, the optional two-game match."""

from __future__ import annotations

import random

from engine.rising_cultures import scoring

from .helpers import GAME, at_play, filler_progress, lay_out, new_game

GAUL, SCYTHIA, MAURETANIA, CARTHAGE = 1, 10, 9, 11
ANDALUSIA, ANATOLIA, LIBYA, BABYLONIA = 12, 13, 14, 15


def persia_example():
    """The rulebook's Persia: 32 (buildings and leaders) + 6 (board) + 11 (provinces) + 3 (marker)."""
    s = at_play(("persia", "rome"), marker=0, coins=(0, 0))
    lay_out(
        s,
        0,
        hand=[],
        military=[],
        resources=[],
        buildings=[
            "persepolis",
            "tomb-of-cyrus",
            "pasargadae",
            "royal-road",
            "satrap-palace",
            "treasury-of-susa",
            "immortals-barracks",
            "nisaean-stables",
            "behistun-inscription",
        ],
        leaders=[["cambyses-ii", "xerxes-i"], ["darius-i"]],  # Cambyses II is covered
        provinces=[GAUL, MAURETANIA, SCYTHIA, CARTHAGE],
    )
    filler_progress(s, 0, 7)
    return s


def test_end_persia_scoring_example_32_6_11_3_is_52():
    s = persia_example()
    assert scoring.breakdown(s, 0) == {"buildings_leaders": 32, "board": 6, "provinces": 11, "marker": 3, "total": 52}
    assert GAME.scores(s)[0] == 52


def test_end_board_golden_age_3_level_6_2_level_7_1():
    s = persia_example()
    for level, vp in ((4, 0), (5, 3), (6, 5), (7, 6)):
        filler_progress(s, 0, level)
        assert scoring.board_vp(s, 0) == vp


def test_end_covered_leaders_do_not_score_except_persia_and_rome_at_their_level():
    s = persia_example()
    filler_progress(s, 0, 3)  # below Persia's level 4: covered Cambyses II (2 VP) does not count
    assert scoring.breakdown(s, 0)["buildings_leaders"] == 30
    filler_progress(s, 0, 4)
    assert scoring.breakdown(s, 0)["buildings_leaders"] == 32
    # Rome: level 5
    lay_out(s, 1, buildings=[], leaders=[["hadrian", "augustus"]], provinces=[])
    filler_progress(s, 1, 4)
    assert scoring.breakdown(s, 1)["buildings_leaders"] == 3
    filler_progress(s, 1, 5)
    assert scoring.breakdown(s, 1)["buildings_leaders"] == 6
    # Egypt and the Abbasid Caliphate never score covered leaders
    s = at_play(("egypt", "abbasid"))
    lay_out(s, 0, buildings=[], leaders=[["khufu", "hatshepsut"]])
    lay_out(s, 1, buildings=[], leaders=[["harun-al-rashid", "zubaidah"]])
    filler_progress(s, 0, 7)
    filler_progress(s, 1, 7)
    assert scoring.breakdown(s, 0)["buildings_leaders"] == 2
    assert scoring.breakdown(s, 1)["buildings_leaders"] == 2


def test_end_progress_marker_3_vp_and_tie_goes_to_the_marker_holder():
    s = at_play(("rome", "persia"), marker=1)
    for seat in (0, 1):
        lay_out(s, seat, buildings=[], leaders=[], provinces=[], progress=[])
    lay_out(s, 0, buildings=["forum"])  # 3 VP, like Persia's marker
    s.phase = "over"
    assert GAME.scores(s) == [3, 3] and GAME.winners(s) == [1]
    s.marker = 0
    assert GAME.scores(s) == [6, 0] and GAME.winners(s) == [0]


def test_provinces_game_end_rules_andalusia_anatolia_libya_babylonia():
    s = at_play(("rome", "egypt"), marker=0, coins=(5, 0))
    lay_out(s, 0, military=["castra", "forum", "villa"], provinces=[ANDALUSIA])
    filler_progress(s, 0, 2)
    assert scoring.province_vp(s, 0, ANDALUSIA) == 2  # 2 pairs (progress, military)
    filler_progress(s, 0, 4)
    assert scoring.province_vp(s, 0, ANDALUSIA) == 3
    assert scoring.province_vp(s, 0, ANATOLIA) == 2
    filler_progress(s, 0, 5)  # Golden Age side
    assert scoring.province_vp(s, 0, ANATOLIA) == 5
    s.nile_coins = [[0, 1], [0], []]
    assert scoring.province_vp(s, 0, LIBYA) == 5 + 2  # own coins and own Nile coins
    assert scoring.province_vp(s, 0, BABYLONIA) == 6  # marker holder: 4 + 2
    s.marker = 1
    assert scoring.province_vp(s, 0, BABYLONIA) == 4


def test_card_game_end_effects_vp_per_counters():
    s = at_play(("rome", "persia"))
    lay_out(
        s,
        0,
        buildings=["triumphal-arch", "circus-maximus", "temple-of-jupiter"],
        leaders=[],
        provinces=[1, 4, 2],
        military=["via-appia", "market", "villa", "portus", "theatre"],
    )
    # Triumphal Arch 1 + 3 provinces; Circus Maximus 3 + min(4, horses 5 + printed band-6 horse 0);
    # Temple of Jupiter 3 + icon A provinces (1, 4)
    assert scoring.breakdown(s, 0)["buildings_leaders"] == (1 + 3) + (3 + 4) + (3 + 2)


def test_end_after_round_7_fourth_card_goes_to_the_box_and_game_is_over():
    rng = random.Random(4)
    s = GAME.setup(["a", "b"], 4, {"civs": ["rome", "abbasid"]})
    while s.round < 7 or s.phase != "play":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert all(len(p.deck) == 0 for p in s.players)  # the 24-card deck is used up exactly
    while s.phase == "play":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert all(p.hand == [] and p.deck == [] for p in s.players)
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert GAME.to_act(s) == [] and len(GAME.winners(s)) == 1 and s.round == 7


def test_optional_two_game_match_swaps_civilizations_same_provinces_combined_total():
    rng = random.Random(9)
    s = new_game(("egypt", "persia"), seed=9, match=True)
    provinces = list(s.chosen)
    while s.game_no == 1:
        seat = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    first = list(s.first_scores)
    assert [p.civ for p in s.players] == ["persia", "egypt"] and s.row == provinces
    assert s.first_civs == ["egypt", "persia"] and not GAME.is_over(s)
    assert all(len(p.hand) == 4 and p.provinces == [] for p in s.players)
    while not GAME.is_over(s):
        seat = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    second = scoring.totals(s)
    assert GAME.scores(s) == [a + b for a, b in zip(first, second, strict=True)]
    total = GAME.scores(s)
    expected = [i for i in (0, 1) if total[i] == max(total)]
    assert GAME.winners(s) == (expected if len(expected) == 1 else [s.marker])
    assert GAME.view(s, None)["first_game_scores"] == first


def test_end_covered_leaders_that_score_count_their_game_end_effect_too():
    """RULES-NOTES: Rome at level 5 scores covered Trajan: 2 VP + 1 per province."""
    s = at_play(("rome", "persia"))
    lay_out(s, 0, buildings=[], leaders=[["trajan", "augustus"]], provinces=[GAUL, CARTHAGE])
    filler_progress(s, 0, 4)
    assert scoring.breakdown(s, 0)["buildings_leaders"] == 3  # Augustus only
    filler_progress(s, 0, 5)
    assert scoring.breakdown(s, 0)["buildings_leaders"] == 3 + 2 + 2
