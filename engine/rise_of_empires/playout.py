"""Rise of Empires for the fill-in bot's rollouts (engine/ai): a random legal action, quickly.

`draw(state, seat, rand)` has the distribution of a uniform choice among
`legal_actions(state, seat)`. The dearest list to make is a B turn's payment
(6.0, pay_step.py): its spending order asks what the Food phase will need,
which adds up every food number on the player's tiles, only to tell which
split is the cheapest. While the splits are fewer than payment.LIMIT every
split is offered whole (payment.picks), so the list is every split, whatever
the order, and one is drawn from those. Every other step, and a payment with
more splits (then parts of one good are offered), is drawn from
`legal_actions` itself. tests/engine/ai/test_playout.py compares the two on
random positions.
"""

from __future__ import annotations

import functools
import random

from .game import RiseOfEmpires
from .pay_step import payable
from .payment import LIMIT, Split, all_splits, count_splits, pay_action
from .state import State

GAME = RiseOfEmpires()


def draw(state: State, seat: int, rand: random.Random) -> str:
    top = state.stack.top
    if top is not None and top.kind == "pay" and top.seat == seat and state.phase != "over":
        cost: int = top.data["cost"]
        have = tuple(min(h, cost) for h in payable(state, top))  # as payment.picks caps them
        splits = every_split(have, cost)
        if splits:
            return pay_action(splits[rand.randrange(len(splits))])
    legal = GAME.legal_actions(state, seat)
    return legal[rand.randrange(len(legal))]


@functools.lru_cache(maxsize=4096)
def every_split(have: tuple[int, ...], cost: int) -> tuple[Split, ...]:
    """Every way to pay `cost` from `have` when the payment step offers each of them whole (fewer
    than payment.LIMIT), else () (the step then offers parts: `legal_actions` lists it)."""
    if cost <= 0 or sum(have) < cost or count_splits(have, cost) >= LIMIT:
        return ()
    return tuple(all_splits(have, cost))
