"""Rise of Empires for the fill-in bot (engine/ai): what nobody can see, redrawn; a position's worth.

Everything in Rise of Empires is open (view.py) except the order of the two
face-down stacks and the generator's future; nobody holds a secret, so the
resampled state is the same for every seat.

What everyone knows and `resample` keeps:
- the progress stack is each era's tiles shuffled apart and stacked Era I on
  top (3.0): the position of each remaining tile says its era, from the stack's
  size alone (16 tiles an era, 8 turned up a turn);
- which tiles exist (the component list): a face-down tile is one that is
  nowhere on the table — not on offer and not in front of any player. Tiles that
  left the game face up (5.1, 11.0) are not in the state, so they may be drawn
  again in an imagined stack: the bot forgets them rather than read the stack.
"""

from __future__ import annotations

from engine.ai.pools import Dealer, fresh_rng, without
from engine.ai.value import shares
from engine.core import Rng

from .data import components
from .scoring import vp_of
from .state import State

#: Points that make a lead count (in random play the winner leads by about 11).
SPREAD = 6.0
#: A VP source held now is worth this much less each later turn (cubes halve, tiles go).
KEEP = 0.6
#: Victory point phases, one per game turn (4.0).
TURNS = 6
#: 11.0: 1 VP per 3 gold and per 3 resource discs at the end.
FINAL_PER = 3


def progress_eras(total_by_era: dict[int, int], left: int) -> list[int]:
    """The era of each position of a progress stack with `left` tiles (top first)."""
    eras = [era for era in sorted(total_by_era) for _ in range(total_by_era[era])]
    return eras[len(eras) - left :]


def resample(state: State, seat: int, rng: Rng) -> State:
    comp = components()
    s = state.clone()
    seen = s.offer_progress + [t for p in s.players for t in p.progress]
    tiles = [t.id for t in comp.progress.values() for _ in range(t.copies)]
    unseen = without(tiles, seen)
    by_era = {era: sum(t.copies for t in comp.progress.values() if t.era == era) for era in (1, 2, 3)}
    eras = progress_eras(by_era, len(s.progress_deck))
    dealers = {era: Dealer([t for t in unseen if comp.progress[t].era == era], rng) for era in by_era}
    s.progress_deck = [dealers[era].deal(1)[0] for era in eras]
    seen = s.offer_territory + [t for p in s.players for t in p.territories]
    tiles = [t.id for t in comp.territories.values() for _ in range(t.copies)]
    s.territory_deck = Dealer(without(tiles, seen), rng).deal(len(s.territory_deck))
    s.rng = fresh_rng(rng)
    return s


def vp_phases_left(state: State) -> int:
    """Victory point phases still to come, this turn's included until it is scored (9.0)."""
    scored = state.phase in ("victory points", "era end", "turn order", "over")
    return TURNS - state.turn + (0 if scored else 1)


def evaluate(state: State) -> list[float]:
    """Shares of each seat's VP plus what its holdings will score, worth less each later turn."""
    comp = components()
    left = vp_phases_left(state)
    weight = sum(KEEP**k for k in range(left))
    estimates = []
    for seat, p in enumerate(state.players):
        later = vp_of(comp, state, seat) * weight if left else 0
        final = 0 if state.phase == "over" else (p.gold + p.resources) / FINAL_PER
        estimates.append(p.vp + later + final)
    return shares(estimates, SPREAD)
