"""Mosaic's legal actions in the players' words (issue 25; /work/wt/CHOICES.md conventions).

Every legal action becomes a `Choice`: the kind of decision in the rulebook's words
(`group`), the thing chosen by its printed name (`label`: a technology, a build card, a
region, a hex as "Assyria 12", the name of its region and the number the board draws on it),
and what it costs and gives and what the seat may know of its outcome (`detail`: the money a
tax card pays now, a payment's shortfall in money, what lies on a hex). `prompt` says what is
decided now in one sentence, `rule` names the rulebook topic behind it, and
`needs_private_view` says when the seat's own secrets bear on it.

Only what the seat may see is read: the public board, its own draft hand, its own face-down
technologies and its own look at a deck (RULES-NOTES, Hidden information). A cache tile is
"a face-down cache" for everyone, so two positions the seat cannot tell apart give the same
choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..core import DETAIL_MAX, Choice, count, details, essential, listing
from . import board, economy
from .actions import tax_terms
from .data import Cost, Data, Technology
from .options import recruit_limit, wonder_cost
from .rules import decision_legal
from .setup import start_text
from .state import State
from .words import (
    FALLBACK,
    RIGHT,
    achievement_need,
    alike_on_offer,
    hex_name,
    population_card,
    population_word,
    production_name,
    tax_card,
    tax_word,
)

#: The groups of the turn's decision, in the rulebook's words.
WORK, POPULATION, BUILD, WONDER, TECHNOLOGY, FACE_DOWN, TAX, MILITARY, GOVERNMENT = (
    "Work",
    "Population",
    "Build",
    "Wonder",
    "Technology",
    "Technology, kept face down",
    "Tax & Tariff",
    "Military",
    "Government",
)
#: What a piece placed on a hex is, by the placement's purpose (board.place_candidates).
PIECE = {
    "start-city": "your starting city",
    "start-town": "your starting town",
    "free-city": "your free city",
    "city": "the city",
    "port": "the port city",
    "farm": "the farm town",
    "manufactory": "the manufactory town",
    "wonder": "the wonder",
}
#: Pillar symbols as players read them.
PILLAR_NAME = {
    "science": "Science",
    "economy": "Economy",
    "food": "Food",
    "population": "Population",
    "building": "Building",
    "culture": "Culture",
    "government": "Government",
    "military": "Military",
    "urbanization": "Urbanization",
}
#: The four offers, as the arrow side and the Republic's look name them.
DECK_NAME = {"build": "build", "population": "population", "technology": "technology", "tax": "tax & tariff"}


# ---- words --------------------------------------------------------------------------------


def amount(n: int, currency: str) -> str:
    """ "5 ideas", "1 idea", "3 food": a quantity of a currency."""
    return f"{n} {'idea' if currency == 'ideas' and n == 1 else currency}"


def pillars(need: dict[str, int] | list[str]) -> str:
    """ "Science 2, Culture" (requirements) or "Science, Culture" (symbols given)."""
    if isinstance(need, dict):
        return ", ".join(PILLAR_NAME[k] + (f" {v}" if v > 1 else "") for k, v in need.items())
    return ", ".join(PILLAR_NAME[k] for k in need)


def cost_words(d: Data, s: State, seat: int, costs: Sequence[Cost], population: int = 0) -> str:
    """ "4 stone, 2 population" with how the usual payment covers a shortfall: "5 ideas (3 + 4 money)"."""
    p = s.players[seat]
    parts = []
    for cur, amt in costs:
        if not amt:
            continue
        short = amt - economy.have(p, cur)
        text = amount(amt, cur)
        if short > 0:
            have = economy.have(p, cur)
            money = f"{d.rules.money_per_currency * short} money"
            text += f" ({have} + {money})" if have else f" (as {money})"
        parts.append(text)
    if population:
        parts.append(f"{population} population")
    return ", ".join(parts) or "free"


def tech_words(t: Technology) -> list[str]:
    """ "needs Science", "gives Culture", "1x: gain 5 money": a technology card as printed, in
    parts for `details` (which leaves out whole the parts that would overflow)."""
    need = f"needs {pillars(t.requires)}" if t.requires else "needs nothing"
    return [need, f"gives {pillars(t.provides)}" if t.provides else "", t.text]


def region_name(d: Data, region: str) -> str:
    return d.regions[region].name


def seat_name(s: State, seat: int) -> str:
    return s.players[seat].name


# ---- the turn's actions ---------------------------------------------------------------------


def work(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    cur = words[1]
    prod = economy.production(d, p, cur)
    gain = p.population + prod
    detail = f"+{amount(gain, cur)} ({p.population} population + {prod} {production_name(cur)} production)"
    return Choice(" ".join(words), WORK, cur.title(), detail)


def population(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    card = population_card(d, s, words[1], "".join(words[2:]))
    if card == FALLBACK:
        gain, food = d.rules.population_fallback_gain, d.rules.population_fallback_food
        note = "every card is used"
    else:
        pc = d.population_cards[card]
        gain, food = pc.population + (1 if p.leader == "farmer" else 0), pc.food_cost
        note = "Farmer +1" if p.leader == "farmer" else ""
    label = f"+{gain} population for {food} food" + which_card(d, s.pop_offer, card, words)
    detail = details(
        essential(cost_words(d, s, seat, [("food", food)])),
        essential(f"population {p.population} → {p.population + gain}"),
        note,
    )
    return Choice(" ".join(words), POPULATION, label, detail)


def build(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    card = d.builds[words[1]]
    p = s.players[seat]
    kind = card.type.replace("_", " ")
    gives = [f"gives {pillars(card.provides)}"] if card.provides else []
    gives += [essential(f"+{amount(v, k)}") for k, v in card.gain.items()]
    gives += [essential(f"+{v} {production_name(k)} production") for k, v in card.production.items()]
    if card.type == "project":
        have = board.symbols(d, p)[card.vp_pillar]
        gives.append(f"end: 1 VP per {PILLAR_NAME[card.vp_pillar]} symbol (you have {have})")
    if card.trade_goods:
        names = [d.trade_goods[g].name for g in card.trade_goods]
        held = sum(1 for g in card.trade_goods if p.goods.get(g, 0))
        gives.append(f"{card.trade_goods_vp or d.rules.manufactory_set_vp} VP with {listing(names)} (you have {held})")
    cost = cost_words(d, s, seat, card.currency_cost, card.population_cost)
    return Choice(" ".join(words), BUILD, f"{card.name} ({kind})", details(essential(cost), *gives))


def wonder(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    w = d.wonders[words[1]]
    where = {"port": "on a port hex", "three_cities": "in a region with 3+ cities"}.get(w.placement, "")
    unrest = f"-{w.unrest_cancel} unrest" if w.unrest_cancel else ""
    cost = cost_words(d, s, seat, wonder_cost(d, s.players[seat]))
    return Choice(" ".join(words), WONDER, w.name, details(essential(cost), w.text, unrest, where))


def technology(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    """Face up counts for Scientific at once, face down only once flipped (N29): said on the card."""
    t = d.technologies[words[1]]
    p = s.players[seat]
    cost = cost_words(d, s, seat, [("ideas", d.rules.technology_ideas)])
    playable = board.meets(t.requires, board.symbols(d, p))
    if words[2:] == ["face-down"]:
        later = "flip it on any of your turns, this one too; Scientific counts it once flipped"
        return Choice(" ".join(words), FACE_DOWN, f"{t.name}, kept face down", details(essential(cost), later))
    how = "face up, counts for Scientific" if playable else "face down: Scientific counts it once flipped"
    return Choice(" ".join(words), TECHNOLOGY, t.name, details(essential(cost), essential(how), *tech_words(t)))


def which_card(d: Data, offer: list[str], card: str, words: list[str]) -> str:
    """ " (right card)" / " (left card)" when two alike cards lie on offer (they stay two choices:
    the new card is drawn into the place of the one taken, words.py), else ""."""
    if words[2:] == [RIGHT]:
        return " (right card)"
    twin = " ".join(words) + f" {RIGHT}"
    return " (left card)" if card in offer and twin in alike_actions(d, offer, words[0]) else ""


def alike_actions(d: Data, offer: list[str], verb: str) -> list[str]:
    """The `… right` actions the offer of `verb` (population, tax or tariff) has."""
    if verb == "population":
        names = [f"population {population_word(d.population_cards[c])}" if c else "" for c in offer]
    else:
        names = [f"{d.tax_cards[c].kind} {tax_word(d.tax_cards[c])}" if c else "" for c in offer]
    return [f"{n} {RIGHT}" for n, r in zip(names, alike_on_offer(names), strict=True) if r]


def tax(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    kind = words[0]
    card = tax_card(d, s, kind, words[1], "".join(words[2:]))
    terms, unrest = tax_terms(d, s, seat, kind, card)
    if card == FALLBACK:
        r = d.rules
        mult = r.tax_fallback_per_population if kind == "tax" else r.tariff_fallback_per_trade_good
    else:
        mult = d.tax_cards[card].multiplier
    per = "population" if kind == "tax" else "unique trade good"
    label = f"{kind.title()}: {mult} money per {per}, " + (f"+{unrest} unrest" if unrest else "no unrest")
    label += which_card(d, s.tax_offer, card, words)
    return Choice(" ".join(words), TAX, label, tax_detail(terms, s.holding, unrest))


def tax_detail(terms: list[tuple[int, str]], held: int, unrest: int) -> str:
    """ "+35 money · +2 unrest · 3×5 population + … + 10 from the holding area": the total the
    action gains and its unrest always (issue 49: a cut sum read "+25 money" for an action that
    gains 35), then how the total is made, whole, or when that does not fit the holding area alone."""
    money = sum(v for v, _ in terms)
    held_part = f"{held} from the holding area" if held else ""
    how = " + ".join([what for v, what in terms if v] + ([held_part] if held_part else []))
    total = [essential(f"+{money + held} money"), essential(f"+{unrest} unrest") if unrest else ""]
    whole = details(*total, how)
    return whole if how in whole else details(*total, held_part)


def military(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    r = d.rules
    left = recruit_limit(d, p) - s.turn_recruits
    detail = details(
        essential(f"{r.recruit_money} money a recruit (up to {left} more this turn)"),
        essential(f"{r.move_money} money a move"),
        f"you have {p.money} money",
    )
    return Choice("military", MILITARY, "Recruit and move units", detail)


def government(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    g = d.governments[words[1]]
    prod = [f"+{v} {production_name(k)} production" for k, v in g.production.items()]
    extra = "look at a deck's top card before your action" if g.peek else ""
    cost = cost_words(d, s, seat, [("ideas", g.cost_ideas)])
    prod = [essential(x) for x in prod]
    return Choice(" ".join(words), GOVERNMENT, g.name, details(essential(cost), *prod, extra, f"scoring: {g.text}"))


# ---- free actions ---------------------------------------------------------------------------


def claim(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    tid = words[1]
    if tid in d.golden_ages:
        ga = d.golden_ages[tid]
        gain = {
            "population": f"+{ga.amount} population",
            "production": f"+{ga.amount} {production_name(ga.track)} production",
            "any_currency": f"{ga.amount} of a currency of your choice",
            "free_city": "a free city",
            "military_units": f"{ga.amount} free military units",
        }[ga.benefit]
        detail = details(essential(f"{ga.vp} VP"), essential(gain))
        return Choice(" ".join(words), "Claim a tile", f"{ga.name} golden age", detail)
    a = d.achievements[tid]
    need = achievement_need(a, len(s.players))
    return Choice(" ".join(words), "Claim a tile", f"{a.name} achievement", details(essential(f"{a.vp} VP"), need))


def flip(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    t = d.technologies[words[1]]
    return Choice(" ".join(words), "Flip a face-down technology", t.name, details("now counts for Scientific", t.text))


def refresh(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    gov = d.governments[s.players[seat].government].name
    detail = details("its cards go under the deck, new ones are drawn", f"uses {gov}'s arrow side (once per tile)")
    return Choice(" ".join(words), "Government arrow side", f"Clear the {DECK_NAME[words[1]]} offer", detail)


def peek(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    label = f"Top card of the {DECK_NAME[words[1]]} deck"
    return Choice(" ".join(words), "Republic: look at a deck", label, "seen by you alone, until your turn ends")


def convert(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    detail = details(essential(f"-1 population ({p.population} → {p.population - 1})"), "once per game")
    return Choice(" ".join(words), "Magistrate: convert population", amount(20, words[1]), detail)


def seize(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    other = int(words[1])
    detail = details(f"{len(board.cities_of(s, other))} cities", "you then choose which city", "once per game")
    return Choice(" ".join(words), "Priestess: take a city", f"A city of {seat_name(s, other)}", detail)


def spend(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    detail = details(
        f"{d.rules.money_per_currency} money for each food, stone or idea, though you have them",
        f"you have {s.players[seat].money} money",
    )
    return Choice("spend money", "Payment", "Say how much of this action's cost money pays", detail)


def end(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    return Choice("end", "End your turn", "End your turn")


# ---- pending decisions ----------------------------------------------------------------------


def leader(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    lead = d.leaders[words[1]]
    # Most leaders' texts are longer than a detail: cut at a word, the ellipsis says more follows
    # (dropping whole clauses would hide an ability without a sign); the start comes when it fits.
    return Choice(" ".join(words), "Choose a leader", lead.name, details(lead.text, f"start: {start_text(lead)}"))


def draft(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    """The seat's own hand, by name (its private view shows the same cards numbered)."""
    t = d.technologies[s.players[seat].hand[int(words[1]) - 1]]
    return Choice(" ".join(words), "Keep a starting technology", t.name, details(*tech_words(t)))


