"""Mosaic game state: plain dataclasses, JSON-safe, kept compact.

Pieces on the map are one short code per hex in `State.board`: a letter for
the kind (c city, p port city, f farm town, m manufactory town, w wonder)
followed by the owner's seat; `State.wonder_hex` says which wonder stands where.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import DecisionStack, Rng

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
    techs: list[str] = field(default_factory=list)        # face up (played)
    hidden: list[str] = field(default_factory=list)       # face down: private
    builds: list[str] = field(default_factory=list)       # build cards taken
    goods: dict[str, int] = field(default_factory=dict)   # trade goods tiles (duplicates stack)
    wonders: list[str] = field(default_factory=list)
    golden_ages: list[str] = field(default_factory=list)
    achievements: list[str] = field(default_factory=list)
    government: str = ""
    library: str = ""                                     # pillar of the Great Library's 2 symbols
    units: dict[str, int] = field(default_factory=dict)   # region -> military units
    vp: int = 0                                           # VP scored during play (empire scorings)
    hand: list[str] = field(default_factory=list)         # starting technology draft hand: private
    picks: list[str] = field(default_factory=list)        # drafted starting technologies: private until played
    used: list[str] = field(default_factory=list)         # once-per-game leader abilities used
    turns: int = 0


@dataclass
class State:
    players: list[Player]
    rng: Rng
    start: int
    regions: list[str]                                    # regions in play
    phase: str = "leaders"                                # leaders | draft | setup | play | over
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
    wonders: list[str] = field(default_factory=list)        # wonder tiles still available
    golden_ages: list[str] = field(default_factory=list)    # golden age tiles still available
    achievements: list[str] = field(default_factory=list)   # achievement tiles still available
    achievements_in_play: list[str] = field(default_factory=list)
    governments: list[str] = field(default_factory=list)    # government tiles on the board
    gov_flipped: list[str] = field(default_factory=list)    # tiles whose arrow side was used
    scorings: int = 0                                       # empire scoring cards revealed
    scoring_due: int = 0                                    # empire scorings waiting for the action to end
    general_done: bool = False                              # the General's pre-scoring removal is settled
    stage: str = "main"                                     # main (action to take) | post (action taken)
    action_open: bool = False                               # a main action is being carried out
    actions_left: int = 1
    turn_recruits: int = 0                                  # units recruited this turn (limit per turn: N48)
    turn_arrived: dict[str, int] = field(default_factory=dict)  # region -> units that moved there this turn
    end_stage: str = ""                                     # "" | rounds | scribe
    rounds_left: int = 0
    scribe_turn: bool = False
    pending: DecisionStack = field(default_factory=DecisionStack)
    final: list[int] = field(default_factory=list)         # final scores once over
    turn_no: int = 0
    last: list[str] = field(default_factory=list)         # public events of the last action (for the board header)
    peeked: str = ""                                      # Republic: "<deck> <card>" seen this turn (private)
