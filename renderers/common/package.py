"""The shape of a game's renderer: the package `renderers/<game id with - as _>/`.

Every game's renderer has the same modules, so a reader finds the same kind of
code under the same file name in each (README, "A game's renderer"; a test
checks every registered game against `MODULES`), and one `render_view` joins
them into the image asked for.

A view is drawn as one of three images (issue 26, "Boards for a phone"):
- "map": the handover's picture, readable on a phone — the header and the map
  with its place names and piece counts at `MAP_TEXT` or more, the places of the
  last move framed (`highlight`); the public view's default;
- "tables": what cannot be that large — player tables, offers, the legend — for
  `/board`, the web table and the private view;
- "private": a seat's image (its hand, its secret cards; everything else as
  the game shows it to that seat); a seat's default.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from ..image import PARTS, Place
from .encode import Image, encode_png

#: The modules of a game's renderer package besides `__init__.py` (which exposes `render`).
MODULES = {
    "board": (
        "the map image: draw(view, highlight) -> picture, places(view) -> the places it names,"
        " place_boxes(view) -> where each is drawn, place_names(view) -> each one's words"
    ),
    "tables": "the tables image: draw(view) -> picture; player tables, offers, the legend",
    "private": "a seat's image: draw(view, seat) -> picture (a hand, or the board with what only that seat knows)",
    "alt": "alt texts from the same view: public(view) (the map's), tables(view), private(view, seat)",
    "labels": "words: header_for(view, subtitle), the status line, phase names, abbreviations, card texts",
    "parts": "drawing pieces the images share: sprites, icons, chips, the game's own colours",
}


def part_for(seat: int | None, part: str | None) -> str:
    """The image asked for: `part`, or by default the map (public) or the seat's image."""
    chosen = part or ("map" if seat is None else "private")
    if chosen not in PARTS:
        raise ValueError(f"no image part {chosen!r}: the parts are {', '.join(PARTS)}")
    if chosen == "private" and seat is None:
        raise ValueError("the private image is a seat's: give the seat")
    return chosen


def render_view(
    view: Mapping[str, Any],
    seat: int | None,
    part: str | None,
    highlight: Sequence[str],
    *,
    board: ModuleType,
    tables: ModuleType,
    private: ModuleType,
    alt: ModuleType,
) -> Image:
    """The image `part` of `view` with its alt text, from the game's modules. Only the map
    frames `highlight`, and only the places the view names."""
    chosen = part_for(seat, part)
    if chosen == "map":
        drawn = encode_png(board.draw(view, tuple(highlight)), alt.public(view))
        return dataclasses.replace(drawn, places=map_places(view, board))
    if chosen == "tables":
        return encode_png(tables.draw(view), alt.tables(view))
    assert seat is not None
    return encode_png(private.draw(view, seat), alt.private(view, seat))


def map_places(view: Mapping[str, Any], board: ModuleType) -> dict[str, Place]:
    """Every place the map image names, with its words and where it is drawn (issue 52: the
    web lays them over the picture; the choices' `refers` name only these)."""
    names = board.place_names(view)
    return {
        place: Place(names.get(place, place), tuple((b.x, b.y, b.w, b.h) for b in boxes))
        for place, boxes in board.place_boxes(view).items()
    }
