"""Alt text for Rise of Empires: the same view as the image, as plain lines.

The header's lines first (a seat's text names the viewer, as its image does),
then the open decision, each player's tracks and tiles, the cubes per region,
the action rows and what is on offer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import Header, alt_lines, join_alt

from .labels import ROW_TITLES, header_for
from .private import private_header


def alt_text(view: Mapping[str, Any], head: Header) -> str:
    lines = alt_lines(head, view.get("prompt", ""))
    players = view.get("players") or []
    for p in players:
        lines.append(
            f"{p['name']} ({p['colour']}): {p['vp']} VP, food {p['food']}, {p['gold']} gold, "
            f"{p['resources']} discs, cubes pool {p['pool']} stock {p['stock']} map {p['on_map']}; "
            f"progress: {', '.join(t['name'] for t in p.get('progress') or []) or 'none'}; "
            f"territories {len(p.get('territories') or [])}; cities: "
            f"{', '.join(t['name'] for t in p.get('cities') or []) or 'none'}"
        )
    colours = [p["colour"] for p in players]
    for r in view.get("regions") or []:
        held = [f"{colours[s]} {n}" for s, n in enumerate(r.get("cubes") or []) if n > 0 and s < len(colours)]
        if held:
            ctl = ", ".join(colours[s] for s in r.get("control") or [] if s < len(colours))
            lines.append(f"{r['name']}: " + ", ".join(held) + (f" (controlled by {ctl})" if ctl else ""))
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
    return join_alt(lines)


def public(view: Mapping[str, Any]) -> str:
    return alt_text(view, header_for(view))


def private(view: Mapping[str, Any], seat: int) -> str:
    return alt_text(view, private_header(view, seat))
