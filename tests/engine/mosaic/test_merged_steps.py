"""Issue 22: a choice that makes several rulebook steps at once reaches every position the separate steps reach.

Each merge the engine keeps (RULES-NOTES, "What plays itself") is played both ways on random
positions of random games: through the game's own actions, and through the rulebook's steps
written out here from the rulebook's words. The sets of positions reached must be equal.
A position is the game's JSON with the last move's log lines left out (they say what was
done, not where the game is).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator

from engine.mosaic import GAME, board
from engine.mosaic.actions import collect
from engine.mosaic.decks import SCORING, refill
from engine.mosaic.flow import settle
from engine.mosaic.gains import play_tech
from engine.mosaic.options import wonder_cost
from engine.mosaic.state import State
from engine.mosaic.words import population_word, tax_word

from .helpers import D, act, random_steps

CURRENCIES = ("food", "stone", "ideas")


def turns(every: int = 5, seeds: tuple[int, ...] = (1, 2)) -> Iterator[State]:
    """Positions of random games (2, 4 and 6 players) where the seat to act is choosing its action."""
    for n in (2, 4, 6):
        for seed in seeds:
            k = 0
            for s, seat, _legal in random_steps(n, 500 + 10 * n + seed, seed):
                if s.phase == "play" and not s.pending and s.stage == "main" and seat == s.seat:
                    k += 1
                    if k % every == 0:
                        yield s


def position(s: State) -> str:
    data = json.loads(GAME.dumps(s))
    data.pop("last", None)
    return json.dumps(data, sort_keys=True)


def asking(s: State) -> str:
    """The kind of decision open now ("" when none)."""
    top = s.pending.top
    return top.kind if top is not None else ""


def pay_usual(s: State) -> State:
    """Answer every payment the usual way (the first offered: own currency first)."""
    while asking(s) == "pay":
        seat = GAME.to_act(s)[0]
        s, _ = act(s, GAME.legal_actions(s, seat)[0])
    return s


# ---- N32: a cost is paid the usual way in the action's pick; `spend money` asks, a pick per currency
def rulebook_payments(p, costs: list[tuple[str, int]]) -> set[tuple[int, ...]]:
    """ "Money can be used in place of any currency (food, ideas, or stone) at a 2:1 rate": each unit of
    each currency of the cost is paid with that currency or with 2 money. What the player keeps
    (food, stone, ideas, money), for every way the rule allows."""
    out = set()
    for by_money in itertools.product(*(range(amt + 1) for _cur, amt in costs)):
        left = {c: getattr(p, c) for c in (*CURRENCIES, "money")}
        for (cur, amt), m in zip(costs, by_money, strict=True):
            left[cur] -= amt - m
            left["money"] -= 2 * m
        if min(left.values()) >= 0:
            out.add(tuple(left[c] for c in (*CURRENCIES, "money")))
    return out


def costed(s: State) -> Iterator[tuple[str, list[tuple[str, int]]]]:
    """The seat's legal actions that cost currency, with their cost as the reference card prints it."""
    p = s.players[s.seat]
    r = D.rules
    for a in GAME.legal_actions(s, s.seat):
        verb, arg = (a.split() + [""])[:2]
        if verb == "technology":
            yield a, [("ideas", r.technology_ideas)]
        elif verb == "government":
            yield a, [("ideas", D.governments[arg].cost_ideas)]
        elif verb == "population":
            card = next((c for c in s.pop_offer if c and population_word(D.population_cards[c]) == arg), "")
            yield a, [("food", D.population_cards[card].food_cost if card else r.population_fallback_food)]
        elif verb == "build" and D.builds[arg].currency_cost:
            yield a, list(D.builds[arg].currency_cost)
        elif verb == "wonder":
            yield a, wonder_cost(D, p)


def pay_every_way(s: State, action: str) -> set[tuple[int, ...]]:
    """Play `action` (a piece on the first hex offered) as it is, the usual way, and after `spend
    money` with every `pay …` the game then offers: what the payer keeps, per way."""
    seat = s.seat
    starts = [s] + ([act(s, "spend money")[0]] if "spend money" in GAME.legal_actions(s, seat) else [])
    todo = []
    for start in starts:
        t, _ = act(start, action)
        while asking(t) == "place":
            t, _ = act(t, GAME.legal_actions(t, seat)[0])
        todo.append(t)
    ends = []
    while todo:
        t = todo.pop()
        if asking(t) == "pay":
            todo += [act(t, a)[0] for a in GAME.legal_actions(t, seat)]
        else:
            ends.append(t)
    return {tuple(getattr(t.players[seat], c) for c in (*CURRENCIES, "money")) for t in ends}


