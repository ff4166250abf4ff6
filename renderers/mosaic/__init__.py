"""Mosaic images: the public board and a seat's private image.

`render(view, seat)`: with `seat` None, or a view that holds no private part,
the public board (board.py); otherwise that seat's private image (private.py);
both come with an alt text built from the same view (alt.py).
"""
from __future__ import annotations

from typing import Any, Mapping

from renderers.common import Image, encode_png

from . import alt, board, private


def render(view: Mapping[str, Any], seat: int | None = None) -> Image:
    if seat is None or not view.get("private"):
        return encode_png(board.draw(view), alt.public(view))
    return encode_png(private.draw(view, seat), alt.private(view, seat))


__all__ = ["render"]
