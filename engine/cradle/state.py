"""The state of a Cradle of Civilization game, kept as small dataclasses.

The board is two flat maps (area -> Civilization id, area -> number of Armies):
Armies of different Civilizations never share an Area at the end of a round
(rulebook 5.2), and the one moment two stand in one Area — an attack — is kept in
the pending `Round` instead of on the board. Raiders placed by Barbarian Raids
and Civil War (8.0) are the pseudo-Civilization `r<seat>`: upside-down Armies of
that player's colour that never flip, move or grow.

`copy()` is a hand-written deep copy: `apply` clones the state on every step and
`copy.deepcopy` would be most of the step time.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TypeVar

from ..core import Rng

T = TypeVar("T")

DUMMY = -1  #: the seat number of the non-player ("dummy") civilizations (rulebook 9.0)


@dataclass
class Round:
    """The Civilization Round in progress (rulebook 5.0-5.7)."""

    civ: str
    seat: int  #: controlling seat, DUMMY for a non-player civilization
    current: bool  #: a current-Epoch Civilization (bonus, traits, non-combat expansion)
    pool: int = 0  #: Armies left in the Army Pool (5.1)
    step: str = "grow"  #: grow | combat | start | displace
    bonus: int = 0  #: the 2d6 Civilization Bonus roll (5.2), 0 when none
    military: bool = False  #: Military this round (trait or bonus)
    seafaring: bool = False  #: Seafaring this round (trait, kept trait or bonus)
    guides: bool = False  #: bonus: Desert entry roll and Desert attacker penalty ignored
    wonder_min: int = 4  #: a Wonder attempt succeeds on this or higher (5.6)
    culture_min: int = 5  #: a Cultural Achievement succeeds on this or higher (5.6)
    tried_wonder: bool = False
    built_wonder: bool = False
    tried_culture: bool = False
    area: str = ""  #: the hostile Area being attacked (combat)
    doubles: list[str] = field(default_factory=list)  #: Persia: Areas where doubles were rolled (6.3)
    placed: int = 0  #: Armies taken from the pool so far (dummy placing order, 9.0)
    placers: list[int] = field(default_factory=list)  #: dummy: seats in placing order (9.0)
    disp_civ: str = ""  #: 5.3: the Civilization being displaced from the Start Area
    disp_left: int = 0  #: how many of its Armies still must move
    disp_seat: int = DUMMY  #: who moves a non-player civilization's displaced Armies (RULES-NOTES 9.0)
    start: str = ""  #: the Start Area being entered


@dataclass
class Allocation:
    """New Civilization Allocation (rulebook 3.0): who draws, what is concealed."""

    order: list[int] = field(default_factory=list)  #: draw order (fewest VPs first)
    index: int = 0  #: whose draw it is
    drawn: str = ""  #: the card the drawer is looking at
    dealt: dict[int, str] = field(default_factory=dict)  #: seat -> card received this Epoch (concealed)
    kept: list[int] = field(default_factory=list)  #: seats that kept the card they drew
    passed: dict[int, int] = field(default_factory=dict)  #: receiver -> passer


@dataclass
class EventStep:
    """An End of Epoch event waiting for the last-place player's choice (8.0)."""

    kind: str  #: raid | revolt | ruin
    civ: str
    left: int = 1  #: how many more Areas to pick
    options: list[str] = field(default_factory=list)  #: ruin: the Areas that qualified
    rolled: bool = False  #: raid: the roll for a second raided Area has been made


