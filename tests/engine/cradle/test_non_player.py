"""9.0 Optional: Non-Player Civilizations (setup option `non_player`)."""

from __future__ import annotations

import random

import pytest

import engine
from engine import IllegalAction
from engine.cradle import GAME
from engine.cradle.board import C
from engine.cradle.rounds import start_round
from engine.cradle.state import DUMMY
from tests.engine import conformance

from .helpers import act, in_round, position, text


def test_9_0_setup_option_deals_the_non_player_a_card():
    s = GAME.setup(["a", "b", "c", "d"], 4, {"non_player": True})
    assert list(s.cards.values()).count(DUMMY) == 1
    assert len(s.cards) == 5
    assert "-1" in GAME.view(s, None)["cards"]


def test_9_0_no_bonus_and_players_place_in_vp_order() -> None:
    s = position({"1-4": DUMMY, "1-1": 0, "1-2": 1, "1-3": 2, "1-5": 3}, vp=[6, 2, 9, 4], rolls=[])
    s.non_player = True
    events: list[str] = []
    start_round(s, "1-4", events)
    rnd = s.round_now()
    assert rnd.bonus == 0 and rnd.pool == 11 and s.civ_at["malgium"] == "1-4"
    assert rnd.placers == [1, 3, 0, 2]
    assert GAME.to_act(s) == [1]  # fewest VPs: places the second Army
    s, _ = act(s, GAME.legal_actions(s, 1)[0], seat=1)
    assert GAME.to_act(s) == [3]  # the third Army: second fewest
    s, _ = act(s, GAME.legal_actions(s, 3)[0], seat=3)
    assert GAME.to_act(s) == [0]


def test_9_0_no_stacking_no_non_combat_expansion_no_done():
    s = in_round(
        position({"1-4": DUMMY, "1-1": 0}, {"malgium": ("1-4", 1)}, cities={"malgium": ["x"]}),
        "1-4",
        DUMMY,
        5,
        placers=[0, 1, 2, 3],
    )
    s.rnd.placed = 1
    legal = GAME.legal_actions(s, 0)
    assert "place malgium" not in legal
    assert not any(a.split()[0] in ("done", "culture", "wonder", "colonize") for a in legal)


def test_9_0_avoids_desert_unless_it_has_to():
    s = in_round(position({"1-4": DUMMY}, {"babylon": ("1-4", 1)}), "1-4", DUMMY, 5, placers=[0, 1, 2, 3])
    s.rnd.placed = 1
    assert "place arabia" not in GAME.legal_actions(s, 0)
    # Sinai is Desert; from Sinai the non-player may also reach Zoan, Philistia, Judea
    boxed = {
        "babylon": ("1-4", 1),
        "uruk": ("1-1", 1),
        "mari": ("1-1", 1),
        "eshnunna": ("1-1", 1),
        "malgium": ("1-1", 1),
        "sumer": ("1-1", 1),
    }
    s = in_round(position({"1-4": DUMMY, "1-1": 0}, boxed), "1-4", DUMMY, 5, placers=[0, 1, 2, 3])
    s.rnd.placed = 1
    legal = GAME.legal_actions(s, 0)
    assert "place arabia" not in legal and "attack uruk" in legal  # attacking beats entering the Desert
    alone = {"arabia": ("1-4", 1), "yamhad": ("1-1", 1)}
    s = in_round(position({"1-4": DUMMY, "1-1": 0}, alone), "1-4", DUMMY, 5, placers=[0, 1, 2, 3])
    s.rnd.placed = 1
    assert "place amurru" in GAME.legal_actions(s, 0)


def test_9_0_no_growth_after_its_epoch_and_no_vps() -> None:
    from engine.cradle.flow import queue_for, score_participant

    s = position({"1-4": DUMMY, "2-3": DUMMY}, {a: ("1-4", 1) for a in ["babylon", "mari", "assur"]}, epoch=2)
    assert queue_for(s, DUMMY) == ["2-3"]
    events: list[str] = []
    score_participant(s, DUMMY, events)
    assert "scores no VPs" in text(events) and s.vp == [0, 0, 0, 0]


def test_9_0_surrounded_non_player_must_attack():
    s = in_round(
        position(
            {"1-4": DUMMY, "1-1": 0},
            {
                "south-zagros": ("1-4", 1),
                "elam": ("1-1", 1),
                "malgium": ("1-1", 1),
                "eshnunna": ("1-1", 1),
                "north-zagros": ("1-1", 1),
                "media": ("1-1", 1),
                "anshan": ("1-1", 1),
            },
        ),
        "1-4",
        DUMMY,
        2,
        placers=[0, 1, 2, 3],
    )
    s.rnd.placed = 1
    assert all(a.startswith("attack") for a in GAME.legal_actions(s, 0))


