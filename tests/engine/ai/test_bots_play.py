"""Issue 14: bots alone play every game to its end, deterministically, and a game with bots
replays exactly from its log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engine
import engine.ai as ai
from tests.engine.ai.positions import positions

#: A game between easy bots, at the smallest player count, must end within this many steps.
MAX_STEPS = 3000
ROOT = Path(__file__).resolve().parents[3]


def bot_game(game_id: str, players: int, seed: int, level: str = "easy") -> tuple[list[tuple[int, str]], object]:
    """Every seat a bot; the log of (seat, action) and the last state. Seeds follow the step number,
    as the service would derive them, so the same log comes out every time."""
    game = engine.get(game_id)
    state = game.setup([f"bot{i}" for i in range(players)], seed)
    log: list[tuple[int, str]] = []
    while not game.is_over(state) and len(log) < MAX_STEPS:
        seat = game.to_act(state)[0]
        text = ai.infostate(game, state, seat, seed=seed * 100_000 + len(log))
        action = ai.decide(game_id, text, seat, level=level, seed=len(log))
        assert action in game.legal_actions(state, seat)
        state = game.apply(state, seat, action).state
        log.append((seat, action))
    return log, state


@pytest.mark.parametrize("game_id", ai.GAMES)
def test_bots_alone_play_the_game_to_its_end_and_it_replays_from_the_log(game_id: str):
    game = engine.get(game_id)
    players = game.min_players
    log, final = bot_game(game_id, players, seed=11)
    assert game.is_over(final), f"not over after {MAX_STEPS} steps"
    assert game.winners(final)
    replay = game.setup([f"bot{i}" for i in range(players)], 11)
    for seat, action in log:
        replay = game.apply(replay, seat, action).state
    assert game.dumps(replay) == game.dumps(final)


def test_a_bot_decides_the_same_again_for_the_same_seed():
    """Re-deciding every move of a logged Rising Cultures game gives the logged moves back."""
    game = engine.get("rising-cultures")
    log, _ = bot_game("rising-cultures", 2, seed=12)
    state = game.setup(["bot0", "bot1"], 12)
    for step, (seat, action) in enumerate(log):
        text = ai.infostate(game, state, seat, seed=12 * 100_000 + step)
        assert ai.decide("rising-cultures", text, seat, level="easy", seed=step) == action
        state = game.apply(state, seat, action).state


@pytest.mark.parametrize("game_id", ai.GAMES)
def test_a_decision_is_the_same_in_another_process(game_id: str):
    """No dependence on Python's per-process string hashing (sets, `hash`): a worker process
    decides exactly like the one that asked."""
    game = engine.get(game_id)
    state, _ = next(
        (s, q) for s, q in positions(game_id, 200, seed=3) if len(game.legal_actions(s, game.to_act(s)[0])) > 1
    )
    seat = game.to_act(state)[0]
    text = ai.infostate(game, state, seat, seed=1)
    here = ai.decide(game_id, text, seat, level="easy", seed=4)
    code = (
        "import sys, engine.ai as ai; text = sys.stdin.read(); "
        f"print(ai.decide({game_id!r}, text, {seat}, level='easy', seed=4))"
    )
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", code], input=text, capture_output=True, text=True, cwd=ROOT, env=env, check=True
    )
    assert out.stdout.strip() == here
