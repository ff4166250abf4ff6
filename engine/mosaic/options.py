"""What a seat may do now: main actions, free actions, claims, and their checks.

Only actions that can be completed are offered (costs affordable with the 2:1
money substitution, a hex available), so a chosen action never dead-ends.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence

from . import board, economy
from .achievements import Progress
from .data import Cost, Data, KindAndCost
from .decks import OFFERS
from .state import Player, State
from .words import (
    RIGHT,
    alike_on_offer,
    population_card,
    population_fallback_word,
    population_word,
    tax_fallback_word,
    tax_word,
)

#: One action the seat may take, and the question that decides whether it is legal now (None: it is).
#: Some questions cost a look at the whole map (a region's influence, a free hex), so a list is
#: written with them left open: `legal_of` asks every one, the rollout move only the one it draws
#: (playout.py), and the end of a turn stops at the first free action found (`has_free_action`).
Candidate = tuple[str, Callable[[], bool] | None]


def legal_of(candidates: list[Candidate]) -> list[str]:
    """The candidates that are legal now, in order."""
    return [action for action, holds in candidates if holds is None or holds()]


def free_candidates(d: Data, s: State, seat: int, sym: Counter[str] | None = None) -> list[Candidate]:
    """Not the turn's action, offered before it and after it alike (N44): claims of golden ages and
    achievements the seat qualifies for now (claimed free, any number, on its turn), flipping a
    face-down technology whose pillars are there (N49), the government's arrow side, the
    Republic's look (before the action only), the leaders' once-per-game powers."""
    p = s.players[seat]
    sym = sym if sym is not None else board.symbols(d, p)
    out: list[Candidate] = []
    for g in s.golden_ages:
        ga = d.golden_ages[g]
        if sym.get(ga.pillar, 0) >= ga.symbols:
            out.append((f"claim {g}", None))
    standing: list[Progress] = []  # the seat's standing, looked at once if at all

    def reached(aid: str) -> bool:
        if not standing:
            standing.append(Progress(d, s, seat, sym))
        return standing[0].met(aid)

    out += [(f"claim {a}", functools.partial(reached, a)) for a in s.achievements]
    out += [(f"flip {t}", None) for t in p.hidden if board.meets(d.technologies[t].requires, sym)]
    if p.government and p.government not in s.gov_flipped:
        for name, (_deck, offer) in OFFERS.items():
            if any(getattr(s, offer)):
                out.append((f"refresh {name}", None))
    if p.government and d.governments[p.government].peek and s.stage == "main" and not s.peeked and s.phase == "play":
        out += [(f"peek {name}", None) for name, (deck, _offer) in OFFERS.items() if getattr(s, deck)]
    if p.leader == "magistrate" and "convert" not in p.used and p.population >= 1:
        out += [(f"convert {c}", None) for c in ("food", "stone", "ideas", "money")]
    if p.leader == "priestess" and "seize" not in p.used:

        def four_cities(other: int) -> bool:
            return len(board.cities_of(s, other)) >= 4

        out += [(f"seize {o}", functools.partial(four_cities, o)) for o in range(len(s.players)) if o != seat]
    return out


def free_actions(d: Data, s: State, seat: int, sym: Counter[str] | None = None) -> list[str]:
    """The free actions legal now (`free_candidates`)."""
    return legal_of(free_candidates(d, s, seat, sym))


def has_free_action(d: Data, s: State, seat: int) -> bool:
    """Whether `free_actions` offers anything: asked at the end of every turn (N44: a turn with a
    free action left waits for it or `end`), so the candidates settled already are looked at first."""
    candidates = free_candidates(d, s, seat)
    return any(holds is None for _, holds in candidates) or any(holds() for _, holds in candidates if holds)


def city_state_options(d: Data, s: State, seat: int) -> list[str]:
    """The regions a City State may score at an Empire Scoring ("a single region of your
    choice", N37), most cities first, a region without its cities (0 VP) last. A region holding
    as many of its cities as one already listed is left out: it scores the same and nothing
    records which was named, so one region per number of cities is every outcome the choice has."""
    p = s.players[seat]
    if not p.government or d.governments[p.government].scoring != "cities_in_one_region":
        return []
    counts = board.cities_per_region(d, s, seat)
    first: dict[int, str] = {}
    for reg in s.regions:
        first.setdefault(counts.get(reg, 0), reg)
    return [f"region {first[k]}" for k in sorted(first, reverse=True)]


def pay_word(currency: str, own: int, money: int) -> str:
    """ "pay 4 ideas 2 money": one way to pay a cost in `currency` (N32)."""
    return "pay " + " ".join(([f"{own} {currency}"] if own else []) + ([f"{money} money"] if money else []))


def pay_options(d: Data, p: Player, costs: Sequence[Cost]) -> list[str]:
    """Each way to pay the first of `costs` (own currency, money at 2:1 for the rest), the usual first."""
    cur = costs[0][0]
    return [pay_word(cur, own, money) for own, money in economy.splits(d, p, costs)]


def action_costs(d: Data, s: State, seat: int, action: str) -> list[Cost]:
    """What a main action costs in currencies money may stand in for (reference card, "Costs");
    [] for an action without such a cost. Population (a city's 2) is not among them."""
    verb, _, rest = action.partition(" ")
    arg = rest.split(" ")[0]
    r = d.rules
    if verb == "technology":
        return [("ideas", r.technology_ideas)]
    if verb == "government":
        return [("ideas", d.governments[arg].cost_ideas)]
    if verb == "population":
        card = d.population_cards.get(population_card(d, s, arg))
        return [("food", card.food_cost if card else r.population_fallback_food)]
    if verb == "build":
        return [c for c in d.builds[arg].currency_cost if c[1]]
    if verb == "wonder":
        return wonder_cost(d, s.players[seat])
    return []


def spend_money(d: Data, s: State, seat: int, main: list[str]) -> list[str]:
    """`spend money` while some action on offer has a cost money could pay more of (N32)."""
    if s.pay_by_choice or s.players[seat].money < d.rules.money_per_currency:
        return []
    p = s.players[seat]
    return ["spend money"] if any(economy.can_split(d, p, action_costs(d, s, seat, a)) for a in main) else []


def wonder_cost(d: Data, p: Player) -> list[Cost]:
    r = d.rules
    k = len(p.wonders)
    return [("stone", r.wonder_stone + k * r.wonder_step_stone), ("food", r.wonder_food + k * r.wonder_step_food)]


def recruit_limit(d: Data, p: Player) -> int:
    lim = d.leaders[p.leader].recruit_limit if p.leader else 0
    return lim or d.rules.recruit_limit


def can_move(d: Data, s: State, p: Player) -> list[tuple[str, str]]:
    """Moves open to the player whose turn it is: 1 money, to an adjacent region in play,
    each unit once per turn (N31, N48: units that arrived this turn stay)."""
    if p.money < d.rules.move_money:
        return []
    arrived = s.turn_arrived
    out = []
    for reg in s.regions:
        if p.units.get(reg, 0) - arrived.get(reg, 0) > 0:
            out += [(reg, to) for to in d.adjacency[reg] if to in s.regions]
    return out


def can_recruit(d: Data, s: State, seat: int) -> list[str]:
    """Regions to recruit in now: 5 money, a region with your city, up to the limit per turn (N48)."""
    p = s.players[seat]
    if s.turn_recruits >= recruit_limit(d, p) or p.money < d.rules.recruit_money:
        return []
    return board.city_regions(d, s, seat)


def main_candidates(d: Data, s: State, seat: int, sym: Counter[str] | None = None) -> list[Candidate]:
    """The eight actions, each only where it can be completed; `sym`: the seat's pillar symbols.
    Whether a build card's or a wonder's piece has somewhere to go, and whether a unit can be
    recruited or moved, are left open (`Candidate`)."""
    r = d.rules
    p = s.players[seat]
    out: list[Candidate] = [("work ideas", None), ("work food", None), ("work stone", None)]
    # Population
    cards = [c for c in s.pop_offer if c]
    if cards:
        words = [f"population {population_word(d.population_cards[c])}" if c else "" for c in s.pop_offer]
        for c, a, right in zip(s.pop_offer, words, alike_on_offer(words), strict=True):
            if c and economy.can_pay(d, p, "food", d.population_cards[c].food_cost):
                out.append((f"{a} {RIGHT}" if right else a, None))
    elif not s.pop_deck and economy.can_pay(d, p, "food", r.population_fallback_food):
        out.append((f"population {population_fallback_word(d)}", None))
    # Build
    alike: dict[KindAndCost, bool] = {}
    out += [(f"build {c}", functools.partial(can_build, d, s, seat, c, alike)) for c in s.build_offer if c]
    # Wonder
    if s.wonders and economy.affordable(d, p, wonder_cost(d, p)):
        spots: dict[str, bool] = {}

        def has_spot(w: str) -> bool:
            rule = d.wonders[w].placement
            if rule not in spots:
                spots[rule] = board.any_candidate(d, s, seat, "wonder", w)
            return spots[rule]

        out += [(f"wonder {w}", functools.partial(has_spot, w)) for w in s.wonders]
    # Technology: face up when its pillars are there, or face down by choice (N28: "you may")
    sym = sym if sym is not None else board.symbols(d, p)
    if economy.can_pay(d, p, "ideas", r.technology_ideas):
        offer = [t for t in s.tech_offer if t]
        out += [(f"technology {t}", None) for t in offer]
        out += [(f"technology {t} face-down", None) for t in offer if board.meets(d.technologies[t].requires, sym)]
    # Tax & Tariff
    taxes = [c for c in s.tax_offer if c]
    if taxes:
        kinds = [f"{d.tax_cards[c].kind} {tax_word(d.tax_cards[c])}" if c else "" for c in s.tax_offer]
        out += [
            (f"{a} {RIGHT}" if right else a, None) for a, right in zip(kinds, alike_on_offer(kinds), strict=True) if a
        ]
    elif not s.tax_deck:
        out += [(f"tax {tax_fallback_word(d, 'tax')}", None), (f"tariff {tax_fallback_word(d, 'tariff')}", None)]
    # Military
    out.append(("military", lambda: bool(can_recruit(d, s, seat) or can_move(d, s, p))))
    # Government
    for g in s.governments:
        gov = d.governments[g]
        if board.meets(gov.requires, sym) and economy.can_pay(d, p, "ideas", gov.cost_ideas):
            out.append((f"government {g}", None))
    return out


def main_actions(d: Data, s: State, seat: int, sym: Counter[str] | None = None) -> list[str]:
    """The main actions legal now (`main_candidates`)."""
    return legal_of(main_candidates(d, s, seat, sym))


#: Where each kind of build card's piece goes (board.place_candidates); a project has no piece.
BUILD_PURPOSE = {"city": "city", "port_city": "port", "farm_town": "farm", "manufactory_town": "manufactory"}


def build_purpose(kind: str) -> str:
    return BUILD_PURPOSE.get(kind, "")


def can_build(d: Data, s: State, seat: int, c: str, seen: dict[KindAndCost, bool] | None = None) -> bool:
    """The build card's cost can be paid and its piece has somewhere to go. `seen` keeps the
    answers for one legal-action list: cards of one type and cost get the same one."""
    card = d.builds[c]
    seen = seen if seen is not None else {}
    ok = seen.get(card.kind_and_cost)
    if ok is None:
        ok = economy.affordable(d, s.players[seat], card.currency_cost, card.population_cost)
        purpose = BUILD_PURPOSE.get(card.type, "")
        if ok and purpose:
            ok = board.any_candidate(d, s, seat, purpose)
        seen[card.kind_and_cost] = ok
    return ok


def eliminate_options(d: Data, s: State, seat: int) -> list[str]:
    me = s.players[seat]
    out = []
    for reg in s.regions:
        if me.units.get(reg, 0) > 0:
            for other, q in enumerate(s.players):
                if other != seat and q.units.get(reg, 0) > 0:
                    out.append(f"eliminate {reg} {other}")
    return out


def military_options(d: Data, s: State, seat: int, acted: bool) -> list[str]:
    """Recruit and move (each within the turn's limits), then `done` once something was done."""
    out = [f"recruit {reg}" for reg in can_recruit(d, s, seat)]
    out += [f"move {a} {b}" for a, b in can_move(d, s, s.players[seat])]
    if acted:
        out.append("done")
    return out
