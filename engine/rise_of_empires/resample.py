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

import functools

from engine.ai.pools import drawn, fresh_rng, without
from engine.ai.value import shares
from engine.core import Rng

from .data import Components, components
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


@functools.cache
def tile_lists(comp: Components) -> tuple[tuple[str, ...], dict[int, int], tuple[str, ...]]:
    """(every progress tile, a copy each; tiles per era; every territory tile), from the data once."""
    progress = tuple(t.id for t in comp.progress.values() for _ in range(t.copies))
    by_era = {era: sum(t.copies for t in comp.progress.values() if t.era == era) for era in (1, 2, 3)}
    territories = tuple(t.id for t in comp.territories.values() for _ in range(t.copies))
    return progress, by_era, territories


def resample(state: State, seat: int, rng: Rng) -> State:
    comp = components()
    s = state.clone()
    progress, by_era, territories = tile_lists(comp)
    seen = s.offer_progress + [t for p in s.players for t in p.progress]
    unseen: dict[int, list[str]] = {era: [] for era in by_era}
    for t in without(progress, seen):
        unseen[comp.progress[t].era].append(t)
    eras = progress_eras(by_era, len(s.progress_deck))  # Era I on top: each era's places together
    s.progress_deck = [t for era in by_era for t in drawn(unseen[era], eras.count(era), rng)]
    seen = s.offer_territory + [t for p in s.players for t in p.territories]
    s.territory_deck = drawn(without(territories, seen), len(s.territory_deck), rng)
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
