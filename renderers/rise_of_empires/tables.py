"""Rise of Empires' tables image: the action display, the tiles on offer and the trade track,
the players' tracks and tiles in turn order, the legend (issue 26: what cannot be phone-sized
on the map image, board.py). Everything in this game is public.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image as PILImage

from renderers.common import (
    HIGHLIGHT_EDGE,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PANEL_ALT,
    PAPER,
    RULE,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    below,
    draw_legend,
    legend_height,
    line_height,
    measure,
    tables_header,
    tint,
    wrap,
)

from .board import CLOSED, turn_order
from .labels import ROW_TITLES, header_for
from .parts import COLOURS, SMALL, RoeCanvas, disc

CIRCLE = 32
PANEL_H = 300
TITLE = 24
TEXT = 20

LEGEND = [
    LegendItem(None, "Map: lines are borders; New World and Far East only by water tiles (6.4.4)"),
    LegendItem(None, "Region colour = era: cream I, tan II, brown III; grey = not open yet"),
    LegendItem(None, "W/R/B/G/Y n = that player's cubes"),
    LegendItem("crown", "controls the region"),
    LegendItem(None, "VP a/b = banner: control / second place"),
    LegendItem(None, "amber frame: the last move"),
    LegendItem(None, "Action rows fill right to left; circle 1 is the rightmost"),
    LegendItem("vp", "victory points"),
    LegendItem("coin", "gold"),
]


def _action_display(c: Canvas, view: Mapping[str, Any], top: int, height: int = PANEL_H) -> int:
    rows = view.get("rows") or {}
    circles = view.get("circles") or {}
    box = Box(MARGIN, top, 560, height)
    c.panel(box)
    half = view.get("half", "A")
    tw = c.text(box.x + 12, box.y + 8, "Action display", TITLE, bold=True)
    c.text(
        box.x + 24 + tw,
        box.y + 12,
        "A turn: place a disc" if half == "A" else "B turn: remove; pay 1 per disc left",
        SMALL,
        fill=MUTED,
        max_width=box.w - tw - 36,
    )
    # Circle numbers, 1 = rightmost (the first disc placed): B-turn actions name them (`remove city 2`).
    right = box.right - 12
    widest = max([circles.get(r, len(rows.get(r) or [])) for r in ROW_TITLES] or [0])
    c.text(box.x + 12, box.y + 50, "circle", SMALL, fill=MUTED, anchor="lm")
    for i in range(widest):
        x = right - (i + 1) * (CIRCLE + 4)
        c.text(x + CIRCLE / 2, box.y + 50, str(i + 1), SMALL, bold=True, fill=MUTED, anchor="mm")
    y = box.y + 64
    for row in ("progress", "territory", "city", "empire", "trade"):
        cells = rows.get(row) or []
        n = circles.get(row, len(cells))
        c.text(box.x + 12, y + CIRCLE / 2, ROW_TITLES[row], TEXT, bold=True, anchor="lm")
        right = box.right - 12
        for i in range(n):
            x = right - (i + 1) * (CIRCLE + 4)
            colour = cells[i] if i < len(cells) else None
            if colour:
                disc(c, colour, x, y, CIRCLE)
            else:
                c.d.ellipse([x, y, x + CIRCLE, y + CIRCLE], outline=RULE, width=2, fill=PANEL_ALT)
        y += CIRCLE + 16
    return height


OFFER_W = WIDTH - 3 * MARGIN - 560
OFFER_TEXT_W = OFFER_W - 24 - 96


def _offer_lines(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The tiles on offer as (label, text) lines; every tile is named (the actions name them)."""
    offer = view.get("offer") or {}
    roman = {1: "I", 2: "II", 3: "III"}
    prog: dict[str, int] = {}
    for t in offer.get("progress") or []:
        key = f"{t['name']} {roman.get(t['era'], '')}"
        prog[key] = prog.get(key, 0) + 1
    terr: dict[str, int] = {}
    for t in offer.get("territory") or []:
        terr[t["name"]] = terr.get(t["name"], 0) + 1
    lines = [
        ("Progress", ", ".join(f"{k}" + (f" x{n}" if n > 1 else "") for k, n in prog.items()) or "none"),
        ("Territory", ", ".join(f"{k} x{n}" for k, n in terr.items()) or "none left"),
        (
            "City",
            ", ".join(
                f"{t['name']} {t['cost']}g {t['vp']}VP" + (" wonder" if t.get("wonder") else "")
                for t in offer.get("city") or []
            )
            or "none",
        ),
        ("Empire", ", ".join(offer.get("empire") or []) or "all taken"),
    ]
    return lines


