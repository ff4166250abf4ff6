"""Vector icons for resources, military symbols, coins, VP and game pieces.

Each icon is drawn once per (name, size, colour) at 4x and scaled down (so its
edges are smooth), then cached; `paste_icon` only pastes it. Shapes differ, not
only colours, so icons stay tellable apart for colour-blind players and in
greyscale. Games may add their own with `register_icon`.
"""
from __future__ import annotations

import math
from typing import Callable

from PIL import Image, ImageDraw

from .cache import cached_sprite
from .fonts import font
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
    return tuple(int(v * f) for v in c)  # type: ignore[return-value]


@register_icon("wood")
def _wood(d, s, color):
    c = color or RESOURCE_COLORS["wood"]
    w = max(2, s // 28)
    d.rounded_rectangle([s * .08, s * .30, s * .80, s * .70], radius=s * .2, fill=c, outline=_darker(c), width=w)
    d.ellipse([s * .62, s * .30, s * .94, s * .70], fill=(222, 184, 135), outline=_darker(c), width=w)
    d.ellipse([s * .71, s * .41, s * .85, s * .59], outline=_darker(c), width=w)
    d.line([s * .18, s * .42, s * .52, s * .42], fill=_darker(c, .75), width=w)
    d.line([s * .22, s * .57, s * .58, s * .57], fill=_darker(c, .75), width=w)


@register_icon("brick")
def _brick(d, s, color):
    c = color or RESOURCE_COLORS["brick"]
    mortar = (240, 226, 206)
    w = max(2, s // 24)
    d.rectangle([s * .06, s * .22, s * .94, s * .78], fill=c, outline=_darker(c), width=w)
    d.line([s * .06, s * .5, s * .94, s * .5], fill=mortar, width=w)
    d.line([s * .5, s * .22, s * .5, s * .5], fill=mortar, width=w)
    d.line([s * .28, s * .5, s * .28, s * .78], fill=mortar, width=w)
    d.line([s * .72, s * .5, s * .72, s * .78], fill=mortar, width=w)


@register_icon("stone")
def _stone(d, s, color):
    c = color or RESOURCE_COLORS["stone"]
    poly = _pts([(.10, .62), (.22, .30), (.45, .16), (.72, .22), (.90, .45), (.86, .76), (.55, .88), (.22, .84)], s)
    d.polygon(poly, fill=c, outline=_darker(c, .5), width=max(2, s // 24))
    d.polygon(_pts([(.30, .36), (.46, .26), (.58, .30), (.42, .42)], s), fill=(196, 200, 206))


@register_icon("gold")
def _gold(d, s, color):
    c = color or RESOURCE_COLORS["gold"]
    w = max(2, s // 24)
    d.polygon(_pts([(.06, .78), (.22, .34), (.78, .34), (.94, .78)], s), fill=c, outline=_darker(c, .55), width=w)
    d.polygon(_pts([(.26, .42), (.74, .42), (.70, .50), (.30, .50)], s), fill=(255, 236, 150))


@register_icon("coin")
def _coin(d, s, color):
    c = color or RESOURCE_COLORS["coin"]
    w = max(2, s // 16)
    d.ellipse([s * .06, s * .06, s * .94, s * .94], fill=c, outline=_darker(c, .55), width=w)
    d.ellipse([s * .2, s * .2, s * .8, s * .8], outline=_darker(c, .7), width=max(1, w // 2))


@register_icon("income")
def _income(d, s, color):
    _coin(d, s, color)
    g = (0, 120, 80)
    d.polygon(_pts([(.5, .18), (.78, .5), (.6, .5), (.6, .8), (.4, .8), (.4, .5), (.22, .5)], s), fill=g)


@register_icon("vp")
def _vp(d, s, color):
    c = color or RESOURCE_COLORS["vp"]
    pts = []
    for i in range(10):
        r = .46 if i % 2 == 0 else .2
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((.5 + r * math.cos(a), .53 + r * math.sin(a)))
    d.polygon(_pts(pts, s), fill=c, outline=_darker(c, .5), width=max(2, s // 28))


@register_icon("sword")
def _sword(d, s, color):
    c = color or (60, 64, 72)
    a = math.radians(45)
    d.polygon(_pts([(.5, .02), (.57, .12), (.57, .64), (.43, .64), (.43, .12)], s, a), fill=(214, 220, 228),
              outline=c, width=max(2, s // 28))
    d.polygon(_pts([(.26, .63), (.74, .63), (.74, .71), (.26, .71)], s, a), fill=c)
    d.polygon(_pts([(.45, .71), (.55, .71), (.55, .88), (.45, .88)], s, a), fill=(120, 70, 30))
    (px, py), = _pts([(.5, .93)], s, a)
    r = s * .06
    d.ellipse([px - r, py - r, px + r, py + r], fill=c)


@register_icon("horse")
def _horse(d, s, color):
    c = color or (60, 64, 72)
    head = [(.24, .94), (.84, .94), (.80, .60), (.74, .36), (.62, .16), (.56, .04), (.50, .14),
            (.38, .16), (.22, .34), (.10, .52), (.14, .60), (.28, .58), (.40, .50), (.44, .60), (.26, .82)]
    d.polygon(_pts(head, s), fill=c)
    r = s * .035
    ex, ey = s * .42, s * .30
    d.ellipse([ex - r, ey - r, ex + r, ey + r], fill=(240, 240, 240))
    d.line(_pts([(.60, .16), (.80, .40), (.84, .70)], s), fill=(150, 150, 156), width=max(2, s // 22))


@register_icon("shield")
def _shield(d, s, color):
    c = color or (60, 64, 72)
    poly = _pts([(.14, .08), (.86, .08), (.86, .45), (.76, .70), (.5, .94), (.24, .70), (.14, .45)], s)
    d.polygon(poly, fill=c)
    inner = _pts([(.22, .16), (.78, .16), (.78, .44), (.70, .64), (.5, .84), (.30, .64), (.22, .44)], s)
    d.polygon(inner, fill=(214, 220, 228))
    d.polygon(_pts([(.45, .16), (.55, .16), (.55, .86), (.45, .86)], s), fill=c)
    d.polygon(_pts([(.22, .36), (.78, .36), (.78, .46), (.22, .46)], s), fill=c)


@register_icon("cog")
def _cog(d, s, color):
    c = color or (0, 120, 80)
    teeth = 8
    pts = []
    for i in range(teeth * 4):
        a = 2 * math.pi * i / (teeth * 4)
        r = .46 if (i % 4) in (1, 2) else .34
        pts.append((.5 + r * math.cos(a), .5 + r * math.sin(a)))
    d.polygon(_pts(pts, s), fill=c)
    d.ellipse([s * .36, s * .36, s * .64, s * .64], fill=(255, 255, 255, 0))


@register_icon("crown")
def _crown(d, s, color):
    c = color or (150, 40, 120)
    d.polygon(_pts([(.08, .30), (.30, .55), (.5, .18), (.70, .55), (.92, .30), (.84, .80), (.16, .80)], s),
              fill=c, outline=_darker(c, .5), width=max(2, s // 28))
    for x in (.08, .5, .92):
        r = s * .06
        d.ellipse([x * s - r, s * .22 - r if x != .5 else s * .12 - r, x * s + r, s * .22 + r if x != .5 else s * .12 + r],
                  fill=(222, 170, 20))


@register_icon("building")
def _building(d, s, color):
    c = color or (70, 90, 130)
    d.polygon(_pts([(.06, .34), (.5, .08), (.94, .34)], s), fill=c)
    for x in (.16, .36, .56, .76):
        d.rectangle([s * x, s * .38, s * (x + .09), s * .78], fill=c)
    d.rectangle([s * .06, s * .80, s * .94, s * .92], fill=c)


@register_icon("card")
def _card(d, s, color):
    c = color or (90, 70, 130)
    d.rounded_rectangle([s * .2, s * .06, s * .8, s * .94], radius=s * .08, fill=c, outline=_darker(c, .5),
                        width=max(2, s // 24))
    d.rounded_rectangle([s * .28, s * .16, s * .72, s * .84], radius=s * .05, outline=(230, 220, 250),
                        width=max(2, s // 32))


@register_icon("deck")
def _deck(d, s, color):
    c = color or (90, 70, 130)
    for i, off in enumerate((.16, .08, 0)):
        d.rounded_rectangle([s * (.14 + off), s * (.04 + off), s * (.70 + off), s * (.80 + off)],
                            radius=s * .07, fill=c, outline=(240, 236, 250), width=max(2, s // 28))


@register_icon("marker")
def _marker(d, s, color):
    c = color or (180, 30, 40)
    d.rectangle([s * .20, s * .08, s * .27, s * .94], fill=INK)
    d.polygon(_pts([(.27, .10), (.88, .26), (.27, .44)], s), fill=c)
    d.rectangle([s * .10, s * .86, s * .40, s * .94], fill=INK)


@register_icon("province")
def _province(d, s, color):
    c = color or (110, 90, 70)
    d.rectangle([s * .18, s * .30, s * .82, s * .92], fill=c)
    for x in (.18, .40, .62):
        d.rectangle([s * x, s * .14, s * (x + .20 if x != .62 else .82), s * .30], fill=c)
    d.rectangle([s * .42, s * .60, s * .58, s * .92], fill=(40, 30, 20))


@register_icon("golden-age")
def _golden(d, s, color):
    c = color or (222, 170, 20)
    cx = cy = s * .5
    for i in range(12):
        a = 2 * math.pi * i / 12
        d.line([cx, cy, cx + s * .46 * math.cos(a), cy + s * .46 * math.sin(a)], fill=c, width=max(2, s // 16))
    d.ellipse([s * .24, s * .24, s * .76, s * .76], fill=c, outline=_darker(c, .6), width=max(2, s // 28))


@cached_sprite(maxsize=512)
def icon(name: str, size: int, color: RGB | None = None) -> Image.Image:
    """The icon `name` as an RGBA image of side `size`; unknown names get a lettered disc."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    painter = ICONS.get(name)
    if painter is None:
        c = color or (90, 90, 90)
        d.ellipse([0, 0, size * SS - 1, size * SS - 1], fill=c)
        d.text((size * SS / 2, size * SS / 2), name[:1].upper(), font=font(int(size * SS * .6), True),
               fill=(255, 255, 255), anchor="mm")
    else:
        painter(d, size * SS, color)
    return big.resize((size, size), Image.Resampling.LANCZOS)


def paste_icon(canvas: Image.Image, name: str, x: int, y: int, size: int, color: RGB | None = None) -> None:
    """Paste icon `name` with its top-left corner at (x, y)."""
    im = icon(name, size, color)
    canvas.paste(im, (int(x), int(y)), im)


MILITARY = ("sword", "horse", "shield")
RESOURCES = ("wood", "brick", "stone", "gold")


@register_icon("swap")
def _swap(d, s, color):
    c = color or (60, 64, 72)
    w = max(3, s // 10)
    d.line([s * .12, s * .34, s * .80, s * .34], fill=c, width=w)
    d.polygon(_pts([(.70, .16), (.94, .34), (.70, .52)], s), fill=c)
    d.line([s * .20, s * .68, s * .88, s * .68], fill=c, width=w)
    d.polygon(_pts([(.30, .50), (.06, .68), (.30, .86)], s), fill=c)


@register_icon("river")
def _river(d, s, color):
    c = color or (0, 114, 178)
    w = max(3, s // 10)
    for y0 in (.30, .55, .80):
        pts = [(s * (.06 + .88 * i / 16), s * (y0 + .08 * math.sin(i / 16 * 2 * math.pi))) for i in range(17)]
        d.line(pts, fill=c, width=w, joint="curve")


@register_icon("check")
def _check(d, s, color):
    c = color or (0, 120, 80)
    d.ellipse([s * .04, s * .04, s * .96, s * .96], fill=c)
    d.line([s * .26, s * .52, s * .44, s * .70, s * .76, s * .32], fill=(255, 255, 255), width=max(3, s // 9),
           joint="curve")


@register_icon("cross")
def _cross(d, s, color):
    c = color or (180, 50, 20)
    d.ellipse([s * .04, s * .04, s * .96, s * .96], fill=c)
    w = max(3, s // 9)
    d.line([s * .30, s * .30, s * .70, s * .70], fill=(255, 255, 255), width=w)
    d.line([s * .70, s * .30, s * .30, s * .70], fill=(255, 255, 255), width=w)
