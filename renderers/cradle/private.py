"""A seat's private image in Cradle of Civilization: the board, with that seat's private
facts (a card drawn during allocation, the card kept, cards it passed) highlighted under
the scores and named in the header."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from renderers.common import Header, seat_names, stack

from . import board, tables
from .labels import header_for


def private_lines(view: Mapping[str, Any], seat: int | None) -> list[str]:
    out: list[str] = []
    if seat is None:
        return out
    alloc = view.get("allocation") or {}
    mine = alloc.get("private") or {}
    if "drawn" in mine:
        out.append(f"Your drawn card (secret): {mine['drawn']['name']}")
    if "kept" in mine:
        out.append(f"You kept (secret until all are dealt): {mine['kept']['name']}")
    names = seat_names(view)
    for to, card in (mine.get("passed") or {}).items():
        out.append(f"You passed {card['name']} to {names.get(int(to), to)}")
    return out


def private_header(view: Mapping[str, Any], seat: int) -> Header:
    """The board's header, naming the viewer."""
    names = seat_names(view)
    return header_for(view, f"Private view: {names.get(seat, seat)}")


def draw(view: Mapping[str, Any], seat: int) -> PILImage.Image:
    """The map (naming the viewer) over the score panel with the seat's private lines: the whole
    board, as the seat's image."""
    return stack(board.draw(view, (), private_header(view, seat)), tables.body(view, private_lines(view, seat)))
