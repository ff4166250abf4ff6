"""Random positions of every game for the bot's tests, and hidden-information scrambles.

`positions` plays seeded random games at several player counts and keeps
positions along the way (`where` keeps only positions that pass a test, e.g.
Cradle's Allocations, the only time a Cradle card is hidden). `scramble`
changes what `seat` cannot see *by hand*: it imports nothing from the games'
`resample` modules, so a mistake there is not mirrored here, and it moves the
cards of every hidden place (hands, decks, draft hands and picks, face-down
cards and their order, Empire Scoring cards, caches, a Republic's look, a
Cradle Allocation's cards) as well as the generator (every future die and
shuffle). `differs_beyond_generator` tells a scramble that moved only the
generator. Other helpers' honesty tests import `positions` and `scramble`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import engine
from engine.core import Rng

PLAYERS = {"rising-cultures": (2,), "rise-of-empires": (2, 3, 5), "cradle": (4, 6), "mosaic": (2, 3, 6)}
#: Setup options taken in turn with the player counts: a match, a non-player civilization.
OPTIONS = {"rising-cultures": ({}, {"match": True}), "cradle": ({}, {}, {"non_player": True}, {})}


def positions(
    game_id: str, count: int, seed: int = 0, *, where: Callable[[Any], bool] | None = None
) -> Iterator[tuple[Any, int]]:
    """`count` (state, seat) pairs from random games, the seat drawn at random (any seat, acting or not).

    With `where`, only positions for which it is true, and every such position along the
    games instead of one every few steps (so a rare kind of position is found quickly)."""
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
            if (step % every == 0) if where is None else where(state):
                yield state, rand.randrange(n)
                made += 1
            acting = game.to_act(state)
            seat = rand.choice(acting)
            state = game.apply(state, seat, rand.choice(game.legal_actions(state, seat))).state
            step += 1


def scramble(game_id: str, state: Any, seat: int, rand: random.Random) -> Any:
    """Another world `seat` cannot tell apart: hidden cards moved between hidden places, a new generator."""
    return SCRAMBLES[game_id](state, seat, rand)


def differs_beyond_generator(game_id: str, first: Any, second: Any) -> bool:
    """Whether two states differ in more than their generators (so a scramble moved some card)."""
    game = engine.get(game_id)
    same_rng = game.loads(game.dumps(second))
    same_rng.rng = Rng(first.rng.state)
    return game.dumps(same_rng) != game.dumps(first)


def _shuffle_places(places: list[tuple[Any, Any]], rand: random.Random) -> None:
    """Deal the cards found at `places` (pairs of a list or dict and an index or key) back in
    another order."""
    cards = [where[at] for where, at in places]
    rand.shuffle(cards)
    for (where, at), card in zip(places, cards, strict=True):
        where[at] = card


def _rising_cultures(state, seat, rand):
    """Hidden: the opponent's hand and deck, the order of the seat's own deck except the card it put
    on top (while it lies there) and those it put at the bottom (while they lie there), the generator."""
    s = state.copy()
    for i, p in enumerate(s.players):
        if i == seat:
            fixed_top = 1 if p.known_top and p.deck[:1] == [p.known_top] else 0
            k = len(p.known_bottom)
            fixed_bottom = k if k and p.deck[len(p.deck) - k :] == p.known_bottom else 0
            _shuffle_places([(p.deck, j) for j in range(fixed_top, len(p.deck) - fixed_bottom)], rand)
        else:
            top = bool(p.known_top) and p.deck[:1] == [p.known_top]
            k = len(p.known_bottom)
            bottom = k if k and p.deck[len(p.deck) - k :] == p.known_bottom else 0
            _shuffle_places([(p.hand, j) for j in range(len(p.hand))] + [(p.deck, j) for j in range(len(p.deck))], rand)
            p.known_top = p.deck[0] if top else ""
            p.known_bottom = p.deck[len(p.deck) - bottom :] if bottom else []
    s.rng = Rng(rand.getrandbits(64))
    return s


def _rise_of_empires(state, seat, rand):
    """Hidden from everyone: the order of the territory stack, the order of each era's tiles in the
    progress stack (3.0: the eras lie apart, Era I on top), the generator."""
    from engine.rise_of_empires.data import components

    comp = components()
    s = state.clone()
    _shuffle_places([(s.territory_deck, j) for j in range(len(s.territory_deck))], rand)
    for era in (1, 2, 3):
        _shuffle_places(
            [(s.progress_deck, j) for j, t in enumerate(s.progress_deck) if comp.progress[t].era == era], rand
        )
    s.rng = Rng(rand.getrandbits(64))
    return s


def _cradle(state, seat, rand):
    """Hidden in an Allocation (3.0): the undrawn deck, the card the drawer looks at (unless the seat
    draws), and each dealt card but the one the seat kept and those it passed; always the generator
    (every future die roll)."""
    s = state.copy()
    a = s.alloc
    if a is not None:
        places = [(s.deck, j) for j in range(len(s.deck))]
        for to in sorted(a.dealt):
            kept_by_seat = to == seat and seat in a.kept
            passed_by_seat = a.passed.get(to) == seat
            if not kept_by_seat and not passed_by_seat:
                places.append((a.dealt, to))
        if a.drawn and a.order[a.index] != seat:
            places.append((a, "drawn"))
        cards = [getattr(w, k) if w is a else w[k] for w, k in places]
        rand.shuffle(cards)
        for (w, k), card in zip(places, cards, strict=True):
            if w is a:
                a.drawn = card
            else:
                w[k] = card
    s.rng = Rng(rand.getrandbits(64))
    return s


def _mosaic_draft_places(s, seat: int) -> tuple[list, list[list]]:
    """The other players' starting-technology draft places: those whose cards `seat` never saw, and
    groups of places whose cards it saw together (a hand it held, later picked from by others).

    Hands pass left, so the hand first dealt to seat c is held by seat c + k in round k. A place
    of round k of that hand belongs to the seat's last look at it before round k, if any."""
    n = len(s.players)
    dealt = max((len(p.hand) + len(p.picks) for p in s.players), default=0)
    now = min(len(p.picks) for p in s.players) if any(p.hand for p in s.players) else dealt
    unknown: list = []
    seen_together: dict[tuple[int, int], list] = {}
    for holder, p in enumerate(s.players):
        if holder == seat:
            continue
        rounds = [(k, (p.picks, k)) for k in range(len(p.picks))] + [(now, (p.hand, j)) for j in range(len(p.hand))]
        for k, place in rounds:
            first = (holder - k) % n
            looks = [r for r in range(k) if (first + r) % n == seat]
            if looks:
                seen_together.setdefault((first, looks[-1]), []).append(place)
            else:
                unknown.append(place)
    return unknown, list(seen_together.values())


