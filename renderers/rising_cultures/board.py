"""The map image (this game's board has no map: both civilizations side by side under the
province row are its board; issue 26).

Layout (1200 px wide): header; province row (leftmost = contested this round,
highlighted); one column per player with its coins, income, cards and VP, its
display, military area (card symbol and printed board symbol per red band),
resource totals, progress levels and won provinces; the Nile when Egypt plays.
Every text on it is at least `MAP_TEXT` (7 px when a phone shows the image 450 px
wide); the score breakdowns, the next progress level and Nile effects in full, and
the legend are the tables image (tables.py). The cards and provinces of the last
move (`highlight`, by the names the view gives them) are framed amber. The frames,
titles and player bars form a static layer cached per (player count, rows, Nile):
what the frame depends on, so every table shares it; names and civilizations are
written on top, the rest is pasted from cached sprites (parts.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image as PILImage

from renderers.common import (
    GOOD,
    INK,
    MAP_TEXT,
    MARGIN,
    MUTED,
    PANEL_ALT,
    PAPER,
    RULE,
    WIDTH,
    Box,
    Canvas,
    cached_layer,
    draw_header,
    fill_pattern,
    header_height,
    player_color,
    text_width,
    tint,
)

from . import parts
from .labels import MILITARY, RESOURCES, header_for

TITLE = 24
COL_W = (WIDTH - 3 * MARGIN) // 2
PAD = 12
SECTION_GAP = 8
CONTEST_H = 40
PROVINCE_PANEL_H = 44 + parts.PROVINCE_H + 12 + CONTEST_H
NILE_H = 110


@dataclass(frozen=True)
class ColumnLayout:
    """Y offsets (relative to the column top) of each section of a player's column."""

    display_rows: int
    province_rows: int = 1
    bar: int = 0
    stats: int = 64
    display: int = 108

    @property
    def military(self) -> int:
        return self.display + 34 + max(1, self.display_rows) * (parts.TILE_H + 6) + SECTION_GAP

    @property
    def resources(self) -> int:
        return self.military + 34 + parts.BAND_H + SECTION_GAP

    @property
    def progress(self) -> int:
        return self.resources + 34 + 76 + SECTION_GAP

    @property
    def provinces(self) -> int:
        return self.progress + 34 + parts.LEVEL_H + 8 + SECTION_GAP

    @property
    def height(self) -> int:
        return self.provinces + 34 + max(1, self.province_rows) * 46 + PAD


def display_cards(p: Mapping[str, Any]) -> list[dict]:
    disp = p.get("display") or {}
    leaders = sorted(disp.get("leaders") or [], key=lambda c: (c.get("covered", False), c.get("stack", 0)))
    return list(leaders) + list(disp.get("buildings") or [])


def display_rows(view: Mapping[str, Any]) -> int:
    n = max((len(display_cards(p)) for p in view.get("players", [])), default=0)
    rows = (n + 1) // 2
    return max(2, rows + rows % 2)  # grow two rows at a time: fewer distinct static layers


