"""The engine contract's laws (shared/DESIGN.md) on every registered game.

This runs the shared conformance check's own `play_one` on a few seeds per
player count, so the suite fails whenever `python ../shared/checks/conformance.py`
would. The full check with more seeds is run by hand (see each issue's note).
"""

from __future__ import annotations

import pytest

import engine
from tests.engine import conformance

SEEDS = 2


CASES = [
    (gid, n, seed)
    for gid, game in sorted(engine.GAMES.items())
    for n in range(game.min_players, game.max_players + 1)
    for seed in range(SEEDS)
]


@pytest.mark.parametrize("game_id,players,seed", CASES)
def test_contract_laws_hold_in_random_play(game_id: str, players: int, seed: int):
    check = conformance.load()
    result = check.play_one(engine.get(game_id), engine, players, seed, max_steps=50_000, probe_every=7)
    assert result["actions"] > 0


def test_registry_names_each_game_by_its_id():
    for gid, game in engine.GAMES.items():
        assert game.id == gid and game.title and 1 <= game.min_players <= game.max_players
    with pytest.raises(KeyError, match="available"):
        engine.get("no-such-game")
