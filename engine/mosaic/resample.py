"""Mosaic for the fill-in bot (engine/ai): what a seat cannot see, redrawn; a position's worth.

Hidden from a seat (view.py): the other players' draft hands and picks and their
face-down technologies, the order of the four decks (and where in them the
Empire Scoring cards lie), the face-down cache tiles, another Republic's look at
a deck, and the generator's future. The map, offers, tiles and every player's
board are public, as are the counts of every hidden thing.

What the seat knows and `resample` keeps:
- its own hand, picks and face-down technologies, and the top card of a deck it
  looked at as a Republic this turn, while that card has not shown up elsewhere
  (a draw takes it to an offer: then it has left the deck);
- the face-down technologies others took from the face-up offer (N51: the table
  saw which, but not where they went among the others: the redrawn cards list
  them first). Their other face-down cards are dealt from all the unseen
  technologies alike: flipping is the owner's choice on any of their turns
  (N49), so a face-down card may be one they could play now;
- in the starting technology draft, every hand it held: a hand it passed on is,
  some picks later, the picks its next players made from it plus what is left of
  it, so those cards are shuffled among exactly those places. Cards of a hand it
  never held are dealt from the starting technologies it has not seen;
- which cards exist (the component lists): a hidden technology, build card,
  population or tax card is one that is nowhere on the table;
- where each Empire Scoring card was shuffled in (its deck's third or half,
  Setup), so it is put back somewhere in what is left of that part.

What the state does not record the bot forgets rather than reads: once the
draft is over it no longer knows which technologies it passed; cards an offer
sent to the bottom of its deck,
and cards and caches used up are not remembered either, so an imagined deck
may hold a card that has already been seen and discarded (an honest, slightly
weaker guess, never a wrong rule). Nor does it use that a drafted card still
face down after setup could not be played then (setup plays what it can, N49):
the state keeps no record of the pillars each player had at the end of setup.
"""

from __future__ import annotations

from engine.ai.pools import Dealer, fresh_rng, without
from engine.ai.value import shares
from engine.core import Rng

from . import board, scoring
from .data import Data, load
from .decks import SCORING
from .setup import deck_size
from .state import Player, State

#: A place in the draft: (seat, "hand" or "picks", index).
Slot = tuple[int, str, int]


# ---------------------------------------------------------------- the starting technology draft
def draft_round(s: State, dealt: int) -> int:
    """The current draft round (0-based); `dealt` once every card is picked."""
    if not any(p.hand for p in s.players):
        return dealt
    return min(len(p.picks) for p in s.players)


def draft_places(s: State, seat: int, dealt: int) -> tuple[list[list[Slot]], list[Slot]]:
    """The other players' draft places, grouped by what `seat` knows of them.

    Hands pass to the left, so the hand first dealt to seat `c` ("chain c") is
    held by seat `(c + k) % n` in round k, which picks one card from it. When
    `seat` held the chain (before its own pick), it saw all of it: from then on
    its cards are those places, in an order `seat` does not know. Returns the
    groups of places whose cards `seat` knows as a set, and the places it
    knows nothing about.
    """
    n = len(s.players)
    now = draft_round(s, dealt)
    groups: list[list[Slot]] = []
    unknown: list[Slot] = []
    for chain in range(n):
        timeline: list[tuple[int, list[Slot]]] = []  # (round, places of that round), in order
        for k in range(min(now + 1, dealt)):
            holder = (chain + k) % n
            here: list[Slot] = [(holder, "picks", k)] if k < len(s.players[holder].picks) else []
            if k == now:
                here += [(holder, "hand", j) for j in range(len(s.players[holder].hand))]
            timeline.append((k, here))
        group: list[Slot] | None = None  # None: not yet held by `seat`
        for k, here in timeline:
            if (chain + k) % n == seat:
                if group:
                    groups.append(group)
                group = []
                continue  # its own places are known
            if group is None:
                unknown.extend(here)
            else:
                group.extend(here)
        if group:
            groups.append(group)
    return groups, unknown


def get_slot(s: State, slot: Slot) -> str:
    seat, where, i = slot
    cards: list[str] = getattr(s.players[seat], where)
    return cards[i]


