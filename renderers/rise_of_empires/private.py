"""A seat's image in Rise of Empires: everything in this game is public, so it is the
public board with the viewer named in the header."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from renderers.common import Header, stack

from . import board, tables
from .labels import header_for


def private_header(view: Mapping[str, Any], seat: int) -> Header:
    """The board's header, naming the viewer (no subtitle for a seat not at the table)."""
    players = view.get("players") or []
    if 0 <= seat < len(players):
        return header_for(view, f"seen by {players[seat]['name']} ({players[seat]['colour']})")
    return header_for(view)


def draw(view: Mapping[str, Any], seat: int) -> PILImage.Image:
    """The map (naming the viewer) over the tables: the whole board, as the seat's image."""
    return stack(board.draw(view, (), private_header(view, seat)), tables.body(view))
