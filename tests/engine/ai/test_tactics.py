"""Issue 24: on positions where one move is clearly best by the rules, `normal` finds it.

The positions (tests/engine/ai/data/tactics.json, made by tests/engine/ai/tactics.py)
are endings of games — a winning province, a decisive build, an overwhelming attack,
the last-round scoring — where an oracle that sees everything and solves the rest of
the game exactly finds one move better than every other by a wide margin. Here the
oracle is asked again, and `normal` decides from the seat's infostate with a few fixed
seeds. The full figure, ten seeds a position (the target: 9 of 10 each), is
`python -m tests.bench ai --tactics`; the suite here uses `SEEDS` to keep its time
modest, and every one of them must find the move.
"""

from __future__ import annotations

import pytest

import engine
import engine.ai as ai
from tests.engine.ai.tactics import Tactic, clear_best, load, values

TACTICS = load()
#: Seeds per position here (the bench plays ten).
SEEDS = 2


#: Positions where `normal` as it is falls short of the target, and why: marked as expected to
#: fail, strictly, so the mark itself fails once both seeds find the move again.
BELOW_TARGET = {
    "cradle-attack-babylon-3": (
        "a long shot (0.38 against 0.00): Cradle's `normal` chooses by the floored rule, which won"
        " whole games the tree rule lost, and finds this attack with 8 of 10 seeds, seed 1 not"
        " (engine/ai/README.md, 'Cradle at four players'; issue 24 open)"
    ),
}


def name(t: Tactic) -> str:
    return f"{t.game_id}-{t.best.replace(' ', '-')}-{TACTICS.index(t)}"


def with_marks(tactics: list[Tactic]) -> list:
    """The tactics as test cases, those in BELOW_TARGET marked."""
    return [
        pytest.param(t, marks=pytest.mark.xfail(strict=True, reason=BELOW_TARGET[name(t)]))
        if name(t) in BELOW_TARGET
        else t
        for t in tactics
    ]


def test_every_game_has_eight_tactics():
    for game_id in ai.GAMES:
        assert sum(t.game_id == game_id for t in TACTICS) >= 8, game_id


@pytest.mark.parametrize("tactic", TACTICS, ids=name)
def test_the_oracle_finds_one_move_clearly_best(tactic: Tactic):
    game = engine.get(tactic.game_id)
    state = game.loads(tactic.state)
    assert clear_best(values(game, state, tactic.seat)) == tactic.best


@pytest.mark.parametrize("tactic", with_marks(TACTICS), ids=name)
def test_normal_finds_the_clearly_best_move(tactic: Tactic):
    game = engine.get(tactic.game_id)
    state = game.loads(tactic.state)
    for seed in range(SEEDS):
        text = ai.infostate(game, state, tactic.seat, seed)
        assert ai.decide(tactic.game_id, text, tactic.seat, "normal", seed) == tactic.best, f"seed {seed}"