def _mosaic(state, seat, rand):
    """Hidden from `seat`: the others' draft hands and picks (but for what it saw of a hand it held),
    their face-down technologies not taken from the offer and the order of all of them, the four
    decks' order and where their Empire Scoring cards lie, the caches on the map, another Republic's
    look, the generator."""
    from engine.mosaic.data import load

    d = load()
    s = state.copy()
    look_deck, _, look_card = s.peeked.partition(" ") if s.phase == "play" else ("", "", "")
    decks = {"technology": s.tech_deck, "build": s.build_deck, "population": s.pop_deck, "tax": s.tax_deck}
    seat_looked = bool(look_deck) and s.seat == seat
    look_on_top = bool(look_deck) and decks[look_deck][:1] == [look_card]

    def loose(name: str) -> list[int]:  # positions of a deck that may move
        fixed = 1 if seat_looked and name == look_deck else 0
        return list(range(fixed, len(decks[name])))

    # starting technologies the seat never saw: in draft places and in the technology deck
    unknown, groups = _mosaic_draft_places(s, seat) if s.phase in ("leaders", "draft", "setup") else ([], [])
    for group in groups:
        _shuffle_places(group, rand)
    tech = [(s.tech_deck, j) for j in loose("technology") if s.tech_deck[j] != "scoring"]
    starting = [(w, j) for w, j in tech if d.technologies[w[j]].starting]
    _shuffle_places(unknown + starting, rand)
    # face-down technologies of the others that were not taken from the offer, with the deck's
    others = [p for i, p in enumerate(s.players) if i != seat]
    face_down = []
    for p in others:
        offer_cards = list(p.seen)
        for j, c in enumerate(p.hidden):
            if c in offer_cards:
                offer_cards.remove(c)
            else:
                face_down.append((p.hidden, j))
    _shuffle_places(face_down + tech, rand)
    for p in others:
        rand.shuffle(p.hidden)
    # the decks' order, Empire Scoring cards included
    for name in ("build", "population", "tax", "technology"):
        _shuffle_places([(decks[name], j) for j in loose(name)], rand)
    hexes = sorted(s.cache_on)
    _shuffle_places([(s.cache_on, h) for h in hexes], rand)
    if look_deck and not seat_looked and look_on_top:
        s.peeked = f"{look_deck} {decks[look_deck][0]}"
    s.rng = Rng(rand.getrandbits(64))
    return s


#: game id -> which of its positions hide more than the generator, where it is not all of them:
#: a Cradle Allocation in progress (3.0), a Rise of Empires stack of two tiles or more.
HIDES_CARDS: dict[str, Callable[[Any], bool]] = {
    "cradle": lambda state: state.alloc is not None,
    "rise-of-empires": lambda state: len(state.territory_deck) > 1 or len(state.progress_deck) > 1,
}

SCRAMBLES = {
    "rising-cultures": _rising_cultures,
    "rise-of-empires": _rise_of_empires,
    "cradle": _cradle,
    "mosaic": _mosaic,
}
