"""Mosaic's map image: the hex map and each region's influence and units (issue 26).

Drawn from a view only (DESIGN.md, Rendering): the header; a key of the players'
letters and scores; the hex map with region colours, ports, cities, port cities,
towns, wonders, trade goods, caches, each hex's number, the hexes an open decision
offers (framed green) and the places of the last move (`highlight`, framed amber);
then influence and military units per region. Every text on it is at least
`MAP_TEXT` (7 px when a phone shows the image 450 px wide); the player panels,
final tally, offers and legend are the tables image (tables.py). The static map
(sea, hexes, ports, region names, hex numbers) is a cached layer per set of regions
in play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from engine.mosaic.data import load
from renderers.common import (
    HIGHLIGHT_EDGE,
    INK,
    MAP_TEXT,
    MARGIN,
    MUTED,
    PANEL,
    PAPER,
    WIDTH,
    Box,
    Canvas,
    KeyEntry,
    cached_layer,
    draw_header,
    draw_player_key,
    map_top,
    measure,
    player_color,
    player_letter,
    tint,
)

from .labels import GOOD_ABBR, header_for
from .parts import (
    MAP_H,
    NUMBER_DY,
    PIECE_DY,
    PIECE_HALF,
    R,
    centre,
    draw_piece,
    hex_number,
    hex_points,
    paste_label,
    rgb,
)

SEA = (168, 200, 222)
OUT_OF_PLAY = (190, 186, 178)
#: A hex's number: dark, at the top of the hex, above the piece, tile or ship drawn on it.
NUMBER_INK = (40, 34, 28)
REGION_TEXT = 26


@cached_layer(maxsize=8)
def _map_layer(in_play: tuple[str, ...]) -> PILImage.Image:
    """The static map: sea, hexes in region colours (greyed when out of play), ports, region names,
    and each hex's number at its top edge: a choice names a hex by its region and number
    ("Assyria 12", engine/mosaic/choices.py), so every hex can be found on any board image."""
    d = load()
    ss = 2
    im = PILImage.new("RGB", (WIDTH * ss, MAP_H * ss), SEA)
    dr = ImageDraw.Draw(im)
    for h in d.hexes.values():
        cx, cy = centre(h.px)
        colour = rgb(d.regions[h.region].colour) if h.region in in_play else OUT_OF_PLAY
        if h.kind == "port":
            colour = tint(colour, 0.45)
        dr.polygon([(x * ss, y * ss) for x, y in hex_points(cx, cy, R - 1)], fill=colour, outline=(80, 70, 60))
        if h.kind == "port":
            # a small ship low in the hex: hull and sail
            x, y = cx * ss, (cy + R * 0.58) * ss
            w = R * 0.36 * ss
            dr.polygon(
                [(x - w, y), (x + w, y), (x + w * 0.6, y + w * 0.45), (x - w * 0.6, y + w * 0.45)], fill=(60, 80, 120)
            )
            dr.polygon([(x, y - w * 0.9), (x, y - w * 0.1), (x + w * 0.7, y - w * 0.1)], fill=(250, 250, 250))
    im = im.resize((WIDTH, MAP_H), PILImage.Resampling.LANCZOS)
    c = Canvas(im, MAP_TEXT)
    for reg, r in d.regions.items():
        box = region_label_box(reg)
        label = r.name  # greyed with its hexes when out of play (the legend says so)
        c.text(
            box.x + box.w / 2,
            box.bottom,
            label,
            REGION_TEXT,
            bold=True,
            fill=INK if reg in in_play else MUTED,
            anchor="mb",
        )
    for h in d.hexes.values():
        if h.region in in_play:
            cx, cy = centre(h.px)
            c.text(cx, cy + NUMBER_DY, hex_number(h.id), MAP_TEXT, bold=True, fill=NUMBER_INK, anchor="mm")
    return c.im


@lru_cache(maxsize=64)
def region_label_box(reg: str) -> Box:
    """Where a region's name is written on the map (map coordinates): the sea spot nearest to
    just above the region, so it never covers a hex."""
    d = load()
    centres = [centre(h.px) for h in d.hexes.values()]
    xs = [centre(d.hexes[h].px) for h in d.region_hexes[reg]]
    mx = sum(x for x, _ in xs) / len(xs)
    top = min(y for _, y in xs)
    label = d.regions[reg].name
    w = measure(label, REGION_TEXT, True)
    lx, ly = _label_spot(label, mx, top - R - 4, centres)
    return Box(int(lx - w / 2), int(ly - REGION_TEXT - 4), int(w), REGION_TEXT + 4)


def places(view: Mapping[str, Any]) -> set[str]:
    """The places the map image names, as the view names them: each region in play (its name
    above it) and each hex in one (its number on it; with the region's name that is how choices
    name a hex, "Assyria 12"). Choices may refer only to these (tests/engine/mosaic/test_choices.py)."""
    d = load()
    in_play = {r["id"] for r in view["regions"] if r["in_play"]}
    return in_play | {h for h, x in d.hexes.items() if x.region in in_play}


def place_boxes(view: Mapping[str, Any]) -> dict[str, list[Box]]:
    """Where each place of `places(view)` is drawn on the map image: a hex's bounding box; a
    region's name on the map and its row of the influence panel."""
    d = load()
    lay = Layout.of(view)
    in_play = tuple(r["id"] for r in view["regions"] if r["in_play"])
    out: dict[str, list[Box]] = {}
    for h, x in d.hexes.items():
        if x.region in in_play:
            cx, cy = centre(x.px)
            out[h] = [Box(int(cx - R), int(lay.map_top + cy - R), int(2 * R), int(2 * R))]
    for i, reg in enumerate(in_play):
        label = region_label_box(reg)
        out[reg] = [Box(label.x, label.y + lay.map_top, label.w, label.h), lay.influence_row(i)]
    return out


