"""A seat's image in Rise of Empires: everything in this game is public, so it is the
public board with the viewer named in the header (labels.seen_by)."""
from __future__ import annotations

from typing import Any, Mapping

from PIL import Image as PILImage

from . import board
from .labels import seen_by


def draw(view: Mapping[str, Any], seat: int) -> PILImage.Image:
    return board.draw(view, seen_by(view, seat))
