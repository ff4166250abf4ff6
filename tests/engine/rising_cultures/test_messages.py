"""Refused actions say why, in the rulebook's terms, and what would be legal (DESIGN: IllegalAction)."""

from __future__ import annotations

import pytest

from engine import IllegalAction

from .helpers import GAME, act, at_play, finish_opening, lay_out, new_game, set_coins


def refusal(s, seat, action) -> str:
    before = GAME.dumps(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, action)
    assert err.value.kind == "not-legal" and "Legal now:" in str(err.value)
    assert err.value.legal == GAME.legal_actions(s, seat)
    assert GAME.dumps(s) == before  # state unchanged
    return str(err.value)


def test_use_4_refused_build_names_requirement_shortfall_and_coins():
    """Brewery example with 1 coin: 2 wood, 2 brick, no stone -> 2 coins needed, only 1."""
    s = at_play(coins=(1, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "forum"])
    text = refusal(s, 0, "play brewery build")
    assert "Brewery requires 2 wood, 2 brick, 1 stone" in text
    assert "1 missing resource cost 2 coins and you have 1" in text


def test_use_2_refused_military_when_every_red_band_is_taken():
    s = at_play()
    lay_out(
        s,
        0,
        hand=["market", "forum", "villa", "curia"],
        military=["castra", "insula", "theatre", "portus", "augustus", "hadrian"],
    )
    assert "All 6 red bands of your military area are taken" in refusal(s, 0, "play forum military")


def test_phase_2_refused_play_of_a_card_not_in_hand_or_without_a_use():
    s = at_play()
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"])
    assert "Colosseum is not in your hand. Your hand: Market, Forum, Villa, Curia." in refusal(
        s, 0, "play colosseum coins"
    )
    assert "no card `pyramids-of-giza` in the Rome deck" in refusal(s, 0, "play pyramids-of-giza coins")
    assert "Say how to use Forum: coins, military, resources or build." in refusal(s, 0, "play forum")
    assert "play a card from your hand" in refusal(s, 0, "swap 1")


def test_phase_2_refused_swaps_say_what_limits_them():
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 1)
    assert "Swapping 2 cards costs 2 coins; you have 1." in refusal(s, 0, "swap 2")
    assert "You have no free swap" in refusal(s, 0, "swap free")
    assert "once both players have finished swapping" in refusal(s, 0, "play forum coins")
    assert "Take your income and draw your 4 cards first" in refusal(s, 1, "swap 1")
    set_coins(s, 0, 5)
    s.players[0].provinces = [9]  # Mauretania: a free swap keeps the swap step open after the paid one
    s, _ = act(s, 0, "swap 1")
    lay_out(s, 0, hand=["forum", "villa", "curia", "insula", "market"])
    assert "Place 1 card from your hand at the bottom of your deck first" in refusal(s, 0, "done")
    assert "Only a card from your hand can go to the bottom" in refusal(s, 0, "bottom colosseum")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert "You have made your paid swap this round (1 card)" in refusal(s, 0, "swap 2")
    s, _ = act(s, 0, "swap free")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.players[0].step == "ready"


def test_phase_2_refused_swaps_count_in_the_singular():
    """Issue 13: "Swapping 1 cards costs 1 coins", "your 1 free swap(s)"."""
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 0)
    s.players[0].provinces = [9]  # Mauretania: 1 free swap, so the swap step is open without coins
    assert "Swapping 1 card costs 1 coin; you have 0." in refusal(s, 0, "swap 1")
    set_coins(s, 0, 1)
    s, _ = act(s, 0, "swap free")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert GAME.legal_actions(s, 0) == ["swap 1", "done"]
    assert "You have used your free swap this round." in refusal(s, 0, "swap free")


def test_phase_2_done_after_a_swap_says_the_player_finished_swapping():
    """Issue 13: after a swap, `done` does not "keep their hand"."""
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    s, ev = act(s, 0, "done")
    assert ev[0] == "ann (Rome) keeps their hand and is ready to play."
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 5)
    s.players[0].provinces = [9]
    s, _ = act(s, 0, "swap free")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    s, ev = act(s, 0, "done")
    assert ev[0] == "ann (Rome) has finished swapping and is ready to play."