def set_slot(s: State, slot: Slot, card: str) -> None:
    seat, where, i = slot
    getattr(s.players[seat], where)[i] = card


# ---------------------------------------------------------------- decks
def scoring_part(d: Data, s: State, deck_attr: str) -> tuple[int, int, int]:
    """Where the deck's Empire Scoring card was shuffled in: first and last index in the full
    deck, and the full deck's size (the scoring card included)."""
    n = len(s.players)
    if deck_attr == "tech_deck":
        starting = sum(1 for c in d.technologies.values() if c.starting)
        size = starting - n * d.tech_deck.starting_dealt + sum(1 for c in d.technologies.values() if not c.starting)
        parts = 3
        which = d.tech_deck.scoring_third_2_3_players if n <= 3 else d.tech_deck.scoring_third_4_6_players
    elif deck_attr == "build_deck":
        size, parts, which = len(d.builds), 2, 2
    elif deck_attr == "pop_deck":
        size, parts, which = min(deck_size(d.population_deck, n), len(d.population_cards)), 2, 2
    else:
        size, parts, which = min(deck_size(d.tax_deck, n), len(d.tax_cards)), 2, 2
    bounds = [round(size * i / parts) for i in range(parts + 1)]
    return bounds[which - 1], bounds[which], size + 1


def redeal_deck(d: Data, s: State, deck_attr: str, dealer: Dealer[str], rng: Rng, top: str) -> list[str]:
    """A new order for one deck: unknown cards from `dealer`, the scoring card within its part.

    `top` is a card the seat knows lies on top ("" if none). The number of cards
    drawn from the top so far follows from the deck's size; an offer cleared to
    the bottom would shift that, so the part is clipped to the deck.
    """
    deck = getattr(s, deck_attr)
    has_scoring = SCORING in deck and top != SCORING
    cards = dealer.deal(len(deck) - has_scoring - bool(top))
    if has_scoring:
        first, last, full = scoring_part(d, s, deck_attr)
        drawn = full - len(deck)
        low = max(0, first - drawn - bool(top))
        high = min(len(cards), last - drawn - bool(top))
        if low > high:
            low, high = 0, len(cards)
        cards.insert(low + rng.below(high - low + 1), SCORING)
    return ([top] if top else []) + cards


def peeked_top(s: State, seat: int) -> tuple[str, str]:
    """(deck name, card) of a Republic's look this turn, or ("", "")."""
    if not s.peeked or s.phase != "play":
        return "", ""
    name, card = s.peeked.split(" ")
    return name, card


def still_on_top(s: State, deck: str, card: str, seen: list[str]) -> bool:
    """Whether the card a Republic looked at may still lie on top of its deck, as far as the
    looker knows: a draw takes it to an offer or to the looker's own face-down cards (`seen`,
    everything the looker sees of that kind) and an Empire Scoring card drawn is set aside, so
    once it shows elsewhere it has left (and is not imagined on top as well: it would exist twice).
    """
    if card == SCORING:
        return SCORING in getattr(s, DECKS[deck])
    return card not in seen


DECKS = {"technology": "tech_deck", "build": "build_deck", "population": "pop_deck", "tax": "tax_deck"}


# ---------------------------------------------------------------- face-down technologies
def redeal_face_down(p: Player, dealer: Dealer[str]) -> None:
    """Another player's face-down technologies: those taken from the offer stay (the table saw
    them, N51); the others are dealt anew from the unseen technologies, any of them: the owner
    flips a card when they choose (N49), so a card they could play may well still lie face down.

    The order of the face-down cards is the owner's secret (where an offer card went among
    them tells the others nothing), so the redrawn list always holds the offer cards first,
    in the order they were taken, then the dealt ones."""
    p.hidden = list(p.seen) + dealer.deal(len(p.hidden) - len(p.seen))


