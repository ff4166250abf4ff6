"""Rise of Empires images: the map, the tables, and a seat's image (the whole board, naming the viewer).

`render(view, seat, part, highlight)` (renderers/common/package.py): the map
(board.py: header, player key, world map with the cubes), the tables (tables.py:
action display, offers, players, legend) or a seat's image (private.py: both,
naming the viewer; everything in this game is public); each with an alt text
built from the same view (alt.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from renderers.common import Image, render_view

from . import alt, board, private, tables


def render(
    view: Mapping[str, Any], seat: int | None = None, part: str | None = None, highlight: Sequence[str] = ()
) -> Image:
    return render_view(view, seat, part, highlight, board=board, tables=tables, private=private, alt=alt)


__all__ = ["render"]