def production(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    top = s.pending.top
    assert top is not None
    bonus = top.data["amount"]
    now = s.players[seat].production[words[1]]
    label = f"+{bonus} {production_name(words[1])} production"
    return Choice(" ".join(words), "Add a production bonus", label, f"{now} → {now + bonus}")


def hex_choice(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    """A hex to place on (or, for the Priestess, a city to take): its region and number as the
    board draws them, and what lies on it (trade good, fish, a face-down cache)."""
    h = words[1]
    x = d.hexes[h]
    top = s.pending.top
    assert top is not None
    if top.kind == "seize":
        owner = seat_name(s, board.owner(s.board[h]))
        return Choice(" ".join(words), "Priestess: take a city", hex_name(d, h), f"{owner}'s city", (h,))
    on = []
    good = s.goods_on.get(h, "")
    if good:
        g = d.trade_goods[good]
        on.append(g.name + (f" (+{g.bonus} {production_name(g.track)} production)" if g.bonus else ""))
    if h in s.fish_on:
        on.append(f"fish (+{d.trade_goods['fish'].bonus} food production)")
    if h in s.cache_on:
        on.append("a face-down cache")
    label = hex_name(d, h) + (f": {on[0].split(' (')[0]}" if on else "")
    group = f"Place {PIECE[top.data['purpose']]} in {region_name(d, x.region)}"
    return Choice(" ".join(words), group, label, hex_detail(d, s, seat, top.data, on), (h,))


def hex_detail(d: Data, s: State, seat: int, placing: dict[str, str], on: list[str]) -> str:
    """What placing the piece costs and what the player takes there, whole: "builds Thebes: 4 stone,
    2 population · you take Wine (+2 food production)"; when that is too long the name goes first,
    then what is taken beyond the first tile (issue 49: never a cost cut in the middle)."""
    name, cost = completes(d, s, seat, placing)
    takes = [f"you take {w}" for w in on]
    for first in ([f"builds {name}: {cost}"] if name else []) + ([cost] if cost else []):
        whole = " · ".join([first, *takes])
        if len(whole) <= DETAIL_MAX:
            return whole
    return details(essential(cost), *takes)


def completes(d: Data, s: State, seat: int, placing: dict[str, str]) -> tuple[str, str]:
    """What placing the piece completes, and its cost: ("Thebes", "4 stone, 2 population");
    ("", "") at setup."""
    if placing["purpose"] == "wonder":
        return d.wonders[placing["wonder"]].name, cost_words(d, s, seat, wonder_cost(d, s.players[seat]))
    card = d.builds.get(placing.get("card", ""))
    if card is None:
        return "", ""
    return card.name, cost_words(d, s, seat, card.currency_cost, card.population_cost)


def region_choice(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    """A region: where a piece goes first (more than 15 hexes open), or the region a City State scores."""
    reg = words[1]
    top = s.pending.top
    assert top is not None
    if top.kind == "city-state":
        k = board.cities_per_region(d, s, seat).get(reg, 0)
        detail = f"{k} of your cities there: {k} VP"
        return Choice(" ".join(words), "City State: score one region", region_name(d, reg), detail, (reg,))
    purpose = top.data["purpose"]
    free = [
        h for h in board.place_candidates(d, s, seat, purpose, top.data.get("wonder", "")) if d.hex_region[h] == reg
    ]
    goods = sum(1 for h in free if h in s.goods_on)
    detail = details(f"{len(free)} free hexes", f"{goods} with a trade good" if goods else "")
    return Choice(" ".join(words), f"Place {PIECE[purpose]}: region", region_name(d, reg), detail, (reg,))


def skip(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    return Choice("skip", "Place your starting town", "No free hex: the town is not placed")


def pay(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    """`pay 4 ideas 2 money`: one split of the cost's current currency; what the seat keeps."""
    top = s.pending.top
    assert top is not None
    cur, amt = top.data["costs"][0]
    p = s.players[seat]
    named = {words[i + 1]: int(words[i]) for i in range(1, len(words) - 1, 2)}
    own, money = named.get(cur, 0), named.get("money", 0)
    label = " + ".join(([amount(own, cur)] if own else []) + ([f"{money} money"] if money else []))
    detail = f"you keep {amount(economy.have(p, cur) - own, cur)} and {p.money - money} money"
    return Choice(" ".join(words), f"Pay {amount(amt, cur)}", label, detail)


def recruit(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    reg = words[1]
    left = recruit_limit(d, p) - s.turn_recruits
    detail = details(
        essential(f"{d.rules.recruit_money} money (you have {p.money})"), f"{count(left, 'recruit')} left this turn"
    )
    group = f"Recruit ({d.rules.recruit_money} money a unit)"
    return Choice(" ".join(words), group, f"Unit in {region_name(d, reg)}", detail, (reg,))


def move(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    p = s.players[seat]
    a, b = words[1], words[2]
    mine = p.units.get(a, 0) - s.turn_arrived.get(a, 0)
    detail = details(essential(f"{d.rules.move_money} money (you have {p.money})"), f"{mine} of your units can leave")
    label = f"{region_name(d, a)} → {region_name(d, b)}"
    return Choice(" ".join(words), f"Move ({d.rules.move_money} money a unit)", label, detail, (a, b))


def done(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    return Choice("done", MILITARY, "End the military action")


def unit(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    top = s.pending.top
    assert top is not None
    reg = words[1]
    have = s.players[seat].units.get(reg, 0)
    detail = details(f"from {top.data['why']}", f"{top.data['count']} to place", f"you have {have} there")
    return Choice(" ".join(words), "Place a free military unit", region_name(d, reg), detail, (reg,))


def eliminate(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    if words[1] == "none":
        return Choice("eliminate none", "General: remove a unit", "Remove none")
    reg, other = words[1], int(words[2])
    units = s.players[other].units.get(reg, 0)
    label = f"{seat_name(s, other)}'s unit in {region_name(d, reg)}"
    detail = details(f"{seat_name(s, other)} has {units} there", "before this Empire Scoring")
    return Choice(" ".join(words), "General: remove a unit", label, detail, (reg,))


def library(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    have = board.symbols(d, s.players[seat])[words[1]]
    label = f"2 {PILLAR_NAME[words[1]]} symbols"
    return Choice(" ".join(words), "Great Library", label, f"you have {have} → {have + 2}")


def art(d: Data, s: State, seat: int, words: list[str]) -> Choice:
    have = economy.have(s.players[seat], words[1])
    return Choice(" ".join(words), "Art golden age", amount(10, words[1]), f"you have {have} → {have + 10}")


DESCRIBE: dict[str, Callable[[Data, State, int, list[str]], Choice]] = {
    "leader": leader,
    "draft": draft,
    "production": production,
    "region": region_choice,
    "hex": hex_choice,
    "skip": skip,
    "work": work,
    "population": population,
    "build": build,
    "wonder": wonder,
    "technology": technology,
    "tax": tax,
    "tariff": tax,
    "military": military,
    "government": government,
    "claim": claim,
    "flip": flip,
    "refresh": refresh,
    "peek": peek,
    "convert": convert,
    "seize": seize,
    "spend": spend,
    "end": end,
    "pay": pay,
    "recruit": recruit,
    "move": move,
    "done": done,
    "unit": unit,
    "eliminate": eliminate,
    "library": library,
    "art": art,
}


def describe(d: Data, s: State, seat: int, actions: Sequence[str]) -> list[Choice]:
    """`actions` (the seat's legal actions, in order), each described."""
    return [DESCRIBE[a.split(" ", 1)[0]](d, s, seat, a.split(" ")) for a in actions]


# ---- prompt, rule, private view -------------------------------------------------------------

#: What the seat decides, per open decision kind (`{piece}` for placements).
ASKS = {
    "pay": "Say how you pay {cost}: in {currency}, or 2 money for each.",
    "military": "Recruit or move a unit, or end the military action.",
    "unit": "Choose a region with your city for a free military unit.",
    "eliminate": "General: remove an opponent's unit where you have one, before the Empire Scoring.",
    "library": "Choose the pillar of the Great Library's 2 symbols.",
    "art": "Choose the currency of your 10 from the Art golden age.",
    "production": "Choose the production your leader adds to.",
    "city-state": "Choose the region your City State scores.",
    "seize": "Choose which city the Priestess takes.",
}
#: What the others read while a decision is open.
WAITS = {
    "place": "place a piece",
    "pay": "pay",
    "military": "finish a military action",
    "unit": "place a free military unit",
    "eliminate": "choose the General's removal",
    "library": "choose the Great Library's symbols",
    "art": "choose the Art golden age's currency",
    "production": "choose a production bonus",
    "city-state": "choose the region the City State scores",
    "seize": "choose the city the Priestess takes",
}
#: The rulebook topic behind each decision: the summary has no section numbers, so words of the
#: passage that `rules <topic>` finds (its leaders table, its Setup, its actions, …).
RULES = {
    "leaders": "Leader Benefit",
    "draft": "Draft the starting technology cards",
    "setup": "Each player places 1 of their cities on a hex",
    "turn": "Work",
    "post": "On your turn, if you meet the requirements",
    "over": "Total up the following",
    "place": "Building a city",
    "pay": "Money can be used in place of any currency",
    "military": "Military",
    "unit": "Military",
    "eliminate": "Leader Benefit",
    "library": "Wonder Benefit",
    "art": "Golden age",
    "production": "Leader Benefit",
    "city-state": "Government Type",
    "seize": "Leader Benefit",
}


def prompt(d: Data, s: State, seat: int, acting: list[int]) -> str:
    """What `seat` decides now, in one sentence; or whom it waits for."""
    if s.phase == "over":
        return "The game is over."
    if seat not in acting:
        return f"Waiting for {listing([seat_name(s, i) for i in acting])} to {waits_for(s)}."
    if s.phase == "leaders":
        return "Choose your leader."
    if s.phase == "draft":
        return "Keep one starting technology from your hand; the rest pass to the left."
    top = s.pending.top
    if top is None:
        if s.stage == "post":
            return "Use a free action, or end your turn."
        if s.actions_left > 1:
            return "Choose the first of your two actions this turn."
        return "Choose your action."
    if top.kind == "place":
        step = "a region" if decision_legal(d, s, top)[0].startswith("region ") else "a hex"
        return f"Choose {step} for {PIECE[top.data['purpose']]}."
    if top.kind == "pay":
        cur, amt = top.data["costs"][0]
        return ASKS["pay"].format(cost=amount(amt, cur), currency=cur)
    return ASKS[top.kind]


def waits_for(s: State) -> str:
    if s.phase == "leaders":
        return "choose a leader"
    if s.phase == "draft":
        return "draft a starting technology"
    top = s.pending.top
    if top is not None:
        return WAITS[top.kind]
    return "end the turn" if s.stage == "post" else "take an action"


def rule(s: State) -> str:
    """The rulebook topic behind the open decision (`rules <topic>`)."""
    if s.phase in ("leaders", "draft", "setup", "over"):
        return RULES[s.phase]
    top = s.pending.top
    if top is not None:
        return RULES[top.kind]
    return RULES["post" if s.stage == "post" else "turn"]


def needs_private_view(s: State, seat: int) -> bool:
    """The leader choice and the draft look at the seat's dealt hand; a Republic's turn after its
    look depends on the card it saw."""
    if s.phase == "leaders":
        return bool(s.players[seat].hand) and bool(s.leader_order) and s.leader_order[0] == seat
    if s.phase == "draft":
        return seat in s.draft_waiting
    return s.phase == "play" and bool(s.peeked) and s.seat == seat and s.pending.top is None
