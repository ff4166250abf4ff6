"""Words and glyphs for Rising Cultures views: phase names, the header, short effect labels.

The engine's view carries effect texts (the bottom halves of cards, the board's
progress unlocks, the province texts); the images need them as one icon and a
few characters. These parsers only shorten what the view says; when a text is
not recognised the glyph falls back to a plain label, never to a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from renderers.common import Header, seat_names, view_header

MILITARY = ("sword", "horse", "shield")
RESOURCES = ("wood", "brick", "stone", "gold")

PHASES = {
    "civ": "Setup: choose civilizations",
    "opening": "Setup: starting resources",
    "draw": "Phase I–II: income, draw, swaps",
    "play": "Phase II: play cards",
    "province": "Phase III: province",
    "cost": "Phase III: province cost",
    "marker": "Phase III: progress marker",
    "nile": "Phase III: Nile coins",
    "over": "Game over",
}
PENDING = {
    "compete": "Phase III: compete for the province?",
    "maghreb": "Phase III: Maghreb choice",
    "keep": "Phase III: keep the military card?",
    "nile": "Phase III: Nile coins",
    "cover": "Phase II: where the new leader goes",
    "progress": "Phase II: move up a progress level?",
    "develop": "Phase II: develop a Nile card",
}


def status_line(view: Mapping[str, Any]) -> str:
    """'Round 3 of 7 · Phase II: play cards' (with the open sub-decision when there is one)."""
    rnd, rounds = view.get("round", 0), view.get("rounds", 7)
    phase = view.get("phase", "")
    pend = view.get("pending") or None
    label = PENDING.get(pend.get("kind", ""), "") if pend else ""
    label = label or PHASES.get(phase, phase.replace("_", " ").capitalize())
    parts = []
    if view.get("match"):
        parts.append(f"Game {view.get('game_no', 1)} of 2")
    if phase == "over":
        parts.append("Game over")
    elif rnd:
        parts.append(f"Round {rnd} of {rounds}")
    if phase != "over":
        parts.append(label)
    return " · ".join(parts)


def header_for(view: Mapping[str, Any], subtitle: str = "") -> Header:
    names = seat_names(view)
    status = status_line(view)
    winners = view.get("winners") or []
    if view.get("phase") == "over" and winners:
        scores = view.get("scores") or []
        status += " · Winner: " + ", ".join(
            f"{names.get(w, w)} ({scores[w] if w < len(scores) else '?'} VP)" for w in winners
        )
    return view_header(view, view.get("title", "Rising Cultures"), status, subtitle, names=names)


def effect_glyphs(text: str) -> tuple[str, str]:
    """(icon name, short label) for one effect text, e.g. ('income', '+1')."""
    t = text.lower()
    m = re.search(r"income \+(\d+)", t)
    if m:
        return "income", f"+{m.group(1)}"
    if "golden age" in t:
        return "golden-age", "flip"
    if "covered leaders" in t:
        return "crown", "cover"
    if "instead of 2" in t or "missing resource" in t:
        return "coin", "-1"
    if "swap" in t:
        return "swap", "free"
    if "nile" in t:
        return "river", "Nile"
    if "extra card" in t or "draw 1 extra" in t:
        return "deck", "+1"
    if "coin limit" in t:
        m = re.search(r"by (\d+)", t)
        return "coin", f"lim+{m.group(1) if m else ''}"
    for sym in MILITARY:
        if f"+1 {sym}" in t or re.search(rf"\+(\d+) {sym}", t):
            m = re.search(rf"\+(\d+) {sym}", t)
            return sym, f"+{m.group(1) if m else 1}"
    for res in RESOURCES:
        m = re.search(rf"(\d+) {res} available", t)
        if m:
            return res, f"+{m.group(1)}"
    m = re.search(r"take (\d+) coin", t)
    if m:
        return "coin", f"+{m.group(1)}"
    m = re.match(r"game end: (\d+) vp\.?$", t)
    if m:
        return "vp", m.group(1)
    if "vp per" in t:
        return "vp", "per"
    if "ties" in t:
        return "province", "ties"
    if "do not discard" in t:
        return "shield", "keep"
    if "progress" in t:
        return "cog", "+1"
    return "", text[:8]


def province_effect(text: str) -> str:
    """The province's effect in a few words: '+1 wood always', '+4 coins', 'free swap'..."""
    t = text.lower()
    m = re.search(r"permanent effect: you have (\d+) (\w+) available", t)
    if m:
        return f"+{m.group(1)} {m.group(2)} always"
    m = re.search(r"immediately receive (\d+) coins?", t)
    if m:
        return f"+{m.group(1)} coin{'s' if m.group(1) != '1' else ''} once"
    if "swap" in t:
        return "1 free swap"
    if "do not discard" in t:
        return "keep military"
    if "discard pile in your progress" in t:
        return "+1 progress"
    if "for each pair" in t:
        return "VP per pair"
    if "golden age" in t:
        return "+3 if Golden"
    if "for each coin" in t:
        return "VP per coin"
    if "progress marker" in t:
        return "+2 if marker"
    return ""


def symbols_text(symbols) -> str:
    return " + ".join(symbols) if symbols else "no symbols"


def card_line(card: Mapping[str, Any]) -> str:
    """'Persepolis (building, 7 VP)' for alt text."""
    return f"{card.get('name', '?')} ({card.get('kind', 'card')}, {card.get('vp', 0)} VP)"


def amounts(d: Mapping[str, int] | None, keys=RESOURCES + ("coin",)) -> str:
    """'2 wood, 1 gold' (only the non-zero ones; 'nothing' if none)."""
    d = d or {}
    parts = [f"{d[k]} {k}" for k in keys if d.get(k)]
    return ", ".join(parts) if parts else "nothing"