def place_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each place of `places(view)` in words, as the choices name it: a region's name, a hex's
    region and number ("Assyria 12")."""
    d = load()
    out = {reg: d.regions[reg].name for reg in d.regions}
    out.update({h: f"{d.regions[x.region].name} {hex_number(h)}" for h, x in d.hexes.items()})
    return out


def _label_spot(label: str, mx: float, my: float, centres: list[tuple[float, float]]) -> tuple[float, float]:
    """Where a region name goes: the sea spot nearest to just above the region, so it never covers a hex.

    (mx, my) is the wished bottom-centre; the label's box may not come within a hex radius of any hex
    centre nor leave the map.
    """
    w, h = measure(label, REGION_TEXT, True) + 8, REGION_TEXT + 4
    clear = R * 0.95
    near = [(cx, cy) for cx, cy in centres if abs(cx - mx) < 320 + w / 2 + clear and abs(cy - my) < 240 + h + clear]

    def free(x: float, y: float) -> bool:
        if x - w / 2 < 2 or x + w / 2 > WIDTH - 2 or y - h < 2 or y > MAP_H - 2:
            return False
        return all(
            not (x - w / 2 - clear < cx < x + w / 2 + clear and y - h - clear < cy < y + clear) for cx, cy in near
        )

    for dx, dy in _SPOTS:
        if free(mx + dx, my + dy):
            return mx + dx, my + dy
    return min(max(mx, w / 2), WIDTH - w / 2), max(h, my)


#: Offsets tried for a region name, nearest first (vertical moves count double: names belong above).
_SPOTS = sorted(
    ((dx, dy) for dy in range(-240, 241, 8) for dx in range(-320, 321, 8)), key=lambda o: o[0] * o[0] + 2 * o[1] * o[1]
)


INF_TITLE = 44
INF_ROW = 42
INF_BADGE = 32
INF_TEXT = 22
#: The influence panel's row: a region's colour, its name, then its figures.
INF_NAME_X = 32


@dataclass(frozen=True)
class Influence:
    """One region's row of the influence panel: each seat's influence (first place marked) and
    military units, with the width the row needs."""

    region: Mapping[str, Any]
    influence: tuple[tuple[int, int, bool], ...]  # (seat, influence, first place)
    units: tuple[tuple[int, int], ...]  # (seat, units)

    @classmethod
    def rows(cls, view: Mapping[str, Any]) -> list[Influence]:
        units: dict[str, list[tuple[int, int]]] = {}
        for p in view["players"]:
            for reg, k in p.get("units", {}).items():
                if k:
                    units.setdefault(reg, []).append((p["seat"], k))
        out = []
        for r in view["regions"]:
            if r["in_play"]:
                top = max(r["influence"], default=0)
                figures = tuple((seat, v, v == top) for seat, v in enumerate(r["influence"]) if v)
                out.append(cls(r, figures, tuple(units.get(r["id"], []))))
        return out

    @staticmethod
    def figure_w(v: int) -> int:
        return INF_BADGE + 4 + int(measure(str(v), INF_TEXT, True)) + 18

    @staticmethod
    def unit_w(seat: int, k: int) -> int:
        return 36 + int(measure(f"{player_letter(seat)}×{k}", INF_TEXT)) + 12

    def width(self, name_w: float) -> int:
        return int(
            8
            + INF_NAME_X
            + name_w
            + 24
            + sum(self.figure_w(v) for _, v, _ in self.influence)
            + sum(self.unit_w(s, k) for s, k in self.units)
        )


@dataclass(frozen=True)
class Layout:
    """Where the map image's parts go (the same in `draw` and `place_boxes`): the influence panel
    has two columns of regions when every row fits in half the width."""

    map_top: int
    regions: int
    columns: int
    name_w: float

    @classmethod
    def of(cls, view: Mapping[str, Any]) -> Layout:
        rows = Influence.rows(view)
        name_w = max((measure(r.region["name"], INF_TEXT, True) for r in rows), default=0)
        half = (WIDTH - 2 * MARGIN - 12) // 2 - 8
        columns = 2 if all(r.width(name_w) <= half for r in rows) else 1
        return cls(map_top(header_for(view), key_entries(view)), len(rows), columns, name_w)

    @property
    def influence_top(self) -> int:
        return self.map_top + MAP_H + 8

    @property
    def influence_h(self) -> int:
        return INF_TITLE + -(-self.regions // self.columns) * INF_ROW + 12

    @property
    def height(self) -> int:
        return self.influence_top + self.influence_h + MARGIN

    def influence_row(self, i: int) -> Box:
        inner = Box(MARGIN + 6, self.influence_top + INF_TITLE, WIDTH - 2 * MARGIN - 12, INF_ROW)
        col = inner.columns(self.columns, 16)[i % self.columns]
        return Box(col.x, col.y + (i // self.columns) * INF_ROW, col.w, INF_ROW)


def key_entries(view: Mapping[str, Any]) -> list[KeyEntry]:
    """Each player's letter, name and score, the players to act framed."""
    acting = set(view.get("to_act") or [])
    return [KeyEntry(p["seat"], f"{p['name']} · score {p['score']}", p["seat"] in acting) for p in view["players"]]


