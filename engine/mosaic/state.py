"""Mosaic game state: plain dataclasses, JSON-safe, kept compact.

Pieces on the map are one short code per hex in `State.board`: a letter for
the kind (c city, p port city, f farm town, m manufactory town, w wonder)
followed by the owner's seat; `State.wonder_hex` says which wonder stands where.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.core import Decision, DecisionStack, Rng

T = TypeVar("T")

TRACK_NAMES = ("ideas", "food", "stone", "tax", "tariff")


def _tracks() -> dict[str, int]:
    return {t: 0 for t in TRACK_NAMES}


@dataclass
class Player:
    name: str
    leader: str = ""
    population: int = 5
    food: int = 0
    stone: int = 0
    ideas: int = 0
    money: int = 0
    production: dict[str, int] = field(default_factory=_tracks)
    unrest: int = 0
    techs: list[str] = field(default_factory=list)  # face up (played)
    hidden: list[str] = field(default_factory=list)  # face down: private, except
    seen: list[str] = field(default_factory=list)  # those of `hidden` taken from the offer (N51)
    builds: list[str] = field(default_factory=list)  # build cards taken
    goods: dict[str, int] = field(default_factory=dict)  # trade goods tiles (duplicates stack)
    wonders: list[str] = field(default_factory=list)
    golden_ages: list[str] = field(default_factory=list)
    achievements: list[str] = field(default_factory=list)
    government: str = ""
    library: str = ""  # pillar of the Great Library's 2 symbols
    units: dict[str, int] = field(default_factory=dict)  # region -> military units
    vp: int = 0  # VP scored during play (empire scorings)
    hand: list[str] = field(default_factory=list)  # starting technology draft hand: private
    picks: list[str] = field(default_factory=list)  # drafted starting technologies: private until played
    used: list[str] = field(default_factory=list)  # once-per-game leader abilities used
    turns: int = 0

    def copy(self) -> Player:
        """A copy to change: every list and dict is new (their items are str or int)."""
        return _copy(self, _PLAYER_LISTS, _PLAYER_DICTS)


_PLAYER_LISTS = ("techs", "hidden", "seen", "builds", "wonders", "golden_ages", "achievements", "hand", "picks", "used")
_PLAYER_DICTS = ("production", "goods", "units")


@dataclass
class State:
    players: list[Player]
    rng: Rng
    start: int
    regions: list[str]  # regions in play
    phase: str = "leaders"  # leaders | draft | setup | play | over
    seat: int = 0
    leader_pool: list[str] = field(default_factory=list)
    leader_order: list[int] = field(default_factory=list)
    draft_waiting: list[int] = field(default_factory=list)
    board: dict[str, str] = field(default_factory=dict)
    wonder_hex: dict[str, str] = field(default_factory=dict)
    goods_on: dict[str, str] = field(default_factory=dict)
    cache_on: dict[str, str] = field(default_factory=dict)
    fish_on: list[str] = field(default_factory=list)
    tech_deck: list[str] = field(default_factory=list)
    tech_offer: list[str] = field(default_factory=list)
    build_deck: list[str] = field(default_factory=list)
    build_offer: list[str] = field(default_factory=list)
    pop_deck: list[str] = field(default_factory=list)
    pop_offer: list[str] = field(default_factory=list)
    tax_deck: list[str] = field(default_factory=list)
    tax_offer: list[str] = field(default_factory=list)
    holding: int = 0
    wonders: list[str] = field(default_factory=list)  # wonder tiles still available
    golden_ages: list[str] = field(default_factory=list)  # golden age tiles still available
    achievements: list[str] = field(default_factory=list)  # achievement tiles still available
    achievements_in_play: list[str] = field(default_factory=list)
    governments: list[str] = field(default_factory=list)  # government tiles on the board
    gov_flipped: list[str] = field(default_factory=list)  # tiles whose arrow side was used
    scorings: int = 0  # empire scoring cards revealed
    scoring_due: int = 0  # empire scorings waiting for the action to end
    scoring_after_action: int = 0  # cards revealed before the turn's action: scored once it ends (N53)
    general_done: bool = False  # the choices before an Empire Scoring are asked (flow.before_scoring)
    city_state_region: str = ""  # the region a City State chose to score at this Empire Scoring (N37)
    stage: str = "main"  # main (action to take) | post (action taken)
    action_open: bool = False  # a main action is being carried out
    actions_left: int = 1
    pay_by_choice: bool = False  # `spend money`: this action's costs ask how money pays (N32)
    turn_recruits: int = 0  # units recruited this turn (limit per turn: N48)
    turn_arrived: dict[str, int] = field(default_factory=dict)  # region -> units that moved there this turn
    end_stage: str = ""  # "" | rounds | scribe
    rounds_left: int = 0
    scribe_turn: bool = False
    pending: DecisionStack = field(default_factory=DecisionStack)
    final: list[int] = field(default_factory=list)  # final scores once over
    turn_no: int = 0
    last: list[str] = field(default_factory=list)  # public events of the last action (for the board header)
    peeked: str = ""  # Republic: "<deck> <card>" seen this turn (private)

    def copy(self) -> State:
        """A full copy for `apply` to change, several times faster than `copy.deepcopy`
        (tests/engine/mosaic/test_clone.py checks that no list or dict is shared)."""
        s = _copy(self, _STATE_LISTS, _STATE_DICTS)
        s.players = [p.copy() for p in self.players]
        s.rng = Rng(self.rng.state)
        s.pending = DecisionStack([Decision(x.kind, x.seat, _plain_copy(x.data)) for x in self.pending.items])
        return s


_STATE_LISTS = (
    "regions",
    "leader_pool",
    "leader_order",
    "draft_waiting",
    "fish_on",
    "tech_deck",
    "tech_offer",
    "build_deck",
    "build_offer",
    "pop_deck",
    "pop_offer",
    "tax_deck",
    "tax_offer",
    "wonders",
    "golden_ages",
    "achievements",
    "achievements_in_play",
    "governments",
    "gov_flipped",
    "final",
    "last",
)
_STATE_DICTS = ("board", "wonder_hex", "goods_on", "cache_on", "turn_arrived")


def _copy(obj: T, lists: tuple[str, ...], dicts: tuple[str, ...]) -> T:
    """A shallow copy of a state dataclass with the named lists and dicts copied one level down."""
    new = object.__new__(type(obj))
    d = obj.__dict__.copy()
    for k in lists:
        d[k] = d[k][:]
    for k in dicts:
        d[k] = d[k].copy()
    new.__dict__ = d
    return new


def _plain_copy(x: Any) -> Any:
    """Copy of JSON-like data (dicts, lists, scalars): what pending decisions hold."""
    t = type(x)
    if t is dict:
        return {k: _plain_copy(v) for k, v in x.items()}
    if t is list:
        return [_plain_copy(v) for v in x]
    return x