def test_n32_the_usual_payment_and_spend_money_reach_every_payment_the_rule_allows():
    checked = 0
    for s in turns():
        p = s.players[s.seat]
        for action, costs in costed(s):
            kept = pay_every_way(s, action)
            allowed = rulebook_payments(p, [c for c in costs if c[1]])
            # What the action gives besides the payment is the same whatever the split, so the two sets
            # are compared from their usual way (the one that spends least money: one currency at a time,
            # each paid with as much of itself as there is).
            usual_got, usual_want = max(kept, key=lambda k: k[3]), max(allowed, key=lambda k: k[3])
            shift = [g - w for g, w in zip(usual_got, usual_want, strict=True)]
            assert kept == {tuple(a + d for a, d in zip(w, shift, strict=True)) for w in allowed}, action
            checked += 1
    assert checked > 100


# ---- N28: `technology <card>` takes the card and places it face up in one pick
def rulebook_technology(s: State, t: str, face_up: bool) -> State:
    """Technology, as the rulebook words it: "Cost: 5 ideas. Take 1 of the 5 available tech cards
    from the board and place it in front of you. If you already have the required pillars, you may
    place it face up and gain the benefits. If you do not own the required prerequisites, you place
    the card face down"; the offer is refilled from the deck, then the action ends."""
    s = s.copy()
    seat = s.seat
    p = s.players[seat]
    own = min(p.ideas, D.rules.technology_ideas)  # paid the usual way, as `pay_usual` answers
    p.ideas -= own
    p.money -= 2 * (D.rules.technology_ideas - own)
    ev: list[str] = []
    s.action_open = True
    slot = s.tech_offer.index(t)
    if face_up:
        play_tech(D, s, seat, t, ev)
    else:
        p.hidden.append(t)
        p.seen.append(t)
    refill(D, s, "technology", slot, ev)
    settle(D, s, ev)
    return s


def test_n28_taking_a_technology_face_up_in_one_pick_reaches_what_the_separate_steps_reach():
    checked = 0
    for s in turns():
        p = s.players[s.seat]
        legal = GAME.legal_actions(s, s.seat)
        for t in [x for x in s.tech_offer if f"technology {x}" in legal]:
            game = {position(pay_usual(act(s, a)[0])) for a in legal if a.split()[:2] == ["technology", t]}
            playable = board.meets(D.technologies[t].requires, board.symbols(D, p))
            rulebook = {position(rulebook_technology(s, t, up)) for up in ([True, False] if playable else [False])}
            assert game == rulebook, t
            checked += 1
    assert checked > 100


# ---- N50: cards with the same numbers are one choice
def same_numbers(ids: list[str], word) -> list[tuple[str, str]]:
    """Pairs of cards that print the same numbers."""
    return [(a, b) for a, b in itertools.combinations(ids, 2) if word(a) == word(b)]


def card_words(s: State) -> str:
    """A position with population and tax & tariff cards known by their numbers (which one of two
    alike cards lies where is all that differs). The offers keep their order: a government's arrow
    side puts them under the deck in it (N52), so taking the left or the right one of two alike
    cards reaches different positions (issue 49)."""
    data = json.loads(position(s))
    pw = {c: population_word(D.population_cards[c]) for c in D.population_cards}
    tw = {c: D.tax_cards[c].kind + " " + tax_word(D.tax_cards[c]) for c in D.tax_cards}
    data["pop_offer"] = [pw.get(c, c) for c in data["pop_offer"]]
    data["pop_deck"] = [pw.get(c, c) for c in data["pop_deck"]]
    data["tax_offer"] = [tw.get(c, c) for c in data["tax_offer"]]
    data["tax_deck"] = [tw.get(c, c) for c in data["tax_deck"]]
    return json.dumps(data, sort_keys=True)