def _draw_map(c: Canvas, view: Mapping[str, Any], y0: int, highlight: set[str]) -> None:
    d = load()
    in_play = tuple(r["id"] for r in view["regions"] if r["in_play"])
    c.paste(_map_layer(in_play), 0, y0)
    goods = view.get("trade_goods", {})
    caches = set(view.get("caches", []))
    fish = set(view.get("fish", []))
    for h, good in goods.items():
        cx, cy = centre(d.hexes[h].px)
        paste_label(c, GOOD_ABBR.get(good, good[:2].title()), cx, cy + y0 + PIECE_DY)
    for h in caches:
        cx, cy = centre(d.hexes[h].px)
        cy += y0 + PIECE_DY
        r = PIECE_HALF
        c.d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(250, 240, 200), outline=INK, width=2)
        paste_label(c, "?", cx, cy + 1, bold=True)
    for h in fish:
        if d.hexes[h].region in in_play:
            cx, cy = centre(d.hexes[h].px)
            paste_label(c, "Fi", cx, cy + y0 - R * 0.05)
    for h in (view.get("pending") or {}).get("hexes", []):
        # The open decision asks for a hex: frame the choices (their numbers are on every hex).
        cx, cy = centre(d.hexes[h].px)
        c.d.polygon(hex_points(cx, cy + y0, R + 2), outline=(20, 120, 60), width=4)
    for piece in view.get("pieces", []):
        cx, cy = centre(d.hexes[piece["hex"]].px)
        draw_piece(c, piece["kind"], piece["seat"], cx, cy + y0 + PIECE_DY)
    for h in sorted(highlight & set(d.hexes)):
        # the last move: framed in amber over everything, on the hex's edge (its number stays readable)
        cx, cy = centre(d.hexes[h].px)
        c.d.polygon(hex_points(cx, cy + y0, R + 3), outline=HIGHLIGHT_EDGE, width=5)
    for reg in sorted(highlight & set(in_play)):
        label = region_label_box(reg)
        c.highlight(Box(label.x - 8, label.y + y0 - 4, label.w + 16, label.h + 8), width=4, radius=8)