class _WithOption:
    """The Cradle game with `non_player` switched on, for the shared checker's `play_one`."""

    def __init__(self, game):
        self._game = game

    def setup(self, players, seed, options=None):
        return self._game.setup(players, seed, {"non_player": True})

    def __getattr__(self, name):
        return getattr(self._game, name)


@pytest.mark.parametrize("players", [4, 5])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_9_0_contract_laws_hold_with_non_player_civilizations(players, seed):
    check = conformance.load()
    result = check.play_one(_WithOption(GAME), engine, players, seed, max_steps=50_000, probe_every=7)
    assert result["actions"] > 0


@pytest.mark.parametrize("seed", range(4))
def test_9_0_random_games_reach_the_end(seed):
    rng = random.Random(seed)
    s = GAME.setup(["a", "b", "c", "d", "e"][: 4 + seed % 2], seed, {"non_player": True})
    dummy_rounds = 0
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        grow = [a for a in legal if a != "done"]
        if s.rnd is not None and s.rnd.seat == DUMMY:
            dummy_rounds += 1
        s = GAME.apply(s, seat, rng.choice(grow or legal)).state
    assert dummy_rounds > 0 and s.epoch == 6 and len(GAME.winners(s)) >= 1


def test_9_0_non_player_with_nowhere_to_grow_returns_the_rest() -> None:
    """Sargonid Assyria (non-player) hemmed in by Neo Assyria, which it may not attack (6.3)."""
    from engine.cradle.flow import advance

    ring = ["isuwa", "carchemish", "mari", "assur", "nineveh"]
    board = {a: ("5-4", 1) for a in ring}
    board["hanigalbat"] = ("6-2", 3)
    s = in_round(position({"6-2": DUMMY, "5-4": 0}, board, epoch=6), "6-2", DUMMY, 3, placers=[0, 1, 2, 3])
    s.non_player = True
    s.order = [DUMMY]
    events: list[str] = []
    advance(s, events)
    assert "has nowhere to grow; 3 Armies return unused (5.4)." in text(events)


def test_9_0_boxed_in_non_player_stacks_since_it_has_to() -> None:
    """ "they do not stack, nor enter Desert Areas unless they have to": Sargonid Assyria (non-player)
    hemmed in by Neo Assyria, which it may not attack (6.3), has to stack, and 5.4 places every Army
    of the pool (issue 49: it sent them back unused, while its displaced Armies could stack)."""
    ring = ["isuwa", "carchemish", "mari", "assur", "nineveh"]
    board = {a: ("5-4", 1) for a in ring}
    board["hanigalbat"] = ("6-2", 1)
    s = in_round(position({"6-2": DUMMY, "5-4": 0}, board, epoch=6), "6-2", DUMMY, 4, placers=[0, 1, 2, 3])
    s.round_now().placed = 1
    s.non_player = True
    assert GAME.legal_actions(s, 0) == ["place hanigalbat"]
    s, _ = act(s, "place hanigalbat")
    s, events = act(s, "place hanigalbat")
    assert s.count["hanigalbat"] == 3  # its stacking limit: the last 2 have nowhere to go
    assert "has nowhere to grow; 2 Armies return unused (5.4)." in text(events)


def test_9_0_non_player_that_has_to_stack_or_enter_a_desert_may_do_either() -> None:
    """When no vacant or hostile Area outside the Desert is left, the non-player has to stack or to
    enter a Desert; the rules prefer neither, so its placer chooses (as for its displaced Armies)."""
    board = {a: ("5-4", 1) for a in ["assur", "babylon", "carchemish", "hanigalbat"]}  # Mari's other borders
    board["mari"] = ("6-2", 1)  # Sargonid Assyria, which may not enter Neo Assyria's Areas (6.3)
    s = in_round(position({"6-2": DUMMY, "5-4": 0}, board, epoch=6), "6-2", DUMMY, 4, placers=[0, 1, 2, 3])
    s.round_now().placed = 1
    assert C.areas["arabia"].terrain == "desert" and C.stacking["mari"] == 3
    assert sorted(GAME.legal_actions(s, 0)) == ["place arabia", "place mari"]


