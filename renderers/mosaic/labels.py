"""Words for Mosaic views: abbreviations (trade goods, pillars, wonders), phase and decision
names, the header, and the cards, offers and final tally in words (the board's offer panel,
the private image and the alt text all use them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mosaic.data import load
from engine.mosaic.words import population_fallback_word, population_word, tax_fallback_word, tax_word
from renderers.common import Header, seat_names, view_header

GOOD_ABBR = {
    "grain": "Gr",
    "stone": "St",
    "wine": "Wi",
    "olive-oil": "Ol",
    "timber": "Ti",
    "copper": "Cu",
    "iron": "Fe",
    "gold": "Au",
    "marble": "Ma",
    "papyrus": "Pa",
    "purple-dye": "Pu",
    "incense": "In",
    "fish": "Fi",
}
PILLAR_ABBR = {
    "science": "Sci",
    "economy": "Eco",
    "food": "Food",
    "population": "Pop",
    "building": "Bld",
    "culture": "Cul",
    "government": "Gov",
    "military": "Mil",
    "urbanization": "Urb",
}
WONDER_ABBR = {
    "colosseum-of-rome": "Col",
    "hanging-gardens": "HGa",
    "stonehenge": "Stn",
    "colossus-of-rhodes": "Rho",
    "great-library": "Lib",
    "lighthouse-of-alexandria": "Lgt",
    "temple-of-artemis": "Tem",
    "great-pyramid": "Pyr",
    "sphinx": "Sph",
}
PENDING = {
    "place": "choosing a hex",
    "pay": "paying",
    "city-state": "City State's scoring region",
    "military": "military action",
    "unit": "placing free units",
    "eliminate": "General's removal",
    "library": "Great Library symbols",
    "art": "Art golden age",
    "production": "leader production",
    "seize": "Priestess takes a city",
}
PHASES = {
    "leaders": "Leader draft",
    "draft": "Starting technology draft",
    "setup": "Setup: cities and leaders",
    "play": "Play",
    "over": "Game over",
}


def header_for(view: Mapping[str, Any], subtitle: str = "") -> Header:
    names = seat_names(view)
    status = PHASES.get(view["phase"], view["phase"])
    if view["phase"] == "play":
        status += f" · round {view['turn'] // max(1, len(view['players'])) + 1}"
        if view["end"]["stage"]:
            status += " · final rounds" if view["end"]["stage"] == "rounds" else " · Scribe's extra actions"
    if view.get("winners"):
        status += " · winner: " + ", ".join(names[w] for w in view["winners"])
    pend = view.get("pending")
    if pend:
        status += " · " + PENDING.get(pend["kind"], pend["kind"])
    return view_header(view, "Mosaic", status, subtitle, names=names)


def build_text(card) -> str:
    """A build card in a few words: type, symbols, cost and what it gives (the offer panel)."""
    kind = card.type.replace("_", " ")
    parts = [f"{card.name} ({kind})", "gives " + " ".join(PILLAR_ABBR[q] for q in card.provides)]
    gains = [f"+{v} {k}" for k, v in card.gain.items()] + [f"+{v} {k} prod" for k, v in card.production.items()]
    if card.type == "project":
        gains.append(f"end: 1 VP per {PILLAR_ABBR[card.vp_pillar]} symbol")
    if card.type == "manufactory_town":
        gains.append("5 VP with " + " ".join(GOOD_ABBR.get(g, g) for g in card.trade_goods))
    cost = " ".join(f"{v} {k[:3] if k == 'population' else k}" for k, v in card.cost.items()) or "free"
    return f"{parts[0]}: {cost}; {parts[1]}" + ("; " + ", ".join(gains) if gains else "")


def tax_text(card) -> str:
    """A tax & tariff card as the money it gives (its multiplier in the board's formula) and its unrest."""
    if card.kind == "tax":
        return f"{card.multiplier}×population + Gov symbols + tax prod; +{card.unrest} unrest"
    return f"{card.multiplier}×unique goods + cities + tariff prod; +{card.unrest} unrest"


def offer_items(view: Mapping[str, Any]) -> tuple[list, list]:
    """The two columns of the offers panel: (text, deck count or None for a card line)."""
    d = load()
    r = d.rules
    off = view["offers"]
    decks = view["decks"]
    left = [(f"Technology offer ({r.technology_ideas} ideas)", decks["technology"])]
    for t in off["technology"]:
        if t:
            card = d.technologies[t]
            need = " ".join(f"{PILLAR_ABBR[k]}{v}" for k, v in card.requires.items()) or "—"
            left.append(
                (
                    f"{card.name}: needs {need}; gives {' '.join(PILLAR_ABBR[q] for q in card.provides)}. {card.text}",
                    None,
                )
            )
    left.append(("Build offer", decks["build"]))
    for b in off["build"]:
        if b:
            left.append((build_text(d.builds[b]), None))
    right = [("Population offer", decks["population"])]
    for pc in off["population"]:
        if pc:
            pop = d.population_cards[pc]
            right.append(
                (f"population {population_word(pop)}: +{pop.population} population for {pop.food_cost} food", None)
            )
    if not any(off["population"]) and not decks["population"]:
        right.append(
            (
                f"All cards used: population {population_fallback_word(d)}: +{r.population_fallback_gain} "
                f"population for {r.population_fallback_food} food",
                None,
            )
        )
    right.append(("Tax & tariff offer", decks["tax"]))
    for tc in off["tax"]:
        if tc:
            tax = d.tax_cards[tc]
            right.append((f"{tax.kind} {tax_word(tax)}: {tax_text(tax)}", None))
    if not any(off["tax"]) and not decks["tax"]:
        right.append(
            (
                f"All cards used: tax {tax_fallback_word(d, 'tax')}: {r.tax_fallback_per_population}×population"
                f" + Gov symbols + tax prod; tariff {tax_fallback_word(d, 'tariff')}: "
                f"{r.tariff_fallback_per_trade_good}×unique goods + cities + tariff prod"
                + (f"; unrest +{r.fallback_unrest}" if r.fallback_unrest else "; no unrest"),
                None,
            )
        )
    tiles = view["tiles"]
    if view.get("leaders_left"):
        right.append(("Leaders left: " + ", ".join(d.leaders[x].name for x in view["leaders_left"]), None))
    right.append((f"Holding area: {view['holding']} money · scoring cards {view['scorings_revealed']}/3", None))
    right.append(("Wonders left: " + (", ".join(d.wonders[w].name for w in tiles["wonders"]) or "none"), None))
    right.append(
        ("Golden ages left: " + (", ".join(d.golden_ages[g].name for g in tiles["golden_ages"]) or "none"), None)
    )
    right.append(
        ("Achievements left: " + (", ".join(d.achievements[a].name for a in tiles["achievements"]) or "none"), None)
    )
    right += [(note, None) for note in achievement_notes(view)]
    right.append(
        (
            "Governments: "
            + (
                ", ".join(
                    d.governments[g].name + ("*" if g in tiles["governments_flipped"] else "")
                    for g in tiles["governments"]
                )
                or "none"
            ),
            None,
        )
    )
    return left, right


def achievement_notes(view: Mapping[str, Any]) -> list[str]:
    """What a player would not guess about an achievement still on the table: Scientific counts
    played technologies only (N29)."""
    d = load()
    needs = view["tiles"].get("achievement_needs", {})
    return [
        f"{d.achievements[a].name}: {needs[a]}."
        for a in view["tiles"]["achievements"]
        if d.achievements[a].measure == "tech_cards" and a in needs
    ]


def final_rows(view: Mapping[str, Any]) -> list[str]:
    """The lines of the final tally (rulebook, Scoring), in the engine's order; empty before game over."""
    if view["phase"] != "over" or not view["players"] or "score_lines" not in view["players"][0]:
        return []
    return list(view["players"][0]["score_lines"])


def card_text(card: str) -> str:
    """A deck card in words (the Republic's look at the deck tops)."""
    d = load()
    if not card:
        return "empty"
    if card == "scoring":
        return "Empire Scoring card"
    if card in d.technologies:
        return d.technologies[card].name + " (technology)"
    if card in d.builds:
        return f"{d.builds[card].name} ({d.builds[card].type.replace('_', ' ')})"
    if card in d.population_cards:
        pc = d.population_cards[card]
        return f"+{pc.population} population for {pc.food_cost} food"
    if card in d.tax_cards:
        return f"{d.tax_cards[card].kind}: {tax_text(d.tax_cards[card])}"
    return card


def leader_text(leader) -> str:
    """A leader's benefit and its starting bonus (Setup: "take the starting benefits")."""
    words = {
        "population": "+{} population",
        "military_units": "{} military unit(s)",
        "random_tech": "{} random technology",
        "farm_town": "{} farm town",
        "manufactory_town": "{} manufactory town",
    }
    start = ", ".join(
        words.get(k, "{} " + k).format(v).replace("1 military unit(s)", "1 military unit").replace("(s)", "s")
        for k, v in leader.start.items()
    )
    return f"{leader.name} — {leader.text}" + (f" Start: {start}." if start else "")
