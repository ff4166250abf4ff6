"""8.0 End of Epoch Events and the Bronze Age Collapse."""

from __future__ import annotations

from engine.cradle import GAME
from engine.cradle.epoch_end import advance_events, begin_events, bronze_age_collapse
from engine.cradle.flow import advance
from engine.cradle.scoring import score_seat
from engine.cradle.state import State

from .helpers import Scripted, act, position, text

BIG = ["sumer", "uruk", "ur", "babylon", "malgium", "eshnunna"]


def _events(state: State) -> tuple[bool, list[str]]:
    events: list[str] = []
    begin_events(state, events)
    waiting = advance_events(state, events)
    return waiting, events


def test_8_0_each_civilization_rolls_and_only_a_6_rolls_on_the_chart():
    s = position({"1-1": 0, "1-2": 1}, {"sumer": ("1-1", 1), "elam": ("1-2", 1)}, rolls=[5, 4])
    waiting, events = _events(s)
    assert not waiting
    assert "1-1 Sumer rolls 5: no event." in events and "1-2 Elam rolls 4: no event." in events


def test_8_0_barbarian_raids_last_place_player_places_upside_down_army():
    board = {a: ("1-1", 2) for a in BIG}
    s = position({"1-1": 0}, board, vp=[10, 3, 5, 7], rolls=[6, 1])
    waiting, events = _events(s)
    assert waiting and s.last_place == 1 and GAME.to_act(s) == [1]
    assert "Barbarian Raids" in text(events)
    options = GAME.legal_actions(s, 1)
    assert all(a.startswith("raid ") for a in options) and "raid babylon" in options
    s.rng = Scripted([2])  # no second raid
    s, events = act(s, "raid babylon", seat=1)
    assert s.civ_at["babylon"] == "r1" and s.count["babylon"] == 1
    assert "The raids end (rolls 2)" in text(events)
    view = GAME.view(s, None)["board"]["babylon"]
    assert view["raider"] and view["owner"] == 1 and not view["active"]


def test_8_0_barbarian_raids_second_area_on_4_to_6():
    s = position({"1-1": 0}, {a: ("1-1", 1) for a in BIG}, vp=[10, 3, 5, 7], rolls=[6, 2])
    _events(s)
    s.rng = Scripted([5, 1])
    s, events = act(s, "raid sumer", seat=1)
    assert "a second Area is raided" in text(events) and s.ev_step.kind == "raid"
    s, events = act(s, "raid uruk", seat=1)
    assert s.civ_at["uruk"] == "r1" and s.ev_step is None


def test_8_0_civil_war_takes_a_third_of_the_areas():
    s = position({"1-1": 0}, {a: ("1-1", 1) for a in BIG}, vp=[10, 3, 5, 7], rolls=[6, 3])
    _events(s)
    assert s.ev_step.kind == "revolt" and s.ev_step.left == 2
    s, _ = act(s, "revolt ur", seat=1)
    s, _ = act(s, "revolt sumer", seat=1)
    assert s.civ_at["ur"] == "r1" and s.civ_at["sumer"] == "r1" and s.ev_step is None


def test_8_0_last_place_tie_rolled_off():
    s = position({"1-1": 0}, {a: ("1-1", 1) for a in BIG}, vp=[10, 3, 3, 7], rolls=[6, 3, 5, 2])
    waiting, events = _events(s)
    assert "bob rolls 5, cyd rolls 2" in text(events) and s.last_place == 2  # the lower roll is last


def test_8_0_disaster_destroys_wonders_for_good():
    s = position(
        {"1-1": 0}, {"sumer": ("1-1", 2), "uruk": ("1-1", 1)}, cities={"uruk": ["uruk"]}, vp=[10, 3, 5, 7], rolls=[6, 5]
    )
    s.wonders = {"hanging-gardens": "sumer"}
    waiting, events = _events(s)
    assert s.wonders == {} and s.lost_wonders == ["hanging-gardens"]
    assert s.count["sumer"] == 1 and "uruk" not in s.civ_at
    assert "uruk" not in s.cities  # the only City was ruined (one option: no choice needed)


