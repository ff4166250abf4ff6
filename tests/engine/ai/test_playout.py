"""Each game's fast rollout move (engine/<game>/playout.py) against a uniform choice among its legal actions.

An exact comparison, not a statistical one: `outcomes` runs the fast `draw`
once for every sequence of values its `rand.randrange` calls may return
(depth first, each value as likely as the others), so it knows the chance of
each action exactly, up to the small chance `left` of the sequences cut off at
`CALLS` calls (a rejection sampler's long runs of refusals). The test then
asks, on random positions of every seat to act, that only legal actions come
out and that each legal action's chance is within `left` of a uniform choice
among `legal_actions` (an action listed twice counts twice). A fast path that
chose a card first and then one of its uses, say, would weight a card with
fewer legal uses more and fail here.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any, cast

import pytest

import engine
from engine.ai.parts import PLAYOUTS, draw
from engine.ai.search import Draw
from tests.engine.ai.positions import positions

POSITIONS = 150
#: Calls of `randrange` followed on one path before it is cut off (and counted in `left`).
CALLS = 12


class Cut(Exception):
    """A path longer than `CALLS` calls."""


class Scripted:
    """A stand-in for `random.Random` whose `randrange` returns the values of a script, and
    records how many values each call could have returned."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.sizes: list[int] = []

    def randrange(self, n: int) -> int:
        at = len(self.sizes)
        if at >= CALLS:
            raise Cut
        self.sizes.append(n)
        return self.script[at] if at < len(self.script) else 0


def outcomes(fast: Draw, state: Any, seat: int) -> tuple[dict[str, float], float]:
    """The exact chance of each action `fast` draws, and the chance `left` on the paths cut off."""
    chance: dict[str, float] = defaultdict(float)
    left = 0.0
    stack: list[tuple[list[int], float]] = [([], 1.0)]
    while stack:
        script, p = stack.pop()
        rand = Scripted(script)
        try:
            action = fast(state, seat, cast(random.Random, rand))
        except Cut:
            left += p
            continue
        if len(rand.sizes) > len(script):  # the path went past its script: branch on the first new call
            n = rand.sizes[len(script)]
            stack.extend((script + [v], p / n) for v in range(n))
            continue
        chance[action] += p
    return chance, left


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_the_fast_rollout_move_is_a_uniform_legal_action(game_id: str):
    game = engine.get(game_id)
    fast = draw(game_id)
    assert fast is not None
    checked = 0
    for state, _ in positions(game_id, POSITIONS, seed=9):
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            chance, left = outcomes(fast, state, seat)
            assert set(chance) <= set(legal), "only legal actions"
            assert left < 0.01
            for action, weight in Counter(legal).items():
                uniform = weight / len(legal)
                assert chance[action] <= uniform + 1e-9 and chance[action] + left >= uniform - 1e-9, (
                    f"{action}: chance {chance[action]:.4f} (+ {left:.4f} cut off), uniform {uniform:.4f}"
                )
            checked += len(set(legal)) > 1
    assert checked >= POSITIONS // 2


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_the_fast_rollout_move_leaves_the_state_as_it_was(game_id: str):
    game = engine.get(game_id)
    fast = draw(game_id)
    assert fast is not None
    rand = random.Random(3)
    for state, _ in positions(game_id, 40, seed=10):
        before = game.dumps(state)
        for seat in game.to_act(state):
            fast(state, seat, rand)
        assert game.dumps(state) == before


@pytest.mark.parametrize("game_id", sorted(PLAYOUTS))
def test_games_played_with_the_fast_rollout_move_alone_end_legally(game_id: str):
    """Whole games, every move drawn by `draw` (as a rollout plays them): each is a legal action
    the engine accepts, and the game reaches its end."""
    game = engine.get(game_id)
    fast = draw(game_id)
    assert fast is not None
    for seed, players in enumerate((game.min_players, game.max_players)):
        rand = random.Random(seed)
        state = game.setup([f"p{i}" for i in range(players)], seed)
        steps = 0
        while not game.is_over(state) and steps < 20_000:
            seat = rand.choice(game.to_act(state))
            action = fast(state, seat, rand)
            assert action in game.legal_actions(state, seat)
            state = game.apply(state, seat, action).state
            steps += 1
        assert game.is_over(state), f"{game_id}, {players} players: not over after {steps} steps"
