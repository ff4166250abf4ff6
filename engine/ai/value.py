"""What a position is worth to each seat: the search's rewards, between 0 and 1.

The goal is to win, so a finished game is worth each seat its share of the win
(a win shared by two is worth 1/2 to each). Before the end, a game's `evaluate`
turns its own estimate of each seat's final score into *shares*: a soft
maximum, so the leader's share grows with its lead and everybody's shares add
up to 1, whatever the number of players. `spread` is how many points make a
lead count: the larger it is, the longer a lead stays uncertain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def shares(estimates: Sequence[float], spread: float) -> list[float]:
    """Soft-maximum shares of `estimates` (per seat), adding up to 1."""
    top = max(estimates)
    weights = [math.exp((e - top) / spread) for e in estimates]
    total = sum(weights)
    return [w / total for w in weights]


def win_shares(winners: Sequence[int], players: int) -> list[float]:
    """1/k for each of k winners, 0 for everyone else."""
    if not winners:
        return [1.0 / players] * players
    each = 1.0 / len(winners)
    return [each if seat in winners else 0.0 for seat in range(players)]
