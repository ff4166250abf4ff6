"""Words for Cradle of Civilization views: the status line, the header, Region and Area short
names, a player's score-panel lines and an Army chip's label."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cradle.data import components
from renderers.common import Header, view_header

C = components()

SHORT_NAMES = {"North Zagros": "N. Zagros", "South Zagros": "S. Zagros"}
STATUS_LETTER = {"presence": "P", "control": "C", "domination": "D"}
REGION_SHORT = {
    "aegean-islands": "Aegean",
    "anatolia": "Anatolia",
    "arabian-desert": "Arabia",
    "caucasus": "Caucasus",
    "egypt": "Egypt",
    "greece": "Greece",
    "iran": "Iran",
    "levant": "Levant",
    "mesopotamia": "Mesopot.",
}


def status_line(view: Mapping[str, Any]) -> str:
    phase = view.get("phase")
    rnd = view.get("round")
    if phase == "over":
        return "Game over"
    if phase == "allocate":
        alloc = view.get("allocation") or {}
        return f"Civilization allocation: {alloc.get('cards_left', 0)} cards left in the deck"
    if phase == "events":
        ev = view.get("event") or {}
        civ = C.civs.get(ev.get("civ", ""))
        return f"End of Epoch events: {ev.get('kind', '')} in {civ.name if civ else '?'} ({ev.get('left', 0)} left)"
    if rnd:
        extra = []
        if rnd.get("bonus"):
            result = (rnd.get("bonus_result") or "").split(":")[0].rstrip(".")
            extra.append(f"bonus {rnd['bonus']}: {result}" if result else f"bonus {rnd['bonus']}")
        if rnd.get("battle"):
            extra.append(f"battle for {C.areas[rnd['battle']].name}")
        if rnd.get("displacing"):
            extra.append("Armies leaving the Start Area")
        return f"{rnd['name']} · pool {rnd['pool']}" + "".join(f" · {e}" for e in extra)
    return "Strategy Phase"


def header_for(view: Mapping[str, Any], subtitle: str = "") -> Header:
    """The header; a seat's private image names its viewer in the subtitle (private.private_header)."""
    title = f"Cradle · Epoch {view.get('epoch_roman', '?')}: {view.get('epoch_name', '')}"
    # the last move as the view has it: the engine keeps it short (game.last_lines)
    return view_header(view, title, status_line(view), subtitle, unnamed="non-player")


def region_text(regions: Mapping[str, str]) -> str:
    """`Regions: D Arabia · C Egypt, Iran · P Anatolia` — grouped by status, highest first, so
    the letter is written once per group and a wide empire still fits its line."""
    groups = []
    for status in ("domination", "control", "presence"):
        names = [REGION_SHORT.get(r, r) for r, s in sorted(regions.items()) if s == status]
        if names:
            groups.append(f"{STATUS_LETTER[status]} {', '.join(names)}")
    return "Regions: " + (" · ".join(groups) or "-")


def player_lines(view: Mapping[str, Any]) -> list[tuple[int | None, str, str, str]]:
    """(seat, name/score, details) per player, then the non-player civilization."""
    cards = view.get("cards", {})
    rows = []
    current = view.get("epoch")
    for p in view.get("players", []):
        held = []
        for card in cards.get(str(p["seat"]), []):
            alive = [c for c in card["civs"] if not c["gone"]]
            if not alive:
                continue
            mark = "*" if card["civs"][0]["epoch"] == current else ""
            held.append(card["card"] + mark)
        head = f"{p['name']}  {p['vp']} VP"
        armies = f"{p['armies']} Arm{'y' if p['armies'] == 1 else 'ies'}"
        rows.append((p["seat"], head, f"{armies} · {', '.join(held) or 'no cards'}", region_text(p["regions"])))
    if view.get("non_player"):
        held = [card["card"] for card in cards.get("-1", [])]
        rows.append((None, "Non-player", f"{', '.join(held) or 'no cards'}", "scores no VPs"))
    return rows


def summary_line(view: Mapping[str, Any]) -> str:
    """The Epoch Civilization Summary Card (1.5), shown while cards are allocated."""
    parts = []
    for c in view.get("summary", []):
        start = C.areas[c["start_area"]].name if c["start_area"] in C.areas else c["start_area"]
        parts.append(f"{c['id']} {c['name']} ({start}, {c['armies']})")
    return f"Epoch {view.get('epoch_roman', '')} civilizations: " + "; ".join(parts) if parts else ""


def chip_label(info: Mapping[str, Any]) -> str:
    if info.get("raider"):
        return f"R×{info['armies']}"
    civ = C.civs.get(info["civ"])
    tag = civ.card + (civ.marker or "") if civ else info["civ"]
    return f"{tag}×{info['armies']}"
