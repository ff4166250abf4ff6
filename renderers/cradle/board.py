"""Cradle of Civilization board: the schematic map of the Ancient Near East, the scores, a legend.

Drawn from a view only (law 5): the header (Epoch, phase, the Civilization in
its round and its Army Pool, who acts, the last move), the map (Areas as nodes
in their Region's colour with terrain marks, Cities and Wonders; land borders
and straits — bowed round any third Area's node they would run under, so a
border never seems to belong to the wrong Area; seas), the Armies on it (a chip
per Area, parts.py; the Civilization in its round is framed, the others are
inactive; raiders are drawn upside down; the Area of the last move and a battle
are framed), then scores and Region status per player, and a legend. A seat's
private image (private.py) is this board with the seat's private facts under
the scores. The static map is drawn once and cached (`cached_layer`); each
render only draws pieces on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from engine.cradle.data import components
from renderers.common import (
    HIGHLIGHT,
    HIGHLIGHT_EDGE,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PAPER,
    RULE,
    WIDTH,
    Box,
    Canvas,
    Header,
    LegendItem,
    cached_layer,
    draw_header,
    draw_legend,
    font,
    header_height,
    ink_on,
    legend_height,
    line_height,
    tint,
    wrap,
)
from renderers.common.palette import RGB

from .labels import SHORT_NAMES, header_for, player_lines, summary_line
from .parts import SMALL, TERRAIN_ICON, draw_chip, seat_color, seat_letter

C = components()

MAP_H = 1010
NODE_W, NODE_H = 106, 70
SEA_BLUE = (40, 110, 170)
SEA_FILL = (214, 232, 245)
TEXT = 20

REGION_COLORS: dict[str, tuple[int, int, int]] = {
    "aegean-islands": (0, 140, 160),
    "anatolia": (160, 90, 40),
    "arabian-desert": (190, 150, 40),
    "caucasus": (90, 120, 50),
    "egypt": (200, 130, 0),
    "greece": (60, 90, 170),
    "iran": (150, 60, 120),
    "levant": (190, 60, 60),
    "mesopotamia": (40, 130, 80),
}


# ---- the static map -----------------------------------------------------------
def node_box(area: str) -> Box:
    a = C.areas[area]
    return Box(a.x - NODE_W // 2, a.y - NODE_H // 2, NODE_W, NODE_H)


def _dashed(
    d: ImageDraw.ImageDraw, p: tuple[float, float], q: tuple[float, float], fill: RGB, width: int, dash: int = 10
) -> None:
    (x0, y0), (x1, y1) = p, q
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    n = int(length // dash)
    for k in range(0, n, 2):
        a, b = k / n, min(1.0, (k + 1) / n)
        d.line([x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b], fill=fill, width=width)


def _hits(p: tuple[float, float], q: tuple[float, float], box: Box, pad: int = 4) -> bool:
    """Does the segment p-q pass through `box` (grown by `pad`)? (Liang-Barsky clipping)"""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for pp, qq in (
        (-dx, x0 - (box.x - pad)),
        (dx, box.right + pad - x0),
        (-dy, y0 - (box.y - pad)),
        (dy, box.bottom + pad - y0),
    ):
        if pp == 0:
            if qq < 0:
                return False
            continue
        t = qq / pp
        if pp < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
    return t0 < t1


def _bezier(p, ctrl, q, n: int = 24) -> list[tuple[float, float]]:
    return [
        (
            (1 - t) ** 2 * p[0] + 2 * (1 - t) * t * ctrl[0] + t * t * q[0],
            (1 - t) ** 2 * p[1] + 2 * (1 - t) * t * ctrl[1] + t * t * q[1],
        )
        for t in (k / n for k in range(n + 1))
    ]


@lru_cache(maxsize=512)
def border_path(a: str, b: str) -> tuple[tuple[float, float], ...]:
    """The line drawn for the border a-b: straight, or bowed round third Areas' nodes it
    would otherwise cross (a straight line under a node reads as a border of that node).
    The bow crossing the fewest nodes wins, the smallest bow on a tie.

    Memoised (a few KB for every border): finding the bows is nearly all of the
    map layer's 250 ms, so a map layer dropped from the layer cache is redrawn in
    a fraction of that."""
    return tuple(_border_path(a, b))


def _border_path(a: str, b: str) -> list[tuple[float, float]]:
    pa: tuple[float, float] = (C.areas[a].x, C.areas[a].y)
    pb: tuple[float, float] = (C.areas[b].x, C.areas[b].y)
    others = [node_box(k) for k in C.areas if k not in (a, b)]

    def crossed(points: Sequence[tuple[float, float]]) -> int:
        return sum(1 for box in others if any(_hits(points[i], points[i + 1], box, 2) for i in range(len(points) - 1)))

    best: list[tuple[float, float]] = [pa, pb]
    best_n = crossed(best)
    if best_n == 0:
        return best
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    length = max(1.0, ((pb[0] - pa[0]) ** 2 + (pb[1] - pa[1]) ** 2) ** 0.5)
    nx, ny = -(pb[1] - pa[1]) / length, (pb[0] - pa[0]) / length
    for bow in range(20, int(min(140, 0.45 * length)) + 1, 20):
        for sign in (1, -1):
            path = _bezier(pa, (mx + sign * bow * nx, my + sign * bow * ny), pb)
            if not all(4 <= x <= WIDTH - 4 and 4 <= y <= MAP_H - 4 for x, y in path):
                continue
            n = crossed(path)
            if n < best_n:
                best, best_n = path, n
                if n == 0:
                    return best
    return best


@cached_layer(maxsize=2)
def map_layer(width: int = WIDTH) -> PILImage.Image:
    """Seas, borders and the Area nodes with names and terrain marks: drawn once."""
    c = Canvas.blank(width, MAP_H, PAPER)
    d = c.d
    for sea in C.seas.values():
        for a in sea.borders:
            ar = C.areas[a]
            d.line([sea.x, sea.y, ar.x, ar.y], fill=tint(SEA_BLUE, 0.8), width=2)
    seen = set()
    for a, near in C.adjacent.items():
        for b in near:
            if (b, a) in seen:
                continue
            seen.add((a, b))
            path = border_path(a, b)
            if frozenset((a, b)) in C.straits:
                for p, q in zip(path, path[1:], strict=False):  # consecutive points
                    _dashed(d, p, q, SEA_BLUE, 3, dash=max(2, int(10 if len(path) == 2 else 5)))
            else:
                d.line(path, fill=(150, 140, 120), width=3, joint="curve")
    for sea in C.seas.values():
        w = int(font(SMALL).getlength(sea.name)) + 14
        box = Box(sea.x - w // 2, sea.y - 14, w, 28)
        d.rounded_rectangle(box.rect, radius=12, fill=SEA_FILL, outline=SEA_BLUE, width=2)
        c.text(sea.x, sea.y, sea.name, SMALL, fill=SEA_BLUE, anchor="mm")
    for area in C.areas.values():
        box = node_box(area.id)
        color = REGION_COLORS.get(area.region, RULE)
        d.rounded_rectangle(box.rect, radius=9, fill=tint(color, 0.82), outline=color, width=4)
        name = SHORT_NAMES.get(area.name, area.name)
        c.text(area.x, box.y + 4, name, SMALL, bold=False, fill=INK, anchor="ma", max_width=NODE_W - 4)
        if area.terrain in TERRAIN_ICON:
            c.icon(TERRAIN_ICON[area.terrain], box.x + 6, box.y + 26, 16)
    return c.im


# ---- pieces -------------------------------------------------------------------
def last_area(view: Mapping[str, Any]) -> str | None:
    """The Area the last move named (`place ur`, `raid babylon`, ...), to highlight it."""
    moves = view.get("last_move") or []
    if not moves:
        return None
    word = moves[0].rsplit(" ", 1)[-1]
    return word if word in C.areas else None


def draw_pieces(c: Canvas, view: Mapping[str, Any], top: int) -> None:
    battle = (view.get("round") or {}).get("battle")
    last = last_area(view)
    wonder_at = {a: w for w, a in view.get("wonders", {}).items()}
    for area in C.areas.values():
        box = node_box(area.id)
        box = Box(box.x, box.y + top, box.w, box.h)
        if area.id == battle:
            c.d.rounded_rectangle(
                [box.x - 5, box.y - 5, box.right + 5, box.bottom + 5], radius=12, outline=HIGHLIGHT_EDGE, width=5
            )
        elif area.id == last:
            c.d.rounded_rectangle(
                [box.x - 5, box.y - 5, box.right + 5, box.bottom + 5], radius=12, outline=HIGHLIGHT, width=5
            )
        x = box.x + 28
        for _ in view.get("cities", {}).get(area.id, [])[:3]:
            c.icon("cradle-city", x, box.y + 25, 16)
            x += 18
        if area.id in wonder_at:
            c.icon("cradle-wonder", box.right - 24, box.y + 24, 20)
        info = view.get("board", {}).get(area.id)
        if info:
            draw_chip(c, Box(box.x + 4, box.y + 43, box.w - 8, 24), info)


# ---- the score panel and the whole image -------------------------------------------
#: the text width of one column of the score panel
ROW_TEXT_W = (WIDTH - 2 * MARGIN - 20) // 2 - 50


def row_height(rows) -> int:
    """A player's block in the score panel: name, cards, and the Regions on one line — two when
    some player's Regions need them (wide empires late in the game)."""
    region_lines = max([len(wrap(r[3], ROW_TEXT_W, SMALL, max_lines=2)) for r in rows] or [1])
    return line_height(TEXT) + (1 + region_lines) * line_height(SMALL) + 10


