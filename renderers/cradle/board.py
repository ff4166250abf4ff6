"""Cradle of Civilization's map image: the schematic map of the Ancient Near East (issue 26).

Drawn from a view only (law 5): the header (Epoch, phase, the Civilization in
its round and its Army Pool, who acts, the last move), a key of the players'
letters and VP, the map (Areas as nodes in their Region's colour with terrain
marks, Cities and Wonders; land borders and straits — bowed round any third
Area's node they would run under, so a border never seems to belong to the wrong
Area; seas), the Armies on it (a chip per Area, parts.py; the Civilization in its
round is framed, the others are inactive; raiders are drawn upside down; a battle
and the Areas of the last move, `highlight`, are framed). Every text on it is at
least `MAP_TEXT` (7 px when a phone shows the image 450 px wide; a long Area name
is written condensed, never cut); the score panel and the legend are the tables
image (tables.py). The static map is drawn once and cached (`cached_layer`); each
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
    HIGHLIGHT_EDGE,
    INK,
    MAP_TEXT,
    PAPER,
    RULE,
    WIDTH,
    Box,
    Canvas,
    Header,
    KeyEntry,
    cached_layer,
    draw_header,
    draw_player_key,
    measure,
    tint,
)
from renderers.common import map_top as common_map_top
from renderers.common.palette import RGB

from .labels import SHORT_NAMES, header_for
from .parts import TERRAIN_ICON, draw_chip

C = components()

MAP_H = 1010
NODE_W, NODE_H = 106, 70
SEA_BLUE = (40, 110, 170)
SEA_FILL = (214, 232, 245)
#: An Area's name on its node (a long one condensed: nodes are as wide as their neighbours allow).
NAME = 20

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


@lru_cache(maxsize=32)
def sea_condensed(sea: str) -> bool:
    """Is the sea's name written condensed (its label would touch an Area's node otherwise)?"""
    return any(_overlaps(_sea_box(sea, False), node_box(a)) for a in C.areas)


def sea_box(sea: str) -> Box:
    """The sea's label on the map."""
    return _sea_box(sea, sea_condensed(sea))


def _sea_box(sea: str, condensed: bool) -> Box:
    s = C.seas[sea]
    w = int(measure(s.name, MAP_TEXT, False, condensed)) + 16
    return Box(s.x - w // 2, s.y - 15, w, 30)


def _overlaps(a: Box, b: Box) -> bool:
    return not (a.right < b.x or b.right < a.x or a.bottom < b.y or b.bottom < a.y)


def area_label(area: str) -> str:
    """The name written on an Area's node (the map's abbreviations: "N. Zagros")."""
    name = C.areas[area].name
    return SHORT_NAMES.get(name, name)


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
    c = Canvas.blank(width, MAP_H, PAPER, MAP_TEXT)
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
        box = sea_box(sea.id)
        d.rounded_rectangle(box.rect, radius=12, fill=SEA_FILL, outline=SEA_BLUE, width=2)
        c.text(sea.x, sea.y, sea.name, MAP_TEXT, fill=SEA_BLUE, anchor="mm", max_width=box.w - 14)
    for area in C.areas.values():
        box = node_box(area.id)
        color = REGION_COLORS.get(area.region, RULE)
        d.rounded_rectangle(box.rect, radius=9, fill=tint(color, 0.82), outline=color, width=4)
        c.text(area.x, box.y + 3, area_label(area.id), NAME, fill=INK, anchor="ma", max_width=NODE_W - 4)
        if area.terrain in TERRAIN_ICON:
            c.icon(TERRAIN_ICON[area.terrain], box.x + 6, box.y + 26, 16)
    return c.im


# ---- pieces -------------------------------------------------------------------
def draw_pieces(c: Canvas, view: Mapping[str, Any], top: int, highlight: set[str]) -> None:
    battle = (view.get("round") or {}).get("battle")
    wonder_at = {a: w for w, a in view.get("wonders", {}).items()}
    for area in C.areas.values():
        box = node_box(area.id)
        box = Box(box.x, box.y + top, box.w, box.h)
        if area.id == battle or area.id in highlight:
            c.d.rounded_rectangle(
                [box.x - 5, box.y - 5, box.right + 5, box.bottom + 5], radius=12, outline=HIGHLIGHT_EDGE, width=5
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
    for sea in sorted(highlight & set(C.seas)):
        c.highlight(sea_box(sea).inset(-4).moved(0, top), width=4, radius=14)


def places(view: Mapping[str, Any]) -> set[str]:
    """The places the map image names: every Area (its name on its node) and sea."""
    return set(C.areas) | set(C.seas)


def place_boxes(view: Mapping[str, Any]) -> dict[str, list[Box]]:
    """Where each place is drawn on the map image."""
    top = map_top(view)
    out = {a: [node_box(a).moved(0, top)] for a in C.areas}
    out.update({s: [sea_box(s).moved(0, top)] for s in C.seas})
    return out


def place_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each place of `places(view)` in words: an Area's or a sea's name."""
    return {a: area.name for a, area in C.areas.items()} | {s: sea.name for s, sea in C.seas.items()}


# ---- the whole image -----------------------------------------------------------
def map_top(view: Mapping[str, Any], header: Header | None = None) -> int:
    """Where the map starts on the map image (under the header and the player key)."""
    return common_map_top(header or header_for(view), key_entries(view))


def key_entries(view: Mapping[str, Any]) -> list[KeyEntry]:
    """Each player's letter, name and VP (the Armies' chips carry the letters); those to act framed."""
    acting = set(view.get("to_act") or [])
    return [KeyEntry(p["seat"], f"{p['name']} {p['vp']} VP", p["seat"] in acting) for p in view.get("players", [])]


def draw(view: Mapping[str, Any], highlight: Sequence[str] = (), header: Header | None = None) -> PILImage.Image:
    """The map image; `highlight`: Areas and seas of the last move (others are ignored). A seat's
    image (private.py) passes its own header, naming the viewer."""
    header = header or header_for(view)
    top = map_top(view, header)
    c = Canvas.blank(WIDTH, top + MAP_H, PAPER, MAP_TEXT)
    c.paste(map_layer(WIDTH), 0, top)
    draw_player_key(c, key_entries(view), draw_header(c, header))
    draw_pieces(c, view, top, set(highlight) & places(view))
    return c.im
