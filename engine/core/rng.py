"""Seeded randomness that lives inside the game state.

Law 3 of the contract: every shuffle and die roll comes from a generator whose
whole state is one integer stored with the game, so `setup(players, seed)` plus
the action log always replays to the same state, and `dumps` stays small
(Python's Mersenne Twister state would be 625 numbers).

The generator is SplitMix64: tiny, fast, and good enough for board games.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
#: `below`'s rejection limit for the usual dice, worked out once.
_LIMITS = {n: (1 << 64) - ((1 << 64) % n) for n in (2, 3, 4, 6, 8, 10, 12, 20)}


@dataclass
class Rng:
    """A SplitMix64 generator; `state` is all there is to save."""

    state: int = 0

    @classmethod
    def from_seed(cls, seed: int, stream: str = "") -> Rng:
        """A generator for `seed`; `stream` separates independent uses of one seed."""
        mixed = seed & _MASK
        for ch in stream:
            mixed = (mixed * 1_000_003 + ord(ch)) & _MASK
        return cls(mixed)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included."""
        return low + self.below(high - low + 1)

    def die(self, sides: int = 6) -> int:
        """`randint(1, sides)`, written out: the same numbers from the same state, without three
        nested calls per roll (a bot's search rolls hundreds of thousands of dice a decision)."""
        if sides <= 0:
            return self.randint(1, sides)  # refused there, with its message
        limit = _LIMITS.get(sides) or (1 << 64) - ((1 << 64) % sides)
        while True:
            self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return 1 + x % sides

    def dice(self, count: int, sides: int = 6) -> list[int]:
        return [self.die(sides) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffled(items)[:k]