def offer_height(view: Mapping[str, Any]) -> int:
    """Height of the two middle panels: enough for every tile on offer (never cut off), at least PANEL_H."""
    used = sum(max(len(wrap(text, OFFER_TEXT_W, SMALL)) * line_height(SMALL), 24) + 2 for _, text in _offer_lines(view))
    return max(PANEL_H, 42 + used + 2 * 30 + 12)


def _offer(c: Canvas, view: Mapping[str, Any], top: int, height: int) -> None:
    offer = view.get("offer") or {}
    box = Box(MARGIN + 560 + MARGIN, top, OFFER_W, height)
    c.panel(box)
    c.text(box.x + 12, box.y + 8, "Tiles on offer", TITLE, bold=True)
    x0 = box.x + 12
    y = box.y + 42
    for label, text in _offer_lines(view):
        c.text(x0, y, label, SMALL, bold=True)
        used = c.paragraph(x0 + 96, y, text, OFFER_TEXT_W, SMALL)
        y += max(used, 24) + 2
    c.text(x0, y, "Trade", SMALL, bold=True)
    x = x0 + 96
    for b in offer.get("trade") or []:
        label = f"{b['discs']}>{b['amount']}{'VP' if b['gain'] == 'vp' else 'g'}"
        tw = int(measure(label, SMALL)) + 12
        if x + tw + 30 > box.right - 8:
            x = x0 + 96
            y += 30
        fill = PANEL_ALT if b.get("open") else CLOSED
        c.d.rounded_rectangle([x, y - 2, x + tw, y + 24], radius=6, fill=fill, outline=RULE, width=2)
        c.text(x + 6, y, label, SMALL, fill=INK if b.get("open") else MUTED)
        if b.get("taken_by"):
            disc(c, b["taken_by"], x + tw - 10, y - 8, 22)
        x += tw + 10


def _player_lines(p: Mapping[str, Any], width: int) -> list[str]:
    """A player's tiles, wrapped to `width` (never cut: every tile is named)."""
    prog = ", ".join(t["name"] + (" (used)" if t.get("used") else "") for t in p.get("progress") or [])
    terr: dict[str, int] = {}
    for t in p.get("territories") or []:
        terr[t["name"]] = terr.get(t["name"], 0) + 1
    tiles = ", ".join(f"{k} x{n}" if n > 1 else k for k, n in terr.items())
    cities = ", ".join(f"{t['name']} {t['vp']}VP" for t in p.get("cities") or [])
    extra = []
    if p.get("empires"):
        extra.append("empire " + " / ".join(p["empires"]))
    if p.get("ally"):
        extra.append(f"allied with {p['ally']}")
    lines = wrap("Progress: " + (prog or "-"), width, SMALL)
    lines += wrap(
        "Territory: " + (tiles or "-") + " · Cities: " + (cities or "-") + (" · " + " · ".join(extra) if extra else ""),
        width,
        SMALL,
    )
    return lines


PLAYER_TEXT_W = WIDTH - 2 * MARGIN - 16 - 50
PLAYER_LINE = 24