def summary_notes(view: Mapping[str, Any]) -> list[str]:
    """While Civilizations are allocated, the Epoch's summary card (1.5), wrapped to the score panel."""
    return wrap(summary_line(view), WIDTH - 2 * MARGIN - 30, SMALL) if view.get("phase") == "allocate" else []


LEGEND = [
    LegendItem("cradle-mountain", "Mountain: stack 1, defender 2 dice"),
    LegendItem("cradle-rough", "Rough: stack 2, defender wins ties"),
    LegendItem("cradle-desert", "Desert: stack 1"),
    LegendItem(None, "Plains (no mark): stack 3"),
    LegendItem("cradle-city", "City"),
    LegendItem("cradle-wonder", "Wonder"),
    LegendItem(
        None,
        "R: raiders (upside down) · framed: in its round · *: this Epoch's card · P/C/D: presence/control/domination",
    ),
]


def draw(view: Mapping[str, Any], header: Header | None = None, private: Sequence[str] = ()) -> PILImage.Image:
    """The board; a seat's private image (private.py) passes its own header and the seat's
    private lines, drawn highlighted under the scores."""
    header = header or header_for(view)
    rows = player_lines(view)
    notes = summary_notes(view)
    hh = header_height(header)
    row_h = row_height(rows)
    n_rows = (len(rows) + 1) // 2
    panel_h = MARGIN + n_rows * row_h + len(private) * line_height(TEXT) + len(notes) * line_height(SMALL) + MARGIN
    lh = legend_height(LEGEND)
    c = Canvas.blank(WIDTH, hh + MAP_H + panel_h + lh, PAPER)
    c.im.paste(map_layer(WIDTH), (0, hh))
    draw_header(c, header)
    draw_pieces(c, view, hh)
    y = hh + MAP_H
    box = Box(MARGIN, y, WIDTH - 2 * MARGIN, panel_h - MARGIN // 2)
    c.panel(box, fill=PANEL)
    winners = set(view.get("winners") or [])
    col_w = (box.w - 20) // 2
    for k, (s, head, cards, regions) in enumerate(rows):
        x = box.x + 10 + (k % 2) * col_w
        yy = y + MARGIN // 2 + 4 + (k // 2) * row_h
        color = seat_color(s)
        c.d.ellipse([x, yy + 2, x + 30, yy + 32], fill=color, outline=INK, width=2)
        c.text(x + 15, yy + 17, seat_letter(s), SMALL, bold=True, fill=ink_on(color), anchor="mm")
        won = " · winner" if s in winners else ""
        c.text(x + 40, yy + 2, head + won, TEXT, bold=True, fill=INK, max_width=col_w - 50)
        c.text(x + 40, yy + 2 + line_height(TEXT), cards, SMALL, fill=MUTED, max_width=col_w - 50)
        c.paragraph(
            x + 40, yy + 2 + line_height(TEXT) + line_height(SMALL), regions, col_w - 50, SMALL, fill=MUTED, max_lines=2
        )
    yy = y + MARGIN // 2 + 4 + n_rows * row_h
    for line in notes:
        c.text(box.x + 14, yy, line, SMALL, fill=INK, max_width=box.w - 30)
        yy += line_height(SMALL)
    for line in private:
        c.d.rectangle([box.x + 8, yy, box.right - 8, yy + line_height(TEXT)], fill=tint(HIGHLIGHT, 0.4))
        c.text(box.x + 14, yy + 1, line, TEXT, fill=INK, max_width=box.w - 30)
        yy += line_height(TEXT)
    draw_legend(c, LEGEND, hh + MAP_H + panel_h)
    return c.im
