"""Cradle of Civilization images: the map, the tables and a seat's private image.

`render(view, seat, part, highlight)` (renderers/common/package.py): the map
(board.py: header, player key, the map with the Armies), the tables (tables.py:
the score panel and legend) or a seat's image (private.py: both, with the seat's
private facts); each with an alt text built from the same view (alt.py).
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
