"""Alt text for Rise of Empires: the same view as the images, as plain lines.

The header's lines first (a seat's text names the viewer, as its image does),
then the open decision; the map's text goes on with the cubes per region, then
what the tables image shows (each player's tracks and tiles, the action rows and
what is on offer), so a reader of the handover's picture alone misses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import Header, alt_lines, join_alt, tables_header

from .labels import ROW_TITLES, header_for
from .private import private_header


def alt_text(view: Mapping[str, Any], head: Header) -> str:
    return join_alt(alt_lines(head, view.get("prompt", "")) + _map_lines(view) + _table_lines(view))


def _map_lines(view: Mapping[str, Any]) -> list[str]:
    """The cubes per region and who controls it."""
    lines = []
    colours = [p["colour"] for p in view.get("players") or []]
    for r in view.get("regions") or []:
        held = [f"{colours[s]} {n}" for s, n in enumerate(r.get("cubes") or []) if n > 0 and s < len(colours)]
        if held:
            ctl = ", ".join(colours[s] for s in r.get("control") or [] if s < len(colours))
            lines.append(f"{r['name']}: " + ", ".join(held) + (f" (controlled by {ctl})" if ctl else ""))
    return lines


def _table_lines(view: Mapping[str, Any]) -> list[str]:
    """Each player's tracks and tiles, the action rows, what is on offer."""
    lines = []
    players = view.get("players") or []
    for p in players:
        lines.append(
            f"{p['name']} ({p['colour']}): {p['vp']} VP, food {p['food']}, {p['gold']} gold, "
            f"{p['resources']} discs, cubes pool {p['pool']} stock {p['stock']} map {p['on_map']}; "
            f"progress: {', '.join(t['name'] for t in p.get('progress') or []) or 'none'}; "
            f"territories {len(p.get('territories') or [])}; cities: "
            f"{', '.join(t['name'] for t in p.get('cities') or []) or 'none'}"
        )
    rows = view.get("rows") or {}
    for row in ("progress", "territory", "city", "empire", "trade"):
        discs = [c for c in rows.get(row) or [] if c]
        lines.append(f"{ROW_TITLES[row]} row: " + (", ".join(discs) if discs else "empty"))
    offer = view.get("offer") or {}
    lines.append(
        "On offer: progress "
        + (", ".join(t["name"] for t in offer.get("progress") or []) or "none")
        + "; territory "
        + (", ".join(t["name"] for t in offer.get("territory") or []) or "none")
        + "; cities "
        + (", ".join(f"{t['name']} ({t['cost']} gold, {t['vp']} VP)" for t in offer.get("city") or []) or "none")
        + "; empire tiles "
        + (", ".join(offer.get("empire") or []) or "none")
        + "; trade boxes open: "
        + (
            ", ".join(
                b["action"].removeprefix("trade ")
                for b in offer.get("trade") or []
                if b.get("open") and not b.get("taken_by")
            )
            or "none"
        )
    )
    return lines


def public(view: Mapping[str, Any]) -> str:
    return alt_text(view, header_for(view))


def tables(view: Mapping[str, Any]) -> str:
    return join_alt(alt_lines(tables_header(header_for(view), "players and offers")) + _table_lines(view))


def private(view: Mapping[str, Any], seat: int) -> str:
    return alt_text(view, private_header(view, seat))
