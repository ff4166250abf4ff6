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


def pay(d: Data, p: Player, costs: Sequence[Cost]) -> dict[str, int]:
    """Pay in each cost's own currency first; money covers only the shortfall, at 2:1.

    Never asked (RULES-NOTES N32): money left over can later stand in for any currency
    at the same rate, so keeping currency and spending money instead never helps.
    Returns what left the player's board, per currency (money last).
    """
    rate = d.rules.money_per_currency
    paid: dict[str, int] = {}
    money = 0
    for cur, amt in costs:
        if cur == "money":
            money += amt
            continue
        own = min(amt, have(p, cur))
        if own:
            gain(p, cur, -own)
            paid[cur] = own
        money += rate * (amt - own)
    p.money -= money
    if money:
        paid["money"] = money
    return paid
