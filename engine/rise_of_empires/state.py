"""The state of a game of Rise of Empires, as plain dataclasses (serialised by engine.core.serial).

Kept compact and cheap to copy: `clone` below is hand-written because random play
copies the state on every step (issue 15: 40 five-player games/s on one core).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core import Decision, DecisionStack, Rng

ROWS = ("progress", "territory", "city", "empire", "trade")
EMPTY = -1


@dataclass
class Player:
    """One player's holdings (3.0): tracks, bank items, pool and general stock, tiles in front of them.

    The tiles are tuples, and `fresh` and `vp_by` are replaced rather than changed: a change rebinds the field
    (`p.cities = (*p.cities, city)`), so a copy shares them and `copy` is a dictionary copy.
    """

    name: str
    colour: str
    vp: int = 0
    food: int = 16
    gold: int = 5
    resources: int = 2
    pool: int = 5
    stock: int = 25
    progress: tuple[str, ...] = ()
    #: progress tiles flipped face down this game turn (6.1: each usable once per turn)
    used: tuple[str, ...] = ()
    #: progress tile -> every seat's action count when it was taken (6.1: wait for the others)
    fresh: dict[str, tuple[int, ...]] = field(default_factory=dict)
    territories: tuple[str, ...] = ()
    cities: tuple[str, ...] = ()
    empires: tuple[str, ...] = ()
    #: the seat this player's alliance piece marks (Diplomacy, 2.9), or -1
    ally: int = -1
    #: actions taken this game turn, and over the whole game (for the 6.1 waiting rule)
    actions: int = 0
    actions_total: int = 0
    #: VP by source (points.py), replaced like `fresh`: the parts of `vp`
    vp_by: dict[str, int] = field(default_factory=dict)

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.__dict__ = self.__dict__.copy()
        return p

    @property
    def tokens(self) -> int:
        """Game tokens for the 10.0 tie-break: gold, cubes (the pool, see RULES-NOTES) and resource discs."""
        return self.gold + self.pool + self.resources


@dataclass
class State:
    """A whole game. `turn` 1-6 (4.0): era = (turn + 1) // 2, odd turns are A turns."""

    players: list[Player]
    rng: Rng
    turn: int = 1
    phase: str = "actions"
    order: list[int] = field(default_factory=list)
    #: position in `order` of the seat whose action comes next (6.0)
    cursor: int = 0
    previous_order: list[int] = field(default_factory=list)
    #: row -> circles from the right; each holds a seat or EMPTY (6.0)
    rows: dict[str, list[int]] = field(default_factory=dict)
    offer_progress: list[str] = field(default_factory=list)
    offer_territory: list[str] = field(default_factory=list)
    offer_city: list[str] = field(default_factory=list)
    empire_track: list[str] = field(default_factory=list)
    #: trade box index -> seat whose discs are in it this turn (6.5)
    trade_used: dict[int, int] = field(default_factory=dict)
    progress_deck: list[str] = field(default_factory=list)
    territory_deck: list[str] = field(default_factory=list)
    #: region -> cubes per seat
    cubes: dict[str, list[int]] = field(default_factory=dict)
    navigation_taken: bool = False
    stack: DecisionStack = field(default_factory=DecisionStack)
    #: seats still to choose a turn-order position (10.0), in choosing order
    choosers: list[int] = field(default_factory=list)
    new_order: list[int] = field(default_factory=list)
    #: seats still to decide in the current food/income/era-end step, in turn order
    waiting: list[int] = field(default_factory=list)
    last: str = ""

    @property
    def era(self) -> int:
        return (self.turn + 1) // 2

    @property
    def half(self) -> str:
        return "A" if self.turn % 2 else "B"

    @property
    def n(self) -> int:
        return len(self.players)

    def clone(self) -> State:
        s = State.__new__(State)
        s.__dict__ = {
            **self.__dict__,
            "players": [p.copy() for p in self.players],
            "rng": Rng(self.rng.state),
            "order": self.order[:],
            "previous_order": self.previous_order[:],
            "rows": {k: v[:] for k, v in self.rows.items()},
            "offer_progress": self.offer_progress[:],
            "offer_territory": self.offer_territory[:],
            "offer_city": self.offer_city[:],
            "empire_track": self.empire_track[:],
            "trade_used": dict(self.trade_used),
            "progress_deck": self.progress_deck[:],
            "territory_deck": self.territory_deck[:],
            "cubes": {k: v[:] for k, v in self.cubes.items()},
            "stack": DecisionStack([Decision(d.kind, d.seat, _copy_data(d.data)) for d in self.stack.items]),
            "choosers": self.choosers[:],
            "new_order": self.new_order[:],
            "waiting": self.waiting[:],
        }
        return s


def without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    """`items` less one copy of `item` (a player may hold duplicate cities and territories)."""
    i = items.index(item)
    return items[:i] + items[i + 1 :]


def _copy_data(data: dict[str, Any]) -> dict[str, Any]:
    return {k: (v[:] if isinstance(v, list) else v) for k, v in data.items()}
