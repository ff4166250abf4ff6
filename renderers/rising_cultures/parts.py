"""Rising Cultures sprites: province cards, display tiles, military bands, progress cells.

Each sprite depends only on a few hashable values (a card's name, kind and VP,
a band's symbols, ...), so it is drawn once and cached; a board render mostly
pastes sprites that it has drawn before. Sprites are drawn on the panel colour
they are pasted onto.
"""

from __future__ import annotations

import re

from PIL import Image as PILImage

from renderers.common import (
    COVERED,
    GOOD,
    HIGHLIGHT,
    HIGHLIGHT_EDGE,
    INK,
    MAP_TEXT,
    MUTED,
    PANEL,
    PANEL_ALT,
    RULE,
    Canvas,
    cached_sprite,
    fit_size,
    measure,
    tint,
    wrap,
)

from .labels import effect_glyphs, province_effect

PROVINCE_W, PROVINCE_H = 156, 168
TILE_W, TILE_H = 272, 46
BAND_W, BAND_H = 87, 104
LEVEL_W, LEVEL_H = 73, 84
ICON_TEXT = {"A": (110, 90, 70), "B": (70, 90, 130), "C": (150, 40, 120)}


def _sprite(w: int, h: int, bg=PANEL) -> Canvas:
    """A sprite of the map image: its text no smaller than the map's."""
    return Canvas(PILImage.new("RGB", (w, h), bg), MAP_TEXT)


@cached_sprite(maxsize=64)
def province_card(
    pid: int,
    name: str,
    symbols: tuple[str, ...],
    vp: int,
    icon: str,
    effect_text: str,
    caption: str,
    current: bool,
    recent: bool,
) -> PILImage.Image:
    """One province card: its round, name, the symbols compared, VP, icon letter and effect."""
    c = _sprite(PROVINCE_W, PROVINCE_H)
    box_fill = tint(HIGHLIGHT, 0.55) if current else PANEL_ALT
    c.d.rounded_rectangle(
        [2, 2, PROVINCE_W - 3, PROVINCE_H - 3],
        radius=10,
        fill=box_fill,
        outline=HIGHLIGHT_EDGE if (current or recent) else RULE,
        width=5 if current else 2,
    )
    c.text(10, 8, caption, MAP_TEXT, bold=current, fill=INK if current else MUTED, max_width=PROVINCE_W - 20)
    c.text(10, 32, name, 22, bold=True, max_width=PROVINCE_W - 20)
    n = len(symbols)
    size = 36 if n < 3 else 34
    x = 10
    for sym in symbols:
        c.icon(sym, x, 64, size)
        x += size + 4
    # VP star and the province icon letter, bottom row
    c.icon("vp", 10, 108, 28)
    c.text(42, 122, str(vp), 22, bold=True, anchor="lm")
    if icon:
        col = ICON_TEXT.get(icon, MUTED)
        c.d.rounded_rectangle([PROVINCE_W - 48, 106, PROVINCE_W - 12, 138], radius=6, fill=col)
        c.text(PROVINCE_W - 30, 122, icon, 20, bold=True, fill=(255, 255, 255), anchor="mm")
    eff = province_effect(effect_text)
    m = re.match(r"^\+(\d+) (\w+) always$", eff)
    if m:  # a permanent resource: its icon, then "+1 always"
        c.icon(m.group(2), 10, 141, 22)
        c.text(36, 142, f"+{m.group(1)} always", MAP_TEXT, fill=MUTED, max_width=PROVINCE_W - 46)
    elif eff:
        c.text(10, 142, eff, MAP_TEXT, fill=MUTED, max_width=PROVINCE_W - 20)
    return c.im


