"""Mosaic's tables image: a panel per player, the final tally at game end, the four offers and
the tiles left, the legend (issue 26: what cannot be phone-sized on the map image, board.py).

Drawn from a view only; every figure here is public (each player's board, the offers, the
tiles): the public view holds them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from engine.mosaic.data import load
from renderers.common import (
    MARGIN,
    PANEL,
    PAPER,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    draw_header,
    draw_legend,
    header_height,
    legend_height,
    player_color,
    tables_header,
    tint,
)

from .labels import PILLAR_ABBR, WONDER_ABBR, final_rows, header_for, offer_items
from .parts import wrap_text


def _player_panel(c: Canvas, box: Box, p: Mapping[str, Any], active: bool) -> None:
    d = load()
    c.panel(box, fill=tint(player_color(p["seat"]), 0.85))
    if active:
        c.highlight(box)
    x, y = box.x + 10, box.y + 8
    c.badge(p["seat"], x, y, 30)
    leader = d.leaders[p["leader"]].name if p.get("leader") else "no leader yet"
    gov = d.governments[p["government"]].name if p.get("government") else "no government"
    c.text(x + 38, y + 2, f"{p['name']} · {leader} · {gov}", 20, bold=True, max_width=box.w - 60)
    y += 36
    prod = p["production"]
    lines = [
        f"Score {p['score']} (VP {p['vp']}) · Pop {p['population']} · Unrest {p['net_unrest']} (raw {p['unrest']})",
        f"Food {p['food']}  Stone {p['stone']}  Ideas {p['ideas']}  Money {p['money']}",
        f"Prod: ideas {prod['ideas']} food {prod['food']} stone {prod['stone']} "
        f"tax {prod['tax']} tariff {prod['tariff']}",
        "Pillars: " + (" ".join(f"{PILLAR_ABBR[k]}{v}" for k, v in p["pillars"].items()) or "none"),
        f"Cities {p['cities']} Towns {p['towns']} Units {sum(p['units'].values())} · "
        f"Goods {len([g for g, v in p['trade_goods'].items() if v])}"
        f" · Tech {len(p['technologies'])} played + {p['face_down']} face down",
        "Wonders: "
        + (
            ", ".join(d.wonders[w].name if len(p["wonders"]) <= 2 else WONDER_ABBR.get(w, w) for w in p["wonders"])
            or "none"
        ),
        "Golden ages: "
        + (", ".join(d.golden_ages[g].name for g in p["golden_ages"]) or "none")
        + " · Achievements: "
        + (", ".join(d.achievements[a].name for a in p["achievements"]) or "none"),
    ]
    for ln in lines:
        c.text(x, y, ln, 18, max_width=box.w - 20)
        y += 23


def _offer_lines(view: Mapping[str, Any], col_w: int) -> list[list[tuple[str, int]]]:
    """Each column's lines (text, indent; indent -1 = a heading), wrapped to the column; a card's
    continuation lines are indented further so each card reads as one block."""
    cols = []
    for items in offer_items(view):
        lines = []
        for text, deck in items:
            if deck is not None:
                lines.append((f"{text} · deck {deck}", -1))
            else:
                lines += [(ln, 8 if k == 0 else 26) for k, ln in enumerate(wrap_text(text, col_w - 18))]
        cols.append(lines)
    return cols


def _offers_height(view: Mapping[str, Any]) -> int:
    col_w = (WIDTH - 2 * MARGIN - 36) // 2
    return max(sum(26 if ind < 0 else 22 for _, ind in col) for col in _offer_lines(view, col_w)) + 18


FINAL_ROW = 24


def _final_height(view: Mapping[str, Any]) -> int:
    rows = final_rows(view)
    return 46 + (len(rows) + 2) * FINAL_ROW if rows else 0


def _final_table(c: Canvas, box: Box, view: Mapping[str, Any]) -> None:
    """Game over: every line of the final scoring per player, then the total (ties: wonders, then money)."""
    c.panel(box, fill=PANEL)
    rows = final_rows(view)
    players = view["players"]
    x0, y = box.x + 12, box.y + 8
    c.text(x0, y, "Final scoring (ties: most wonders, then most money)", 20, bold=True)
    y += 34
    label_w = 190
    col_w = (box.w - 24 - label_w) // max(1, len(players))
    for i, p in enumerate(players):
        cx = x0 + label_w + i * col_w
        c.badge(p["seat"], cx, y - 2, 20)
        c.text(cx + 24, y, p["name"], 16, bold=True, max_width=col_w - 28)
    y += FINAL_ROW
    for row in rows + ["total"]:
        c.text(x0, y, row, 16, bold=row == "total")
        for i, p in enumerate(players):
            v = p["score"] if row == "total" else p["score_lines"].get(row, 0)
            c.text(x0 + label_w + i * col_w + 24, y, str(v), 16, bold=row == "total" or p["seat"] in view["winners"])
        y += FINAL_ROW


def _offers(c: Canvas, box: Box, view: Mapping[str, Any]) -> int:
    """The four offers, the holding area and the tiles left; returns the height used."""
    c.panel(box, fill=PANEL)
    x, y = box.x + 12, box.y + 10
    col_w = (box.w - 36) // 2
    ys = []
    for col, lines in enumerate(_offer_lines(view, col_w)):
        yy = y
        cx = x + col * (col_w + 12)
        for text, ind in lines:
            if ind < 0:
                c.text(cx, yy, text, 20, bold=True, max_width=col_w)
                yy += 26
            else:
                c.text(cx + ind, yy, text, 18, max_width=col_w - ind)
                yy += 22
        ys.append(yy)
    return max(ys) - box.y + 8


LEGEND = [
    LegendItem(None, "square: city"),
    LegendItem(None, "square, white bar: port city"),
    LegendItem(None, "triangle: farm town"),
    LegendItem(None, "diamond: manufactory town"),
    LegendItem(None, "star: wonder (in a panel: Pyr, Sph, Lib…)"),
    LegendItem(None, "▲ A×n: military units (influence panel)"),
    LegendItem(None, "numbers: hexes (choices say Assyria 12)"),
    LegendItem(None, "?: cache"),
    LegendItem(None, "amber frame: the last move; green frame: hexes to choose from"),
    LegendItem(None, "grey hexes: a region out of play"),
    LegendItem(None, "Gr/St/Wi…: trade goods, Fi: fish"),
    LegendItem(None, "*: government refresh used"),
    LegendItem(None, "pillars: Sci science, Eco economy, Pop population, Bld building, Cul culture"),
    LegendItem(None, "Gov government, Mil military, Urb urbanization (Urb1: needs 1)"),
]


def draw(view: Mapping[str, Any]) -> PILImage.Image:
    header = tables_header(header_for(view), "players and offers")
    hh = header_height(header)
    players = view["players"]
    per_row = 2
    rows = -(-len(players) // per_row)
    panel_h = 36 + 7 * 23 + 16
    offers_h = _offers_height(view) + 10
    table_h = _final_height(view)
    lh = legend_height(LEGEND)
    height = hh + 10 + rows * (panel_h + 10) + (table_h + 10 if table_h else 0) + offers_h + lh + MARGIN
    c = Canvas.blank(WIDTH, height, PAPER)
    draw_header(c, header)
    y = hh + 10
    cols = Box(MARGIN, y, WIDTH - 2 * MARGIN, panel_h).columns(per_row, 10)
    for i, p in enumerate(players):
        col = cols[i % per_row]
        _player_panel(
            c, Box(col.x, y + (i // per_row) * (panel_h + 10), col.w, panel_h), p, p["seat"] in view["to_act"]
        )
    y += rows * (panel_h + 10)
    if table_h:
        _final_table(c, Box(MARGIN, y, WIDTH - 2 * MARGIN, table_h), view)
        y += table_h + 10
    used = _offers(c, Box(MARGIN, y, WIDTH - 2 * MARGIN, offers_h - 10), view)
    y += min(used, offers_h) + 10
    draw_legend(c, LEGEND, y)
    final_h = y + lh + MARGIN
    return c.im.crop((0, 0, WIDTH, min(height, final_h)))
