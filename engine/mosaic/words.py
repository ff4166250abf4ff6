"""How the game names things to players: lists and counts, and the action words of the cards
that have no printed name.

Population and tax & tariff cards are known by what they do, not by a name, so their
action words say it (issue 13, "cards by code"): `population 2-for-10-food` (+2 population
for 10 food), `tax 3-per-population-2-unrest`, `tariff 2-per-trade-good-1-unrest`. The
words are made from the card's own numbers, so they are the same for every player and
every turn. Two cards with the same numbers lying on offer together stay two choices (issue
49): the left one is `population 2-for-10-food`, the right one `population 2-for-10-food
right`, since the card drawn to replace the one taken lies where it lay, and the order of the
offer is the order a government's arrow side puts the cards under the deck (N52). Once a deck
is used up, its empty-deck purchase reads the same way (`population 2-for-15-food`,
`tax 2-per-population-no-unrest`).
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


#: The word after a card's numbers that takes the right one of two alike cards on offer.
RIGHT = "right"


def alike_on_offer(words: list[str]) -> list[int]:
    """For each card on offer (by its action words, "" for an empty slot), 1 when an alike card lies
    to its left (it is the `right` one), else 0."""
    return [1 if w and w in words[:i] else 0 for i, w in enumerate(words)]


def _on_offer(offer: list[str], words: list[str], word: str, which: str) -> str:
    """The card of `offer` whose action words are `word`: the leftmost, or with `which` RIGHT the
    one with an alike card to its left; "" if none."""
    right = alike_on_offer(words)
    for c, w, r in zip(offer, words, right, strict=True):
        if c and w == word and r == (1 if which == RIGHT else 0):
            return c
    return ""


def population_card(d: Data, s: State, word: str, which: str = "") -> str:
    """The population card (id) or FALLBACK an action's words name (`which`: "" or RIGHT); "" if none."""
    words = [population_word(d.population_cards[c]) if c else "" for c in s.pop_offer]
    card = _on_offer(s.pop_offer, words, word, which)
    if card or which:
        return card
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


def tax_card(d: Data, s: State, kind: str, word: str, which: str = "") -> str:
    """The tax or tariff card (id) or FALLBACK that `<kind> <word> [right]` names; "" if none."""
    words = [f"{d.tax_cards[c].kind} {tax_word(d.tax_cards[c])}" if c else "" for c in s.tax_offer]
    card = _on_offer(s.tax_offer, words, f"{kind} {word}", which)
    if card or which:
        return card
    if not any(s.tax_offer) and not s.tax_deck and word == tax_fallback_word(d, kind):
        return FALLBACK
    return ""