def _player_row_height(p: Mapping[str, Any]) -> int:
    return 36 + len(_player_lines(p, PLAYER_TEXT_W)) * PLAYER_LINE + 8


def players_height(view: Mapping[str, Any]) -> int:
    return 44 + sum(_player_row_height(p) for p in view.get("players") or []) + 8


def _players(c: Canvas, view: Mapping[str, Any], top: int, colours: Sequence[str]) -> int:
    players = view.get("players") or []
    seats = turn_order(view)
    height = players_height(view)
    box = Box(MARGIN, top, WIDTH - 2 * MARGIN, height)
    c.panel(box)
    c.text(box.x + 12, box.y + 8, "Players in turn order", TITLE, bold=True)
    c.text(
        box.x + 300,
        box.y + 12,
        "food track 0-20 (next Food phase change); cubes: pool / general stock / on the map",
        SMALL,
        fill=MUTED,
        max_width=box.w - 320,
    )
    to_act = set(view.get("to_act") or [])
    y = box.y + 44
    for pos, seat in enumerate(seats, start=1):
        p = players[seat]
        line_h = _player_row_height(p)
        row = Box(box.x + 8, y, box.w - 16, line_h - 6)
        c.d.rounded_rectangle(
            row.rect,
            radius=8,
            fill=tint(COLOURS.get(p["colour"], (200, 200, 200)), 0.82),
            outline=HIGHLIGHT_EDGE if seat in to_act else RULE,
            width=4 if seat in to_act else 1,
        )
        c.text(row.x + 10, row.y + 6, f"{pos}.", TEXT, bold=True)
        disc(c, p["colour"], row.x + 40, row.y + 4, 30)
        c.text(row.x + 78, row.y + 8, p["name"], TEXT, bold=True, max_width=200)
        x = row.x + 290
        c.icon("vp", x, row.y + 6, 24)
        c.text(x + 28, row.y + 8, f"{p['vp']} VP", TEXT, bold=True, max_width=92)
        x += 126
        delta = (p.get("forecast") or {}).get("food")
        c.text(x, row.y + 8, f"food {p['food']}" + (f" ({delta:+d})" if delta is not None else ""), TEXT, max_width=134)
        bar = Box(x + 140, row.y + 12, 64, 14)
        c.d.rectangle(bar.rect, outline=INK, width=1, fill=PANEL)
        c.d.rectangle([bar.x, bar.y, bar.x + bar.w * max(0, min(20, p["food"])) / 20, bar.bottom], fill=(0, 120, 80))
        x += 220
        c.icon("coin", x, row.y + 6, 24)
        c.text(x + 28, row.y + 8, f"{p['gold']}", TEXT, bold=True)
        x += 70
        c.text(x, row.y + 8, f"discs {p['resources']}", TEXT)
        x += 100
        c.text(x, row.y + 8, f"cubes {p['pool']}/{p['stock']}/{p['on_map']}", TEXT, max_width=row.right - x - 8)
        for i, line in enumerate(_player_lines(p, PLAYER_TEXT_W)):
            c.text(row.x + 40, row.y + 36 + i * PLAYER_LINE, line, SMALL)
        y += line_h
    return height


def body(view: Mapping[str, Any]) -> PILImage.Image:
    """Everything below the header: the action display and offers, the players, the legend."""
    colours = [p["colour"] for p in view.get("players") or []]
    panel_h = offer_height(view)
    players_top = panel_h + MARGIN
    legend_top = players_top + players_height(view)
    c = RoeCanvas(PILImage.new("RGB", (WIDTH, legend_top + legend_height(LEGEND)), PAPER))
    c.colours = colours
    _action_display(c, view, 0, panel_h)
    _offer(c, view, 0, panel_h)
    _players(c, view, players_top, colours)
    draw_legend(c, LEGEND, legend_top)
    return c.im


def draw(view: Mapping[str, Any]) -> PILImage.Image:
    return below(tables_header(header_for(view), "players and offers"), body(view))