def province_rows(view: Mapping[str, Any]) -> int:
    n = max((len(p.get("provinces") or []) for p in view.get("players", [])), default=0)
    return max(1, (n + 1) // 2)


# ---- the static layer ------------------------------------------------------------
@cached_layer(maxsize=16)
def body_layer(players: int, lay: ColumnLayout, nile: bool) -> PILImage.Image:
    """Everything below the header that is the same at every table with this layout."""
    height = PROVINCE_PANEL_H + MARGIN + lay.height + MARGIN + (NILE_H + MARGIN if nile else 0)
    c = Canvas.blank(WIDTH, height, PAPER, MAP_TEXT)
    prov = Box(MARGIN, 0, WIDTH - 2 * MARGIN, PROVINCE_PANEL_H)
    c.panel(prov)
    for seat in range(players):
        col = column_box(seat, lay)
        c.panel(col)
        bar = Box(col.x, col.y, col.w, 56)
        c.d.rounded_rectangle(bar.rect, radius=10, fill=tint(player_color(seat), 0.78), outline=RULE, width=2)
        fill_pattern(c.im, Box(bar.x + 2, bar.y + 2, 22, bar.h - 4), seat, radius=8)
        c.badge(seat, bar.x + 32, bar.y + 8, 40)
        for title, y in (
            ("Display", lay.display),
            ("Military", lay.military),
            ("Resources", lay.resources),
            ("Progress", lay.progress),
            ("Provinces won", lay.provinces),
        ):
            c.d.line([col.x + PAD, col.y + y - 4, col.right - PAD, col.y + y - 4], fill=RULE, width=1)
            c.text(col.x + PAD, col.y + y, title, TITLE, bold=True)
    return c.im


def _bar_names(c: Canvas, bar: Box, name: str, civ: str) -> None:
    """The player's name and civilization in their bar (per table, so not in the layer)."""
    w = c.text(bar.x + 82, bar.y + 28, name, 28, bold=True, anchor="lm", max_width=300)
    c.text(
        bar.x + 92 + w,
        bar.y + 30,
        civ or "choosing…",
        22,
        fill=INK,
        anchor="lm",
        max_width=max(40, bar.w - 92 - w - 70),
    )


def title_w(title: str) -> int:
    """Where a section's grey note starts: after its bold title and a gap."""
    return text_width(title, TITLE, True) + 14


def column_box(seat: int, lay: ColumnLayout) -> Box:
    return Box(MARGIN + seat * (COL_W + MARGIN), PROVINCE_PANEL_H + MARGIN, COL_W, lay.height)


# ---- the whole image -------------------------------------------------------------
def places(view: Mapping[str, Any]) -> set[str]:
    """The places the map image names, as the view names them: the provinces in the row and won,
    each display's cards, each player's last-played resource card, the Nile cards (the names a
    choice's `refers` uses, engine/rising_cultures/choices.py)."""
    return set(place_boxes(view))


def place_boxes(view: Mapping[str, Any]) -> dict[str, list[Box]]:
    """Where each named card or province is drawn on the map image."""
    players = view.get("players", [])
    lay = ColumnLayout(display_rows(view), province_rows(view))
    top = header_height(header_for(view)) + MARGIN
    out: dict[str, list[Box]] = {}

    def add(name: str, box: Box) -> None:
        if name:
            out.setdefault(name, []).append(box)

    for i, prov in enumerate(view.get("province_row") or []):
        add(prov.get("name", ""), province_box(i, top))
    for seat, p in enumerate(players):
        col = column_box(seat, lay).moved(0, top)
        for i, card in enumerate(shown_cards(p, lay)):
            add(card.get("name", ""), tile_box(col, lay, i))
        for i, prov in enumerate(p.get("provinces") or []):
            add(prov.get("name", ""), won_box(col, lay, i))
        area = p.get("resource_area") or []
        if area:
            add(area[-1].get("name", ""), last_played_box(col, lay))
    if view.get("nile"):
        y = top + PROVINCE_PANEL_H + MARGIN + lay.height + MARGIN
        for i, card in enumerate((view.get("nile") or [])[:3]):
            add(card.get("name", ""), nile_box(y, i))
    return out


def place_names(view: Mapping[str, Any]) -> dict[str, str]:
    """The cards and provinces are named by their own names already."""
    return {name: name for name in place_boxes(view)}


def province_box(i: int, top: int) -> Box:
    gap = (WIDTH - 2 * MARGIN - 2 * PAD - 7 * parts.PROVINCE_W) // 6
    return Box(MARGIN + PAD + i * (parts.PROVINCE_W + gap), top + 44, parts.PROVINCE_W, parts.PROVINCE_H)


def tile_box(col: Box, lay: ColumnLayout, i: int) -> Box:
    x = col.x + PAD + (i % 2) * (parts.TILE_W + 8)
    return Box(x, col.y + lay.display + 34 + (i // 2) * (parts.TILE_H + 6), parts.TILE_W, parts.TILE_H)


def won_w(col: Box) -> int:
    return (col.w - 2 * PAD - 8) // 2


def won_box(col: Box, lay: ColumnLayout, i: int) -> Box:
    w = won_w(col)
    return Box(col.x + PAD + (i % 2) * (w + 8), col.y + lay.provinces + 34 + (i // 2) * 46, w, 40)


def last_played_box(col: Box, lay: ColumnLayout) -> Box:
    return Box(col.x + PAD, col.y + lay.resources + 80, col.w - 2 * PAD, 28)


def nile_box(y: int, i: int) -> Box:
    w = (WIDTH - 2 * MARGIN - 2 * PAD - 2 * 10) // 3
    return Box(MARGIN + PAD + i * (w + 10), y + 46, w, NILE_H - 56)


def draw(view: Mapping[str, Any], highlight: Sequence[str] = ()) -> PILImage.Image:
    """The map image; `highlight`: card and province names of the last move (others are ignored)."""
    players = view.get("players", [])
    lay = ColumnLayout(display_rows(view), province_rows(view))
    nile = bool(view.get("nile"))
    body = body_layer(len(players), lay, nile)
    head = header_for(view)
    hh = header_height(head)
    im = PILImage.new("RGB", (WIDTH, hh + MARGIN + body.height), PAPER)
    c = Canvas(im, MAP_TEXT)
    c.paste(body, 0, hh + MARGIN)
    draw_header(c, head)
    top = hh + MARGIN
    recent = set(highlight) & places(view)
    _provinces(c, view, top, recent)
    for seat, p in enumerate(players):
        col = column_box(seat, lay)
        _bar_names(c, Box(col.x, col.y + top, col.w, 56), p.get("name", ""), p.get("civ_name", ""))
        _column(c, view, p, Box(col.x, col.y + top, col.w, col.h), lay, recent)
    if nile:
        _nile(c, view, top + PROVINCE_PANEL_H + MARGIN + lay.height + MARGIN, recent)
    return c.im


def _provinces(c: Canvas, view: Mapping[str, Any], top: int, recent: set[str]) -> None:
    row = view.get("province_row") or []
    rounds = view.get("rounds", 7)
    first_round = rounds - len(row) + 1
    x = MARGIN + PAD
    over = view.get("phase") == "over"
    if row or not over:
        c.text(x, top + 10, "Provinces", TITLE, bold=True)
        c.text(
            x + title_w("Provinces"), top + 13, "the amber one is contested at the end of this round", 20, fill=MUTED
        )
    if not row and over:
        _final_scores(c, view, top)
    elif not row:
        c.text(x, top + 60, "No provinces left.", 22, fill=MUTED)
    for i, prov in enumerate(row):
        current = i == 0 and not over
        caption = "THIS ROUND" if current else f"round {first_round + i}"
        sprite = parts.province_card(
            prov.get("id", 0),
            prov.get("name", "?"),
            tuple(prov.get("symbols", ())),
            prov.get("vp", 0),
            prov.get("icon", ""),
            prov.get("text", ""),
            caption,
            current,
            prov.get("name") in recent,
        )
        box = province_box(i, top)
        c.paste(sprite, box.x, box.y)
        if prov.get("name") in recent:  # this round's province is amber already: a frame round it too
            c.highlight(box.inset(-5), width=4, radius=12)
    standing = contest(view)
    if standing:
        y = top + 44 + parts.PROVINCE_H + 8
        prov = row[0]
        xx = x + c.text(x, y + 16, f"{prov.get('name', '?')} now:", 22, bold=True, anchor="lm") + 14
        for seat, _name, n in standing:
            c.badge(seat, xx, y, 32)
            xx += 38 + c.text(xx + 38, y + 16, f"{n}", 24, bold=True, anchor="lm") + 6
            for sym in prov.get("symbols", ()):
                c.icon(sym, xx, y + 2, 28)
                xx += 28
            xx += 22
        holder = next((nm for st, nm, _ in standing if st == view.get("marker")), None)
        if holder:
            c.text(
                xx,
                y + 16,
                f"a tie goes to {holder} (progress marker)",
                20,
                fill=MUTED,
                anchor="lm",
                max_width=WIDTH - MARGIN - PAD - xx,
            )


def contest(view: Mapping[str, Any]) -> list[tuple[int, str, int]]:
    """Each player's count of the current province's symbols (military strength), as it stands now.

    Rulebook, Phase III 1): the player with the most symbols among the types shown on the
    card wins it; a tie goes to the progress marker holder.
    """
    row = view.get("province_row") or []
    if not row or view.get("phase") == "over":
        return []
    symbols = row[0].get("symbols") or []
    out = []
    for i, p in enumerate(view.get("players", [])):
        strength = (p.get("military") or {}).get("strength") or {}
        if not p.get("civ"):
            return []
        out.append((p.get("seat", i), p.get("name", "?"), sum(strength.get(sym, 0) for sym in symbols)))
    return out


def _final_scores(c: Canvas, view: Mapping[str, Any], top: int) -> None:
    """At game end the empty province row shows the final score sheet instead."""
    scores = view.get("scores") or []
    winners = view.get("winners") or []
    y = top + 50
    c.text(MARGIN + PAD, top + 10, "Final scores", TITLE, bold=True)
    for p in view.get("players", []):
        seat = p.get("seat", 0)
        sc = p.get("score") or {}
        total = sc.get("total", 0)
        match = f" · match {scores[seat]}" if view.get("first_game_scores") and seat < len(scores) else ""
        c.badge(seat, MARGIN + PAD, y, 40)
        w = c.text(
            MARGIN + PAD + 50, y + 20, f"{p.get('name', '?')}: {total} VP", 30, bold=True, anchor="lm", max_width=420
        )
        c.text(
            MARGIN + PAD + 64 + w,
            y + 22,
            f"= cards {sc.get('buildings_leaders', 0)} + board {sc.get('board', 0)} + provinces "
            f"{sc.get('provinces', 0)} + marker {sc.get('marker', 0)}{match}"
            + ("   WINNER" if seat in winners else ""),
            22,
            anchor="lm",
            max_width=WIDTH - 3 * MARGIN - 64 - w - 60,
            bold=seat in winners,
        )
        y += 56
    if view.get("match") and view.get("first_game_scores"):
        first = view["first_game_scores"]
        c.text(MARGIN + PAD, y + 4, "Two-game match; game 1 scores: " + ", ".join(map(str, first)), 20, fill=MUTED)


def _column(
    c: Canvas, view: Mapping[str, Any], p: Mapping[str, Any], col: Box, lay: ColumnLayout, recent: set[str]
) -> None:
    seat = p.get("seat", 0)
    x0 = col.x + PAD
    # bar: progress marker, winner
    if view.get("marker") == seat:
        c.icon("marker", col.right - 52, col.y + 8, 40)
    if seat in (view.get("winners") or []) and view.get("phase") == "over":
        c.text(col.right - 60, col.y + 28, "WINNER", 22, bold=True, fill=INK, anchor="rm")
    # stats row
    y = col.y + lay.stats
    x = x0
    limit = p.get("coin_limit")
    x += c.icon_count("coin", f"{p.get('coins', 0)}" + (f"/{limit}" if limit else ""), x, y, 34) + 18
    x += c.icon_count("income", f"+{p.get('income', 0)}", x, y, 34) + 18
    x += c.icon_count("card", p.get("hand_count", 0), x, y, 34) + 14
    x += c.icon_count("deck", p.get("deck_count", 0), x, y, 34) + 14
    if p.get("golden_age"):
        c.icon("golden-age", x, y, 34)
        x += 40
    score = p.get("score") or {}
    total = score.get("total", 0)  # this game; a match's running total goes on the line below
    c.icon("vp", col.right - PAD - 100, y - 2, 38)
    c.text(col.right - PAD - 58, y + 17, str(total), 32, bold=True, anchor="lm")
    _display(c, p, col, lay, recent)
    _military(c, p, col, lay, recent)
    _resources(c, p, col, lay, recent)
    _progress(c, view, p, col, lay)
    _won(c, p, col, lay, recent)


def shown_cards(p: Mapping[str, Any], lay: ColumnLayout) -> list[dict]:
    """The display cards drawn as tiles: all, or all but the last slot's when they overflow
    (that slot then says how many more)."""
    cards = display_cards(p)
    slots = 2 * lay.display_rows
    return cards if len(cards) <= slots else cards[: slots - 1]


def _display(c: Canvas, p, col: Box, lay: ColumnLayout, recent: set[str]) -> None:
    cards = display_cards(p)
    disp = p.get("display") or {}
    nb, nl = len(disp.get("buildings") or []), len(disp.get("leaders") or [])
    c.text(
        col.x + PAD + title_w("Display"),
        col.y + lay.display + 3,
        f"{nb} building{'s' * (nb != 1)}, {nl} leader{'s' * (nl != 1)}",
        20,
        fill=MUTED,
    )
    y0 = col.y + lay.display + 34
    if not cards:
        c.text(col.x + PAD, y0 + 10, "nothing built yet", 20, fill=MUTED)
    shown = shown_cards(p, lay)
    for i, card in enumerate(shown):
        covered = bool(card.get("covered"))
        sprite = parts.display_tile(
            card.get("name", "?"),
            card.get("kind", "building"),
            card.get("vp", 0),
            covered,
            bool(card.get("scores", True)),
            card.get("name") in recent,
        )
        box = tile_box(col, lay, i)
        c.paste(sprite, box.x, box.y)
    if len(cards) > len(shown):
        i = len(shown)
        c.text(
            col.x + PAD + (i % 2) * (parts.TILE_W + 8) + 10,
            y0 + (i // 2) * (parts.TILE_H + 6) + 10,
            f"+{len(cards) - len(shown)} more",
            20,
            bold=True,
            fill=MUTED,
        )


def _military(c: Canvas, p, col: Box, lay: ColumnLayout, recent: set[str]) -> None:
    mil = p.get("military") or {}
    strength = mil.get("strength") or {}
    x = col.x + PAD + title_w("Military")
    y = col.y + lay.military
    x += c.text(x, y + 3, "strength", 20, fill=MUTED) + 10
    for sym in MILITARY:
        x += c.icon_count(sym, strength.get(sym, 0), x, y - 2, 30) + 16
    bands = mil.get("bands") or []
    filled = [i for i, b in enumerate(bands) if b.get("card_symbol")]
    last = filled[-1] if filled else -1
    for i, b in enumerate(bands[:6]):
        card = b.get("card") or {}
        sprite = parts.band_cell(
            b.get("band", i + 1),
            b.get("printed"),
            b.get("card_symbol"),
            i == last,
            bool(card) and card.get("name") in recent,
        )
        c.paste(sprite, col.x + PAD + i * (parts.BAND_W + 6), y + 34)
    if not bands:
        c.text(col.x + PAD, y + 50, "no civilization yet", 20, fill=MUTED)


def _resources(c: Canvas, p, col: Box, lay: ColumnLayout, recent: set[str]) -> None:
    res = p.get("resources") or {}
    area = p.get("resource_area") or []
    y = col.y + lay.resources
    c.text(
        col.x + PAD + title_w("Resources"),
        y + 3,
        f"available, from {len(area)} card{'s' * (len(area) != 1)}",
        20,
        fill=MUTED,
    )
    x = col.x + PAD
    for r in RESOURCES:
        x += c.icon_count(r, res.get(r, 0), x, y + 36, 38) + 34
    if area:
        last = area[-1].get("name", "?")
        box = last_played_box(col, lay)
        if last in recent:
            c.highlight(box.inset(-2), width=4, radius=6)
        color = INK if last in recent else MUTED
        c.text(box.x + 2, box.y + 3, f"last-played: {last}", 20, fill=color, bold=last in recent, max_width=box.w - 4)


def recent_level(view: Mapping[str, Any], p: Mapping[str, Any]) -> int:
    """The progress level this player reached in the last move (0: none)."""
    name = p.get("name", "")
    for line in view.get("last_move") or []:
        m = re.search(r"progress level (\d+)", line)
        if m and name and line.startswith(f"{name} (") and "does not" not in line:
            return int(m.group(1))
    return 0


def _progress(c: Canvas, view: Mapping[str, Any], p, col: Box, lay: ColumnLayout) -> None:
    prog = p.get("progress") or {}
    level, top = prog.get("level", 0), prog.get("max", 7)
    y = col.y + lay.progress
    side = "Golden Age side" if prog.get("golden_age") or p.get("golden_age") else "silver side"
    note = f"level {level} of {top} · {side}" if top else "no civilization yet"
    c.text(col.x + PAD + title_w("Progress"), y + 3, note, 20, fill=MUTED)
    unlocks = prog.get("unlocks") or []
    just = recent_level(view, p)
    for i, u in enumerate(unlocks[:7]):
        n = u.get("level", i + 1)
        sprite = parts.level_cell(
            n,
            tuple(u.get("texts") or ()),
            bool(u.get("unlocked")),
            n == level + 1,
            n == just and bool(u.get("unlocked")),
        )
        c.paste(sprite, col.x + PAD + i * (parts.LEVEL_W + 6), y + 34)


def _won(c: Canvas, p, col: Box, lay: ColumnLayout, recent: set[str]) -> None:
    provs = p.get("provinces") or []
    y = col.y + lay.provinces + 34
    if not provs:
        c.text(col.x + PAD, y + 8, "none yet", 20, fill=MUTED)
        return
    for i, prov in enumerate(provs):
        box = won_box(col, lay, i)
        sprite = parts.province_chip(
            prov.get("name", "?"), prov.get("vp", 0), prov.get("icon", ""), prov.get("name") in recent, box.w
        )
        c.paste(sprite, box.x, box.y)
    c.text(
        col.right - PAD,
        col.y + lay.provinces + 3,
        f"{sum(q.get('vp', 0) for q in provs)} VP printed",
        20,
        fill=MUTED,
        anchor="ra",
    )


def _nile(c: Canvas, view: Mapping[str, Any], y: int, recent: set[str]) -> None:
    """The Nile's three cards: name, developed or not, whose coins are on it (their effects in
    full are on the tables image)."""
    nile = view.get("nile") or []
    box = Box(MARGIN, y, WIDTH - 2 * MARGIN, NILE_H)
    c.panel(box)
    c.icon("river", box.x + PAD, y + 8, 30)
    c.text(box.x + PAD + 40, y + 10, "The Nile", TITLE, bold=True)
    c.text(box.x + PAD + 160, y + 13, "— a coin on a developed card gives its owner the effect", 20, fill=MUTED)
    for i, card in enumerate(nile[:3]):
        b = nile_box(y, i)
        dev = bool(card.get("developed"))
        c.panel(b, fill=(255, 255, 255) if dev else PANEL_ALT, outline=GOOD if dev else RULE, width=3 if dev else 2)
        if card.get("name") in recent:
            c.highlight(b.inset(-3), width=4)
        spaces = card.get("spaces", 2)
        room = b.w - 20 - spaces * 40
        c.text(b.x + 10, b.y + 4, card.get("name", "?"), 22, bold=True, max_width=room, fill=INK if dev else MUTED)
        c.text(b.x + 10, b.y + 30, "developed" if dev else "not developed", MAP_TEXT, fill=GOOD if dev else MUTED)
        coins = card.get("coins") or []
        for k in range(spaces):
            cx = b.right - 10 - (spaces - k) * 40
            if k < len(coins):
                c.badge(coins[k], cx, b.y + 10, 34)
            else:
                c.d.ellipse([cx, b.y + 10, cx + 34, b.y + 44], outline=RULE, width=2)