def test_9_0_displaced_non_player_armies_go_where_the_fewest_vp_player_says_without_stacking():
    """Akkad enters Malgium, held by two non-player Sumerian Armies. Babylon is the non-player's too
    (friendly, room for more); Eshnunna, Elam, South Zagros and Sumer are vacant. The non-player "does
    not stack" while it need not (9.0), so each Army goes to a vacant Area, one at a time; bob, with the
    fewest VPs, chooses where (RULES-NOTES 9.0)."""
    s = position(
        {"1-4": 0, "1-1": DUMMY}, {"malgium": ("1-1", 2), "babylon": ("1-1", 1)}, vp=[3, 0, 5, 6], rolls=[3, 4]
    )
    s.non_player = True
    events: list[str] = []
    start_round(s, "1-4", events)
    assert s.rnd.step == "displace" and GAME.to_act(s) == [1]
    assert "bob (fewest VPs) moves the non-player Armies out of Malgium (9.0)." in events
    assert GAME.legal_actions(s, 1) == ["move elam", "move eshnunna", "move south-zagros", "move sumer"]
    with pytest.raises(IllegalAction, match="not Desert while there is one, one at a time"):
        GAME.apply(s, 1, "move 2 sumer")
    s, _ = act(s, "move sumer", seat=1)
    assert GAME.to_act(s) == [1] and "move sumer" not in GAME.legal_actions(s, 1)  # no stacking
    s, _ = act(s, "move elam", seat=1)
    assert s.civ_at["malgium"] == "1-4" and s.count["babylon"] == 1
    assert s.civ_at["sumer"] == s.civ_at["elam"] == "1-1"


def test_9_0_displaced_non_player_army_that_must_stack_or_enter_the_desert_is_a_choice():
    """Old Babylon enters Babylon, held by two non-player Amorite Armies; all it may reach is Mari (its
    own, 1 there) and the empty Arabian Desert. Stacking and the Desert are both things it does only
    "unless they have to" (9.0): it has to do one, so the fewest-VP player picks either."""
    board = {
        "babylon": ("1-6", 2),
        "eshnunna": ("1-2", 1),
        "malgium": ("1-2", 1),
        "mari": ("1-6", 1),
        "sumer": ("1-2", 1),
        "uruk": ("1-2", 1),
    }
    s = position({"2-3": 0, "1-6": DUMMY, "1-2": 1}, board, epoch=2, vp=[0, 4, 2, 2], rolls=[3, 4])
    s.non_player = True
    start_round(s, "2-3", [])
    assert GAME.to_act(s) == [0] and GAME.legal_actions(s, 0) == ["move arabia", "move mari"]
    stacked, _ = act(act(s, "move mari")[0], "move mari")
    assert stacked.count["mari"] == 3 and "arabia" not in stacked.civ_at and stacked.rng.used == [3, 4]
    s.rng.rolls = [5]
    desert, events = act(s, "move arabia")
    assert desert.civ_at["arabia"] == "1-6" and "enters the empty Desert of Arabia: rolls 5" in text(events)


def test_9_0_tied_fewest_vps_roll_off_for_moving_the_non_player_armies():
    s = position({"1-4": 0, "1-1": DUMMY}, {"malgium": ("1-1", 2)}, vp=[1, 0, 0, 3], rolls=[3, 4, 2, 5])
    s.non_player = True
    events: list[str] = []
    start_round(s, "1-4", events)
    assert "Tie for moving the Armies of 1-1 Sumer: bob rolls 2, cyd rolls 5." in events
    assert GAME.to_act(s) == [2]


def test_9_0_non_player_sargonid_assyria_start_is_chosen_by_its_first_placer():
    """6-3 lets Sargonid Assyria enter next to Neo Assyria; as a non-player civilization the player with
    the fewest VPs places its first Army (9.0), so picks the Area among those that are not Desert."""
    board = {"nineveh": ("5-4", 2), "assur": ("5-4", 1)}
    s = position({"5-4": 1, "6-2": DUMMY}, board, epoch=6, vp=[4, 9, 2, 7])
    s.non_player = True
    start_round(s, "6-2", [])
    assert s.rnd.step == "start" and GAME.to_act(s) == [2]
    starts = GAME.legal_actions(s, 2)
    assert {"start hanigalbat", "start eshnunna", "start mari", "start van"} <= set(starts)
    assert all(C.areas[a.split()[1]].terrain != "desert" for a in starts)
    s, _ = act(s, "start mari", seat=2)
    assert s.civ_at["mari"] == "6-2" and GAME.to_act(s) == [2]  # the same player places the second Army
