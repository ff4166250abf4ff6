"""The sandbox's world (issue 52 point 4, bot/service/sandbox.py): drawn from the seat's own
knowledge only, so two positions differing only in what the seat cannot see give the same one."""

from __future__ import annotations

import random

import pytest

import engine
from bot.service.sandbox import SandboxRefusal, replay, seed_of, view, world
from tests.engine.ai.positions import positions, scramble


@pytest.mark.parametrize("game_id", ["rising-cultures", "rise-of-empires", "cradle", "mosaic"])
def test_positions_differing_only_in_hidden_information_give_the_same_sandbox(game_id):
    game = engine.get(game_id)
    rand = random.Random(5)
    differed = 0
    for first, seat in positions(game_id, 6, seed=4):
        second = scramble(game_id, first, seat, rand)
        differed += game.dumps(second) != game.dumps(first)
        assert seed_of(game, first, seat) == seed_of(game, second, seat)
        worlds = [world(game, state, seat) for state in (first, second)]
        assert game.dumps(worlds[0]) == game.dumps(worlds[1])
        names = [f"p{i}" for i in range(len(game.scores(first)))]
        assert view(game, 1, 1, seat, names, worlds[0], []) == view(game, 1, 1, seat, names, worlds[1], [])
    assert differed, "some positions must hide something"


def test_a_move_of_a_seat_not_to_act_is_refused():
    game = engine.get("mosaic")
    first, seat = next(iter(positions("mosaic", 1, seed=4)))
    idle = next(s for s in range(len(game.scores(first))) if s not in game.to_act(first))
    with pytest.raises(SandboxRefusal):
        replay(game, world(game, first, seat), seat, [(idle, "anything")])
