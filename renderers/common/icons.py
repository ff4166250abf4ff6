"""Vector icons for resources, military symbols, coins, VP and game pieces.

Each icon is drawn once per (name, size, colour) at 4x and scaled down (so its
edges are smooth), then cached; `paste_icon` only pastes it. Shapes differ, not
only colours, so icons stay tellable apart for colour-blind players and in
greyscale. Games may add their own with `register_icon`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw

from .cache import cached_sprite
from .fonts import font
from .marks import note, paste
from .palette import INK, RESOURCE_COLORS, RGB

SS = 4  # supersampling factor

Painter = Callable[[ImageDraw.ImageDraw, int, "RGB | None"], None]
ICONS: dict[str, Painter] = {}


def register_icon(name: str) -> Callable[[Painter], Painter]:
    """Decorator: `@register_icon("food") def _food(d, s, color): ...` (s = canvas side)."""

    def deco(fn: Painter) -> Painter:
        ICONS[name] = fn
        return fn

    return deco


def _pts(points, s, angle=0.0):
    """Unit-square points -> canvas pixels, optionally rotated about the centre."""
    out = []
    ca, sa = math.cos(angle), math.sin(angle)
    for x, y in points:
        x, y = x - 0.5, y - 0.5
        if angle:
            x, y = x * ca - y * sa, x * sa + y * ca
        out.append(((x + 0.5) * s, (y + 0.5) * s))
    return out


def _darker(c: RGB, f: float = 0.6) -> RGB:
    r, g, b = c
    return int(r * f), int(g * f), int(b * f)


@register_icon("wood")
def _wood(d, s, color):
    c = color or RESOURCE_COLORS["wood"]
    w = max(2, s // 28)
    d.rounded_rectangle([s * 0.08, s * 0.30, s * 0.80, s * 0.70], radius=s * 0.2, fill=c, outline=_darker(c), width=w)
    d.ellipse([s * 0.62, s * 0.30, s * 0.94, s * 0.70], fill=(222, 184, 135), outline=_darker(c), width=w)
    d.ellipse([s * 0.71, s * 0.41, s * 0.85, s * 0.59], outline=_darker(c), width=w)
    d.line([s * 0.18, s * 0.42, s * 0.52, s * 0.42], fill=_darker(c, 0.75), width=w)
    d.line([s * 0.22, s * 0.57, s * 0.58, s * 0.57], fill=_darker(c, 0.75), width=w)


@register_icon("brick")
def _brick(d, s, color):
    c = color or RESOURCE_COLORS["brick"]
    mortar = (240, 226, 206)
    w = max(2, s // 24)
    d.rectangle([s * 0.06, s * 0.22, s * 0.94, s * 0.78], fill=c, outline=_darker(c), width=w)
    d.line([s * 0.06, s * 0.5, s * 0.94, s * 0.5], fill=mortar, width=w)
    d.line([s * 0.5, s * 0.22, s * 0.5, s * 0.5], fill=mortar, width=w)
    d.line([s * 0.28, s * 0.5, s * 0.28, s * 0.78], fill=mortar, width=w)
    d.line([s * 0.72, s * 0.5, s * 0.72, s * 0.78], fill=mortar, width=w)


@register_icon("stone")
def _stone(d, s, color):
    c = color or RESOURCE_COLORS["stone"]
    poly = _pts(
        [
            (0.10, 0.62),
            (0.22, 0.30),
            (0.45, 0.16),
            (0.72, 0.22),
            (0.90, 0.45),
            (0.86, 0.76),
            (0.55, 0.88),
            (0.22, 0.84),
        ],
        s,
    )
    d.polygon(poly, fill=c, outline=_darker(c, 0.5), width=max(2, s // 24))
    d.polygon(_pts([(0.30, 0.36), (0.46, 0.26), (0.58, 0.30), (0.42, 0.42)], s), fill=(196, 200, 206))


@register_icon("gold")
def _gold(d, s, color):
    c = color or RESOURCE_COLORS["gold"]
    w = max(2, s // 24)
    d.polygon(
        _pts([(0.06, 0.78), (0.22, 0.34), (0.78, 0.34), (0.94, 0.78)], s), fill=c, outline=_darker(c, 0.55), width=w
    )
    d.polygon(_pts([(0.26, 0.42), (0.74, 0.42), (0.70, 0.50), (0.30, 0.50)], s), fill=(255, 236, 150))


@register_icon("coin")
def _coin(d, s, color):
    c = color or RESOURCE_COLORS["coin"]
    w = max(2, s // 16)
    d.ellipse([s * 0.06, s * 0.06, s * 0.94, s * 0.94], fill=c, outline=_darker(c, 0.55), width=w)
    d.ellipse([s * 0.2, s * 0.2, s * 0.8, s * 0.8], outline=_darker(c, 0.7), width=max(1, w // 2))


@register_icon("income")
def _income(d, s, color):
    _coin(d, s, color)
    g = (0, 120, 80)
    d.polygon(_pts([(0.5, 0.18), (0.78, 0.5), (0.6, 0.5), (0.6, 0.8), (0.4, 0.8), (0.4, 0.5), (0.22, 0.5)], s), fill=g)


@register_icon("vp")
def _vp(d, s, color):
    c = color or RESOURCE_COLORS["vp"]
    pts = []
    for i in range(10):
        r = 0.46 if i % 2 == 0 else 0.2
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((0.5 + r * math.cos(a), 0.53 + r * math.sin(a)))
    d.polygon(_pts(pts, s), fill=c, outline=_darker(c, 0.5), width=max(2, s // 28))


@register_icon("sword")
def _sword(d, s, color):
    c = color or (60, 64, 72)
    a = math.radians(45)
    d.polygon(
        _pts([(0.5, 0.02), (0.57, 0.12), (0.57, 0.64), (0.43, 0.64), (0.43, 0.12)], s, a),
        fill=(214, 220, 228),
        outline=c,
        width=max(2, s // 28),
    )
    d.polygon(_pts([(0.26, 0.63), (0.74, 0.63), (0.74, 0.71), (0.26, 0.71)], s, a), fill=c)
    d.polygon(_pts([(0.45, 0.71), (0.55, 0.71), (0.55, 0.88), (0.45, 0.88)], s, a), fill=(120, 70, 30))
    ((px, py),) = _pts([(0.5, 0.93)], s, a)
    r = s * 0.06
    d.ellipse([px - r, py - r, px + r, py + r], fill=c)


@register_icon("horse")
def _horse(d, s, color):
    c = color or (60, 64, 72)
    head = [
        (0.24, 0.94),
        (0.84, 0.94),
        (0.80, 0.60),
        (0.74, 0.36),
        (0.62, 0.16),
        (0.56, 0.04),
        (0.50, 0.14),
        (0.38, 0.16),
        (0.22, 0.34),
        (0.10, 0.52),
        (0.14, 0.60),
        (0.28, 0.58),
        (0.40, 0.50),
        (0.44, 0.60),
        (0.26, 0.82),
    ]
    d.polygon(_pts(head, s), fill=c)
    r = s * 0.035
    ex, ey = s * 0.42, s * 0.30
    d.ellipse([ex - r, ey - r, ex + r, ey + r], fill=(240, 240, 240))
    d.line(_pts([(0.60, 0.16), (0.80, 0.40), (0.84, 0.70)], s), fill=(150, 150, 156), width=max(2, s // 22))


@register_icon("shield")
def _shield(d, s, color):
    c = color or (60, 64, 72)
    poly = _pts([(0.14, 0.08), (0.86, 0.08), (0.86, 0.45), (0.76, 0.70), (0.5, 0.94), (0.24, 0.70), (0.14, 0.45)], s)
    d.polygon(poly, fill=c)
    inner = _pts([(0.22, 0.16), (0.78, 0.16), (0.78, 0.44), (0.70, 0.64), (0.5, 0.84), (0.30, 0.64), (0.22, 0.44)], s)
    d.polygon(inner, fill=(214, 220, 228))
    d.polygon(_pts([(0.45, 0.16), (0.55, 0.16), (0.55, 0.86), (0.45, 0.86)], s), fill=c)
    d.polygon(_pts([(0.22, 0.36), (0.78, 0.36), (0.78, 0.46), (0.22, 0.46)], s), fill=c)


@register_icon("cog")
def _cog(d, s, color):
    c = color or (0, 120, 80)
    teeth = 8
    pts = []
    for i in range(teeth * 4):
        a = 2 * math.pi * i / (teeth * 4)
        r = 0.46 if (i % 4) in (1, 2) else 0.34
        pts.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    d.polygon(_pts(pts, s), fill=c)
    d.ellipse([s * 0.36, s * 0.36, s * 0.64, s * 0.64], fill=(255, 255, 255, 0))


@register_icon("crown")
def _crown(d, s, color):
    c = color or (150, 40, 120)
    d.polygon(
        _pts([(0.08, 0.30), (0.30, 0.55), (0.5, 0.18), (0.70, 0.55), (0.92, 0.30), (0.84, 0.80), (0.16, 0.80)], s),
        fill=c,
        outline=_darker(c, 0.5),
        width=max(2, s // 28),
    )
    for x in (0.08, 0.5, 0.92):
        r = s * 0.06
        d.ellipse(
            [
                x * s - r,
                s * 0.22 - r if x != 0.5 else s * 0.12 - r,
                x * s + r,
                s * 0.22 + r if x != 0.5 else s * 0.12 + r,
            ],
            fill=(222, 170, 20),
        )


@register_icon("building")
def _building(d, s, color):
    c = color or (70, 90, 130)
    d.polygon(_pts([(0.06, 0.34), (0.5, 0.08), (0.94, 0.34)], s), fill=c)
    for x in (0.16, 0.36, 0.56, 0.76):
        d.rectangle([s * x, s * 0.38, s * (x + 0.09), s * 0.78], fill=c)
    d.rectangle([s * 0.06, s * 0.80, s * 0.94, s * 0.92], fill=c)


@register_icon("card")
def _card(d, s, color):
    c = color or (90, 70, 130)
    d.rounded_rectangle(
        [s * 0.2, s * 0.06, s * 0.8, s * 0.94], radius=s * 0.08, fill=c, outline=_darker(c, 0.5), width=max(2, s // 24)
    )
    d.rounded_rectangle(
        [s * 0.28, s * 0.16, s * 0.72, s * 0.84], radius=s * 0.05, outline=(230, 220, 250), width=max(2, s // 32)
    )


@register_icon("deck")
def _deck(d, s, color):
    c = color or (90, 70, 130)
    for off in (0.16, 0.08, 0):
        d.rounded_rectangle(
            [s * (0.14 + off), s * (0.04 + off), s * (0.70 + off), s * (0.80 + off)],
            radius=s * 0.07,
            fill=c,
            outline=(240, 236, 250),
            width=max(2, s // 28),
        )


@register_icon("marker")
def _marker(d, s, color):
    c = color or (180, 30, 40)
    d.rectangle([s * 0.20, s * 0.08, s * 0.27, s * 0.94], fill=INK)
    d.polygon(_pts([(0.27, 0.10), (0.88, 0.26), (0.27, 0.44)], s), fill=c)
    d.rectangle([s * 0.10, s * 0.86, s * 0.40, s * 0.94], fill=INK)


@register_icon("province")
def _province(d, s, color):
    c = color or (110, 90, 70)
    d.rectangle([s * 0.18, s * 0.30, s * 0.82, s * 0.92], fill=c)
    for x in (0.18, 0.40, 0.62):
        d.rectangle([s * x, s * 0.14, s * (x + 0.20 if x != 0.62 else 0.82), s * 0.30], fill=c)
    d.rectangle([s * 0.42, s * 0.60, s * 0.58, s * 0.92], fill=(40, 30, 20))


@register_icon("golden-age")
def _golden(d, s, color):
    c = color or (222, 170, 20)
    cx = cy = s * 0.5
    for i in range(12):
        a = 2 * math.pi * i / 12
        d.line([cx, cy, cx + s * 0.46 * math.cos(a), cy + s * 0.46 * math.sin(a)], fill=c, width=max(2, s // 16))
    d.ellipse([s * 0.24, s * 0.24, s * 0.76, s * 0.76], fill=c, outline=_darker(c, 0.6), width=max(2, s // 28))


@cached_sprite(maxsize=512)
def icon(name: str, size: int, color: RGB | None = None) -> Image.Image:
    """The icon `name` as an RGBA image of side `size`; unknown names get a lettered disc."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    painter = ICONS.get(name)
    if painter is None:
        c = color or (90, 90, 90)
        d.ellipse([0, 0, size * SS - 1, size * SS - 1], fill=c)
        letter = int(size * SS * 0.6)
        d.text(
            (size * SS / 2, size * SS / 2), name[:1].upper(), font=font(letter, True), fill=(255, 255, 255), anchor="mm"
        )
        note(name[:1].upper(), letter / SS, 0, 0, size, size)
    else:
        painter(d, size * SS, color)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paste_icon(canvas: Image.Image, name: str, x: int, y: int, size: int, color: RGB | None = None) -> None:
    """Paste icon `name` with its top-left corner at (x, y)."""
    im = icon(name, size, color)
    paste(canvas, im, (int(x), int(y)), im)


