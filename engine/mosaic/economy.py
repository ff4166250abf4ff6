"""Currencies, production, costs and the 2:1 money substitution.

Rulebook: "Money can be used in place of any currency (food, ideas, or stone)
at a 2:1 rate". Population is not a currency and is never replaced by money.
"""
from __future__ import annotations

from .data import Data
from .state import Player

CURRENCY_ATTR = {"food": "food", "stone": "stone", "ideas": "ideas", "money": "money"}


def production(d: Data, p: Player, track: str) -> int:
    """A production track including the passive bonus of the government held (Monarchy, Oligarchy)."""
    v = p.production[track]
    if p.government:
        v += d.governments[p.government].production.get(track, 0)
    return v


def have(p: Player, currency: str) -> int:
    return getattr(p, currency)


def gain(p: Player, currency: str, amount: int) -> None:
    setattr(p, currency, getattr(p, currency) + amount)


def shortfall_money(d: Data, p: Player, costs: list[list]) -> int:
    """Money needed to cover what the currencies themselves cannot pay."""
    rate = d.rules.money_per_currency
    return sum(rate * max(0, amt - have(p, cur)) for cur, amt in costs if cur != "money") + \
        sum(amt for cur, amt in costs if cur == "money")


def affordable(d: Data, p: Player, costs: list[list], population: int = 0) -> bool:
    return p.population >= population and shortfall_money(d, p, costs) <= p.money


def money_range(d: Data, p: Player, costs: list[list], i: int) -> tuple[int, int]:
    """How many units of item i may be paid with money (lo..hi), keeping enough for the later items."""
    rate = d.rules.money_per_currency
    cur, amt = costs[i]
    reserved = shortfall_money(d, p, costs[i + 1:])
    lo = max(0, amt - have(p, cur))
    hi = min(amt, (p.money - reserved) // rate)
    return lo, hi


def pay_options(lo: int, hi: int, limit: int = 12) -> list[int]:
    """Money-paid units offered as choices; long ranges are thinned to keep the list short (law 2)."""
    if hi - lo + 1 <= limit:
        return list(range(lo, hi + 1))
    step = -(-(hi - lo) // (limit - 1))
    vals = list(range(lo, hi, step)) + [hi]
    return vals
