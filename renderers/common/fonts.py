"""Fonts: DejaVu Sans shipped in renderers/fonts, so images look alike everywhere.

`font(size, bold=False)` is cached per (size, bold). If the shipped files are
missing (a stripped install), Pillow's own scalable default (FreeType) is used,
and only if FreeType itself is missing do we fall back to the fixed bitmap font.

`measure(text, size, bold)` is the one place text is measured. Laying out a
board measured text some 800 times (fitting, ellipsizing and wrapping each try
the same words again), at ~15 µs a call; labels, words and numbers repeat from
board to board, so the widths are memoised (a bounded LRU of strings and their
widths: no picture, so nothing that could show one table's names on another).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"
#: The narrower face of the same family: a name that does not fit at the smallest size is
#: written condensed rather than cut (a map's node is as wide as its neighbours allow).
CONDENSED = FONT_DIR / "DejaVuSansCondensed.ttf"

#: Smallest text size allowed on a 1200 px wide image (issue 5: text >= 18 px).
MIN_TEXT = 18
#: Smallest text size on a map image, 1200 px wide (issue 26): 19 px is 7.1 px when a phone
#: shows the image 450 px wide (marks.PHONE_TEXT: at least 7).
MAP_TEXT = 19


#: Font objects kept. Each holds a FreeType face that maps the font file anew, and the
#: pages it reads count in the process's resident memory once per face (~250 KB each):
#: 24 faces cost a drawing worker 4 MB more than 8 do. Opening a face takes 0.05 ms, so
#: the few faces a board re-opens with 8 kept (2-7 per board; the big badge sizes are
#: needed only while a sprite is drawn) cost nothing measurable
#: (`python -m tests.bench memory`, `... render`).
FONT_CACHE = 8
#: Widths kept (a string, its size and weight, one float: ~150 bytes each).
WIDTH_CACHE = 16384


@lru_cache(maxsize=FONT_CACHE)
def font(size: int, bold: bool = False, condensed: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """The house font at `size` pixels (bold, or the regular condensed face, on request)."""
    path = CONDENSED if condensed else BOLD if bold else REGULAR
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:
        return ImageFont.load_default(size=size)


@lru_cache(maxsize=WIDTH_CACHE)
def measure(text: str, size: int, bold: bool = False, condensed: bool = False) -> float:
    """Advance width of `text` in pixels at `size` (exact, memoised)."""
    return font(size, bold, condensed).getlength(text)


def text_width(text: str, size: int, bold: bool = False) -> int:
    """Advance width of `text` in whole pixels at `size`."""
    return int(round(measure(text, size, bold)))
