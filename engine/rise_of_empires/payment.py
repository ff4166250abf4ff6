"""Paying for a B-turn disc (6.0): every split of the cost over the five goods, within three picks.

6.0: "you must either pay one gold, one player cube, one resource disc, one food
point, or one victory point for each disc to its left". Each disc may be paid
with any good, so a payment is a split: how many of each good. No good is the
cost's own currency, and every split is the player's to choose.

A payment is one pick where it can be. While the splits are fewer than LIMIT,
every one is offered whole (`pay 2 gold 1 food`). Beyond that (large costs,
plenty of every good) a pick offers the usual payments whole (the cheapest one
and each good alone) and, to reach every other split, a part of one good
(`pay 2 gold first`); the rest is then paid from the other goods by the same
rule. Fixing one good leaves at most four, fixing two at most three, and three
goods split at most C(7 + 2, 2) = 36 ways (nine discs to the left at most, 6.0,
less the two fixed parts): every split is reached in at most three picks
(tests/engine/rise_of_empires/test_payment.py).

This module is the arithmetic of splits only; the payment step (what the player
holds, keeps for the chosen action and spends first) is pay_step.py.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

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
#: With this many splits or more, a pick offers the usual payments whole and parts of one good.
LIMIT = 60
#: The word closing a part payment: `pay 2 gold first` (the rest follows in the next pick).
PART = "first"

Split = tuple[int, ...]
#: Spending order for the cheapest payment: (good index, at most this many), spent in turn.
Tiers = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Pick:
    """One option of a payment step: `paid` now; `whole` when it completes the payment.

    `kind`: "cheapest" (spends the goods in the player's spending order), "one good",
    "split" (any other whole split) or "part" (one good's share; the rest follows).
    """

    paid: Split
    whole: bool
    kind: str

    @functools.cached_property
    def action(self) -> str:
        """Written once per pick: `_picks` keeps its picks, and a bot's search lists them thousands of times."""
        return pay_action(self.paid) + ("" if self.whole else f" {PART}")


def count_splits(have: Sequence[int], cost: int) -> int:
    """How many ways `cost` can be paid from `have` (one count per good)."""
    ways = [1] + [0] * cost
    for cap in have:
        ways = [sum(ways[t - m] for m in range(min(cap, t) + 1)) for t in range(cost + 1)]
    return ways[cost]


def all_splits(have: Sequence[int], cost: int) -> list[Split]:
    """Every way to pay `cost` from `have`."""
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


def cheapest(have: Sequence[int], cost: int, tiers: Tiers) -> Split | None:
    """The split that spends goods in the order of `tiers` (None if the tiers cannot pay it all)."""
    paid = [0] * len(have)
    left = cost
    for g, most in tiers:
        k = min(left, most, have[g] - paid[g])
        if k > 0:
            paid[g] += k
            left -= k
    return tuple(paid) if left == 0 else None


def picks(have: Sequence[int], cost: int, tiers: Tiers) -> list[Pick]:
    """The options of one payment pick for `cost` from `have` (a good already fixed has 0 in `have`):
    the cheapest split, each good alone, then every other split or the parts of one good."""
    return list(_picks(tuple(min(h, cost) for h in have), cost, tiers))


@functools.lru_cache(maxsize=4096)
def _picks(have: tuple[int, ...], cost: int, tiers: Tiers) -> tuple[Pick, ...]:
    """Worked out once per (holdings up to the cost, cost, spending order): payments recur all game long."""
    if cost <= 0 or sum(have) < cost:
        return ()
    out: list[Pick] = []
    seen: set[Split] = set()

    def add(split: Split, kind: str) -> None:
        if split not in seen:
            seen.add(split)
            out.append(Pick(split, True, kind))

    best = cheapest(have, cost, tiers)
    if best is not None:
        add(best, "cheapest")
    for g, h in enumerate(have):
        if h >= cost:
            add(_only(len(have), g, cost), "one good")
    if count_splits(have, cost) < LIMIT:
        rest = sorted(all_splits(have, cost), key=lambda x: (sum(1 for k in x if k), [-k for k in x]))
        for split in rest:
            add(split, "split")
        return tuple(out)
    total = sum(have)
    for g, h in enumerate(have):
        for k in range(1, min(h, cost - 1) + 1):
            if total - h >= cost - k:  # the other goods can pay the rest
                out.append(Pick(_only(len(have), g, k), False, "part"))
    return tuple(out)


def _only(n: int, g: int, k: int) -> Split:
    return tuple(k if i == g else 0 for i in range(n))


def route(have: Sequence[int], cost: int, split: Split, tiers: Tiers) -> list[Pick]:
    """The picks that pay `split` (a valid split of `cost` within `have`), first to last: the split
    whole where it is offered, else first a part of the first good it pays partly."""
    have, left = list(have), cost
    out: list[Pick] = []
    while True:
        options = picks(have, left, tiers)
        rest = tuple(k if have[g] else 0 for g, k in enumerate(split))  # a fixed good has 0 in `have`
        whole = next((p for p in options if p.whole and p.paid == rest), None)
        if whole is not None:
            return out + [whole]
        g = next(g for g, k in enumerate(rest) if 0 < k < left)
        out.append(next(p for p in options if not p.whole and p.paid == _only(len(have), g, rest[g])))
        have[g] = 0
        left -= rest[g]


def pay_action(split: Split) -> str:
    """`pay 2 gold 1 cube`: each good paid with, in the order of GOODS."""
    return "pay " + " ".join(f"{k} {WORDS[g][k != 1]}" for g, k in zip(GOODS, split, strict=True) if k)


def read_pay(action: str) -> tuple[Split, bool]:
    """The split a `pay ...` action names, and whether it completes the payment (no `first`)."""
    words = action.split(" ")[1:]
    whole = not (words and words[-1] == PART)
    if not whole:
        words = words[:-1]
    paid = dict.fromkeys(GOODS, 0)
    for k, word in zip(words[::2], words[1::2], strict=True):
        paid[READ[word]] += int(k)
    return tuple(paid[g] for g in GOODS), whole


def within(have: Sequence[int], reserve: Sequence[int]) -> list[int]:
    """What may go into a payment when `reserve` must stay for the action the disc is removed for."""
    return [max(0, h - r) for h, r in zip(have, reserve, strict=True)]
