"""Words checked against deeds (issue 49): play seeded random games and hand every choice of every
decision to a game's check, with the state before it and the state it leads to.

A described choice (`Game.choices`) tells a player what an action costs and gives; a player trusts
those words, so a wrong number is worse than none. A game's deeds test reads each choice's words,
looks at what the action did (`before` against `after`), and reports every claim the deed does
not bear out. This module only plays: it is the same for every game.

Cheap on purpose (the test runs in CI over hundreds of games): the actions are played with the
game's own `clone` and `play` (no text matching, `apply`'s work), each only when a check reads
`after` (a check may replay the action its own way), and the chosen action's `after` state
becomes the next position. A check must not change `before` or `after`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Choice, Game


@dataclass(frozen=True)
class Deed:
    """One choice applied: the position, who chose, the choice as described, and what followed
    (`after`, `events`: played when first asked for, so a check that replays the action its own
    way does not pay for a copy it never reads)."""

    game: int  # the seed of the game
    before: Any
    seat: int
    choice: Choice
    play: Callable[[Any, int, str], list[str]]
    clone: Callable[[Any], Any]

    @functools.cached_property
    def played(self) -> tuple[Any, list[str]]:
        after = self.clone(self.before)
        return after, self.play(after, self.seat, self.choice.action)

    @property
    def after(self) -> Any:
        return self.played[0]

    @property
    def events(self) -> list[str]:
        return self.played[1]

    def where(self) -> str:
        """Where to find it again: `game 17, seat 1: 'take city cuzco'`."""
        return f"game {self.game}, seat {self.seat}: {self.choice.action!r}"


def deeds(
    game: Game,
    seeds: Iterable[int],
    players: Sequence[int],
    options: Callable[[int], Mapping[str, Any]] = lambda seed: {},
) -> Iterator[Deed]:
    """Every choice of every decision of one seeded random game per seed, applied: the game with
    seed k has players[k % len(players)] players and options(k); the choice played on is drawn
    from random.Random(k), so a game is the same each run."""
    play: Callable[[Any, int, str], list[str]] = game.play  # type: ignore[attr-defined]
    clone: Callable[[Any], Any] = game.clone  # type: ignore[attr-defined]
    for seed in seeds:
        n = players[seed % len(players)]
        rand = random.Random(seed)
        state = game.setup([f"p{i}" for i in range(n)], seed, options(seed))
        while not game.is_over(state):
            seat = rand.choice(game.to_act(state))
            choices = game.choices(state, seat)
            chosen = rand.randrange(len(choices))
            found = [Deed(seed, state, seat, choice, play, clone) for choice in choices]
            yield from found
            state = found[chosen].after


#: A game's deeds run in this many parts, each a test of its own, so that the suite's two
#: workers (`pytest -n 2`) share its hundreds of games out instead of waiting on one test.
PARTS = 4


def share_of(seeds: Sequence[int], index: int) -> Sequence[int]:
    """Every `PARTS`-th seed from the `index`-th: parts of like size and like player counts."""
    return seeds[index::PARTS]


def mismatches(found: Iterable[Deed], check: Callable[[Deed], list[str]], shown: int = 5) -> tuple[int, int, list[str]]:
    """(choices checked, mismatches, the first `shown` of them with where they happened)."""
    checked = wrong = 0
    first: list[str] = []
    for deed in found:
        checked += 1
        for problem in check(deed):
            wrong += 1
            if len(first) < shown:
                first.append(f"{deed.where()}: {problem} (said {deed.choice.label!r}: {deed.choice.detail!r})")
    return checked, wrong, first