MILITARY = ("sword", "horse", "shield")
RESOURCES = ("wood", "brick", "stone", "gold")


@register_icon("swap")
def _swap(d, s, color):
    c = color or (60, 64, 72)
    w = max(3, s // 10)
    d.line([s * 0.12, s * 0.34, s * 0.80, s * 0.34], fill=c, width=w)
    d.polygon(_pts([(0.70, 0.16), (0.94, 0.34), (0.70, 0.52)], s), fill=c)
    d.line([s * 0.20, s * 0.68, s * 0.88, s * 0.68], fill=c, width=w)
    d.polygon(_pts([(0.30, 0.50), (0.06, 0.68), (0.30, 0.86)], s), fill=c)


@register_icon("river")
def _river(d, s, color):
    c = color or (0, 114, 178)
    w = max(3, s // 10)
    for y0 in (0.30, 0.55, 0.80):
        pts = [(s * (0.06 + 0.88 * i / 16), s * (y0 + 0.08 * math.sin(i / 16 * 2 * math.pi))) for i in range(17)]
        d.line(pts, fill=c, width=w, joint="curve")


@register_icon("check")
def _check(d, s, color):
    c = color or (0, 120, 80)
    d.ellipse([s * 0.04, s * 0.04, s * 0.96, s * 0.96], fill=c)
    d.line(
        [s * 0.26, s * 0.52, s * 0.44, s * 0.70, s * 0.76, s * 0.32],
        fill=(255, 255, 255),
        width=max(3, s // 9),
        joint="curve",
    )


@register_icon("cross")
def _cross(d, s, color):
    c = color or (180, 50, 20)
    d.ellipse([s * 0.04, s * 0.04, s * 0.96, s * 0.96], fill=c)
    w = max(3, s // 9)
    d.line([s * 0.30, s * 0.30, s * 0.70, s * 0.70], fill=(255, 255, 255), width=w)
    d.line([s * 0.70, s * 0.30, s * 0.30, s * 0.70], fill=(255, 255, 255), width=w)
