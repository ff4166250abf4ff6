"""The B-turn payment step (6.0): what the player may pay with now, and what they spend first.

A `pay` decision holds the cost still owed, what the action chosen with the disc
needs (`reserve`: a payment may not spend it, or the action could not follow),
the action itself (`then`) and what has been paid so far (`paid`, one count per
good of payment.GOODS; a good paid in part is settled and the rest comes from
the others). The splits themselves are payment.py's.
"""

from __future__ import annotations

from ..core import Decision
from .data import Components
from .display import holdings
from .payment import GOODS, Pick, Tiers, picks, within
from .scoring import food_change
from .state import State

GOLD, CUBE, RESOURCE, FOOD, VP = range(len(GOODS))
#: No limit on how much of a good the cheapest payment may spend.
ALL = 99


def food_to_spare(comp: Components, state: State, seat: int) -> int:
    """Food the player can pay now and still meet this turn's Food phase without going below 0 (7.0)."""
    p = state.players[seat]
    factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
    return max(0, min(p.food, p.food + food_change(comp, state, seat) * factor))


def spending_order(comp: Components, state: State, seat: int) -> Tiers:
    """What the cheapest payment spends first (RULES-NOTES 6.0): food the Food phase can spare (it
    scores nothing, 11.0), then gold and resource discs (a VP per three at the end), then pool cubes
    (they score through the map), then food the Food phase needs (each point short costs a VP, 7.0),
    and VP last."""
    return (
        (FOOD, food_to_spare(comp, state, seat)),
        (GOLD, ALL),
        (RESOURCE, ALL),
        (CUBE, ALL),
        (FOOD, ALL),
        (VP, ALL),
    )


def payable(state: State, d: Decision) -> list[int]:
    """What may still go into the payment: holdings less the chosen action's needs; a good already
    paid in part is settled (0)."""
    have = within(holdings(state, d.seat), d.data["reserve"])
    return [0 if paid else h for h, paid in zip(have, d.data["paid"], strict=True)]


def pay_picks(comp: Components, state: State, d: Decision) -> list[Pick]:
    """The options of the payment step `d` (payment.picks)."""
    return picks(payable(state, d), d.data["cost"], spending_order(comp, state, d.seat))
