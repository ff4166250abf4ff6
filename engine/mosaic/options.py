"""What a seat may do now: main actions, free actions, claims, and their checks.

Only actions that can be completed are offered (costs affordable with the 2:1
money substitution, a hex available), so a chosen action never dead-ends.
"""
from __future__ import annotations

from . import board, economy, scoring
from .data import Data
from .decks import OFFERS
from .state import Player, State
from .words import population_fallback_word, population_word, tax_fallback_word, tax_word


def achievement_met(d: Data, s: State, seat: int, aid: str, sym, cache: dict | None = None) -> bool:
    a = d.achievements[aid]
    p = s.players[seat]
    need = a.threshold_2_3_players if scoring.small_game(s) else a.threshold
    m = a.measure
    if m == "population":
        v = p.population
    elif m == "projects_and_wonders":
        v = len(p.wonders) + sum(1 for b in p.builds if d.builds[b].type == "project")
    elif m == "port_cities":
        v = len(board.pieces(s, seat, "p"))
    elif m == "regions_controlled":
        present = {d.hexes[h].region for h, code in s.board.items() if board.owner(code) == seat}
        present |= {r for r, k in p.units.items() if k}
        if len(present) < need:  # cannot control more regions than it is present in
            return False
        cache = cache if cache is not None else {}
        if "inf" not in cache:
            cache["inf"] = board.influence(d, s)
        v = len(board.controlled(d, s, seat, cache["inf"]))
    elif m == "cities":
        v = len(board.cities_of(s, seat))
    elif m == "military_units":
        v = board.unit_total(p)
    elif m == "unique_trade_goods":
        v = board.unique_goods(p)
    elif m == "money":
        v = p.money
    elif m == "pillar_kinds":
        v = board.symbol_kinds(sym)
    elif m == "tech_cards":
        v = len(p.techs)
    elif m.endswith("_production"):
        track = m[: -len("_production")]
        v = economy.production(d, p, "ideas" if track == "idea" else track)
    else:
        raise ValueError(m)
    return v >= need


def claims(d: Data, s: State, seat: int, sym=None) -> list[str]:
    """Golden ages and achievements the seat qualifies for now (claimed free, any number, on its turn)."""
    p = s.players[seat]
    sym = sym if sym is not None else board.symbols(d, p)
    out = []
    for g in s.golden_ages:
        ga = d.golden_ages[g]
        if sym[ga.pillar] >= ga.symbols:
            out.append(f"claim {g}")
    cache: dict = {}
    for a in s.achievements:
        if achievement_met(d, s, seat, a, sym, cache):
            out.append(f"claim {a}")
    return out


def free_actions(d: Data, s: State, seat: int) -> list[str]:
    """Not the turn's action: claims, the government refresh, the Republic's look, once-per-game
    leader powers. (Face-down technologies flip by themselves: N49.)"""
    p = s.players[seat]
    out = claims(d, s, seat)
    if p.government and p.government not in s.gov_flipped:
        for name, (_deck, offer) in OFFERS.items():
            if any(getattr(s, offer)):
                out.append(f"refresh {name}")
    if (p.government and d.governments[p.government].peek and s.stage == "main" and not s.peeked
            and s.phase == "play"):
        out += [f"peek {name}" for name, (deck, _offer) in OFFERS.items() if getattr(s, deck)]
    if p.leader == "magistrate" and "convert" not in p.used and p.population >= 1:
        out += [f"convert {c}" for c in ("food", "stone", "ideas", "money")]
    if p.leader == "priestess" and "seize" not in p.used:
        for other in range(len(s.players)):
            if other != seat:
                cities = board.cities_of(s, other)
                if len(cities) >= 4:
                    out.append(f"seize {other}")
    return out


def wonder_cost(d: Data, p: Player) -> list[list]:
    r = d.rules
    k = len(p.wonders)
    return [["stone", r.wonder_stone + k * r.wonder_step_stone], ["food", r.wonder_food + k * r.wonder_step_food]]


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


def main_actions(d: Data, s: State, seat: int) -> list[str]:
    r = d.rules
    p = s.players[seat]
    out = ["work ideas", "work food", "work stone"]
    # Population
    cards = [c for c in s.pop_offer if c]
    if cards:
        for c in cards:
            a = f"population {population_word(d.population_cards[c])}"
            if a not in out and economy.affordable(d, p, [["food", d.population_cards[c].food_cost]]):
                out.append(a)
    elif not s.pop_deck and economy.affordable(d, p, [["food", r.population_fallback_food]]):
        out.append(f"population {population_fallback_word(d)}")
    # Build
    spots: dict[str, bool] = {}
    for c in s.build_offer:
        if c and can_build(d, s, seat, c, spots):
            out.append(f"build {c}")
    # Wonder
    if s.wonders and economy.affordable(d, p, wonder_cost(d, p)):
        for w in s.wonders:
            rule = "wonder-" + d.wonders[w].placement
            if rule not in spots:
                spots[rule] = bool(board.place_candidates(d, s, seat, "wonder", w))
            if spots[rule]:
                out.append(f"wonder {w}")
    # Technology
    if economy.affordable(d, p, [["ideas", r.technology_ideas]]):
        out += [f"technology {t}" for t in s.tech_offer if t]
    # Tax & Tariff
    taxes = [c for c in s.tax_offer if c]
    if taxes:
        for c in taxes:
            a = f"{d.tax_cards[c].kind} {tax_word(d.tax_cards[c])}"
            if a not in out:
                out.append(a)
    elif not s.tax_deck:
        out += [f"tax {tax_fallback_word(d, 'tax')}", f"tariff {tax_fallback_word(d, 'tariff')}"]
    # Military
    if can_recruit(d, s, seat) or can_move(d, s, p):
        out.append("military")
    # Government
    sym = board.symbols(d, p)
    for g in s.governments:
        gov = d.governments[g]
        if board.meets(gov.requires, sym) and economy.affordable(d, p, [["ideas", gov.cost_ideas]]):
            out.append(f"government {g}")
    return out


def build_purpose(kind: str) -> str:
    return {"city": "city", "port_city": "port", "farm_town": "farm", "manufactory_town": "manufactory"}.get(kind, "")


def can_build(d: Data, s: State, seat: int, c: str, spots: dict | None = None) -> bool:
    card = d.builds[c]
    p = s.players[seat]
    costs = [[k, v] for k, v in card.cost.items() if k != "population"]
    if not economy.affordable(d, p, costs, card.cost.get("population", 0)):
        return False
    purpose = build_purpose(card.type)
    if not purpose:
        return True
    spots = spots if spots is not None else {}
    if purpose not in spots:
        spots[purpose] = board.any_candidate(d, s, seat, purpose)
    return spots[purpose]


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
