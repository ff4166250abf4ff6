"""Rising Cultures for the fill-in bot (engine/ai): what a seat cannot see, redrawn; a position's worth.

Hidden from a seat (view.py): the opponent's hand, the order of both decks, and
the generator's future (the second game's shuffle in a match). Everything else —
display, military, resource and progress areas, discard piles, provinces, coins,
hand and deck counts — is public.

What the seat knows and `resample` keeps:
- its own hand;
- the top card of its own deck when it put it there itself (`known_top`, Setup's
  `top` card and the 4th card of Phase III) and the cards it put at the bottom
  (`known_bottom`), which stay the bottom of the deck in that order until drawn;
- which cards each civilization has (the component list): a player's hand and
  deck hold exactly its cards that are not on the table. So the opponent's hand
  and deck are dealt from its civilization's cards minus every public one, and
  the middle of the seat's own deck from its own cards minus the public ones,
  its hand and the known top and bottom.
The opponent's `known_top`/`known_bottom` are the opponent's memory: whether there
is a known top card and how many bottom cards there are follows from public
actions (`top`, the 4th card, `bottom`), so their sizes are kept and their cards
follow the redrawn deck.
"""

from __future__ import annotations

from engine.ai.pools import Dealer, fresh_rng, without
from engine.ai.value import shares
from engine.core import Rng

from . import scoring
from .data import DATA
from .state import Player, State

#: Points that make a lead count (final scores spread by about 9 in random play).
SPREAD = 4.0
#: A coin is worth a little: it builds, swaps and counts for some provinces.
COIN_VP = 0.3


def public_cards(p: Player) -> list[str]:
    return p.discard + p.military + p.resources + p.buildings + [c for stack in p.leaders for c in stack] + p.progress


def own_known_top(p: Player) -> str:
    return p.known_top if p.known_top and p.deck and p.deck[0] == p.known_top else ""


def own_known_bottom(p: Player) -> list[str]:
    """The cards at the bottom of the deck the owner placed there (a suffix of the deck)."""
    k = len(p.known_bottom)
    if k and k <= len(p.deck) and p.deck[-k:] == p.known_bottom:
        return list(p.known_bottom)
    return []


def resample(state: State, seat: int, rng: Rng) -> State:
    s = state.copy()
    for i, p in enumerate(s.players):
        if not p.civ:
            continue
        pool = without(DATA.decks[p.civ], public_cards(p))
        if i == seat:
            top, bottom = own_known_top(p), own_known_bottom(p)
            fixed = ([top] if top else []) + bottom
            dealer = Dealer(without(pool, p.hand + fixed), rng)
            middle = dealer.deal(len(p.deck) - len(fixed))
            p.deck = ([top] if top else []) + middle + bottom
        else:
            had_top = bool(own_known_top(p))
            bottoms = len(own_known_bottom(p))
            dealer = Dealer(pool, rng)
            p.hand = dealer.deal(len(p.hand))
            p.deck = dealer.deal(len(p.deck))
            p.known_top = p.deck[0] if had_top else ""
            p.known_bottom = p.deck[len(p.deck) - bottoms :] if bottoms else []
    s.rng = fresh_rng(rng)
    return s


def evaluate(state: State) -> list[float]:
    """Shares of the running totals (this game and game 1 of a match), coins counted a little."""
    if not all(p.civ for p in state.players):
        return [0.5, 0.5]
    totals = scoring.match_totals(state)
    return shares([t + COIN_VP * p.coins for t, p in zip(totals, state.players, strict=True)], SPREAD)
