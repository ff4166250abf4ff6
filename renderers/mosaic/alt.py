"""Alt text for Mosaic: the same view as the images, as plain lines.

The map's text (`public`): the header's lines, the hexes an open decision offers,
each region's influence and pieces, then what the tables image shows (each
player's figures, the final tally, the offers), so a reader of the handover's
picture alone misses nothing. The tables' text: the header's lines and those
figures. The private text: the header's lines and the private image's lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.mosaic.data import load
from engine.mosaic.words import hex_name
from renderers.common import Header, alt_lines, join_alt, player_letter, tables_header

from .labels import final_rows, header_for, offer_items
from .private import body, private_header


def _hex_choices(view: Mapping[str, Any]) -> str:
    """The hexes the open decision allows, each with what lies on it ("" if none)."""
    hexes = (view.get("pending") or {}).get("hexes", [])
    if not hexes:
        return ""
    goods, caches, fish = view.get("trade_goods", {}), set(view.get("caches", [])), set(view.get("fish", []))

    d = load()

    def what(h: str) -> str:
        on = (
            ([goods[h].replace("-", " ")] if h in goods else [])
            + (["cache"] if h in caches else [])
            + (["fish (port)"] if h in fish else [])
        )
        return f"{hex_name(d, h)} ({', '.join(on)})" if on else hex_name(d, h)

    return f"Hexes to choose from (numbered on the map): {', '.join(what(h) for h in hexes)}"


def _piece(d: Any, piece: Mapping[str, Any]) -> str:
    """ "city of B", "wonder (Sphinx) of E" """
    name = f" ({d.wonders[piece['wonder']].name})" if piece.get("wonder") in d.wonders else ""
    return f"{piece['kind']}{name} of {player_letter(piece['seat'])}"


def _alt_public(view: Mapping[str, Any], header: Header) -> str:
    d = load()
    lines = alt_lines(header)
    choices = _hex_choices(view)
    if choices:
        lines.append(choices)
    for r in view["regions"]:
        if r["in_play"]:
            here = [p for p in view["pieces"] if p["region"] == r["id"]]
            top = max(r["influence"], default=0)
            firsts = [player_letter(i) for i, v in enumerate(r["influence"]) if v and v == top]
            lines.append(
                f"{r['name']}: influence "
                + ", ".join(f"{p['name']} {v}" for p, v in zip(view["players"], r["influence"], strict=True))
                + (f" (first place: {', '.join(firsts)})" if firsts else "")
                + "; "
                + (", ".join(_piece(d, p) for p in here) or "empty")
            )
    return join_alt(lines + _table_lines(view))


def _table_lines(view: Mapping[str, Any]) -> list[str]:
    """What the tables image shows: each player's figures, the final tally, the offers."""
    d = load()
    lines = []
    for p in view["players"]:
        lines.append(
            f"{p['name']} ({player_letter(p['seat'])}): score {p['score']}, "
            f"{d.leaders[p['leader']].name if p.get('leader') else 'no leader'}, population {p['population']}, "
            f"food {p['food']}, stone {p['stone']}, ideas {p['ideas']}, money {p['money']}, unrest {p['net_unrest']}"
        )
    for row in final_rows(view):
        lines.append(
            f"Final {row}: " + ", ".join(f"{p['name']} {p['score_lines'].get(row, 0)}" for p in view["players"])
        )
    for items in offer_items(view):
        lines += [f"{text} (deck {deck}):" if deck is not None else text for text, deck in items]
    return lines


def public(view: Mapping[str, Any]) -> str:
    return _alt_public(view, header_for(view))


def tables(view: Mapping[str, Any]) -> str:
    return join_alt(alt_lines(tables_header(header_for(view), "players and offers")) + _table_lines(view))


def private(view: Mapping[str, Any], seat: int) -> str:
    return join_alt(alt_lines(private_header(view, seat)) + [f"{t}:" if b else t for t, b in body(view, seat)])
