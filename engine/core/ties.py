"""Ranking with ties, the way rulebooks phrase them.

"Most X wins; on a tie, the one with most Y; then ..." is `best(seats, key)`
with a key tuple. Where a tie is not broken, everyone tied stays in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Key(Protocol):
    """What items are ranked by: a number, or a tuple of numbers for the tie-breakers.

    Keys are compared (the greatest wins) and, in `ranks`, grouped as dict keys.
    """

    def __lt__(self, other: Any, /) -> bool: ...
    def __hash__(self) -> int: ...


def best(items: Iterable[T], key: Callable[[T], Key]) -> list[T]:
    """All items sharing the greatest `key` (a tuple for tie-breakers)."""
    items = list(items)
    if not items:
        return []
    top = max(key(i) for i in items)
    return [i for i in items if key(i) == top]


def worst(items: Iterable[T], key: Callable[[T], Key]) -> list[T]:
    """All items sharing the smallest `key`."""
    items = list(items)
    if not items:
        return []
    low = min(key(i) for i in items)
    return [i for i in items if key(i) == low]


def ranks(items: Sequence[T], key: Callable[[T], Key]) -> list[list[T]]:
    """Items grouped by place, best first: [[first (tied)], [second], ...]."""
    groups: dict[Key, list[T]] = {}
    for item in items:
        groups.setdefault(key(item), []).append(item)
    return [groups[k] for k in sorted(groups, reverse=True)]


def winners_by(scores: Sequence[int], *tiebreaks: Sequence[int]) -> list[int]:
    """Seats with the best (score, tiebreak1, tiebreak2, ...), ties kept."""
    seats = range(len(scores))
    return best(seats, key=lambda s: (scores[s], *(t[s] for t in tiebreaks)))