def with_alike_offers(s: State) -> State:
    """The position with two alike population cards and two alike tax & tariff cards on offer,
    taken from the component lists (so the merge has something to merge)."""
    s = s.copy()
    pop = same_numbers(list(D.population_cards), lambda c: population_word(D.population_cards[c]))
    tax = same_numbers(list(D.tax_cards), lambda c: (D.tax_cards[c].kind, tax_word(D.tax_cards[c])))
    a, b = pop[s.turn_no % len(pop)]
    s.pop_deck = [c for c in s.pop_deck if c not in (a, b)]
    s.pop_offer = [a, b]
    a, b = tax[s.turn_no % len(tax)]
    s.tax_deck = [c for c in s.tax_deck if c not in (a, b)]
    s.tax_offer = [a, b]
    s.players[s.seat].food += 20
    return s


def rulebook_population(s: State, card: str) -> State:
    """ "Select 1 of the 2 population cards available and pay the number of food shown on the card.
    Increase your population by the amount shown on the card. Place the used population card out
    of play and draw a new card to replace it" (the Farmer adds 1)."""
    s = s.copy()
    p = s.players[s.seat]
    c = D.population_cards[card]
    own = min(p.food, c.food_cost)
    p.food -= own
    p.money -= 2 * (c.food_cost - own)
    p.population += c.population + (1 if p.leader == "farmer" else 0)
    ev: list[str] = []
    s.action_open = True
    refill(D, s, "population", s.pop_offer.index(card), ev)
    settle(D, s, ev)
    return s


def rulebook_tax(s: State, card: str) -> State:
    """ "Select 1 of the 2 tax & tariff cards available and place it in front of you. Gain the amount
    of money shown on the card + the money in the holding area" (and its unrest), then replace it."""
    s = s.copy()
    ev: list[str] = []
    s.action_open = True
    collect(D, s, s.seat, D.tax_cards[card].kind, card, ev)
    settle(D, s, ev)
    return s


def test_n50_alike_cards_as_one_choice_reach_what_taking_either_card_reaches():
    checked = 0
    for found in turns(every=9):
        for s in (found, with_alike_offers(found)):
            legal = GAME.legal_actions(s, s.seat)
            if any(s.pop_offer):
                game = {card_words(pay_usual(act(s, a)[0])) for a in legal if a.startswith("population ")}
                words = {c: f"population {population_word(D.population_cards[c])}" for c in s.pop_offer if c}
                affordable = [c for c, a in words.items() if a in legal]
                assert game == {card_words(rulebook_population(s, c)) for c in affordable}
            game = {card_words(act(s, a)[0]) for a in legal if a.startswith(("tax ", "tariff "))}
            if any(s.tax_offer):
                assert game == {card_words(rulebook_tax(s, c)) for c in s.tax_offer if c}
            checked += 1
    assert checked > 40


# ---- N37: one region per number of the City State's cities
def scoring_now(s: State, seat: int) -> State:
    """The position with `seat` a City State and an Empire Scoring card just revealed (no General)."""
    s = s.copy()
    for p in s.players:
        if p.leader == "general":
            p.leader = "artist"
        if p.government == "city-state":  # one tile
            p.government = ""
    s.players[seat].government = "city-state"
    if "city-state" in s.governments:
        s.governments.remove("city-state")
    s.pop_deck = [SCORING, *s.pop_deck]
    s.players[s.seat].food += 20
    return s


def test_n37_one_region_per_number_of_cities_reaches_what_naming_any_region_reaches():
    """ "During empire scoring, you will score 1 VP/city that you own in a single region of your
    choice": the rulebook's steps name any region in play, then score."""
    checked = 0
    for s in turns(every=7):
        if not s.pop_offer[0]:
            continue
        seat = (s.seat + 1) % len(s.players)
        s = scoring_now(s, seat)
        take = f"population {population_word(D.population_cards[s.pop_offer[0]])}"
        start = pay_usual(act(s, take)[0])
        if asking(start) == "city-state":
            game = {position(act(start, a)[0]) for a in GAME.legal_actions(start, seat)}
        else:
            game = {position(start)}
        rulebook = set()
        for reg in s.regions:
            named = s.copy()
            named.general_done, named.city_state_region = True, reg  # named before the scoring asks
            rulebook.add(position(pay_usual(act(named, take)[0])))
        assert game == rulebook
        checked += 1
    assert checked > 40
