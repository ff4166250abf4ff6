"""Issue 13 (rules audit): the readings settled in RULES-NOTES and the words players stumble on.

Each test is named after the rulebook section (or the RULES-NOTES entry) it checks.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import IllegalAction
from engine.rising_cultures import scoring
from engine.rising_cultures.rules import BOARDS

from .helpers import GAME, act, at_phase3, at_play, ids, lay_out, new_game

GAUL, MAURETANIA = 1, 9


# ---- readings ---------------------------------------------------------------------------


def test_use_4_persia_two_leader_stacks_come_from_its_board_not_from_the_rule(monkeypatch):
    """RULES-NOTES "Leaders": "one leader in play at a time" is the rule; Persia's board
    (reconstructed, `leader_slots = 2`) is the exception. With a one-stack Persia board
    the general rule applies to Persia too: a new leader covers the old."""
    s = at_play(("persia", "rome"), coins=(30, 0))
    lay_out(s, 0, hand=["darius-i", "xerxes-i", "atossa", "qanat"], leaders=[["cambyses-ii"]])
    two = GAME.apply(GAME.apply(s, 0, "play darius-i build").state, 0, "cover nothing").state
    assert two.players[0].leaders == [ids(s, 0, "cambyses-ii"), ids(s, 0, "darius-i")]
    monkeypatch.setitem(BOARDS, "persia", dataclasses.replace(BOARDS["persia"], leader_slots=1))
    one = GAME.apply(s, 0, "play darius-i build").state
    assert one.players[0].leaders == [ids(s, 0, "cambyses-ii", "darius-i")]


def test_phase_2_mauretania_free_swap_only_at_the_start_of_phase_2():
    """RULES-NOTES "Swaps": Mauretania's "swap 1 card from your hand for free" is a Phase II
    swap (draw a new card, one card to the bottom), made where swaps are made."""
    s = at_play(coins=(3, 0))
    s.players[0].provinces = [MAURETANIA]
    assert "swap free" not in GAME.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="Swaps are made at the start of Phase II, before the first card is played"):
        GAME.apply(s, 0, "swap free")


# ---- refusals say why ----------------------------------------------------------------------


def test_phase_3_refusal_says_the_marker_holder_decides_first():
    s = at_play(marker=1)
    lay_out(s, 0, hand=[], military=["castra"])
    lay_out(s, 1, hand=[], military=["royal-road"])
    s = at_phase3(s, GAUL)
    assert GAME.to_act(s) == [1]
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "province compete")
    assert err.value.kind == "not-your-turn"
    assert str(err.value) == (
        "It is not ann's turn; waiting for bob. bob holds the progress marker and decides "
        "first whether to compete for Gaul; then you decide."
    )


def test_phase_3_refusal_says_a_player_without_the_symbols_cannot_compete():
    s = at_play(marker=1)
    lay_out(s, 0, hand=[], military=[])
    lay_out(s, 1, hand=[], military=["royal-road"])
    s.players[0].civ = "persia"  # no printed sword on band 1 without a card there
    s = at_phase3(s, GAUL)
    with pytest.raises(IllegalAction, match="you have none of its symbols \\(sword or horse\\), so you cannot compete"):
        GAME.apply(s, 0, "province compete")


def test_phase_2_refusal_out_of_turn_says_the_plays_alternate():
    s = at_play(marker=0)
    with pytest.raises(
        IllegalAction,
        match="Phase II alternates one card each, the progress marker holder first: ann plays now, then you.",
    ):
        GAME.apply(s, 1, GAME.legal_actions(s, 0)[0])


# ---- names -------------------------------------------------------------------------------------


def test_use_4_a_card_is_named_as_printed():
    """`play julius caesar build` was refused ("There is no card `julius`")."""
    s = at_play(coins=(10, 0))
    lay_out(s, 0, hand=["julius-caesar", "forum", "villa", "curia"], resources=["portus", "villa", "forum"])
    s2, ev = act(s, 0, "play Julius Caesar build")
    assert ids(s2, 0, "julius-caesar") == s2.players[0].leaders[0] and "Julius Caesar" in ev[0]
    with pytest.raises(IllegalAction, match="Marcus Aurelius is not in your hand"):
        GAME.apply(s, 0, "play marcus aurelius build")
    with pytest.raises(IllegalAction, match="did you mean `play julius-caesar build`"):
        GAME.apply(s, 0, "julius caesar build")


# ---- what is public ----------------------------------------------------------------------------


def test_phase_3_public_pending_text_names_the_player_not_your():
    """Issue 13: "whether Xerxes I keeps your last military card" in the public view."""
    s = at_play(("persia", "rome"))
    lay_out(s, 0, hand=[], military=["royal-road", "cambyses-ii"], leaders=[["xerxes-i"]])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, GAUL)
    s, _ = act(s, 0, "province compete")
    assert GAME.view(s, None)["pending"]["text"] == "whether Xerxes I keeps ann's last military card"
    assert GAME.view(s, 1)["pending"]["text"] == "whether Xerxes I keeps ann's last military card"
    assert GAME.view(s, 0)["pending"]["text"] == "whether Xerxes I keeps your last military card"


# ---- results -----------------------------------------------------------------------------------


def play_out(s, seed: int):
    rng = random.Random(seed)
    events: list[str] = []
    while not GAME.is_over(s):
        seat = rng.choice(GAME.to_act(s))
        step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        s, events = step.state, step.events
    return s, events


def test_end_of_the_game_last_line_names_the_winner():
    s, events = play_out(GAME.setup(["ann", "bob"], 5, {"civs": ["rome", "persia"]}), 5)
    (winner,) = GAME.winners(s)
    score = GAME.scores(s)
    assert events[-2].startswith("The game is over: ann (Rome) ")
    assert events[-1] == f"{s.players[winner].name} wins the game with {score[winner]} VP."


def test_end_of_the_game_tie_line_names_the_marker_holder_and_the_tie_break():
    """ "In case of a tie, the player holding the progress marker wins.\""""
    s = at_play()
    s.phase = "over"
    for seat in (0, 1):
        lay_out(s, seat, buildings=[], leaders=[], provinces=[], progress=[])
    s.marker = 1
    assert scoring.totals(s) == [0, 3]
    s.marker = 0
    s.players[1].provinces = [MAURETANIA]  # 3 VP: 3 all
    assert scoring.totals(s) == [3, 3] and GAME.winners(s) == [0]
    assert scoring.result(s) == (
        "ann wins the game: a tie at 3 VP goes to the player holding the progress marker, ann."
    )


def test_optional_two_game_match_ends_with_the_match_totals():
    """Issue 13: the match's last line gave game 2's points only."""
    s, events = play_out(new_game(("egypt", "persia"), seed=9, match=True), 9)
    total = GAME.scores(s)
    (winner,) = GAME.winners(s)
    assert events[-2].startswith("Game 2 of the match is over: ")
    assert events[-1].startswith(
        f"Match totals (both games): ann {total[0]} VP, bob {total[1]} VP. {s.players[winner].name} wins the match"
    )


def test_28_coins_a_gain_the_supply_cannot_pay_says_so():
    """RULES-NOTES "28 coins": a player takes what is left; the log says why it is less."""
    s = at_play()
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"])
    s.players[1].coins += s.supply
    s.supply = 0
    s, ev = act(s, 0, "play forum coins")
    assert ev[0] == "ann (Rome) discards Forum for 0 coins (the general supply is empty)."
