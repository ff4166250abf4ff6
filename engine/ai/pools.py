"""Small helpers the games' `resample` modules share: unknown cards as pools.

A seat that cannot see some cards still knows which cards exist (the component
data) and where the cards it can see are. What is left — the *pool* — may lie in
any of the places it cannot see. Every `resample` works the same way: build the
pool from the component list minus everything the seat sees, shuffle it with the
bot's own generator, and deal it back into the hidden places, keeping their
sizes (which are public). Nothing in a pool comes from the hidden places
themselves, so the true hidden cards cannot leak through it.

Pools are lists, not sets: iteration order must not depend on Python's string
hashing, or a decision would differ between processes (issue 14, determinism).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar

from engine.core import Rng

T = TypeVar("T")


def without(pool: Sequence[T], seen: Iterable[T]) -> list[T]:
    """`pool` minus `seen`, as multisets, keeping `pool`'s order.

    An item of `seen` missing from `pool` is ignored: the pool is what may be
    hidden, and a card the seat sees that the component list does not name
    (a stand-in in a test) simply is not hidden. Counted in one pass each
    (removing one by one from a list was a sixth of Mosaic's `resample`).
    """
    left: dict[T, int] = {}
    for item in seen:
        left[item] = left.get(item, 0) + 1
    out = []
    for item in pool:
        if left.get(item, 0) > 0:
            left[item] -= 1
        else:
            out.append(item)
    return out


class Dealer(Generic[T]):
    """Deals a shuffled pool into hidden places, one place at a time.

    `deal(k)` takes the next `k` cards. A pool may hold more cards than the
    hidden places (cards that left the game unseen, or were seen once and since
    forgotten because the state keeps no record of it): the rest stays undealt,
    out of the game. A pool with too few cards is a bug in the caller's
    bookkeeping and raises, so a resampled state is never short of cards.
    """

    def __init__(self, pool: Sequence[T], rng: Rng) -> None:
        self.cards = list(pool)
        shuffle(self.cards, rng)
        self.next = 0

    def deal(self, k: int) -> list[T]:
        if k < 0 or self.next + k > len(self.cards):
            raise ValueError(f"cannot deal {k} of {len(self.cards) - self.next} unknown cards left")
        out = self.cards[self.next : self.next + k]
        self.next += k
        return out

    @property
    def left(self) -> int:
        return len(self.cards) - self.next


def drawn(pool: Sequence[T], k: int, rng: Rng) -> list[T]:
    """`k` cards of `pool` in a random order: what `Dealer(pool, rng).deal(k)` deals (every `k`
    cards of the pool as likely, in every order), drawing only those `k` instead of shuffling
    the whole pool (a Rise of Empires stack late in the game holds a few of forty unseen tiles)."""
    if k > len(pool):
        raise ValueError(f"cannot deal {k} of {len(pool)} unknown cards left")
    return random.Random(rng.next64()).sample(pool, k)


def shuffle(items: list[T], rng: Rng) -> None:
    """Shuffle `items` in place, seeded by `rng`: Python's own generator, seeded once from
    `rng`, draws a position several times faster than `Rng` itself, and a search shuffles
    the unknown cards of every world it imagines (the shuffles were a third of Mosaic's
    `resample`)."""
    random.Random(rng.next64()).shuffle(items)


def fresh_rng(rng: Rng) -> Rng:
    """A new generator for the resampled state: the true one's future is hidden from everyone
    (the next shuffle or die roll), so the bot imagines its own."""
    return Rng(rng.next64())
