"""Cradle of Civilization pieces: terrain, City and Wonder icons, and the Army chips.

Terrain and markers are shapes, so they read without colour; an Army chip
carries the controlling player's colour and letter (N: the non-player), the
Civilization and how many. Chips are cached sprites keyed by what they show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from renderers.common import (
    HIGHLIGHT,
    HIGHLIGHT_EDGE,
    INK,
    MAP_TEXT,
    Box,
    Canvas,
    cached_sprite,
    ink_on,
    player_color,
    player_letter,
    register_icon,
    sprite_text,
)

from .labels import chip_label

NON_PLAYER = (120, 120, 120)
SMALL = 18  # the smallest text of the tables image: the score panel's details (the map's: MAP_TEXT)


# ---- icons for terrain and markers (shapes, so they read without colour) ----------
@register_icon("cradle-mountain")
def _mountain(d, s, color):
    c = color or (90, 80, 70)
    d.polygon(
        [(s * 0.05, s * 0.9), (s * 0.38, s * 0.2), (s * 0.55, s * 0.5), (s * 0.7, s * 0.3), (s * 0.95, s * 0.9)], fill=c
    )


@register_icon("cradle-rough")
def _rough(d, s, color):
    c = color or (120, 100, 70)
    w = max(2, s // 8)
    d.arc([s * 0.02, s * 0.35, s * 0.5, s * 0.95], 180, 360, fill=c, width=w)
    d.arc([s * 0.5, s * 0.35, s * 0.98, s * 0.95], 180, 360, fill=c, width=w)


@register_icon("cradle-desert")
def _desert(d, s, color):
    c = color or (170, 120, 30)
    r = s * 0.09
    for x, y in ((0.2, 0.3), (0.5, 0.2), (0.8, 0.35), (0.35, 0.65), (0.65, 0.7), (0.15, 0.85), (0.85, 0.85)):
        d.ellipse([s * x - r, s * y - r, s * x + r, s * y + r], fill=c)


@register_icon("cradle-city")
def _city(d, s, color):
    c = color or INK
    d.rectangle([s * 0.12, s * 0.35, s * 0.88, s * 0.92], fill=c)
    d.polygon([(s * 0.05, s * 0.38), (s * 0.5, s * 0.05), (s * 0.95, s * 0.38)], fill=c)


@register_icon("cradle-wonder")
def _wonder(d, s, color):
    import math

    c = color or (212, 160, 0)
    pts = []
    for k in range(10):
        r = s * (0.48 if k % 2 == 0 else 0.2)
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((s / 2 + r * math.cos(a), s / 2 + r * math.sin(a)))
    d.polygon(pts, fill=c, outline=INK)


TERRAIN_ICON = {"mountain": "cradle-mountain", "rough": "cradle-rough", "desert": "cradle-desert"}


# ---- Army chips -----------------------------------------------------------------
def seat_color(seat: int | None) -> tuple[int, int, int]:
    return NON_PLAYER if seat is None or seat < 0 else player_color(seat)


def seat_letter(seat: int | None) -> str:
    return "N" if seat is None or seat < 0 else player_letter(seat)


@cached_sprite(maxsize=512)
def chip_image(owner: int | None, label: str, raider: bool, w: int, h: int) -> PILImage.Image:
    color = seat_color(owner)
    chip = PILImage.new("RGB", (w, h), color)
    cd = ImageDraw.Draw(chip)
    ink = ink_on(color)
    cd.ellipse([3, 3, h - 3, h - 3], fill=ink)
    sprite_text(cd, (h / 2, h / 2), seat_letter(owner), MAP_TEXT, fill=color, bold=True, anchor="mm")
    sprite_text(cd, (h + 2, h / 2), label, MAP_TEXT, fill=ink, bold=True, anchor="lm", max_width=w - h - 4)
    return chip.rotate(180) if raider else chip  # raiders: upside-down counters (8.0)


def draw_chip(c: Canvas, box: Box, info: Mapping[str, Any]) -> None:
    """The Armies in one Area: player colour + letter, Civilization number and count."""
    chip = chip_image(info.get("owner"), chip_label(info), bool(info.get("raider")), box.w, box.h)
    c.paste(chip, box.x, box.y)
    if info.get("active"):
        c.d.rectangle([box.x - 3, box.y - 3, box.right + 2, box.bottom + 2], outline=HIGHLIGHT_EDGE, width=4)
        c.d.rectangle([box.x - 6, box.y - 6, box.right + 5, box.bottom + 5], outline=HIGHLIGHT, width=3)
    elif info.get("raider"):
        c.d.rectangle([box.x - 1, box.y - 1, box.right, box.bottom], outline=INK, width=2)
