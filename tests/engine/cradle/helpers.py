"""Fixtures for the Cradle tests: hand-built positions and a scripted die source.

`Scripted` stands in for the state's generator: each `die()` takes the next
number of the script, so a test states the rulebook's dice and checks the
result. When the script runs out a seeded generator takes over (for the rolls
of whatever follows in the flow, which the test does not look at).
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, TypeVar

from engine.core import Rng
from engine.cradle import GAME
from engine.cradle.state import Round, State

T = TypeVar("T")

PLAYERS = ["ann", "bob", "cyd", "dee"]


class Scripted(Rng):
    """An `Rng` whose dice are the script's numbers while they last (`used` records every roll)."""

    def __init__(self, rolls: Iterable[int], fallback: Rng | None = None, used: Iterable[int] = ()) -> None:
        super().__init__()
        self.rolls = list(rolls)
        self.fallback = fallback or Rng.from_seed(7)
        self.used = list(used)

    def die(self, sides: int = 6) -> int:
        value = self.rolls.pop(0) if self.rolls else self.fallback.die(sides)
        self.used.append(value)
        return value

    def shuffle(self, items: MutableSequence[T]) -> None:
        self.fallback.shuffle(items)

    def __copy__(self) -> Scripted:
        """What `State.copy` makes of it: the rest of the script, and the rolls so far, for the new state."""
        return Scripted(self.rolls, Rng(self.fallback.state), self.used)


def scripted(state: State) -> Scripted:
    """The scripted dice of a position made here, to read `used` or add `rolls`."""
    assert isinstance(state.rng, Scripted), "this position rolls real dice"
    return state.rng


def position(
    cards: dict[str, int],
    board: dict[str, tuple[str, int]] | None = None,
    *,
    epoch: int = 1,
    players: Sequence[str] = PLAYERS,
    cities: dict[str, list[str]] | None = None,
    vp: Sequence[int] | None = None,
    rolls: Iterable[int] = (),
) -> State:
    """A Strategy Phase position: `cards` card -> seat, `board` area -> (civ, armies)."""
    s = State(
        players=list(players),
        rng=Scripted(rolls),
        epoch=epoch,
        phase="strategy",
        vp=list(vp or [0] * len(players)),
        last_armies=[0] * len(players),
    )
    s.cards = dict(cards)
    for area, (civ, n) in (board or {}).items():
        s.civ_at[area] = civ
        s.count[area] = n
    s.cities = {a: list(v) for a, v in (cities or {}).items()}
    s.order = [0]
    s.turn = 0
    s.scored = [[0] * len(players)]
    return s


def in_round(state: State, civ: str, seat: int, pool: int, *, current: bool = True, **flags: Any) -> State:
    """Put `civ` in the middle of its Civilization Round with `pool` Armies left."""
    state.rnd = Round(civ=civ, seat=seat, current=current, pool=pool, **flags)
    state.order = [seat] + [s for s in range(state.n) if s != seat]
    state.turn = 0
    state.queue = []
    return state


def act(state: State, action: str, seat: int | None = None) -> tuple[State, list[str]]:
    """Apply `action` for the seat to act; returns (new state, events)."""
    if seat is None:
        seat = GAME.to_act(state)[0]
    step = GAME.apply(state, seat, action)
    return step.state, step.events


def text(events: Iterable[str]) -> str:
    return "\n".join(events)