@dataclass
class State:
    players: list[str]
    rng: Rng
    non_player: bool = False
    epoch: int = 1
    phase: str = "strategy"  #: allocate | strategy | events | over
    vp: list[int] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  #: the current Epoch's undrawn cards
    cards: dict[str, int] = field(default_factory=dict)  #: revealed card -> holder seat (DUMMY allowed)
    gone: list[str] = field(default_factory=list)  #: Civilizations vanished from the game (5.1)
    civ_at: dict[str, str] = field(default_factory=dict)  #: area -> occupying Civilization id
    count: dict[str, int] = field(default_factory=dict)  #: area -> Armies there
    cities: dict[str, list[str]] = field(default_factory=dict)  #: area -> city ids
    wonders: dict[str, str] = field(default_factory=dict)  #: wonder id -> area
    lost_wonders: list[str] = field(default_factory=list)  #: destroyed, never rebuilt
    alloc: Allocation | None = None
    order: list[int] = field(default_factory=list)  #: Strategy Phase order (4.0)
    turn: int = 0  #: index into `order`
    queue: list[str] = field(default_factory=list)  #: the participant's Civilizations still to play
    rnd: Round | None = None
    last_armies: list[int] = field(default_factory=list)  #: Armies on the map at the last Epoch's end (3.0 ties)
    ev_queue: list[str] = field(default_factory=list)  #: Civilizations still to roll for End of Epoch events
    ev_step: EventStep | None = None
    last_place: int | None = None
    scored: list[list[int]] = field(default_factory=list)  #: VP gained per Epoch per seat (for the view)
    vp_by: list[dict[str, int]] = field(default_factory=list)  #: per seat, VP by source (points.py)
    last: list[str] = field(default_factory=list)  #: the last move's first log lines (public)

    @property
    def n(self) -> int:
        return len(self.players)

    # The phase's pending part, for the rules that run only while it is there: each names the
    # broken invariant instead of failing later on None.
    def round_now(self) -> Round:
        """The Civilization Round in progress (the Strategy Phase between its rounds has none)."""
        return _pending(self.rnd, "Civilization Round is in progress", self.phase)

    def allocation_now(self) -> Allocation:
        """The New Civilization Allocation in progress (3.0)."""
        return _pending(self.alloc, "Civilization Allocation is in progress", self.phase)

    def event_now(self) -> EventStep:
        """The End of Epoch event waiting for the last-place player's choice (8.0)."""
        return _pending(self.ev_step, "End of Epoch event is waiting for a choice", self.phase)

    def chooser(self) -> int:
        """The last-place player, who makes this End of Epoch's event choices (8.0)."""
        return _pending(self.last_place, "last-place player is fixed yet", self.phase)

    def copy(self) -> State:
        s = _shallow(self)
        # a subclass (the tests' scripted dice) copies itself its own way
        s.rng = Rng(self.rng.state) if type(self.rng) is Rng else copy.copy(self.rng)
        s.players = list(self.players)
        s.vp = list(self.vp)
        s.deck = list(self.deck)
        s.cards = dict(self.cards)
        s.gone = list(self.gone)
        s.civ_at = dict(self.civ_at)
        s.count = dict(self.count)
        s.cities = {a: list(v) for a, v in self.cities.items()}
        s.wonders = dict(self.wonders)
        s.lost_wonders = list(self.lost_wonders)
        if self.alloc is not None:
            a = self.alloc
            s.alloc = Allocation(list(a.order), a.index, a.drawn, dict(a.dealt), list(a.kept), dict(a.passed))
        s.order = list(self.order)
        s.queue = list(self.queue)
        if self.rnd is not None:
            s.rnd = _shallow(self.rnd)
            s.rnd.doubles = list(self.rnd.doubles)
            s.rnd.placers = list(self.rnd.placers)
        s.last_armies = list(self.last_armies)
        s.ev_queue = list(self.ev_queue)
        if self.ev_step is not None:
            s.ev_step = _shallow(self.ev_step)
            s.ev_step.options = list(self.ev_step.options)
        s.scored = [list(r) for r in self.scored]
        s.vp_by = list(self.vp_by)  # a seat's record is replaced, never changed (points.gain)
        s.last = list(self.last)
        return s


def _pending(value: T | None, what: str, phase: str) -> T:
    if value is None:
        raise RuntimeError(f"No {what} (phase {phase}).")
    return value


def _shallow(obj: T) -> T:
    """A field-for-field copy without running `__init__` (what `dataclasses.replace` costs)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def dice(state: State, n: int) -> list[int]:
    """`n` dice from the state's seeded generator (law 3); callers log every roll."""
    rng = state.rng
    return [rng.die() for _ in range(n)]


def raider_id(seat: int) -> str:
    """The pseudo-Civilization of `seat`'s upside-down raiders (8.0)."""
    return f"r{seat}"


def is_raider(civ: str) -> bool:
    return civ.startswith("r")
