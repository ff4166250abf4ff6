"""Rise of Empires' map image: the world map with every player's cubes (issue 26).

Drawn from `engine.rise_of_empires` views only (everything in this game is public).
Layout, 1200 px wide: the header; a key of the players in turn order (their colour,
letter and VP); the schematic world map — regions coloured by era, each with its
name, banner VP and income symbol, the borders, and each player's cubes as a chip
in the player's colour and letter with the count beside it, the controller crowned;
the regions of the last move (`highlight`) framed amber. Every text on it is at
least `MAP_TEXT` (7 px when a phone shows the image 450 px wide); the action
display, the tiles on offer, the players' tracks and the legend are the tables
image (tables.py).

The map background (regions, borders, labels) is a static layer cached per
(regions, borders, era); each render only draws the pieces on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image as PILImage

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
    Header,
    KeyEntry,
    cached_layer,
    draw_header,
    draw_player_key,
    measure,
)
from renderers.common import map_top as common_map_top

from .labels import INCOME_WORD, header_for
from .parts import RoeCanvas, chip, chip_width

ERA_FILL = {1: (250, 243, 222), 2: (232, 212, 170), 3: (205, 176, 140)}  # white, tan, brown (2.1)
SEA_FILL = (190, 222, 242)
CLOSED = (214, 210, 202)

MAP_H = 860
NODE_W, NODE_H = 160, 150
TITLE = 24
NAME = 22
#: Where a node's cube chips start (below its name, banner VP and income symbol), their row height.
CUBES_Y, CUBE_ROW, CUBE = 94, 28, 24
#: How much lower a sea's words and cubes sit in its ellipse.
SEA_DY = 12
#: A name no smaller than this (regular) widens its node: "Northern Europe" is not cut.
NAME_MIN = 20


# ---- geometry ---------------------------------------------------------------------------------
def map_box(top: int) -> Box:
    return Box(MARGIN, top, WIDTH - 2 * MARGIN, MAP_H)


def centre(box: Box, x: int, y: int) -> tuple[float, float]:
    """Data coordinates (x 0-1000, y 0-620; the topmost regions at y 55) -> pixels inside the map panel."""
    inner_w = box.w - 2 * (NODE_W // 2 + 8)
    return (box.x + NODE_W // 2 + 8 + x / 1000 * inner_w, box.y + 70 + y / 620 * (box.h - 70 - NODE_H // 2 - 14))


def node_box(box: Box, region: Mapping[str, Any]) -> Box:
    """A region's node: a sea is a wider ellipse; a long name widens its node (its neighbours
    lie far enough: "Northern Europe" is 188 px from Eastern Europe's centre)."""
    cx, cy = centre(box, region["x"], region["y"])
    w = NODE_W + 60 if region.get("sea") else max(NODE_W, int(measure(region.get("name", ""), NAME_MIN)) + 14)
    return Box(int(cx - w / 2), int(cy - NODE_H / 2), w, NODE_H)


def map_top(view: Mapping[str, Any], head: Header | None = None) -> int:
    """Where the map starts on the map image (under the header and the player key)."""
    return common_map_top(head or header_for(view), key_entries(view))


def turn_order(view: Mapping[str, Any]) -> list[int]:
    """The seats in turn order (the view's colours in order), else in seat order."""
    players = view.get("players") or []
    found = [next((p["seat"] for p in players if p["colour"] == col), None) for col in view.get("order") or []]
    return [s for s in found if s is not None] or [p["seat"] for p in players]


def key_entries(view: Mapping[str, Any]) -> list[KeyEntry]:
    """Each player in turn order: colour and letter, name and VP; the players to act framed."""
    players = view.get("players") or []
    acting = set(view.get("to_act") or [])
    return [KeyEntry(s, f"{players[s]['name']} {players[s]['vp']} VP", s in acting) for s in turn_order(view)]


