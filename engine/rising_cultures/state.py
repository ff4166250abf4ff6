"""The state of a Rising Cultures game: plain dataclasses, serialised by engine.core.serial.

Cards are kept as their data ids ("ROM-01"); decks list the top card first. The
state holds hidden information (hands, deck order): only `view` decides who sees
what (law 5). `clone` copies by hand because `apply` copies the state on every
step and `copy.deepcopy` is several times slower.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import Rng

ROUNDS = 7
SUPPLY = 28
START_COINS = 2
HAND = 4
PLAYS = 3
PAID_SWAPS = 2
SWAP_COST = 1
COINS_USE = 2
COINS_PER_MISSING = 2
MARKER_VP = 3


@dataclass
class Player:
    name: str
    civ: str = ""
    coins: int = 0
    hand: list[str] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)  # top first
    known_top: str = ""  # the card its owner returned to the top
    discard: list[str] = field(default_factory=list)  # personal discard pile (public)
    military: list[str] = field(default_factory=list)  # index i lies on red band i (0 = highest)
    resources: list[str] = field(default_factory=list)  # resource area in play order (last = last-played)
    buildings: list[str] = field(default_factory=list)
    leaders: list[list[str]] = field(default_factory=list)  # leader stacks, covered first, top last
    progress: list[str] = field(default_factory=list)  # progress area (face down), in order of the green bands
    provinces: list[int] = field(default_factory=list)
    step: str = ""  # own step in a simultaneous phase: opening/income/bottom/swap/ready
    to_bottom: int = 0  # cards still to place at the bottom of the deck
    paid_swaps: int = 0
    free_swaps: int = 0  # free swaps used this round
    played: int = 0  # cards played this round
    keep_used: list[str] = field(default_factory=list)  # once-per-game "keep military" cards used
    known_bottom: list[str] = field(default_factory=list)  # cards its owner put at the bottom, still there

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.__dict__.update(self.__dict__)
        p.hand = self.hand[:]
        p.deck = self.deck[:]
        p.discard = self.discard[:]
        p.military = self.military[:]
        p.resources = self.resources[:]
        p.buildings = self.buildings[:]
        p.leaders = [s[:] for s in self.leaders]
        p.progress = self.progress[:]
        p.provinces = self.provinces[:]
        p.keep_used = self.keep_used[:]
        p.known_bottom = self.known_bottom[:]
        return p


@dataclass
class Pending:
    """An open sub-decision (law 2): `kind` names it, `seat` makes it, `card` is its subject."""

    kind: str
    seat: int
    card: str = ""


@dataclass
class State:
    players: list[Player]
    rng: Rng
    row: list[int] = field(default_factory=list)  # provinces still in the row, leftmost first
    chosen: list[int] = field(default_factory=list)  # the 7 provinces of this match (ascending)
    boxed: list[int] = field(default_factory=list)  # provinces returned to the box
    marker: int = 0
    round: int = 0
    phase: str = "civ"  # civ, opening, draw, play, province, cost, marker, nile, over
    turn: int = 0
    turn_open: bool = False  # a card was played and the turn has not passed yet
    supply: int = SUPPLY
    pending: list[Pending] = field(default_factory=list)
    competing: list[int] = field(default_factory=list)
    winner: int = -1  # seat that won this round's province (-1: none)
    spare: bool = False  # the winner keeps the last military card (Scythia, Maghreb, keep)
    nile_developed: list[bool] = field(default_factory=list)
    nile_coins: list[list[int]] = field(default_factory=list)  # per Nile card: owner seat of each coin
    match: bool = False
    game_no: int = 1
    first_scores: list[int] = field(default_factory=list)  # game 1 totals in a two-game match
    first_civs: list[str] = field(default_factory=list)

    def copy(self) -> State:
        s = State.__new__(State)
        s.__dict__.update(self.__dict__)
        s.players = [p.copy() for p in self.players]
        s.rng = Rng(self.rng.state)
        s.row = self.row[:]
        s.chosen = self.chosen[:]
        s.boxed = self.boxed[:]
        s.pending = [Pending(d.kind, d.seat, d.card) for d in self.pending]
        s.competing = self.competing[:]
        s.nile_developed = self.nile_developed[:]
        s.nile_coins = [c[:] for c in self.nile_coins]
        s.first_scores = self.first_scores[:]
        s.first_civs = self.first_civs[:]
        return s
