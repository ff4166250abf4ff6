"""Words for Rise of Empires views: the colours' letters, income symbols, row and phase names, the header."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import Header, view_header

LETTERS = {"white": "W", "red": "R", "blue": "B", "green": "G", "yellow": "Y"}
INCOME_WORD = {"food": "food", "gold": "gold", "resources": "discs", "cubes": "cubes"}
ROW_TITLES = {"progress": "Progress", "territory": "Territory", "city": "City", "empire": "Empire", "trade": "Trade"}
PHASES = {
    "actions": "Actions",
    "food": "Food",
    "income": "Income",
    "victory points": "Victory points",
    "era end": "End of the era",
    "turn order": "Turn order",
    "over": "Game over",
}


def header_for(view: Mapping[str, Any], subtitle: str = "") -> Header:
    players = view.get("players") or []
    names = {p["seat"]: f"{p['name']} ({p['colour']})" for p in players}
    status = (
        f"Game turn {view.get('turn', 1)} of 6 · Era {view.get('era_name', 'I')} {view.get('half', 'A')}"
        f" · {PHASES.get(view.get('phase', ''), view.get('phase', ''))}"
    )
    if view.get("doing"):
        status += f" · {view['doing']}"
    winners = view.get("winners") or []
    if view.get("phase") == "over" and winners:
        status += " · Winner: " + ", ".join(names.get(w, str(w)) for w in winners)
    last = list(view.get("last_move") or ([view["last"]] if view.get("last") else []))
    return view_header(view, "Rise of Empires", status, subtitle, names=names, last_move=last)