# ---- the static map layer ----------------------------------------------------------------------
@cached_layer(maxsize=16)
def map_layer(regions: tuple[tuple[Any, ...], ...], borders: tuple[tuple[str, str], ...], era: int) -> PILImage.Image:
    """Regions, borders and fixed labels for one era (closed regions greyed)."""
    c = Canvas.blank(WIDTH, MAP_H + MARGIN, PAPER, MAP_TEXT)
    box = map_box(0)
    c.panel(box, fill=(228, 238, 244))
    c.text(box.x + 12, box.y + 8, "World map", TITLE, bold=True)
    by_id = {r[0]: r for r in regions}
    for a, b in borders:
        ra, rb = by_id[a], by_id[b]
        c.d.line([centre(box, ra[5], ra[6]), centre(box, rb[5], rb[6])], fill=(120, 112, 98), width=4)
    for area, label in (("new_world", "New World"), ("far_east", "Far East")):
        members = [r for r in regions if r[4] == area]
        if not members:
            continue
        boxes = [node_box(box, {"x": r[5], "y": r[6], "name": r[1]}) for r in members]
        frame = Box(
            min(b.x for b in boxes) - 6,
            min(b.y for b in boxes) - 32,
            max(b.right for b in boxes) - min(b.x for b in boxes) + 12,
            max(b.bottom for b in boxes) - min(b.y for b in boxes) + 38,
        )
        for i in range(frame.x, frame.right, 16):
            c.d.line([i, frame.y, min(i + 8, frame.right), frame.y], fill=MUTED, width=2)
            c.d.line([i, frame.bottom, min(i + 8, frame.right), frame.bottom], fill=MUTED, width=2)
        c.text(frame.x + frame.w / 2, frame.y + 4, label, MAP_TEXT, bold=True, fill=MUTED, anchor="ma")
    for _rid, name, r_era, sea, _area, x, y, control, second, income, amount in regions:
        nb = node_box(box, {"x": x, "y": y, "sea": sea, "name": name})
        open_ = r_era <= era
        fill = (SEA_FILL if sea else ERA_FILL.get(r_era, PANEL)) if open_ else CLOSED
        if sea:
            c.d.ellipse(nb.rect, fill=fill, outline=(60, 100, 140), width=3)
        else:
            c.d.rounded_rectangle(nb.rect, radius=12, fill=fill, outline=(90, 80, 64), width=3)
        top = nb.y + (SEA_DY if sea else 0)  # an ellipse is narrow at its top: a sea's words sit lower
        room = NODE_W - 10 if sea else nb.w - 10
        bold = measure(name, NAME, True) <= room
        c.text(nb.x + nb.w / 2, top + 6, name, NAME, bold=bold, anchor="ma", max_width=room)
        symbol = f"+{amount} {INCOME_WORD[income]}" if income in INCOME_WORD and amount else "no symbol"
        ink = INK if open_ else MUTED
        banner = f"VP {control}/{second}" + ("" if open_ else f" · Era {'I' * r_era}")
        c.text(nb.x + nb.w / 2, top + 35, banner, MAP_TEXT, fill=ink, anchor="ma", max_width=room)
        c.text(nb.x + nb.w / 2, top + 59, symbol, MAP_TEXT, fill=ink, anchor="ma", max_width=room)
    return c.im


def _region_key(view: Mapping[str, Any]) -> tuple[tuple[Any, ...], ...]:
    return tuple(
        (
            r["id"],
            r["name"],
            r["era"],
            r["sea"],
            r["area"],
            r["x"],
            r["y"],
            r["control_vp"],
            r["second_vp"],
            r["income"],
            r["income_amount"],
        )
        for r in view.get("regions", [])
    )


# ---- the pieces ------------------------------------------------------------------------------------
def cube_rows(nb: Box, present: Sequence[tuple[str, int]]) -> list[list[tuple[str, int, int]]]:
    """The node's chips (colour, count) in rows that fit its width, each with its width."""
    rows: list[list[tuple[str, int, int]]] = [[]]
    used = 0
    for colour, n in present:
        w = chip_width(str(n), CUBE)
        if rows[-1] and used + w > nb.w - 12:
            rows.append([])
            used = 0
        rows[-1].append((colour, n, w))
        used += w
    return rows


def _cubes(c: Canvas, view: Mapping[str, Any], box: Box, colours: Sequence[str], highlight: set[str]) -> None:
    for r in view.get("regions", []):
        nb = node_box(box, r)
        if r["id"] in highlight:
            if r.get("sea"):
                c.d.ellipse(nb.inset(-5).rect, outline=HIGHLIGHT_EDGE, width=5)
            else:
                c.highlight(nb.inset(-5), width=5, radius=14)
        counts = r.get("cubes") or []
        control = set(r.get("control") or [])
        present = [(colours[s] if s < len(colours) else "white", n) for s, n in enumerate(counts) if n > 0]
        crowned = {colours[s] for s in control if s < len(colours)}
        for k, row in enumerate(cube_rows(nb, present)):
            x = nb.x + (nb.w - sum(w for _, _, w in row)) / 2 + 4
            y = nb.y + CUBES_Y + k * CUBE_ROW + (SEA_DY if r.get("sea") else 0)
            for colour, n, w in row:
                chip(c, colour, x, y, str(n), CUBE)
                if colour in crowned:  # the controller: a crown on the chip's corner
                    c.icon("crown", int(x - 8), int(y - 12), 20)
                x += w


def places(view: Mapping[str, Any]) -> set[str]:
    """The places the map image names, as the view names them: every region (its name on it)."""
    return {r["id"] for r in view.get("regions") or []}


def place_boxes(view: Mapping[str, Any]) -> dict[str, list[Box]]:
    """Where each region is drawn on the map image (its node)."""
    box = map_box(map_top(view))
    return {r["id"]: [node_box(box, r)] for r in view.get("regions") or []}


def place_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Each region in words, as its node names it."""
    return {r["id"]: r["name"] for r in view.get("regions") or []}


# ---- the whole image --------------------------------------------------------------------------------
def draw(view: Mapping[str, Any], highlight: Sequence[str] = (), head: Header | None = None) -> PILImage.Image:
    """The map image; `highlight`: regions of the last move (others are ignored). A seat's image
    (private.py) passes its own header, naming the viewer."""
    players = view.get("players") or []
    colours = [p["colour"] for p in players]
    head = head or header_for(view)
    top = map_top(view, head)
    c = RoeCanvas(PILImage.new("RGB", (WIDTH, top + MAP_H + MARGIN), PAPER), MAP_TEXT)
    c.colours = colours
    layer = map_layer(_region_key(view), tuple(tuple(b) for b in view.get("borders") or []), int(view.get("era", 1)))
    c.paste(layer, 0, top)
    draw_player_key(c, key_entries(view), draw_header(c, head))
    _cubes(c, view, map_box(top), colours, set(highlight) & places(view))
    return c.im
