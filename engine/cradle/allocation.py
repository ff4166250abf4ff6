"""New Civilization Allocation (rulebook 2.0 and 3.0).

Epoch I: every player is dealt one card at random. From Epoch II the cards are
drawn in reverse VP order (ties: fewest Armies last turn, then a die roll); the
drawer looks and keeps the card or passes it to a player without one — a drawer
who already holds one must pass. A passed card stays face down for its receiver
until all are dealt (the view shows it to nobody but the passer); then all are
revealed. Cards nobody drew leave the game. With a non-player civilization
(9.0) its card is dealt first, at random and face up (RULES-NOTES 9.0).
"""

from __future__ import annotations

import functools

from ..core import count, slug
from .board import C
from .rounds import roll_off
from .state import DUMMY, Allocation, State


def card_label(card: str) -> str:
    return C.card_name(card)


def seat_slugs(state: State) -> list[str]:
    """Action words naming each seat (`pass <slug>`), made unique by the seat number if needed."""
    return list(_slugs(tuple(state.players)))


@functools.lru_cache(maxsize=256)
def _slugs(players: tuple[str, ...]) -> tuple[str, ...]:
    """`seat_slugs` for these names, worked out once (a bot's search lists the passes thousands
    of times a decision, for the same table)."""
    base = [slug(p) or f"seat-{i}" for i, p in enumerate(players)]
    return tuple(b if base.count(b) == 1 else f"{b}-{i}" for i, b in enumerate(base))


def deal_first_epoch(state: State, events: list[str]) -> None:
    deck = list(C.cards_of_epoch[1])
    state.rng.shuffle(deck)
    if state.non_player:
        card = deck.pop()
        state.cards[card] = DUMMY
        events.append(f"The non-player civilization is dealt {card_label(card)}.")
    for s in range(state.n):
        card = deck.pop()
        state.cards[card] = s
        events.append(f"{state.players[s]} is dealt {card_label(card)}.")
    if deck:
        events.append(f"{count(len(deck), 'Epoch I card')} {'leaves' if len(deck) == 1 else 'leave'} the game unseen.")


def begin_allocation(state: State, events: list[str]) -> None:
    """3.0: shuffle the Epoch's deck, fix the draw order and let the first player draw."""
    deck = list(C.cards_of_epoch[state.epoch])
    state.rng.shuffle(deck)
    if state.non_player:
        card = deck.pop()
        state.cards[card] = DUMMY
        events.append(f"The non-player civilization is dealt {card_label(card)}.")
    state.deck = deck
    groups: dict[tuple[int, int], list[int]] = {}
    for s in range(state.n):
        groups.setdefault((state.vp[s], state.last_armies[s]), []).append(s)
    order: list[int] = []
    for key in sorted(groups):
        order += roll_off(state, groups[key], events, "the draw order")
    state.alloc = Allocation(order=order)
    state.phase = "allocate"
    events.append("Draw order: " + ", ".join(state.players[s] for s in order) + ".")
    settle(state, events)


def drawer(state: State) -> int:
    a = state.allocation_now()
    return a.order[a.index]


def receivers(state: State) -> list[int]:
    a = state.allocation_now()
    me = drawer(state)
    return [s for s in range(state.n) if s not in a.dealt and s != me]


def settle(state: State, events: list[str]) -> None:
    """Draw for the next player and make forced passes, until a real choice (or the reveal)."""
    a = state.allocation_now()
    while a.index < len(a.order):
        me = drawer(state)
        if not a.drawn:
            a.drawn = state.deck.pop()
            events.append(f"{state.players[me]} draws an Epoch {C.epochs[state.epoch - 1].roman} card.")
        if me in a.dealt:
            options = receivers(state)
            if len(options) == 1:
                give(state, options[0], events)
                continue
        return
    reveal(state, events)


def allocation_actions(state: State) -> list[str]:
    a = state.allocation_now()
    me = drawer(state)
    names = seat_slugs(state)
    out = [] if me in a.dealt else ["keep"]
    return out + [f"pass {names[s]}" for s in receivers(state)]


def give(state: State, to: int, events: list[str]) -> None:
    a = state.allocation_now()
    me = drawer(state)
    a.dealt[to] = a.drawn
    if to == me:
        a.kept.append(me)
        events.append(f"{state.players[me]} keeps the card.")
    else:
        a.passed[to] = me
        must = " (already holding one)" if me in a.dealt else ""
        events.append(f"{state.players[me]} passes the card face down to {state.players[to]}{must}.")
    a.drawn = ""
    a.index += 1


def play_allocation(state: State, action: str, events: list[str]) -> None:
    if action == "keep":
        give(state, drawer(state), events)
    else:
        target = action.split(" ", 1)[1]
        give(state, seat_slugs(state).index(target), events)
    settle(state, events)


def reveal(state: State, events: list[str]) -> None:
    a = state.allocation_now()
    for s in sorted(a.dealt):
        state.cards[a.dealt[s]] = s
    events.append(
        "The cards are revealed: "
        + "; ".join(f"{state.players[s]}: {card_label(a.dealt[s])}" for s in sorted(a.dealt))
        + "."
    )
    if state.deck:
        n = len(state.deck)
        events.append(f"{count(n, 'undrawn card')} {'leaves' if n == 1 else 'leave'} the game unseen.")
    state.deck = []
    state.alloc = None  # flow.advance starts the Strategy Phase


__all__ = ["allocation_actions", "begin_allocation", "deal_first_epoch", "play_allocation"]
