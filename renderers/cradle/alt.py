"""Alt text for Cradle of Civilization: the same view as the image, as plain lines.

The header's lines, the open decision, the winners, each player's score-panel
lines, the Armies per Civilization and the Wonders; a seat's text adds its
private facts, as its image does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cradle.data import components
from renderers.common import Header, alt_lines, join_alt, seat_names

from .board import summary_notes
from .labels import header_for, player_lines
from .private import private_header, private_lines

C = components()


def alt_text(view: Mapping[str, Any], header: Header, rows, private: list[str]) -> str:
    lines = alt_lines(header, view.get("prompt", ""))
    if view.get("winners"):
        names = seat_names(view)
        lines.append("Winner: " + ", ".join(names[w] for w in view["winners"]))
    for _seat, head, cards, regions in rows:
        lines.append(f"{head}: {cards}; {regions}")
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
    lines += private
    return join_alt(lines)


def public(view: Mapping[str, Any]) -> str:
    return alt_text(view, header_for(view), player_lines(view), _with_notes(view, []))


def private(view: Mapping[str, Any], seat: int) -> str:
    return alt_text(view, private_header(view, seat), player_lines(view), _with_notes(view, private_lines(view, seat)))


def _with_notes(view: Mapping[str, Any], private: list[str]) -> list[str]:
    """The seat's private lines, then the allocation notes the image shows (as one line)."""
    notes = summary_notes(view)
    return private + [" ".join(notes)] if notes else private
