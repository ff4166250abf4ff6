"""Alt text for Cradle of Civilization: the same view as the images, as plain lines.

The header's lines, the open decision; the map's text goes on with the Armies
per Civilization and the Wonders, then what the tables image shows (the winners,
each player's score-panel lines, the Epoch's summary while Civilizations are
allocated), so a reader of the handover's picture alone misses nothing; a seat's
text adds its private facts, as its image does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cradle.data import components
from renderers.common import Header, alt_lines, join_alt, seat_names, tables_header

from .labels import header_for, player_lines
from .private import private_header, private_lines
from .tables import summary_notes

C = components()


def alt_text(view: Mapping[str, Any], header: Header, private: list[str]) -> str:
    return join_alt(alt_lines(header, view.get("prompt", "")) + _map_lines(view) + _table_lines(view) + private)


def _map_lines(view: Mapping[str, Any]) -> list[str]:
    """The Armies per Civilization and the Wonders."""
    lines = []
    by_civ: dict[str, list[str]] = {}
    for area, info in sorted(view.get("board", {}).items()):
        label = info.get("label", info["civ"])
        by_civ.setdefault(label, []).append(f"{C.areas[area].name} {info['armies']}")
    for label, where in sorted(by_civ.items()):
        lines.append(f"{label}: " + ", ".join(where))
    if view.get("wonders"):
        wonder_names = {w.id: w.name for w in C.wonders}
        lines.append(
            "Wonders: "
            + ", ".join(f"{wonder_names.get(w, w)} in {C.areas[a].name}" for w, a in view["wonders"].items())
        )
    return lines


def _table_lines(view: Mapping[str, Any]) -> list[str]:
    """The winners, each player's score-panel lines, the Epoch's summary while allocating."""
    lines = []
    if view.get("winners"):
        names = seat_names(view)
        lines.append("Winner: " + ", ".join(names[w] for w in view["winners"]))
    for _seat, head, cards, regions in player_lines(view):
        lines.append(f"{head}: {cards}; {regions}")
    notes = summary_notes(view)
    return lines + ([" ".join(notes)] if notes else [])


def public(view: Mapping[str, Any]) -> str:
    return alt_text(view, header_for(view), [])


def tables(view: Mapping[str, Any]) -> str:
    return join_alt(alt_lines(tables_header(header_for(view), "players")) + _table_lines(view))


def private(view: Mapping[str, Any], seat: int) -> str:
    return alt_text(view, private_header(view, seat), private_lines(view, seat))
