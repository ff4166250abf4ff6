"""Turn order and simultaneous steps.

Most steps have one seat to act; some (Rising Cultures' income and swaps,
Cradle's hidden allocation) let several seats act in any order. `Simultaneous`
records who still owes a decision, so `to_act` lists all of them and the step
ends when the last one has answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field


def clockwise(start: int, n_players: int) -> list[int]:
    """Seats in clockwise order starting with `start`."""
    return [(start + i) % n_players for i in range(n_players)]


def next_seat(seat: int, n_players: int, step: int = 1) -> int:
    """The seat `step` places clockwise of `seat` (negative: anticlockwise)."""
    return (seat + step) % n_players


def next_in_order(order: Sequence[int], current: int) -> int | None:
    """The seat after `current` in `order`, or None when `current` was last."""
    i = list(order).index(current)
    return order[i + 1] if i + 1 < len(order) else None


@dataclass
class Simultaneous:
    """Seats that still have to act in a step where everyone acts at once."""

    waiting: list[int] = field(default_factory=list)

    @classmethod
    def of(cls, seats: Sequence[int]) -> Simultaneous:
        return cls(sorted(set(seats)))

    def done(self, seat: int) -> None:
        """`seat` has finished its part of the step."""
        if seat in self.waiting:
            self.waiting.remove(seat)

    @property
    def finished(self) -> bool:
        return not self.waiting
