"""Fonts: DejaVu Sans shipped in renderers/fonts, so images look alike everywhere.

`font(size, bold=False)` is cached per (size, bold). If the shipped files are
missing (a stripped install), Pillow's own scalable default (FreeType) is used,
and only if FreeType itself is missing do we fall back to the fixed bitmap font.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: Smallest text size allowed on a 1200 px wide image (issue 5: text >= 18 px).
MIN_TEXT = 18


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The house font at `size` pixels (bold on request)."""
    path = BOLD if bold else REGULAR
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of `text` in pixels at `size`."""
    return int(round(font(size, bold).getlength(text)))
