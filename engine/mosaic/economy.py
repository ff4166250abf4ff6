"""Currencies, production, costs and the 2:1 money substitution.

Rulebook: "Money can be used in place of any currency (food, ideas, or stone)
at a 2:1 rate". Population is not a currency and is never replaced by money.
"""

from __future__ import annotations

from collections.abc import Sequence

from .data import Cost, Data
from .state import Player

CURRENCY_ATTR = {"food": "food", "stone": "stone", "ideas": "ideas", "money": "money"}


def production(d: Data, p: Player, track: str) -> int:
    """A production track including the passive bonus of the government held (Monarchy, Oligarchy)."""
    v = p.production[track]
    if p.government:
        v += d.governments[p.government].production.get(track, 0)
    return v


def have(p: Player, currency: str) -> int:
    amount: int = getattr(p, currency)
    return amount


def gain(p: Player, currency: str, amount: int) -> None:
    setattr(p, currency, getattr(p, currency) + amount)


def shortfall_money(d: Data, p: Player, costs: Sequence[Cost]) -> int:
    """Money needed to cover what the currencies themselves cannot pay."""
    rate = d.rules.money_per_currency
    need = 0
    for cur, amt in costs:
        if cur == "money":
            need += amt
        else:
            short = amt - have(p, cur)
            if short > 0:
                need += rate * short
    return need


def affordable(d: Data, p: Player, costs: Sequence[Cost], population: int = 0) -> bool:
    return p.population >= population and shortfall_money(d, p, costs) <= p.money


def can_pay(d: Data, p: Player, currency: str, amount: int) -> bool:
    """`affordable` for a cost in one currency (food, stone or ideas)."""
    short = amount - have(p, currency)
    return short <= 0 or d.rules.money_per_currency * short <= p.money


def can_split(d: Data, p: Player, costs: Sequence[Cost]) -> bool:
    """Whether some currency of the cost can be paid more than one way (N32: `spend money` matters)."""
    costs = [c for c in costs if c[1] > 0]
    return any(len(splits(d, p, [c, *costs[:i], *costs[i + 1 :]])) > 1 for i, c in enumerate(costs))


def splits(d: Data, p: Player, costs: Sequence[Cost]) -> list[tuple[int, int]]:
    """The ways to pay the first of `costs` that leave the others payable: (units of its own
    currency, money), most of its own currency first (the usual way, N32).

    "Money can be used in place of any currency at a 2:1 rate", whether or not the player
    holds the currency, so every split from all own currency down to all money is allowed
    as long as the money lasts; what the other currencies of the cost will need from money
    is kept back.
    """
    rate = d.rules.money_per_currency
    cur, amt = costs[0]
    if cur == "money":
        return [(0, amt)]
    spare = p.money - shortfall_money(d, p, costs[1:])
    most = min(amt, have(p, cur))
    least = max(0, amt - spare // rate)
    return [(own, rate * (amt - own)) for own in range(most, least - 1, -1)]
