"""Why an action is refused, in the rulebook's terms (a clear, specific message).

`why_not` is asked only after the contract has refused an action (it is not
among the legal ones): it names what stands in the way — a card not on offer,
a cost not covered even with money at 2:1, missing pillars, a placement rule —
and the refusal then adds what is legal now. It never decides legality, so a
gap here can only make a message less specific, never wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from . import board, economy
from .achievements import achievement_met
from .data import Cost, Data
from .decks import OFFERS
from .options import recruit_limit, wonder_cost
from .state import Player, State
from .words import (
    FALLBACK,
    population_card,
    population_fallback_word,
    population_word,
    tax_card,
    tax_fallback_word,
    tax_word,
)

#: The words each pending decision answers to.
PENDING_VERBS = {
    "place": ("region", "hex", "skip"),
    "pay": ("pay",),
    "city-state": ("region",),
    "military": ("recruit", "move", "done"),
    "unit": ("unit",),
    "eliminate": ("eliminate",),
    "library": ("library",),
    "art": ("art",),
    "production": ("production",),
    "seize": ("hex",),
}
PENDING = {
    "place": "choose where the piece goes (`region …` / `hex …`)",
    "pay": "say how you pay (`pay …`: the currency, or money at 2:1)",
    "city-state": "choose the region your City State scores (`region …`)",
    "military": "finish the military action (`recruit …`, `move …` or `done`)",
    "unit": "say where each free military unit goes (`unit <region>`)",
    "eliminate": "settle the General's removal (`eliminate <region> <seat>` or `eliminate none`)",
    "library": "choose the Great Library's pillar (`library <pillar>`)",
    "art": "choose the Art golden age's currency (`art <currency>`)",
    "production": "choose the leader's production track (`production <track>`)",
    "seize": "choose the city the Priestess takes (`hex <hex>`)",
}


def why_not(d: Data, s: State, seat: int, action: str) -> str | None:
    words = action.split(" ")
    verb = words[0]
    arg = words[1] if len(words) > 1 else ""
    if s.phase == "leaders" and verb == "leader":
        return f"{arg!r} is not a leader still to be chosen."
    if s.phase == "draft" and verb == "draft":
        return (
            "Draft by the card's number in your hand (`draft 1` … `draft "
            f"{len(s.players[seat].hand)}`, as numbered in your private image), not by its name."
        )
    top = s.pending.top
    if top is not None and top.seat == seat:
        if top.kind == "place" and verb == "hex" and arg:
            return _hex(d, s, arg, top.data)
        if verb not in PENDING_VERBS.get(top.kind, ()):
            return f"First {PENDING.get(top.kind, top.kind)}."
        if top.kind == "pay" and verb == "pay":
            cur, amt = top.data["costs"][0]
            return (
                f"Pay {amt} {cur}: any number of it in {cur} (you have {economy.have(s.players[seat], cur)}) "
                f"and the rest in money at {d.rules.money_per_currency}:1 (you have {s.players[seat].money} money, "
                "keeping what the rest of the cost needs)."
            )
        if top.kind == "military" and verb == "recruit":
            limit = recruit_limit(d, s.players[seat])
            return (
                f"Recruiting costs {d.rules.recruit_money} money a unit, at most {limit} per turn "
                f"({s.turn_recruits} recruited this turn), in a region with one of your cities."
            )
        if top.kind == "military" and verb == "move":
            return (
                "A unit moves once per turn, to an adjacent region in play, for "
                f"{d.rules.move_money} money; units that moved this turn stay where they are."
            )
        return None
    if s.phase != "play" or top is not None:
        return None
    p = s.players[seat]
    main = ("work", "population", "build", "wonder", "technology", "tax", "tariff", "military", "government")
    if verb in main and s.stage == "post":
        return "You have taken this turn's action; only free actions (claim, refresh…) or `end` remain."
    if verb == "end" and s.stage == "main":
        return (
            "Take your action first (one of the eight actions): the turn ends with it, and `end` is "
            "asked only while a free action (a claim, a flip, the arrow side, a leader's power) is still open."
        )
    if not arg and verb not in ("military", "end"):
        return f"`{verb}` needs to say which one (a card, tile, currency or deck): see what is legal now."
    if verb == "work":
        return f"Work produces ideas, food or stone, not {arg!r} (money comes from Tax & Tariff)."
    if verb == "population":
        return _population(d, s, p, arg)
    if verb == "build":
        return _build(d, s, seat, arg)
    if verb == "wonder":
        return _wonder(d, s, seat, arg)
    if verb == "technology":
        if arg not in s.tech_offer:
            return f"{arg!r} is not among the 5 technologies on offer."
        cost = _cost(d, p, [("ideas", d.rules.technology_ideas)], "A technology")
        if cost or words[2:] != ["face-down"]:
            return cost
        return (
            f"{d.technologies[arg].name} goes face down anyway (its pillars are not there): "
            f"`technology {arg}`; `face-down` is the choice when it could go face up."
        )
    if verb in ("tax", "tariff"):
        return _tax(d, s, verb, arg)
    if verb == "military":
        if s.turn_recruits >= recruit_limit(d, p) and p.money >= d.rules.move_money:
            return (
                f"This turn's {recruit_limit(d, p)} recruits are made and no unit can still move "
                "(each moves once per turn)."
            )
        return (
            f"A military action needs {d.rules.recruit_money} money and a city to recruit in, or a unit and "
            f"{d.rules.move_money} money to move; you have {p.money} money."
        )
    if verb == "government":
        return _government(d, s, p, arg)
    if verb == "claim":
        return _claim(d, s, seat, arg)
    if verb == "flip":
        if arg not in p.hidden:
            return f"{arg!r} is not one of your face-down technologies."
        return _pillars(d.technologies[arg].requires, board.symbols(d, p), f"{d.technologies[arg].name}")
    if verb == "refresh":
        if not p.government:
            return "Only a player with a government may flip it to clear an offer."
        if p.government in s.gov_flipped:
            return f"The arrow side of {d.governments[p.government].name} is used: once per game per tile."
        return f"Offers to clear: {', '.join(OFFERS)} (one with cards in it)."
    if verb == "peek":
        if not p.government or not d.governments[p.government].peek:
            return "Only a Republic looks at the top card of a deck."
        if s.peeked:
            return "The Republic looks at one deck's top card per turn, and it has done so."
        if s.stage != "main":
            return "The Republic looks before taking its action, not after."
        return f"Decks: {', '.join(OFFERS)} (one with cards left)."
    if verb == "spend":
        if s.pay_by_choice:
            return "You have chosen to say how money pays this action's cost; now take the action."
        return (
            "`spend money` lets you pay part of a cost in money at 2:1 though you hold the currency; "
            "no action on offer now can be paid more than one way."
        )
    if verb == "pay":
        return "A cost is paid when you take the action; `spend money` before it lets you say how."
    if verb == "convert":
        if p.leader != "magistrate":
            return "Only the Magistrate converts population into currency."
        if "convert" in p.used:
            return "The Magistrate's conversion is once per game and it is used."
        return "Convert into food, stone, ideas or money, with at least 1 population."
    if verb == "seize":
        if p.leader != "priestess":
            return "Only the Priestess may take an opponent's city."
        if "seize" in p.used:
            return "The Priestess's city is once per game and it is taken."
        return "The Priestess may take a city only from an opponent with 4 or more cities."
    return None


def _cost(d: Data, p: Player, costs: Sequence[Cost], what: str, population: int = 0) -> str | None:
    if economy.affordable(d, p, costs, population):
        return None
    need = " + ".join(f"{amt} {cur}" for cur, amt in costs if amt) or "nothing"
    if population:
        need += f" + {population} population"
    return (
        f"{what} costs {need} (money pays food, stone or ideas at 2:1, never population); "
        f"you have {p.food} food, {p.stone} stone, {p.ideas} ideas, {p.money} money, "
        f"{p.population} population."
    )


def _pillars(need: Mapping[str, int], have: Counter[str], what: str) -> str | None:
    lack = [f"{v - have[k]} more {k}" for k, v in need.items() if have[k] < v]
    return (
        f"{what} needs {', '.join(f'{k} ×{v}' for k, v in need.items())}; you lack {', '.join(lack)}." if lack else None
    )


def _population(d: Data, s: State, p: Player, arg: str) -> str | None:
    """Population cards are named by what they give and cost (`population 2-for-10-food`)."""
    card = population_card(d, s, arg)
    if card == FALLBACK:
        r = d.rules
        return _cost(d, p, [("food", r.population_fallback_food)], f"{r.population_fallback_gain} population")
    if card:
        return _cost(d, p, [("food", d.population_cards[card].food_cost)], "That population card")
    if arg == population_fallback_word(d):
        return f"`population {arg}` is the purchase for when every population card is used; take a card on offer."
    offer = [f"`population {population_word(d.population_cards[c])}`" for c in s.pop_offer if c]
    return "Population cards are named by the population they give and the food they cost; " + (
        f"on offer: {', '.join(offer)}." if offer else "none is on offer."
    )


def _build(d: Data, s: State, seat: int, arg: str) -> str | None:
    if arg not in s.build_offer:
        return f"{arg!r} is not among the build cards on offer."
    card = d.builds[arg]
    p = s.players[seat]
    costs = card.currency_cost
    msg = _cost(d, p, costs, card.name, card.population_cost)
    if msg:
        return msg
    if card.type in ("farm_town", "manufactory_town"):
        return "A town goes on a free non-port hex next to one of your cities, and none is left."
    if card.type == "port_city":
        return "A port city needs a free port hex in a region in play, and none is left."
    return "A city needs a free non-port hex in a region in play, and none is left."


def _wonder(d: Data, s: State, seat: int, arg: str) -> str | None:
    if arg not in d.wonders:
        return None
    if arg not in s.wonders:
        return f"{d.wonders[arg].name} is already built."
    p = s.players[seat]
    msg = _cost(d, p, wonder_cost(d, p), f"Your wonder number {len(p.wonders) + 1}")
    if msg:
        return msg
    if not board.city_regions(d, s, seat):
        return "A wonder goes in a region where you have a city, and you have none."
    rule = d.wonders[arg].placement
    if rule == "port":
        return f"{d.wonders[arg].name} must stand on a free port hex in a region with your city; there is none."
    if rule == "three_cities":
        return f"{d.wonders[arg].name} needs a region with 3 or more cities (anyone's) where you have a city."
    return "No free hex is left in the regions where you have a city."


def _tax(d: Data, s: State, verb: str, arg: str) -> str | None:
    """Tax & tariff cards are named by their multiplier and unrest (`tax 3-per-population-2-unrest`)."""
    if tax_card(d, s, verb, arg):
        return None
    if arg == tax_fallback_word(d, verb):
        return (
            f"`{verb} {arg}` is the empty-deck formula, only once every tax & tariff card is used; "
            "take a card on offer."
        )
    other = "tariff" if verb == "tax" else "tax"
    if tax_card(d, s, other, arg):
        return f"That is a {other} card: `{other} {arg}`."
    offer = [f"`{d.tax_cards[c].kind} {tax_word(d.tax_cards[c])}`" for c in s.tax_offer if c]
    return (
        "Tax & tariff cards are named by the money they pay per population or trade good and the unrest "
        "they bring; " + (f"on offer: {', '.join(offer)}." if offer else "none is on offer.")
    )


def _government(d: Data, s: State, p: Player, arg: str) -> str | None:
    if arg not in d.governments:
        return None
    g = d.governments[arg]
    if p.government == arg:
        return f"You already are a {g.name}."
    if arg not in s.governments:
        return f"{g.name} is not on the board."
    return _pillars(g.requires, board.symbols(d, p), g.name) or _cost(d, p, [("ideas", g.cost_ideas)], g.name)


def _claim(d: Data, s: State, seat: int, arg: str) -> str | None:
    p = s.players[seat]
    if arg in d.golden_ages:
        ga = d.golden_ages[arg]
        if arg not in s.golden_ages:
            return f"The {ga.name} golden age is already taken."
        have = board.symbols(d, p)[ga.pillar]
        return f"The {ga.name} golden age needs {ga.symbols} {ga.pillar} symbols; you have {have}."
    if arg in d.achievements:
        a = d.achievements[arg]
        if arg not in s.achievements_in_play:
            return f"{a.name} is not among this game's 9 achievements."
        if arg not in s.achievements:
            return f"The {a.name} achievement is already taken."
        if not achievement_met(d, s, seat, arg, board.symbols(d, p)):
            need = a.threshold_2_3_players if len(s.players) <= 3 else a.threshold
            if a.measure == "tech_cards":  # N29
                return (
                    f"{a.name} needs {need} technology cards face up (a face-down card counts once it "
                    f"flips); you have {len(p.techs)}."
                )
            if a.measure == "regions_controlled":  # N22
                return (
                    f"{a.name} needs {need} regions where you have more influence than anyone else "
                    "(a tie for first does not count); you do not have that yet."
                )
            return f"{a.name} needs {need} {a.measure.replace('_', ' ')}; you do not have that yet."
    return None


def _hex(d: Data, s: State, h: str, data: Mapping[str, Any]) -> str | None:
    if h not in d.hexes:
        return f"There is no hex {h!r}; hexes are named <region>-<n>."
    x = d.hexes[h]
    if x.region not in s.regions:
        return f"{h} is in {d.regions[x.region].name}, which is out of play with {len(s.players)} players."
    if h in s.board:
        return f"{h} is taken."
    if data.get("region") and x.region != data["region"]:
        return f"You chose {d.regions[data['region']].name}; pick one of its hexes."
    purpose = data.get("purpose", "")
    if purpose in ("city", "start-city", "free-city") and x.kind == "port":
        return "Regular cities may not be built on port hexes (port cities only)."
    if purpose == "port" and x.kind != "port":
        return "A port city goes on a port hex (with a ship)."
    if purpose in ("farm", "manufactory", "start-town"):
        return "A town goes on a free non-port hex next to one of your cities."
    if purpose == "wonder":
        return (
            "The wonder goes on a free hex in a region where you have a city (ports only for Colossus and Lighthouse)."
        )
    return None
