"""Random positions of every game for the bot's tests, and hidden-information scrambles.

`positions` plays seeded random games at several player counts and keeps
positions along the way. `scramble` changes what `seat` cannot see *by hand*,
without the game's own `resample`: the honesty tests use both, so a hidden
field `resample` forgot to redraw still shows up as two different infostates.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import engine
from engine.core import Rng

PLAYERS = {"rising-cultures": (2,), "rise-of-empires": (2, 3, 5), "cradle": (4, 6), "mosaic": (2, 3, 6)}
#: Setup options taken in turn with the player counts: a match, a non-player civilization.
OPTIONS = {"rising-cultures": ({}, {"match": True}), "cradle": ({}, {}, {"non_player": True}, {})}


def positions(game_id: str, count: int, seed: int = 0) -> Iterator[tuple[Any, int]]:
    """`count` (state, seat) pairs from random games, the seat drawn at random (any seat, acting or not)."""
    game = engine.get(game_id)
    rand = random.Random(seed)
    made = 0
    k = 0
    while made < count:
        n = PLAYERS[game_id][k % len(PLAYERS[game_id])]
        options = OPTIONS.get(game_id, ({},))
        state = game.setup([f"p{i}" for i in range(n)], seed * 1000 + k, options[k % len(options)])
        k += 1
        every = rand.randint(2, 9)
        step = 0
        while not game.is_over(state) and made < count:
            if step % every == 0:
                yield state, rand.randrange(n)
                made += 1
            acting = game.to_act(state)
            seat = rand.choice(acting)
            state = game.apply(state, seat, rand.choice(game.legal_actions(state, seat))).state
            step += 1


def scramble(game_id: str, state: Any, seat: int, rand: random.Random) -> Any:
    """Another world `seat` cannot tell apart: hidden cards moved between hidden places, a new generator."""
    return SCRAMBLES[game_id](state, seat, rand)


def _rising_cultures(state, seat, rand):
    from engine.rising_cultures.resample import own_known_bottom, own_known_top

    s = state.copy()
    for i, p in enumerate(s.players):
        if i == seat:
            top, bottom = bool(own_known_top(p)), len(own_known_bottom(p))
            middle = p.deck[top : len(p.deck) - bottom]
            rand.shuffle(middle)
            p.deck = p.deck[:top] + middle + p.deck[len(p.deck) - bottom :]
        else:
            had_top, bottoms = bool(own_known_top(p)), len(own_known_bottom(p))
            cards = p.hand + p.deck
            rand.shuffle(cards)
            p.hand, p.deck = cards[: len(p.hand)], cards[len(p.hand) :]
            p.known_top = p.deck[0] if had_top else ""
            p.known_bottom = p.deck[len(p.deck) - bottoms :] if bottoms else []
    s.rng = Rng(rand.getrandbits(64))
    return s


def _rise_of_empires(state, seat, rand):
    from engine.rise_of_empires.data import components

    comp = components()
    s = state.clone()
    rand.shuffle(s.territory_deck)
    for era in (1, 2, 3):
        at = [i for i, t in enumerate(s.progress_deck) if comp.progress[t].era == era]
        tiles = [s.progress_deck[i] for i in at]
        rand.shuffle(tiles)
        for i, t in zip(at, tiles, strict=True):
            s.progress_deck[i] = t
    s.rng = Rng(rand.getrandbits(64))
    return s


def _cradle(state, seat, rand):
    from engine.cradle.resample import known_cards

    s = state.copy()
    a = s.alloc
    if a is not None:
        mine = known_cards(s, seat)
        places = [("dealt", to) for to in a.dealt if a.dealt[to] not in mine]
        if a.drawn and a.drawn not in mine:
            places.append(("drawn", None))
        cards = [a.dealt[to] if kind == "dealt" else a.drawn for kind, to in places] + s.deck
        rand.shuffle(cards)
        for (kind, to), card in zip(places, cards, strict=False):
            if kind == "dealt":
                a.dealt[to] = card
            else:
                a.drawn = card
        s.deck = cards[len(places) :]
    s.rng = Rng(rand.getrandbits(64))
    return s


def _mosaic(state, seat, rand):
    from engine.mosaic.decks import SCORING
    from engine.mosaic.resample import DECKS, peeked_top

    s = state.copy()
    peek_deck, _ = peeked_top(s, seat)
    mine = s.seat == seat and bool(peek_deck)
    keep_top = {DECKS[peek_deck]} if mine else set()

    def loose(attr):  # deck positions that may move: not a scoring card, not a top the seat knows
        deck = getattr(s, attr)
        return [i for i, c in enumerate(deck) if c != SCORING and not (i == 0 and attr in keep_top)]

    tech_at = loose("tech_deck")
    others = [p for i, p in enumerate(s.players) if i != seat]
    cards = [s.tech_deck[i] for i in tech_at] + [c for p in others for c in p.hidden if c not in p.seen]
    rand.shuffle(cards)
    for i in tech_at:
        s.tech_deck[i] = cards.pop()
    for p in others:  # those taken from the offer stay: the table saw them (N51)
        p.hidden = [c if c in p.seen else cards.pop() for c in p.hidden]
    for attr in ("build_deck", "pop_deck", "tax_deck"):
        deck = getattr(s, attr)
        at = loose(attr)
        moved = [deck[i] for i in at]
        rand.shuffle(moved)
        for i, c in zip(at, moved, strict=True):
            deck[i] = c
    hexes = list(s.cache_on)
    tiles = list(s.cache_on.values())
    rand.shuffle(tiles)
    s.cache_on = dict(zip(hexes, tiles, strict=True))
    if peek_deck and not mine and getattr(s, DECKS[peek_deck]):
        s.peeked = f"{peek_deck} {getattr(s, DECKS[peek_deck])[0]}"
    s.rng = Rng(rand.getrandbits(64))
    return s


SCRAMBLES = {
    "rising-cultures": _rising_cultures,
    "rise-of-empires": _rise_of_empires,
    "cradle": _cradle,
    "mosaic": _mosaic,
}
