"""A player's private image: their hand, what each use of each card would do, the known top card.

For each card: its name, kind, VP, red military symbol and effect, then the
four uses side by side — (1) 2 coins, (2) military band and the printed symbol
it would activate, (3) the resource part, (4) the display: each required
resource with the shortfall marked, and whether it is met, costs coins, or is
out of reach. All figures come from the view's `uses` (the engine computes
them); nothing here re-derives a rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage

from renderers.common import (
    GOOD,
    INK,
    MARGIN,
    MUTED,
    PANEL_ALT,
    PAPER,
    RULE,
    SHORT,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    cached_layer,
    draw_header,
    draw_legend,
    header_height,
    legend_height,
    tint,
)

from .labels import RESOURCES, header_for

CARD_H = 200
GAP = 12
INFO_W = 340
USE_GAP = 10
SUMMARY_H = 100
TOP_H = 64
USE_TITLES = ("1 · 2 coins", "2 · Military", "3 · Resources", "4 · Display")

LEGEND = [LegendItem(n, n) for n in RESOURCES] + [
    LegendItem("coin", "coins"),
    LegendItem("vp", "victory points"),
    LegendItem("building", "building"),
    LegendItem("crown", "leader"),
    LegendItem("check", "requirement met"),
    LegendItem("cross", "not affordable"),
    LegendItem(None, "red −n: resources short (each costs coins)"),
]


def _use_boxes(card_box: Box) -> list[Box]:
    x = card_box.x + INFO_W
    w = (card_box.right - 10 - x - 3 * USE_GAP) // 4
    return [Box(x + i * (w + USE_GAP), card_box.y + 10, w, card_box.h - 20) for i in range(4)]


def _card_box(i: int, top: int) -> Box:
    return Box(MARGIN, top + SUMMARY_H + GAP + i * (CARD_H + GAP), WIDTH - 2 * MARGIN, CARD_H)


@cached_layer(maxsize=16)
def body_layer(n_cards: int) -> PILImage.Image:
    """Frames of the hand image below the header: summary, card panels, use boxes, top card, legend."""
    cards_h = max(1, n_cards) * (CARD_H + GAP)
    legend_y = SUMMARY_H + GAP + cards_h + TOP_H + GAP
    c = Canvas.blank(WIDTH, legend_y + legend_height(LEGEND), PAPER)
    c.panel(Box(MARGIN, 0, WIDTH - 2 * MARGIN, SUMMARY_H))
    for i in range(n_cards):
        box = _card_box(i, 0)
        c.panel(box)
        for title, ub in zip(USE_TITLES, _use_boxes(box), strict=True):
            c.panel(ub, fill=PANEL_ALT, outline=RULE, width=1, radius=8)
            c.text(ub.x + 8, ub.y + 6, title, 20, bold=True, fill=MUTED, max_width=ub.w - 16)
    c.panel(Box(MARGIN, SUMMARY_H + GAP + cards_h, WIDTH - 2 * MARGIN, TOP_H))
    draw_legend(c, LEGEND, legend_y)
    return c.im


def draw(view: Mapping[str, Any], seat: int) -> PILImage.Image:
    players = view.get("players", [])
    me = players[seat] if 0 <= seat < len(players) else {}
    hand = me.get("hand")
    head = header_for(view, subtitle=f"{me.get('name', '?')}'s hand · private")
    hh = header_height(head)
    cards = list(hand or [])
    body = body_layer(len(cards))
    im = PILImage.new("RGB", (WIDTH, hh + MARGIN + body.height), PAPER)
    c = Canvas(im)
    c.paste(body, 0, hh + MARGIN)
    draw_header(c, head)
    top = hh + MARGIN
    _summary(c, view, me, seat, top)
    if hand is None:
        c.text(MARGIN + 20, top + SUMMARY_H + GAP + 40, "No hand is visible in this view.", 26, fill=MUTED)
    elif not cards:
        c.text(MARGIN + 20, top + SUMMARY_H + GAP + 40, "Your hand is empty.", 26, fill=MUTED)
    for i, card in enumerate(cards):
        _card(c, card, _card_box(i, top))
    y = top + SUMMARY_H + GAP + max(1, len(cards)) * (CARD_H + GAP)
    known = me.get("known_top")
    if known:
        x = MARGIN + 16
        x += c.text(x, y + TOP_H // 2, "Top of your deck (you put it there):", 22, fill=MUTED, anchor="lm") + 12
        c.icon("crown" if known.get("kind") == "leader" else "building", x, y + 16, 32)
        x += 40
        x += c.text(x, y + TOP_H // 2, known.get("name", "?"), 26, bold=True, anchor="lm", max_width=360) + 14
        c.icon("vp", x, y + 17, 30)
        x += c.text(x + 34, y + TOP_H // 2, str(known.get("vp", 0)), 24, bold=True, anchor="lm") + 50
        if known.get("military"):
            c.icon(known["military"], x, y + 14, 36)
    else:
        c.text(MARGIN + 16, y + TOP_H // 2, "Top of your deck: unknown to you.", 22, fill=MUTED, anchor="lm")
    return c.im


def round_note(view: Mapping[str, Any], me: Mapping[str, Any]) -> str:
    """This round so far: cards played, swaps used, cards still to put under the deck."""
    parts = []
    if view.get("phase") == "opening" and me.get("hand"):
        # Setup, "Create Your Individual Player Deck": 2 cards to the resource area, then 1 on top, 1 at the bottom.
        placed = len(me.get("resource_area") or [])
        if placed < 2:
            parts.append(f"setup: put 2 of these cards into your resource area ({placed} of 2 done)")
        else:
            parts.append("setup: choose the card for the top of your deck; the other goes to the bottom")
    if view.get("phase") == "play" or me.get("played"):
        parts.append(f"played {me.get('played', 0)} of 3 cards this round")
    sw = me.get("swaps") or {}
    if view.get("phase") == "draw" and sw:
        paid = sw.get("paid", 0)  # one paid swap a round, its size chosen at once (RULES-NOTES "Swaps")
        paid_text = (
            f"paid swap made ({paid} card{'s' * (paid != 1)})"
            if paid
            else f"paid swap: 1 or {sw.get('paid_max', 2)} cards at 1 coin each, chosen at once"
        )
        parts.append(
            paid_text + (f", free swaps: {sw.get('free_used', 0)} of {sw.get('free')} used" if sw.get("free") else "")
        )
    if me.get("to_bottom"):
        parts.append(f"{me['to_bottom']} card{'s' * (me['to_bottom'] != 1)} to put at the bottom of your deck")
    pend = view.get("pending") or {}
    if pend and pend.get("seat") == me.get("seat") and pend.get("text"):
        parts.append(f"now decide {pend['text']}")
    elif pend and pend.get("seat") == me.get("seat") and pend.get("card"):
        parts.append(f"deciding about {pend['card'].get('name', '?')}")
    return " · ".join(parts)


def _summary(c: Canvas, view: Mapping[str, Any], me: Mapping[str, Any], seat: int, top: int) -> None:
    note = round_note(view, me)
    c.text(
        MARGIN + 14,
        top + 68,
        note or "Nothing played yet this round.",
        20,
        fill=MUTED,
        max_width=WIDTH - 2 * MARGIN - 28,
    )
    y = top + 12
    x = MARGIN + 14
    c.badge(seat, x, y, 36)
    x += 46
    x += c.text(x, y + 18, "You have", 22, fill=MUTED, anchor="lm") + 12
    limit = me.get("coin_limit")
    x += c.icon_count("coin", f"{me.get('coins', 0)}" + (f"/{limit}" if limit else ""), x, y, 36) + 22
    res = me.get("resources") or {}
    for r in RESOURCES:
        x += c.icon_count(r, res.get(r, 0), x, y, 36) + 18
    strength = (me.get("military") or {}).get("strength") or {}
    for s in ("sword", "horse", "shield"):
        x += c.icon_count(s, strength.get(s, 0), x, y, 34) + 14


def _card(c: Canvas, card: Mapping[str, Any], box: Box) -> None:
    x, y = box.x + 14, box.y + 10
    c.text(x, y, card.get("name", "?"), 28, bold=True, max_width=INFO_W - 28)
    y += 40
    kind = card.get("kind", "building")
    c.icon("crown" if kind == "leader" else "building", x, y, 30)
    w = c.text(x + 38, y + 15, kind, 22, anchor="lm")
    c.icon("vp", x + 52 + w, y + 1, 28)
    w2 = c.text(x + 84 + w, y + 15, f"{card.get('vp', 0)} VP", 22, bold=True, anchor="lm")
    if card.get("military"):
        c.icon(card["military"], x + 100 + w + w2, y - 2, 34)
    y += 40
    effects = " ".join(card.get("effects") or []) or "No effect."
    c.paragraph(x, y, effects, INFO_W - 34, 20, fill=INK, max_lines=4)
    uses = card.get("uses") or {}
    b1, b2, b3, b4 = _use_boxes(box)
    _use_coins(c, b1, uses.get("coins", 2))
    _use_military(c, b2, uses.get("military") or {})
    _use_resources(c, b3, uses.get("resources") or {})
    _use_display(c, b4, card.get("cost") or {}, uses.get("build") or {}, kind)


def _use_coins(c: Canvas, b: Box, coins: int) -> None:
    c.coin(b.x + 14, b.y + 48, f"+{coins}", 56)
    c.text(b.x + 14, b.bottom - 32, "discard it", 20, fill=MUTED, max_width=b.w - 20)


def _use_military(c: Canvas, b: Box, mil: Mapping[str, Any]) -> None:
    if not mil.get("possible"):
        c.icon("cross", b.x + 12, b.y + 48, 34)
        c.paragraph(b.x + 12, b.y + 90, "no free band", b.w - 24, 20, fill=SHORT)
        return
    c.icon(mil.get("symbol", ""), b.x + 12, b.y + 40, 48)
    c.text(b.x + 70, b.y + 64, f"band {mil.get('band')}", 22, bold=True, anchor="lm", max_width=b.w - 80)
    printed = mil.get("printed")
    if printed:
        c.d.rounded_rectangle(
            [b.x + 8, b.y + 98, b.right - 8, b.y + 142], radius=6, fill=tint(GOOD, 0.75), outline=GOOD, width=2
        )
        c.text(b.x + 16, b.y + 120, "+ printed", 20, anchor="lm")
        c.icon(printed, b.right - 50, b.y + 102, 36)
    else:
        c.text(b.x + 12, b.y + 120, "no printed symbol", 20, fill=MUTED, anchor="lm", max_width=b.w - 20)


def _use_resources(c: Canvas, b: Box, strip: Mapping[str, Any]) -> None:
    entries = [(r, strip.get(r, 0)) for r in RESOURCES if strip.get(r)]
    x, y = b.x + 10, b.y + 40
    col_w = (b.w - 20) // 2
    for i, (r, n) in enumerate(entries):
        c.icon_count(r, f"+{n}", x + (i % 2) * col_w, y + (i // 2) * 42, 34)
    if not entries:
        c.text(x, y + 10, "none", 20, fill=MUTED)
    if strip.get("coin"):
        c.coin(x, b.bottom - 40, f"+{strip['coin']}", 34)
        c.text(x + 42, b.bottom - 23, "once", 20, fill=MUTED, anchor="lm")


def _use_display(c: Canvas, b: Box, cost: Mapping[str, int], build: Mapping[str, Any], kind: str) -> None:
    missing = build.get("missing") or {}
    need = [(r, cost.get(r, 0)) for r in RESOURCES if cost.get(r)]
    x, y = b.x + 10, b.y + 36
    col_w = (b.w - 20) // 2
    for i, (r, n) in enumerate(need):
        xx, yy = x + (i % 2) * col_w, y + (i // 2) * 38
        c.icon(r, xx, yy, 30)
        short = missing.get(r, 0)
        c.text(xx + 34, yy + 15, str(n), 22, bold=True, anchor="lm")
        if short:
            c.text(xx + 34 + 18, yy + 15, f"−{short}", 20, bold=True, fill=SHORT, anchor="lm")
    if not need:
        c.text(x, y + 6, "no requirement", 20, fill=MUTED)
    yy = b.bottom - 38
    if build.get("met"):
        c.icon("check", x, yy, 30)
        c.text(x + 38, yy + 15, "met", 22, bold=True, fill=GOOD, anchor="lm")
    elif build.get("possible"):
        c.coin(x, yy, build.get("coins", 0), 30)
        c.text(
            x + 38, yy + 15, f"pay {build.get('coins', 0)}", 22, bold=True, fill=INK, anchor="lm", max_width=b.w - 48
        )
    else:
        c.icon("cross", x, yy, 30)
        c.text(
            x + 38,
            yy + 15,
            f"need {build.get('coins', 0)} coins",
            20,
            bold=True,
            fill=SHORT,
            anchor="lm",
            max_width=b.w - 48,
        )
