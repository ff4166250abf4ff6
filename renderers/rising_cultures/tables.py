"""Rising Cultures' tables image: what each player's column on the map leaves out, in full —
how the VP add up, coins, cards in hand, deck and discard, the next progress level's text —
the Nile cards' effects, and the legend (issue 26: what cannot be phone-sized on the map
image, board.py). Built from the public view only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from renderers.common import (
    MARGIN,
    MUTED,
    PAPER,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    below,
    draw_legend,
    legend_height,
    line_height,
    player_color,
    tables_header,
    tint,
    wrap,
)

from .board import COL_W, PAD, TITLE
from .labels import MILITARY, RESOURCES, header_for

TEXT = 20

LEGEND = (
    [LegendItem(n, n) for n in RESOURCES]
    + [LegendItem(n, n) for n in MILITARY]
    + [
        LegendItem("coin", "coins"),
        LegendItem("income", "income"),
        LegendItem("vp", "victory points"),
        LegendItem("card", "cards in hand"),
        LegendItem("deck", "deck"),
        LegendItem("marker", "progress marker"),
        LegendItem("building", "building"),
        LegendItem("crown", "leader"),
        LegendItem("cog", "progress level"),
        LegendItem("golden-age", "Golden Age side"),
        LegendItem("swap", "free swap"),
        LegendItem("province", "province won"),
        LegendItem("check", "unlocked / requirement met"),
        LegendItem(None, "amber frame: last move and this round's province"),
        LegendItem(None, "dark frame: last military card (paid for a won province)"),
        LegendItem(None, "green tab: printed board symbol, active"),
        LegendItem(None, "A/B/C: province icon"),
    ]
)


def player_lines(view: Mapping[str, Any], p: Mapping[str, Any]) -> list[str]:
    """One player's figures in words: the VP's parts, coins and cards, the next progress level."""
    seat = p.get("seat", 0)
    score = p.get("score") or {}
    scores = view.get("scores") or []
    match = f" · match total {scores[seat]}" if view.get("first_game_scores") and seat < len(scores) else ""
    limit = p.get("coin_limit")
    lines = [
        f"{score.get('total', 0)} VP = cards {score.get('buildings_leaders', 0)} + board {score.get('board', 0)}"
        f" + provinces {score.get('provinces', 0)} + marker {score.get('marker', 0)}{match}",
        f"coins {p.get('coins', 0)}" + (f" of {limit}" if limit else "") + f" · income +{p.get('income', 0)}",
        f"hand {p.get('hand_count', 0)} · deck {p.get('deck_count', 0)} · discard {len(p.get('discard') or [])}",
    ]
    prog = p.get("progress") or {}
    unlocks = prog.get("unlocks") or []
    nxt = next((u for u in unlocks if not u.get("unlocked")), None)
    if nxt:
        lines.append(f"next progress level ({nxt.get('level')}): " + " ".join(nxt.get("texts") or []))
    elif unlocks:
        lines.append("all progress levels reached")
    return lines


def _column_height(view: Mapping[str, Any]) -> int:
    width = COL_W - 2 * PAD - 16
    rows = max(
        (sum(len(wrap(t, width, TEXT)) for t in player_lines(view, p)) for p in view.get("players", [])), default=0
    )
    return 48 + rows * line_height(TEXT) + PAD


def _nile_lines(view: Mapping[str, Any]) -> list[str]:
    return [f"{n.get('name', '?')}: {n.get('effect', '')}" for n in view.get("nile") or []]


def body(view: Mapping[str, Any]) -> PILImage.Image:
    players = view.get("players", [])
    col_h = _column_height(view)
    nile = [ln for text in _nile_lines(view) for ln in wrap(text, WIDTH - 2 * MARGIN - 2 * PAD, TEXT)]
    nile_h = 44 + len(nile) * line_height(TEXT) + PAD if nile else 0
    legend_y = (col_h + MARGIN if players else 0) + (nile_h + MARGIN if nile else 0)
    c = Canvas.blank(WIDTH, legend_y + legend_height(LEGEND), PAPER)
    for seat, p in enumerate(players):
        col = Box(MARGIN + seat * (COL_W + MARGIN), 0, COL_W, col_h)
        c.panel(col, fill=tint(player_color(seat), 0.85))
        c.badge(seat, col.x + PAD, col.y + 8, 32)
        civ = p.get("civ_name") or "choosing…"
        c.text(col.x + PAD + 42, col.y + 10, f"{p.get('name', '?')} · {civ}", TITLE, bold=True, max_width=col.w - 70)
        y = col.y + 48
        for text in player_lines(view, p):
            y += c.paragraph(col.x + PAD + 8, y, text, col.w - 2 * PAD - 16, TEXT)
    if nile:
        y = col_h + MARGIN if players else 0
        c.panel(Box(MARGIN, y, WIDTH - 2 * MARGIN, nile_h))
        c.icon("river", MARGIN + PAD, y + 8, 30)
        c.text(MARGIN + PAD + 40, y + 10, "The Nile's cards", TITLE, bold=True)
        yy = y + 44
        for line in nile:
            c.text(MARGIN + PAD, yy, line, TEXT, fill=MUTED)
            yy += line_height(TEXT)
    draw_legend(c, LEGEND, legend_y)
    return c.im


def draw(view: Mapping[str, Any]) -> PILImage.Image:
    return below(tables_header(header_for(view), "scores and details"), body(view))
