"""Cradle of Civilization's tables image: each player's VP, Armies, cards and Regions, the Epoch's
summary card while Civilizations are allocated, and the legend (issue 26: what cannot be
phone-sized on the map image, board.py).

A seat's private image (private.py) is the map over this panel with the seat's private facts
(its drawn, kept and passed cards) highlighted under the scores; the public tables image never
holds them (the public view has none).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image as PILImage

from renderers.common import (
    HIGHLIGHT,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PAPER,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    below,
    draw_legend,
    ink_on,
    legend_height,
    line_height,
    tables_header,
    tint,
    wrap,
)

from .labels import header_for, player_lines, summary_line
from .parts import SMALL, seat_color, seat_letter

TEXT = 20

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
    LegendItem(None, "amber frame round an Area: the last move, or the battle now"),
]


def body(view: Mapping[str, Any], private: Sequence[str] = ()) -> PILImage.Image:
    """The score panel (a seat's private lines highlighted under it) and the legend."""
    rows = player_lines(view)
    notes = summary_notes(view)
    row_h = row_height(rows)
    n_rows = (len(rows) + 1) // 2
    panel_h = MARGIN + n_rows * row_h + len(private) * line_height(TEXT) + len(notes) * line_height(SMALL) + MARGIN
    c = Canvas.blank(WIDTH, panel_h + legend_height(LEGEND), PAPER)
    box = Box(MARGIN, 0, WIDTH - 2 * MARGIN, panel_h - MARGIN // 2)
    c.panel(box, fill=PANEL)
    winners = set(view.get("winners") or [])
    col_w = (box.w - 20) // 2
    for k, (s, head, cards, regions) in enumerate(rows):
        x = box.x + 10 + (k % 2) * col_w
        yy = MARGIN // 2 + 4 + (k // 2) * row_h
        color = seat_color(s)
        c.d.ellipse([x, yy + 2, x + 30, yy + 32], fill=color, outline=INK, width=2)
        c.text(x + 15, yy + 17, seat_letter(s), SMALL, bold=True, fill=ink_on(color), anchor="mm")
        won = " · winner" if s in winners else ""
        c.text(x + 40, yy + 2, head + won, TEXT, bold=True, fill=INK, max_width=col_w - 50)
        c.text(x + 40, yy + 2 + line_height(TEXT), cards, SMALL, fill=MUTED, max_width=col_w - 50)
        c.paragraph(
            x + 40, yy + 2 + line_height(TEXT) + line_height(SMALL), regions, col_w - 50, SMALL, fill=MUTED, max_lines=2
        )
    yy = MARGIN // 2 + 4 + n_rows * row_h
    for line in notes:
        c.text(box.x + 14, yy, line, SMALL, fill=INK, max_width=box.w - 30)
        yy += line_height(SMALL)
    for line in private:
        c.d.rectangle([box.x + 8, yy, box.right - 8, yy + line_height(TEXT)], fill=tint(HIGHLIGHT, 0.4))
        c.text(box.x + 14, yy + 1, line, TEXT, fill=INK, max_width=box.w - 30)
        yy += line_height(TEXT)
    draw_legend(c, LEGEND, panel_h)
    return c.im


def draw(view: Mapping[str, Any]) -> PILImage.Image:
    return below(tables_header(header_for(view), "players"), body(view), gap=MARGIN // 2)