@cached_sprite(maxsize=256)
def display_tile(
    name: str, kind: str, vp: int, covered: bool, scores: bool, recent: bool, note: str = ""
) -> PILImage.Image:
    """A building or leader in the display; a covered leader is greyed, its VP crossed if it does not score."""
    c = _sprite(TILE_W, TILE_H)
    fill = COVERED if covered else (tint(HIGHLIGHT, 0.5) if recent else (255, 255, 255))
    c.d.rounded_rectangle(
        [1, 1, TILE_W - 2, TILE_H - 2],
        radius=8,
        fill=fill,
        outline=HIGHLIGHT_EDGE if recent else RULE,
        width=4 if recent else 2,
    )
    c.icon("crown" if kind == "leader" else "building", 8, 9, 28)
    label = name + (" (covered)" if covered else "") + (f" {note}" if note else "")
    room = TILE_W - 42 - 58
    color = MUTED if covered else INK
    if (
        fit_size(label, room, 20, MAP_TEXT, bold=not covered) >= MAP_TEXT
        and measure(label, MAP_TEXT, not covered) <= room
    ):
        c.text(42, TILE_H // 2, label, 20, bold=not covered, fill=color, anchor="lm", max_width=room)
    else:  # two lines rather than an ellipsis
        lines = wrap(label, room, MAP_TEXT, bold=not covered, max_lines=2)
        for i, ln in enumerate(lines):
            c.text(42, 2 + i * 21, ln, MAP_TEXT, bold=not covered, fill=color, max_width=room)
    c.icon("vp", TILE_W - 54, 10, 26)
    c.text(TILE_W - 24, TILE_H // 2, str(vp), 22, bold=True, fill=MUTED if not scores else INK, anchor="lm")
    if not scores:
        c.d.line([TILE_W - 56, TILE_H - 10, TILE_W - 6, 10], fill=(180, 50, 20), width=3)
    return c.im


@cached_sprite(maxsize=128)
def band_cell(band: int, printed: str | None, card_symbol: str | None, last: bool, recent: bool) -> PILImage.Image:
    """One red military band: the card's symbol above, the board's printed symbol (active or not) below."""
    c = _sprite(BAND_W, BAND_H)
    filled = card_symbol is not None
    fill = tint(HIGHLIGHT, 0.5) if recent else ((255, 255, 255) if filled else PANEL_ALT)
    # amber = the last move; a thick dark frame = the last-played military card (paid for a won province)
    edge = HIGHLIGHT_EDGE if recent else (INK if last else RULE)
    c.d.rounded_rectangle(
        [1, 1, BAND_W - 2, BAND_H - 2], radius=8, fill=fill, outline=edge, width=4 if (last or recent) else 2
    )
    c.text(8, 4, str(band), MAP_TEXT, bold=True, fill=MUTED)
    if card_symbol is not None:
        c.icon(card_symbol, (BAND_W - 40) // 2 + 6, 8, 40)
    else:
        c.text(BAND_W // 2, 30, "empty", MAP_TEXT, fill=MUTED, anchor="mm")
    # printed symbol tab
    tab = [6, 56, BAND_W - 7, BAND_H - 8]
    if printed:
        active = filled
        c.d.rounded_rectangle(
            tab,
            radius=6,
            fill=tint(GOOD, 0.75) if active else (225, 221, 212),
            outline=GOOD if active else COVERED,
            width=3 if active else 1,
        )
        if active:
            c.icon(printed, BAND_W // 2 - 16, 60, 32)
        else:
            c.icon(printed, BAND_W // 2 - 16, 60, 32, color=(170, 166, 160))
    else:
        c.text(BAND_W // 2, 76, "–", 20, fill=MUTED, anchor="mm")
    return c.im


@cached_sprite(maxsize=128)
def level_cell(
    level: int, texts: tuple[str, ...], unlocked: bool, next_up: bool, recent: bool = False
) -> PILImage.Image:
    """One progress level: its number, what it unlocks (glyphs), reached or not (amber: reached just now)."""
    c = _sprite(LEVEL_W, LEVEL_H)
    fill = tint(HIGHLIGHT, 0.4) if recent else (tint(GOOD, 0.7) if unlocked else PANEL_ALT)
    edge = HIGHLIGHT_EDGE if recent else (GOOD if unlocked else (HIGHLIGHT_EDGE if next_up else RULE))
    c.d.rounded_rectangle(
        [1, 1, LEVEL_W - 2, LEVEL_H - 2],
        radius=8,
        fill=fill,
        outline=edge,
        width=4 if recent else (3 if (unlocked or next_up) else 2),
    )
    c.text(6, 3, str(level), MAP_TEXT, bold=True, fill=INK if unlocked else MUTED)
    if unlocked:
        c.icon("check", LEVEL_W - 24, 4, 20)
    glyphs = [effect_glyphs(t) for t in texts][:2]
    if len(glyphs) == 1:
        name, label = glyphs[0]
        if name:
            c.icon(name, (LEVEL_W - 30) // 2, 24, 30)
        c.text(LEVEL_W // 2, 70, label, MAP_TEXT, bold=True, anchor="mm", max_width=LEVEL_W - 6)
    else:
        for i, (name, _label) in enumerate(glyphs):  # two unlocks: icons only, larger
            if name:
                c.icon(name, 3 + i * 34, 34, 32)
    return c.im


@cached_sprite(maxsize=64)
def province_chip(name: str, vp: int, icon: str, recent: bool, width: int) -> PILImage.Image:
    """A won province: name, VP, icon letter."""
    c = _sprite(width, 40)
    c.d.rounded_rectangle(
        [1, 1, width - 2, 38],
        radius=8,
        fill=tint(HIGHLIGHT, 0.5) if recent else (255, 255, 255),
        outline=HIGHLIGHT_EDGE if recent else RULE,
        width=4 if recent else 2,
    )
    c.icon("province", 6, 7, 26)
    right = 6 + (30 if icon else 0) + 50
    c.text(36, 20, name, 20, bold=True, anchor="lm", max_width=width - 36 - right)
    x = width - right + 6
    c.icon("vp", x, 8, 24)
    c.text(x + 27, 20, str(vp), 20, bold=True, anchor="lm")
    if icon:
        col = ICON_TEXT.get(icon, MUTED)
        c.d.rounded_rectangle([width - 32, 7, width - 8, 33], radius=5, fill=col)
        c.text(width - 20, 20, icon, MAP_TEXT, bold=True, fill=(255, 255, 255), anchor="mm")
    return c.im
