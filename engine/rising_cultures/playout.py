"""Rising Cultures for the fill-in bot's rollouts (engine/ai): a random legal action, quickly.

`draw(state, seat, rand)` has the distribution of a uniform choice among
`legal_actions(state, seat)`, without listing them. Most rollout steps are
Phase II plays, whose list costs the seat's effects, resources and the price
of every card in hand (actions.legal_actions); here one of the `4 x hand`
candidate plays (a card in hand, one of the four uses) is proposed at a time
and taken when legal, else another is proposed. Every legal play is proposed
with the same chance, so the one taken is uniform among the legal plays
(rejection sampling), and only a proposed `build` costs a price. Coins and
resources are always legal, so half the proposals or more are taken.

Every other step (setup, Phase I, swaps, open decisions) lists few actions
and is drawn from `legal_actions` itself. tests/engine/ai/test_playout.py
compares the two on random positions.
"""

from __future__ import annotations

import random

from . import actions, rules
from .decisions import SLUG
from .rules import BOARDS, CARDS
from .state import PLAYS, State

USES = actions.USES  # coins, military, resources, build


def draw(state: State, seat: int, rand: random.Random) -> str:
    s = state
    p = s.players[seat]
    if s.phase != "play" or s.pending or seat != s.turn or p.played >= PLAYS or not p.hand:
        legal = actions.legal_actions(s, seat)
        return legal[rand.randrange(len(legal))]
    hand = p.hand
    room = len(p.military) < len(BOARDS[p.civ].military_bands)
    while True:
        cid = hand[rand.randrange(len(hand))]
        use = USES[rand.randrange(4)]
        if use == "military" and not room:
            continue
        if use == "build" and rules.build_price(s, seat, CARDS[cid])[1] > p.coins:
            continue
        return f"play {SLUG[cid]} {use}"
