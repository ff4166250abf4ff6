"""Each game's `resample` gives legal positions that play on to the end, and `evaluate` shares.

A resampled state must be a game the engine can continue: the same view for
the seat, the same legal actions for it, a text that reloads to the same state,
and random play from it reaches the end (law 6).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

import engine
import engine.ai as ai
from engine.core import BaseGame, Rng
from tests.engine.ai.positions import positions

POSITIONS = 40


def play_out(game, state, rand: random.Random, limit: int = 50_000):
    steps = 0
    while not game.is_over(state) and steps < limit:
        seat = rand.choice(game.to_act(state))
        state = game.apply(state, seat, rand.choice(game.legal_actions(state, seat))).state
        steps += 1
    return state


@pytest.mark.parametrize("game_id", ai.GAMES)
def test_resampled_positions_are_legal_and_play_on_to_the_end(game_id: str):
    game = engine.get(game_id)
    rand = random.Random(8)
    for k, (state, seat) in enumerate(positions(game_id, POSITIONS, seed=4)):
        world = ai.resample(game_id, state, seat, Rng(k))
        assert game.view(world, seat) == game.view(state, seat)
        assert game.to_act(world) == game.to_act(state)
        assert game.legal_actions(world, seat) == game.legal_actions(state, seat)
        assert game.dumps(game.loads(game.dumps(world))) == game.dumps(world)
        assert game.is_over(play_out(game, world, rand))


@pytest.mark.parametrize("game_id", ai.GAMES)
def test_evaluate_gives_every_seat_a_share(game_id: str):
    game = engine.get(game_id)
    for state, _ in positions(game_id, 60, seed=5):
        values = ai.evaluate(game_id, state)
        assert len(values) == len(game.scores(state))
        assert all(0 <= v <= 1 for v in values) and sum(values) == pytest.approx(1)


def test_rising_cultures_cards_are_neither_lost_nor_doubled():
    """Every civilization card is in exactly one place after resampling, as before."""
    from engine.rising_cultures.resample import public_cards

    for k, (state, seat) in enumerate(positions("rising-cultures", 60, seed=6)):
        world = ai.resample("rising-cultures", state, seat, Rng(k))
        for before, after in zip(state.players, world.players, strict=True):
            assert Counter(public_cards(after) + after.hand + after.deck) == Counter(
                public_cards(before) + before.hand + before.deck
            )


def test_mosaic_technologies_are_never_doubled():
    from engine.mosaic.decks import SCORING

    def technologies(s):
        out = s.tech_deck + s.tech_offer + [t for p in s.players for t in p.techs + p.hidden + p.hand + p.picks]
        return [t for t in out if t and t != SCORING]

    for k, (state, seat) in enumerate(positions("mosaic", 150, seed=7)):
        world = ai.resample("mosaic", state, seat, Rng(k))
        counts = Counter(technologies(world))
        assert max(counts.values()) == 1
        for attr in ("tech_deck", "build_deck", "pop_deck", "tax_deck"):
            assert getattr(world, attr).count(SCORING) == getattr(state, attr).count(SCORING)


def test_rise_of_empires_progress_stack_keeps_its_eras():
    """3.0: the stack is Era I tiles on top of Era II on top of Era III, after resampling too."""
    from engine.rise_of_empires.data import components

    comp = components()
    for k, (state, seat) in enumerate(positions("rise-of-empires", 60, seed=8)):
        world = ai.resample("rise-of-empires", state, seat, Rng(k))
        assert [comp.progress[t].era for t in world.progress_deck] == [
            comp.progress[t].era for t in state.progress_deck
        ]
        assert len(world.territory_deck) == len(state.territory_deck)


@pytest.mark.parametrize("game_id", ai.GAMES)
def test_a_resampled_world_shares_nothing_with_the_state_it_came_from(game_id: str):
    """The search plays each world in place (search.stepper): stepping one must leave the
    position it was drawn from, and every other world, as they were."""
    game = engine.get(game_id)
    assert isinstance(game, BaseGame)  # every game: the search steps with `play`
    rand = random.Random(9)
    for k, (state, seat) in enumerate(positions(game_id, 30, seed=11)):
        before = game.dumps(state)
        world = ai.resample(game_id, state, seat, Rng(k))
        for _ in range(20):
            if game.is_over(world):
                break
            actor = rand.choice(game.to_act(world))
            game.play(world, actor, rand.choice(game.legal_actions(world, actor)))
        assert game.dumps(state) == before


def test_cradle_player_scorings_are_score_seat_for_every_seat():
    """The bot's one-pass Player Scoring (7.2-7.3) is the rules' own, seat by seat."""
    from engine.cradle.resample import player_scorings
    from engine.cradle.scoring import score_seat

    scored = 0
    for state, _ in positions("cradle", 200, seed=12):
        expected = [score_seat(state, seat).total for seat in range(state.n)]
        assert player_scorings(state) == expected
        scored += any(expected)
    assert scored > 100


def test_mosaic_face_down_technologies_may_be_ones_their_owner_could_play():
    """N49: the owner flips a face-down technology when they choose, so the seat cannot tell one
    they could play from one they could not. Another player's unseen face-down cards are redrawn
    from every unseen technology (issue 14 dealt only cards whose pillars the owner lacked, from
    when a playable card flipped itself), the cards taken from the offer stay first (N51), and
    the world looks to the seat exactly as the true one."""
    from engine.mosaic.data import load
    from engine.mosaic.gains import can_play

    d = load()
    game = engine.get("mosaic")
    dealt = playable = 0
    found = positions("mosaic", 3000, seed=13, where=lambda s: s.phase == "play")
    for k, (state, seat) in enumerate(found):
        if k % 10:  # every tenth play position of several games, not every other one of one or two
            continue
        world = ai.resample("mosaic", state, seat, Rng(k))
        assert game.view(world, seat) == game.view(state, seat)
        for i, (before, after) in enumerate(zip(state.players, world.players, strict=True)):
            if i == seat:
                assert after.hidden == before.hidden
                continue
            assert len(after.hidden) == len(before.hidden)
            assert after.hidden[: len(before.seen)] == before.seen
            for t in after.hidden[len(before.seen) :]:
                dealt += 1
                playable += can_play(d, after, t)
    assert dealt >= 30 and playable > 0, (dealt, playable)
