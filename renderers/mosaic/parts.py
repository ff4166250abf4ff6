"""Mosaic pieces: the hex grid's geometry, the label sprites and the player pieces drawn on it,
and the text wrap both images use.

The map is the board's source image scaled to 1200 px: a hex's `px` (source-image
pixels) maps to the image by `centre`.
"""

from __future__ import annotations

import math

from PIL import Image as PILImage
from PIL import ImageDraw

from renderers.common import (
    INK,
    MAP_TEXT,
    MARGIN,
    WIDTH,
    Canvas,
    cached_sprite,
    font,
    ink_on,
    player_color,
    player_letter,
    sprite_text,
    wrap,
)

MAP_X0, MAP_Y0, MAP_X1, MAP_Y1 = 14, 126, 930, 726  # source-image window holding every hex
SRC_R = 24.0  # hex radius in source-image pixels
SCALE = (WIDTH - 2 * MARGIN) / (MAP_X1 - MAP_X0)
R = SRC_R * SCALE
MAP_H = int((MAP_Y1 - MAP_Y0) * SCALE)


#: Pieces and tiles sit below a hex's centre, leaving its top for the hex's number (NUMBER_DY).
PIECE_DY = R * 0.22
NUMBER_DY = -R * 0.56
#: Half the side of a city's square (the other pieces are about as large).
PIECE_HALF = R * 0.44


def rgb(hex_colour: str) -> tuple[int, int, int]:
    """ "#a0b1c2" -> (160, 177, 194): the data's region colours."""
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def hex_number(hex_id: str) -> str:
    """The number drawn on a hex: `assyria-12` -> "12" (with the region's name, what choices say)."""
    return hex_id.rsplit("-", 1)[-1]


def centre(px: list[int]) -> tuple[float, float]:
    return MARGIN + (px[0] - MAP_X0) * SCALE, (px[1] - MAP_Y0) * SCALE


def hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]


@cached_sprite(maxsize=256)
def _label(text: str, size: int = MAP_TEXT, bold: bool = False) -> PILImage.Image:
    """A small text sprite (RGBA), drawn once: map labels repeat on many hexes."""
    f = font(size, bold)
    w = int(f.getlength(text)) + 4
    im = PILImage.new("RGBA", (w, size + 8), (0, 0, 0, 0))
    sprite_text(ImageDraw.Draw(im), (w / 2, (size + 8) / 2), text, size, fill=INK + (255,), bold=bold, anchor="mm")
    return im


def paste_label(
    c: Canvas, text: str, cx: float, cy: float, size: int = MAP_TEXT, bold: bool = False, boxed: bool = False
) -> None:
    sp = _label(text, size, bold)
    if boxed:
        x0, y0 = cx - sp.width / 2, cy - sp.height / 2 + 2
        c.d.rounded_rectangle(
            [x0 - 2, y0, x0 + sp.width + 2, y0 + sp.height - 4], radius=4, fill=(255, 250, 230), outline=INK
        )
    c.paste(sp, int(cx - sp.width / 2), int(cy - sp.height / 2), sp)


def draw_piece(c: Canvas, kind: str, seat: int, cx: float, cy: float) -> None:
    col = player_color(seat)
    edge = INK
    s = PIECE_HALF
    if kind in ("city", "port city"):
        c.d.rectangle([cx - s, cy - s, cx + s, cy + s], fill=col, outline=edge, width=3)
        if kind == "port city":
            c.d.line([cx - s, cy + s - 4, cx + s, cy + s - 4], fill=(255, 255, 255), width=4)
    elif kind == "farm town":  # a triangle wide enough round its letter, which sits low
        c.d.polygon(
            [(cx, cy - s * 1.15), (cx + s * 1.3, cy + s), (cx - s * 1.3, cy + s)],
            fill=col,
            outline=edge,
            width=3,
        )
    elif kind == "manufactory town":
        c.d.polygon(
            [(cx, cy - s * 1.1), (cx + s * 1.1, cy), (cx, cy + s * 1.1), (cx - s * 1.1, cy)],
            fill=col,
            outline=edge,
            width=3,
        )
    else:  # wonder: a gold star ringed in the owner's colour, the owner's letter on the star
        pts = []
        for k in range(10):
            rr = s * 1.25 if k % 2 == 0 else s * 0.7
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        c.d.ellipse([cx - s * 1.3, cy - s * 1.3, cx + s * 1.3, cy + s * 1.3], fill=col, outline=edge, width=2)
        c.d.polygon(pts, fill=(240, 200, 40), outline=edge)
        col = (240, 200, 40)
    letter_y = cy + (s * 0.3 if kind == "farm town" else 1)
    c.text(cx, letter_y, player_letter(seat), MAP_TEXT, bold=True, fill=ink_on(col), anchor="mm")


def wrap_text(text: str, width: int) -> list[str]:
    """At most three lines of 18 px text in `width` (offer cards, private lines)."""
    return wrap(text, width - 8, 18, max_lines=3)
