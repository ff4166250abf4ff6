"""7.0 Player Scoring: immediate VPs, Area control (7.2) and Region status (7.3)."""

from __future__ import annotations

from engine.cradle import GAME
from engine.cradle.scoring import region_status, result_line, score_seat

from .helpers import act, in_round, position, text

EGYPT = ["zoan", "memphis", "thebes", "nubia"]


def test_7_2_area_control_points():
    cities = {"memphis": ["memphis"], "thebes": ["abydos"]}
    board = {"zoan": ("1-3", 2), "memphis": ("1-3", 1), "thebes": ("1-3", 1), "sinai": ("1-3", 1), "judea": ("1-2", 1)}
    s = position({"1-3": 0, "1-2": 1}, board, cities=cities)
    s.wonders = {"great-pyramid": "memphis"}
    sc = score_seat(s, 0)
    assert (sc.areas, sc.area_vp, sc.cities, sc.wonders) == (4, 2, 2, 1)
    # Egypt: 3 of 4 Areas -> control (2); Levant: Sinai only -> presence (1)
    assert sc.regions == {"egypt": ("control", 2), "levant": ("presence", 1)}
    assert sc.total == 2 + 2 + 2 + 2 + 1


def test_7_0_all_armies_of_the_colour_count_whatever_their_epoch():
    board = {"zoan": ("1-3", 1), "memphis": ("2-2", 1), "thebes": ("r0", 1)}
    s = position({"1-3": 0, "2-2": 0}, board, epoch=2)
    assert score_seat(s, 0).areas == 3


def test_7_3_presence_control_domination():
    s = position({"1-3": 0, "1-2": 1}, {"zoan": ("1-3", 1)})
    assert region_status(s, 0) == {"egypt": ("presence", 1)}
    s = position({"1-3": 0, "1-2": 1}, {"zoan": ("1-3", 1), "memphis": ("1-3", 1), "nubia": ("1-2", 1)})
    assert region_status(s, 0)["egypt"] == ("control", 2)
    s = position({"1-3": 0}, {a: ("1-3", 1) for a in EGYPT})
    assert region_status(s, 0)["egypt"] == ("domination", 4)


def test_7_3_control_needs_more_areas_than_anyone_else():
    board = {"zoan": ("1-3", 1), "memphis": ("1-3", 1), "thebes": ("1-2", 1), "nubia": ("1-2", 1)}
    s = position({"1-3": 0, "1-2": 1}, board)
    assert region_status(s, 0)["egypt"] == ("presence", 1)
    assert region_status(s, 1)["egypt"] == ("presence", 1)


def test_7_3_arabian_desert_scores_only_domination():
    s = position({"1-4": 0}, {"arabia": ("1-4", 1)})
    assert region_status(s, 0) == {"arabian-desert": ("domination", 1)}


def test_7_1_immediate_vps_for_non_combat_expansion():
    s = in_round(position({"1-1": 0}, {"sumer": ("1-1", 1)}, cities={"sumer": ["lagash"]}, rolls=[6, 6]), "1-1", 0, 3)
    s, _ = act(s, "wonder sumer")
    s, _ = act(s, "culture")
    assert s.vp[0] == 2 + 4


def test_7_2_scored_after_the_players_last_round_only() -> None:
    board = {"sumer": ("1-1", 1), "uruk": ("1-1", 1), "ur": ("1-1", 1), "mari": ("1-6", 1)}
    s = position({"1-1": 0, "1-6": 0, "2-1": 0, "2-3": 1}, board, epoch=2, rolls=[3, 4])
    s.order, s.turn, s.queue = [0, 1], 0, ["1-1", "1-6", "2-1"]
    from engine.cradle.flow import advance

    events: list[str] = []
    advance(s, events)  # 1-1 (3 Areas): pool 1
    assert s.round_now().civ == "1-1" and s.vp[0] == 0
    s, events = act(s, "place sumer")
    assert s.round_now().civ == "2-1" and s.vp[0] == 0  # 1-6 had no growth; Minoans to come: nothing scored yet
    s.round_now().pool = 1  # the Minoans' last Army
    s, events = act(s, "place crete")
    # 5 Areas (2), Mesopotamia presence (1) ... scored once, after the Minoans' round
    assert "ann scores" in text(events) and s.vp[0] == score_before(board)


def score_before(board):
    from engine.cradle.scoring import score_seat as sc

    s = position({"1-1": 0, "1-6": 0, "2-1": 0}, {**board, "crete": ("2-1", 1)}, epoch=2)
    return sc(s, 0).total


def test_7_0_winner_most_vps_then_fewest_armies():
    s = position({"1-1": 0, "1-2": 1}, {"sumer": ("1-1", 2), "elam": ("1-2", 1)}, vp=[9, 9, 3, 1])
    s.phase = "over"
    assert GAME.winners(s) == [1]
    s.count["sumer"] = 1
    assert GAME.winners(s) == [0, 1]


# ---- 1.0 / 7.0: the result ------------------------------------------------------


def _final(vp, board):
    s = position({"1-1": 0, "1-2": 1, "1-3": 2, "1-4": 3}, board, vp=vp)
    s.phase = "over"
    return s


def test_1_0_the_last_line_names_the_winner():
    s = _final([40, 35, 12, 9], {})
    assert result_line(s) == "ann wins with 40 VP." and GAME.winners(s) == [0]


def test_7_0_a_tie_broken_by_fewest_armies_names_the_tie_break():
    """RULES-NOTES 7.0: most VPs, then fewest Armies on the map."""
    s = _final([40, 40, 40, 9], {"sumer": ("1-1", 3), "elam": ("1-2", 1), "zoan": ("1-3", 2)})
    assert result_line(s) == (
        "ann, bob and cyd tie on 40 VP; the tie-break, fewest Armies on the map, goes to "
        "bob (1 against ann 3, cyd 2): bob wins."
    )
    assert GAME.winners(s) == [1]


def test_7_0_a_tie_the_tie_break_does_not_decide_is_shared():
    s = _final([40, 40, 12, 9], {"sumer": ("1-1", 2), "elam": ("1-2", 2)})
    assert result_line(s) == "ann and bob tie on 40 VP with 2 Armies on the map each: they share the win."
    assert GAME.winners(s) == [0, 1]