def test_round_7_refused_swap_says_the_deck_is_empty():
    """RULES-NOTES "Swaps": the deck is used up exactly, so round 7 has no swaps."""
    s = finish_opening(new_game())
    s.round = 7
    for p in s.players:
        p.deck = p.deck[:4]
    assert "(there are no swaps in round 7: your deck runs out)" in refusal(s, 0, "swap 1")
    s, _ = act(s, 0, "income")
    with pytest.raises(IllegalAction) as err:  # ready, waiting for bob
        GAME.apply(s, 0, "swap 1")
    assert str(err.value) == (
        "It is not ann's turn; waiting for bob. You are ready to play; bob is still taking "
        "income, drawing and swapping. There are no swaps in round 7: your deck is empty."
    )
    s, _ = act(s, 1, "income")
    assert "There are no swaps in round 7: your deck is empty" in refusal(s, GAME.to_act(s)[0], "swap 1")


def test_setup_refused_civilization_already_taken():
    s = GAME.setup(["ann", "bob"], 3)
    s, _ = act(s, 0, "civ persia")
    assert "Persia is already taken by ann; choose one of rome, egypt, abbasid." in refusal(s, 1, "civ persia")


def test_pending_decision_comes_first():
    s = at_play(coins=(10, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "market"])
    s, _ = act(s, 0, "play brewery build")
    assert "First decide whether to move up 1 progress level (flips Market out of your resources)." in refusal(
        s, 0, "play forum coins"
    )


def test_optional_progress_decision_names_the_resource_card_it_would_flip():
    """Moving up removes the last-played resource card: the open decision says which one,
    and the owner's hand shows that decision (not only the phase)."""
    from renderers.rising_cultures.alt import private

    s = at_play(coins=(10, 0))
    lay_out(s, 0, hand=["brewery", "forum", "villa", "curia"], resources=["portus", "villa", "market"])
    s, _ = act(s, 0, "play brewery build")
    view = GAME.view(s, 0)
    assert view["pending"]["text"] == "whether to move up 1 progress level (flips Market out of your resources)"
    assert "now decide whether to move up 1 progress level (flips Market" in private(view, 0)


def test_card_played_without_the_play_verb_is_refused_with_the_full_action_named():
    """Through the bot's `play <action>`, `play forum build` arrives as `forum build`."""
    s = at_play()
    lay_out(s, 0, hand=["market", "forum", "villa", "curia"])
    before = GAME.dumps(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "forum coins")
    assert "did you mean `play forum coins`?" in str(err.value)
    assert err.value.legal == GAME.legal_actions(s, 0) and GAME.dumps(s) == before
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, 0, "colosseum build")
    assert "did you mean `play colosseum build`? Colosseum is not in your hand." in str(err.value)


def test_bad_input_is_always_an_illegal_action_never_a_crash():
    """Any text, at any step, by either seat: applied if legal, else IllegalAction (state unchanged)."""
    import random

    from engine.rising_cultures.actions import VERBS

    words = [
        "",
        "1",
        "2",
        "free",
        "yes",
        "no",
        "forum",
        "brewery",
        "coins",
        "military",
        "resources",
        "build",
        "compete",
        "decline",
        "discard",
        "keep",
        "inundation",
        "rome",
        "x",
        "brewery build extra",
    ]
    for seed in range(4):
        rng = random.Random(seed)
        s = GAME.setup(["a", "b"], seed)
        while not GAME.is_over(s):
            before = GAME.dumps(s)
            for seat in (0, 1):
                text = " ".join([rng.choice(VERBS)] + [rng.choice(words) for _ in range(rng.randint(0, 3))])
                try:
                    GAME.apply(s, seat, text)
                except IllegalAction as err:
                    assert str(err)
            assert GAME.dumps(s) == before
            seat = rng.choice(GAME.to_act(s))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
