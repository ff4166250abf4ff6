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


# Cradle's guided rollout move (issue 24): weights that know the game, still only legal actions.


def test_5_5_one_army_takes_an_area_as_the_terrain_chart_says():
    """One attacking Army against one defender, counted by hand from the dice: the attacker's
    higher of two dice must beat the defender's die (P = 1 - sum(d^2)/216 = 125/216), on a
    Mountain the higher of the defender's two (P(max2 > max2') = (1 - sum((2v-1)^2)/1296) / 2),
    in a Desert with a 4 or more (sum over v of P(max2 = v) (v - 1) / 6 for v = 4-6); Military
    strips the Mountain's die, the Guides bonus the Desert's penalty. Two defenders: twice in a row."""
    from engine.cradle.playout import take_chance

    assert take_chance("plains", True, False, 1) == pytest.approx(125 / 216)
    assert take_chance("rough", True, False, 1) == pytest.approx(125 / 216)  # a tie costs the Army either way
    assert take_chance("mountain", True, False, 1) == pytest.approx(1010 / 2592)
    assert take_chance("mountain", False, False, 1) == pytest.approx(125 / 216)
    assert take_chance("desert", True, False, 1) == pytest.approx(112 / 216)
    assert take_chance("desert", True, True, 1) == pytest.approx(125 / 216)
    assert take_chance("plains", True, False, 2) == pytest.approx((125 / 216) ** 2)


def test_the_guided_move_weighs_neutral_areas_over_own_ones_and_attacks_by_their_odds():
    from engine.cradle.playout import NEUTRAL, OWN, weighted_targets
    from tests.engine.cradle.helpers import in_round, position

    board = {"eshnunna": ("1-4", 1), "assur": ("1-1", 2), "north-zagros": ("1-1", 1)}
    state = in_round(position({"1-4": 0, "1-1": 1}, board), "1-4", 0, 3)
    weights = {target: (w, fits) for w, target, fits in weighted_targets(state, state.rnd)}
    assert weights["eshnunna"] == (OWN, 2)  # held, room for 2 more
    assert weights["babylon"] == weights["malgium"] == (NEUTRAL, 3)
    assert weights["south-zagros"] == (NEUTRAL, 1)  # a Mountain holds one Army
    assert weights["attack assur"] == (pytest.approx(NEUTRAL * (125 / 216) ** 2), 0)
    assert weights["attack north-zagros"] == (pytest.approx(NEUTRAL * 1010 / 2592), 0)
    military = in_round(position({"1-4": 0, "1-1": 1}, board), "1-4", 0, 3, military=True)
    assert dict((t, w) for w, t, _ in weighted_targets(military, military.rnd))[
        "attack north-zagros"
    ] == pytest.approx(NEUTRAL * 125 / 216)


def test_the_guided_move_draws_every_growth_target_and_only_legal_actions():
    game = engine.get("cradle")
    guided = draw("cradle", guided=True)
    assert guided is not None and guided is not draw("cradle")
    rand = random.Random(4)
    growth = 0
    for state, _ in positions("cradle", 60, seed=11):
        before = game.dumps(state)
        for seat in game.to_act(state):
            legal = set(game.legal_actions(state, seat))
            drawn = {guided(state, seat, rand) for _ in range(400)}
            assert drawn <= legal, "only legal actions"
            rnd = state.rnd
            if state.phase == "strategy" and rnd is not None and rnd.step == "grow" and rnd.seat >= 0:
                growth += 1  # every target comes up: no choice is dropped from the rollouts
                assert {a.split()[-1] if a.startswith("place") else a for a in drawn} == {
                    a.split()[-1] if a.startswith("place") else a for a in legal
                }
        assert game.dumps(state) == before
    assert growth >= 10


def test_games_played_with_the_guided_move_alone_end_legally():
    game = engine.get("cradle")
    guided = draw("cradle", guided=True)
    assert guided is not None
    for seed, players in enumerate((game.min_players, game.max_players)):
        rand = random.Random(seed)
        state = game.setup([f"p{i}" for i in range(players)], seed)
        steps = 0
        while not game.is_over(state) and steps < 20_000:
            seat = rand.choice(game.to_act(state))
            action = guided(state, seat, rand)
            assert action in game.legal_actions(state, seat)
            state = game.apply(state, seat, action).state
            steps += 1
        assert game.is_over(state)


def test_a_game_without_a_guided_move_is_refused_by_name():
    with pytest.raises(ValueError, match="no guided rollout move for 'mosaic'"):
        draw("mosaic", guided=True)