def test_8_0_plague_on_the_civilizations_areas():
    s = position(
        {"1-1": 0}, {"sumer": ("1-1", 2), "uruk": ("1-1", 1)}, cities={"sumer": ["lagash"]}, rolls=[6, 6, 4, 3]
    )
    waiting, events = _events(s)
    assert s.count["sumer"] == 1 and "sumer" not in s.cities and s.count["uruk"] == 1


def test_8_0_raiders_score_for_their_owner_and_5_3_move_out_of_a_start_area() -> None:
    """Raiders count for their player (7.0); in a new Start Area they must move like any Army (5.3),
    their player choosing, and are removed when they cannot (RULES-NOTES 5.3)."""
    s = position({"6-1": 0, "2-2": 1}, {"nubia": ("r2", 1), "thebes": ("2-2", 1)}, epoch=6, rolls=[3, 4])
    assert score_seat(s, 2).areas == 1
    from engine.cradle.rounds import start_round

    events: list[str] = []
    start_round(s, "6-1", events)
    assert s.civ_at["nubia"] == "6-1"
    assert "1 Army of cyd's raiders must move" in text(events) and "has nowhere to go" in text(events)
    s = position({"4-3": 0}, {"philistia": ("r2", 1)}, epoch=4, rolls=[3, 4])
    start_round(s, "4-3", [])
    assert GAME.to_act(s) == [2] and GAME.legal_actions(s, 2) == ["move judea", "move phoenicia", "move sinai"]
    s, events = act(s, "move judea", seat=2)
    assert s.civ_at["judea"] == "r2" and s.civ_at["philistia"] == "4-3"
    assert "1 Army of cyd's raiders moves from Philistia to Judea." in events


def test_8_0_raiders_do_not_roll_for_events():
    s = position({"1-1": 0}, {"sumer": ("r1", 1)}, rolls=[])
    waiting, events = _events(s)
    assert not waiting and s.rng.used == []


def test_8_0_bronze_age_collapse_every_area_rolls() -> None:
    s = position(
        {"1-1": 0}, {"sumer": ("1-1", 2), "uruk": ("1-1", 1)}, cities={"sumer": ["lagash"], "ur": ["ur"]}, epoch=3
    )
    from engine.cradle.data import components

    order = list(components().areas)
    rolls = {a: 1 for a in order}
    rolls.update({"sumer": 4, "uruk": 6, "ur": 5})
    s.rng = Scripted([rolls[a] for a in order])
    events: list[str] = []
    bronze_age_collapse(s, events)
    assert events[0].startswith("Bronze Age Collapse: every Area rolls for Plague: ")
    assert "Sumer 4" in events[0] and "Thrace 1" in events[0]
    assert s.count["sumer"] == 1 and "uruk" not in s.civ_at
    assert s.cities == {}  # Lagash and Ur destroyed


def _end_strategy(epoch: int) -> tuple[State, str]:
    s = position({f"{epoch}-1": 0}, {"sumer": ("1-1", 1)}, epoch=epoch)
    s.cards["1-1"] = 1
    s.order, s.turn, s.queue, s.rnd = [0], 0, [], None
    s.rng = Scripted([1] * 56)  # Sumer's event roll and the 55 Plague rolls; then a seeded generator
    events: list[str] = []
    advance(s, events)
    return s, text(events)


def test_8_0_bronze_age_collapse_only_after_epoch_3():
    _, log3 = _end_strategy(3)
    assert "Bronze Age Collapse" in log3 and "Epoch IV, the Dark Age, begins" in log3
    _, log2 = _end_strategy(2)
    assert "Bronze Age Collapse" not in log2


def test_8_0_no_events_after_epoch_6():
    s, log = _end_strategy(6)
    assert GAME.is_over(s) and "rolls for events" not in log
