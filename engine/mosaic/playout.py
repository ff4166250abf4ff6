"""Mosaic for the fill-in bot's rollouts (engine/ai): a random legal action, quickly.

`draw(state, seat, rand)` has the distribution of a uniform choice among
`legal_actions(state, seat)`. Most rollout steps are a turn's own step: the
eight actions, the free actions and `spend money` before the action, the free
actions and `end` after it (rules.legal). Listing them asks of every
achievement on the table whether the seat has reached it (Imperial works out
everyone's influence in every region), of every build card and wonder whether
its piece has somewhere to go, and so on: most of a Mosaic decision went there.

Here the list is written with those questions left open (options.Candidate) and
one candidate is drawn: a settled one is the action; an open one is asked only
now, and if the answer is no the rest are asked and one of the legal ones is
drawn (`first_legal`); either way each legal action has the same chance
(tests/engine/ai/test_playout.py checks it exactly). `spend money` depends on
the whole list of main actions, so it is an open candidate that lists them.
Every other step (a pending choice: where to place, how to pay, the draft)
lists few actions and is drawn from `legal_actions` itself.
"""

from __future__ import annotations

import random

from . import board
from .data import load
from .game import GAME
from .options import Candidate, free_candidates, legal_of, main_candidates, spend_money
from .state import State


def draw(state: State, seat: int, rand: random.Random) -> str:
    s = state
    if s.phase != "play" or s.pending.top is not None or seat != s.seat:
        legal = GAME.legal_actions(s, seat)
        return legal[rand.randrange(len(legal))]
    d = load()
    sym = board.symbols(d, s.players[seat])
    if s.stage == "main":
        main = main_candidates(d, s, seat, sym)  # `spend money` asks the same ones: hexes looked at once
        spend = ("spend money", lambda: bool(spend_money(d, s, seat, legal_of(main))))
        candidates = main + free_candidates(d, s, seat, sym) + [spend]
    else:
        candidates = free_candidates(d, s, seat, sym) + [("end", None)]
    return first_legal(candidates, rand)


def first_legal(candidates: list[Candidate], rand: random.Random) -> str:
    """A uniform choice among the legal candidates, asking only the open one drawn first.

    One candidate is drawn; if it is legal it is the action. If it is not, every
    candidate left is asked and one of the legal ones is drawn. Each legal action
    is then drawn with chance 1/N + (N - L)/N * 1/L = 1/L (N candidates, L legal):
    uniform. Drawing again after a refusal would be uniform too, but each refusal
    multiplies the paths tests/engine/ai/test_playout.py follows to check it exactly.
    """
    k = rand.randrange(len(candidates))
    action, holds = candidates[k]
    if holds is None or holds():
        return action
    del candidates[k]
    legal = legal_of(candidates)
    return legal[rand.randrange(len(legal))]
