"""Mosaic images: the map, the tables and a seat's private image.

`render(view, seat, part, highlight)` (renderers/common/package.py): the map
(board.py: header, hex map, influence), the tables (tables.py: player panels,
offers, legend) or the seat's private image (private.py); each with an alt text
built from the same view (alt.py). A seat's view that holds no private part is
drawn as the map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from renderers.common import Image, render_view

from . import alt, board, private, tables


def render(
    view: Mapping[str, Any], seat: int | None = None, part: str | None = None, highlight: Sequence[str] = ()
) -> Image:
    if part is None and not view.get("private"):
        seat = None
    return render_view(view, seat, part, highlight, board=board, tables=tables, private=private, alt=alt)


__all__ = ["render"]
