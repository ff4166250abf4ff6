"""Mosaic images: the public board and a seat's private image.

`render(view, seat)`: with `seat` None, or a view that holds no private part,
the public board (board.py); otherwise that seat's private image (private.py);
both come with an alt text built from the same view (alt.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import Image, render_view

from . import alt, board, private


def render(view: Mapping[str, Any], seat: int | None = None) -> Image:
    return render_view(view, seat if view.get("private") else None, board, private, alt)


__all__ = ["render"]