# ---------------------------------------------------------------- resample
def resample(state: State, seat: int, rng: Rng) -> State:
    d = load()
    s = state.copy()
    me = s.players[seat]
    others = [i for i in range(len(s.players)) if i != seat]
    peek_deck, peek_card = peeked_top(s, seat)
    looker = s.seat == seat and bool(peek_deck)
    # technologies: the draft first (starting technologies only), then face-down cards and the deck
    dealt = d.tech_deck.starting_dealt
    groups, unknown = draft_places(s, seat, dealt) if s.phase in ("leaders", "draft", "setup") else ([], [])
    known_sets = [sorted(get_slot(s, slot) for slot in group) for group in groups]  # sorted: the true order is hidden
    for group, cards in zip(groups, known_sets, strict=True):
        for slot, card in zip(group, Dealer(cards, rng).deal(len(cards)), strict=True):
            set_slot(s, slot, card)
    seen = {
        "technology": (
            s.tech_offer
            + [t for p in s.players for t in p.techs + p.seen]
            + me.hidden
            + me.hand
            + me.picks
            + [c for cards in known_sets for c in cards]
        ),
        "build": s.build_offer + [b for p in s.players for b in p.builds],
        "population": list(s.pop_offer),
        "tax": list(s.tax_offer),
    }
    top = peek_card if looker and still_on_top(s, peek_deck, peek_card, seen[peek_deck]) else ""
    if top and top != SCORING:
        seen[peek_deck].append(top)
    pool = without(list(d.technologies), seen["technology"])
    starting = Dealer([t for t in pool if d.technologies[t].starting], rng)
    for slot in unknown:
        set_slot(s, slot, starting.deal(1)[0])
    rest = Dealer([t for t in pool if not d.technologies[t].starting] + starting.cards[starting.next :], rng)
    for i in others:
        redeal_face_down(s.players[i], rest)
    pools = {
        "tech_deck": rest,
        "build_deck": Dealer(without(list(d.builds), seen["build"]), rng),
        "pop_deck": Dealer(without(list(d.population_cards), seen["population"]), rng),
        "tax_deck": Dealer(without(list(d.tax_cards), seen["tax"]), rng),
    }
    for name, attr in DECKS.items():
        setattr(s, attr, redeal_deck(d, s, attr, pools[attr], rng, top if name == peek_deck else ""))
    if peek_deck and not looker:
        s.peeked = f"{peek_deck} {getattr(s, DECKS[peek_deck])[0]}"
    caches = Dealer([c.id for c in d.caches for _ in range(c.copies)], rng)
    s.cache_on = {h: caches.deal(1)[0] for h in s.cache_on}
    s.rng = fresh_rng(rng)
    return s


# ---------------------------------------------------------------- evaluate
#: An Empire Scoring still to come counts at this share of what it would give now: the board
#: changes before then (Cradle's later Epochs count half as well, engine/ai/README.md).
LATER_SCORING = 0.5


def evaluate(state: State) -> list[float]:
    """Shares of the running final tally plus the Empire Scorings still to come.

    The tally alone gives influence no worth until a scoring card turns up, and a rollout of a
    few steps seldom reaches one: a seat leading a region would look no better off than one
    without a unit there. So each scoring due counts what it would give now, and each scoring
    card still in the decks (three end the game) half of it."""
    return score_shares(estimated_scores(state, look_ahead=True))


def evaluate_tally(state: State) -> list[float]:
    """Shares of the running final tally alone (issue 14's evaluate, the bench's baseline)."""
    return score_shares(estimated_scores(state, look_ahead=False))


def estimated_scores(state: State, look_ahead: bool) -> list[float]:
    """Each seat's final score as it stands, with the Empire Scorings ahead when `look_ahead`."""
    if state.final:
        return list(state.final)
    d = load()
    inf = board.influence(d, state)
    tally = scoring.totals(d, state, inf)
    ahead = (
        state.scoring_due
        + state.scoring_after_action
        + (0 if state.end_stage else LATER_SCORING * max(0, 3 - state.scorings))
    )
    if not (look_ahead and ahead):
        return list(tally)
    return [t + ahead * g for t, g in zip(tally, scoring.empire_gains(d, state, inf), strict=True)]


def score_shares(scores: list[float]) -> list[float]:
    """Soft-maximum shares; a lead counts for more the smaller the scores are (spread 4 + 10%)."""
    spread = 4.0 + 0.1 * sum(abs(t) for t in scores) / len(scores)
    return shares(scores, spread)