def _influence_panel(c: Canvas, view: Mapping[str, Any], lay: Layout, highlight: set[str]) -> None:
    """Influence per region (Empire Scoring: first place framed dark) and military units, a row
    per region in play; a region of the last move framed amber."""
    d = load()
    box = Box(MARGIN, lay.influence_top, WIDTH - 2 * MARGIN, lay.influence_h)
    c.panel(box, fill=PANEL)
    c.text(box.x + 12, box.y + 10, "Influence (dark frame: first place) and military units ▲", INF_TEXT, bold=True)
    for i, row in enumerate(Influence.rows(view)):
        r = row.region
        place = lay.influence_row(i)
        if r["id"] in highlight:
            c.highlight(place, width=4, radius=8)
        y = place.y + (INF_ROW - INF_BADGE) // 2
        mid = place.y + INF_ROW // 2
        x = place.x + 8
        c.d.rectangle([x, mid - 11, x + 22, mid + 11], fill=rgb(d.regions[r["id"]].colour), outline=INK)
        c.text(x + INF_NAME_X, mid, r["name"], INF_TEXT, bold=True, anchor="lm")
        x += int(INF_NAME_X + lay.name_w + 24)
        for seat, v, first in row.influence:
            w = Influence.figure_w(v) - 18
            if first:  # first place now (ties included), as Empire Scoring would pay it
                c.d.rounded_rectangle([x - 4, y - 3, x + w + 5, y + INF_BADGE + 3], radius=8, outline=INK, width=3)
            c.badge(seat, x, y, INF_BADGE)
            c.text(x + INF_BADGE + 4, mid, str(v), INF_TEXT, bold=True, anchor="lm")
            x += w + 18
        for seat, k in row.units:
            x += 6
            c.d.polygon([(x, mid + 12), (x + 12, mid - 12), (x + 24, mid + 12)], fill=player_color(seat), outline=INK)
            c.text(x + 30, mid, f"{player_letter(seat)}×{k}", INF_TEXT, anchor="lm")
            x += Influence.unit_w(seat, k) - 6


def draw(view: Mapping[str, Any], highlight: Sequence[str] = ()) -> PILImage.Image:
    """The map image; `highlight`: hexes and regions of the last move (others are ignored)."""
    lay = Layout.of(view)
    marked = set(highlight) & places(view)
    c = Canvas.blank(WIDTH, lay.height, PAPER, MAP_TEXT)
    draw_player_key(c, key_entries(view), draw_header(c, header_for(view)))
    _draw_map(c, view, lay.map_top, marked)
    _influence_panel(c, view, lay, marked)
    return c.im
