"""Rising Cultures images: the board (as the map), the tables and each player's private hand.

`render(view, seat, part, highlight)` (renderers/common/package.py): the map
(board.py: provinces, both civilizations, the Nile), the tables (tables.py: the
figures in full, the Nile's effects, the legend) or a seat's private image
(private.py: the hand); each with an alt text built from the same view (alt.py).
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
