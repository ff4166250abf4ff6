"""Paying for a B-turn disc (6.0) in one choice: `pay 2 gold 1 food`.

6.0: "you must either pay one gold, one player cube, one resource disc, one food
point, or one victory point for each disc to its left". No good is the cost's
own currency, so what to pay is the player's choice whenever they hold more
than one kind of good; the whole payment is one choice (issue 12), not one
step per disc.

A choice is a split: how many of each good. The list holds every split while
there are fewer than LIMIT of them (law 2: a list fit for a menu). Beyond that
(large costs, plenty of everything) it holds the splits that use up whole
holdings of every good but one: "all my food, the rest in gold". Those are the
payments a player who values each good at a fixed rate would choose, and
there are at most 30 of them (tests/engine/rise_of_empires/test_payment.py).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

#: The goods a disc may be paid with, in the rulebook's order (6.0).
GOODS = ("gold", "cube", "resource", "food", "vp")
#: The words of a payment action: `1 cube`, `2 cubes`, `3 food`.
WORDS = {
    "gold": ("gold", "gold"),
    "cube": ("cube", "cubes"),
    "resource": ("resource", "resources"),
    "food": ("food", "food"),
    "vp": ("vp", "vp"),
}
READ = {word: good for good, forms in WORDS.items() for word in forms}
#: Lists with this many splits or more keep only the splits that use up whole holdings.
LIMIT = 60

Split = tuple[int, ...]


def count_splits(have: Sequence[int], cost: int) -> int:
    """How many ways `cost` can be paid from `have` (one count per good)."""
    ways = [1] + [0] * cost
    for cap in have:
        ways = [sum(ways[t - m] for m in range(min(cap, t) + 1)) for t in range(cost + 1)]
    return ways[cost]


def _all_splits(have: Sequence[int], cost: int) -> list[Split]:
    out: list[Split] = []

    def fill(g: int, left: int, chosen: list[int]) -> None:
        if g == len(have):
            if left == 0:
                out.append(tuple(chosen))
            return
        for k in range(min(have[g], left), -1, -1):
            fill(g + 1, left - k, chosen + [k])

    fill(0, cost, [])
    return out


def _whole_holding_splits(have: Sequence[int], cost: int) -> list[Split]:
    """Splits where every good is either unused or paid in full, except at most one that makes up the rest."""
    found: set[Split] = set()
    n = len(have)
    for part in [None, *range(n)]:
        others = [g for g in range(n) if g != part]
        for mask in range(1 << len(others)):
            x = [0] * n
            for i, g in enumerate(others):
                if mask >> i & 1:
                    x[g] = have[g]
            rest = cost - sum(x)
            if part is None and rest == 0:
                found.add(tuple(x))
            elif part is not None and 0 < rest < have[part]:
                x[part] = rest
                found.add(tuple(x))
    return list(found)


def splits(have: Sequence[int], cost: int) -> list[Split]:
    """The payments offered for `cost`: fewest kinds of goods first, then in the order of GOODS."""
    if cost <= 0 or sum(have) < cost:
        return []
    if count_splits(have, cost) < LIMIT:
        found = _all_splits(have, cost)
    else:
        found = _whole_holding_splits(have, cost)
    return sorted(found, key=lambda x: (sum(1 for k in x if k), [-k for k in x]))


def pay_actions(have: Sequence[int], cost: int) -> list[str]:
    """The `pay ...` actions offered for `cost` (splits, as actions)."""
    # Holding more of a good than the cost allows nothing more than holding exactly the cost.
    return list(_pay_actions(tuple(min(h, cost) for h in have), cost))


@functools.lru_cache(maxsize=4096)
def _pay_actions(have: tuple[int, ...], cost: int) -> tuple[str, ...]:
    """Worked out once per (holdings up to the cost, cost): payments recur all game long."""
    return tuple(pay_action(x) for x in splits(have, cost))


def pay_action(split: Split) -> str:
    """`pay 2 gold 1 cube`: each good paid with, in the order of GOODS."""
    return "pay " + " ".join(f"{k} {WORDS[g][k != 1]}" for g, k in zip(GOODS, split, strict=True) if k)


def read_pay(action: str) -> Split:
    """The split a legal `pay ...` action names."""
    words = action.split(" ")[1:]
    paid = dict.fromkeys(GOODS, 0)
    for k, word in zip(words[::2], words[1::2], strict=True):
        paid[READ[word]] += int(k)
    return tuple(paid[g] for g in GOODS)


def within(have: Sequence[int], reserve: Sequence[int]) -> list[int]:
    """What may go into a payment when `reserve` must stay for the action the disc is removed for."""
    return [max(0, h - r) for h, r in zip(have, reserve, strict=True)]
