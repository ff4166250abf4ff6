"""How the game names things to players: lists and counts, and the action words of the cards
that have no printed name.

Population and tax & tariff cards are known by what they do, not by a name, so their
action words say it (issue 13, "cards by code"): `population 2-for-10-food` (+2 population
for 10 food), `tax 3-per-population-2-unrest`, `tariff 2-per-trade-good-1-unrest`. The
words are made from the card's own numbers, so they are the same for every player and
every turn; two cards with the same numbers are the same choice, and the first one on
offer is taken. Once a deck is used up, its empty-deck purchase reads the same way
(`population 2-for-15-food`, `tax 2-per-population-no-unrest`).
"""

from __future__ import annotations

from .data import Achievement, Data, PopulationCard, TaxCard
from .state import State

FALLBACK = "fallback"


def hex_name(d: Data, hex_id: str) -> str:
    """ "Assyria 12": a hex by its region's name and the number the board draws on it (`assyria-12`)."""
    return f"{d.regions[d.hexes[hex_id].region].name} {hex_id.rsplit('-', 1)[-1]}"


def production_name(track: str) -> str:
    """ "idea production", not "ideas production": the track's name before "production"."""
    return "idea" if track == "ideas" else track


# ---- civilization achievements
#: What an achievement's measure reads as after its threshold ("15 idea production").
MEASURE_WORDS = {
    "projects_and_wonders": "projects and/or wonders",
    "regions_controlled": "regions controlled (more influence than anyone; a tie controls none)",
    "cities": "cities (port cities too)",
    "pillar_kinds": "kinds of pillar symbol (all of them)",
    "tech_cards": "technologies played face up (a face-down card counts once flipped)",
    "idea_production": "idea production",
}


def achievement_need(a: Achievement, players: int) -> str:
    """ "15 technologies played face up (…)": what achievement `a` asks at this player count. Scientific
    counts played technologies only (N29), which surprises players, so its words say so."""
    need = a.threshold_2_3_players if players <= 3 else a.threshold
    return f"{need} {MEASURE_WORDS.get(a.measure, a.measure.replace('_', ' '))}"


# ---- population cards
def population_word(card: PopulationCard) -> str:
    return f"{card.population}-for-{card.food_cost}-food"


def population_fallback_word(d: Data) -> str:
    return f"{d.rules.population_fallback_gain}-for-{d.rules.population_fallback_food}-food"


def population_card(d: Data, s: State, word: str) -> str:
    """The population card (id) or FALLBACK an action's word names; "" if none."""
    for c in s.pop_offer:
        if c and population_word(d.population_cards[c]) == word:
            return c
    if not any(s.pop_offer) and not s.pop_deck and word == population_fallback_word(d):
        return FALLBACK
    return ""


# ---- tax & tariff cards
def _tax_word(kind: str, multiplier: int, unrest: int) -> str:
    per = "population" if kind == "tax" else "trade-good"
    return f"{multiplier}-per-{per}-" + (f"{unrest}-unrest" if unrest else "no-unrest")


def tax_word(card: TaxCard) -> str:
    return _tax_word(card.kind, card.multiplier, card.unrest)


def tax_fallback_word(d: Data, kind: str) -> str:
    r = d.rules
    mult = r.tax_fallback_per_population if kind == "tax" else r.tariff_fallback_per_trade_good
    return _tax_word(kind, mult, r.fallback_unrest)


def tax_card(d: Data, s: State, kind: str, word: str) -> str:
    """The tax or tariff card (id) or FALLBACK that `<kind> <word>` names; "" if none."""
    for c in s.tax_offer:
        if c and d.tax_cards[c].kind == kind and tax_word(d.tax_cards[c]) == word:
            return c
    if not any(s.tax_offer) and not s.tax_deck and word == tax_fallback_word(d, kind):
        return FALLBACK
    return ""
