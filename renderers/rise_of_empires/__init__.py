"""Rise of Empires images: the public board, and a seat's image (the same board, naming the viewer).

`render(view, seat)`: with `seat` None the public board (board.py), otherwise
the seat's image (private.py); both come with an alt text built from the same
view (alt.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import Image, render_view

from . import alt, board, private


def render(view: Mapping[str, Any], seat: int | None = None) -> Image:
    """The board image for `view`; a seat's image is the same board, naming the viewer."""
    return render_view(view, seat, board, private, alt)


__all__ = ["render"]
