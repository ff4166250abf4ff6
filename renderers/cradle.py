"""Cradle of Civilization images: the schematic map of the Ancient Near East.

`render(view, seat)` draws, from a view only (law 5): the header (Epoch, phase,
the Civilization in its round and its Army Pool, who acts, the last move), the
map (Areas as nodes in their Region's colour with terrain marks, Cities and
Wonders; land borders and straits — bowed round any third Area's node they
would run under, so a border never seems to belong to the wrong Area; seas),
the Armies on it (a chip per Area
in the controlling player's colour and letter, with the Civilization's number
and how many; the Civilization in its round is framed, the others are
inactive; raiders are drawn upside down; the Area of the last move and a battle
are framed), then scores and Region status per
player, and a legend. With `seat`, that seat's private facts (a card drawn
during allocation, cards it passed) are added. The static map is drawn once
and cached (`cached_layer`); each render only draws pieces on top.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from PIL import Image as PILImage
from PIL import ImageDraw

from engine.cradle.data import components
from renderers.common import (HIGHLIGHT, HIGHLIGHT_EDGE, INK, MARGIN, MUTED, PANEL, PAPER, RULE, WIDTH, Box,
                              Canvas, Header, Image, LegendItem, alt_lines, cached_layer, cached_sprite, draw_header,
                              draw_legend, font, header_height, ink_on, join_alt, legend_height, line_height,
                              player_color, player_letter, register_icon, tint, wrap)

C = components()

MAP_H = 1010
NODE_W, NODE_H = 106, 70
SEA_BLUE = (40, 110, 170)
SEA_FILL = (214, 232, 245)
NON_PLAYER = (120, 120, 120)
TEXT = 20
SMALL = 18

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
SHORT_NAMES = {"North Zagros": "N. Zagros", "South Zagros": "S. Zagros"}
STATUS_LETTER = {"presence": "P", "control": "C", "domination": "D"}
REGION_SHORT = {"aegean-islands": "Aegean", "anatolia": "Anatolia", "arabian-desert": "Arabia",
                "caucasus": "Caucasus", "egypt": "Egypt", "greece": "Greece", "iran": "Iran", "levant": "Levant",
                "mesopotamia": "Mesopot."}


# ---- icons for terrain and markers (shapes, so they read without colour) ----------
@register_icon("cradle-mountain")
def _mountain(d, s, color):
    c = color or (90, 80, 70)
    d.polygon([(s * .05, s * .9), (s * .38, s * .2), (s * .55, s * .5), (s * .7, s * .3), (s * .95, s * .9)],
              fill=c)


@register_icon("cradle-rough")
def _rough(d, s, color):
    c = color or (120, 100, 70)
    w = max(2, s // 8)
    d.arc([s * .02, s * .35, s * .5, s * .95], 180, 360, fill=c, width=w)
    d.arc([s * .5, s * .35, s * .98, s * .95], 180, 360, fill=c, width=w)


@register_icon("cradle-desert")
def _desert(d, s, color):
    c = color or (170, 120, 30)
    r = s * .09
    for x, y in ((.2, .3), (.5, .2), (.8, .35), (.35, .65), (.65, .7), (.15, .85), (.85, .85)):
        d.ellipse([s * x - r, s * y - r, s * x + r, s * y + r], fill=c)


@register_icon("cradle-city")
def _city(d, s, color):
    c = color or INK
    d.rectangle([s * .12, s * .35, s * .88, s * .92], fill=c)
    d.polygon([(s * .05, s * .38), (s * .5, s * .05), (s * .95, s * .38)], fill=c)


@register_icon("cradle-wonder")
def _wonder(d, s, color):
    import math
    c = color or (212, 160, 0)
    pts = []
    for k in range(10):
        r = s * (.48 if k % 2 == 0 else .2)
        a = -math.pi / 2 + k * math.pi / 5
        pts.append((s / 2 + r * math.cos(a), s / 2 + r * math.sin(a)))
    d.polygon(pts, fill=c, outline=INK)


TERRAIN_ICON = {"mountain": "cradle-mountain", "rough": "cradle-rough", "desert": "cradle-desert"}


# ---- the static map -----------------------------------------------------------
def node_box(area: str) -> Box:
    a = C.areas[area]
    return Box(a.x - NODE_W // 2, a.y - NODE_H // 2, NODE_W, NODE_H)


def _dashed(d: ImageDraw.ImageDraw, p: tuple[int, int], q: tuple[int, int], fill, width: int, dash: int = 10) -> None:
    (x0, y0), (x1, y1) = p, q
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** .5)
    n = int(length // dash)
    for k in range(0, n, 2):
        a, b = k / n, min(1.0, (k + 1) / n)
        d.line([x0 + (x1 - x0) * a, y0 + (y1 - y0) * a, x0 + (x1 - x0) * b, y0 + (y1 - y0) * b],
               fill=fill, width=width)


def _hits(p: tuple[float, float], q: tuple[float, float], box: Box, pad: int = 4) -> bool:
    """Does the segment p-q pass through `box` (grown by `pad`)? (Liang-Barsky clipping)"""
    (x0, y0), (x1, y1) = p, q
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for pp, qq in ((-dx, x0 - (box.x - pad)), (dx, box.right + pad - x0),
                   (-dy, y0 - (box.y - pad)), (dy, box.bottom + pad - y0)):
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
    return [((1 - t) ** 2 * p[0] + 2 * (1 - t) * t * ctrl[0] + t * t * q[0],
             (1 - t) ** 2 * p[1] + 2 * (1 - t) * t * ctrl[1] + t * t * q[1]) for t in (k / n for k in range(n + 1))]


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
    pa, pb = (C.areas[a].x, C.areas[a].y), (C.areas[b].x, C.areas[b].y)
    others = [node_box(k) for k in C.areas if k not in (a, b)]

    def crossed(points) -> int:
        return sum(1 for box in others if any(_hits(points[i], points[i + 1], box, 2) for i in range(len(points) - 1)))

    best, best_n = [pa, pb], crossed([pa, pb])
    if best_n == 0:
        return best
    mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
    length = max(1.0, ((pb[0] - pa[0]) ** 2 + (pb[1] - pa[1]) ** 2) ** .5)
    nx, ny = -(pb[1] - pa[1]) / length, (pb[0] - pa[0]) / length
    for bow in range(20, int(min(140, .45 * length)) + 1, 20):
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
    c = Canvas.blank(width, MAP_H, PAPER)
    d = c.d
    for sea in C.seas.values():
        for a in sea.borders:
            ar = C.areas[a]
            d.line([sea.x, sea.y, ar.x, ar.y], fill=tint(SEA_BLUE, .8), width=2)
    seen = set()
    for a, near in C.adjacent.items():
        for b in near:
            if (b, a) in seen:
                continue
            seen.add((a, b))
            path = border_path(a, b)
            if frozenset((a, b)) in C.straits:
                for p, q in zip(path, path[1:]):
                    _dashed(d, p, q, SEA_BLUE, 3, dash=max(2, int(10 if len(path) == 2 else 5)))
            else:
                d.line(path, fill=(150, 140, 120), width=3, joint="curve")
    for sea in C.seas.values():
        w = int(font(SMALL).getlength(sea.name)) + 14
        box = Box(sea.x - w // 2, sea.y - 14, w, 28)
        d.rounded_rectangle(box.rect, radius=12, fill=SEA_FILL, outline=SEA_BLUE, width=2)
        c.text(sea.x, sea.y, sea.name, SMALL, fill=SEA_BLUE, anchor="mm")
    for area in C.areas.values():
        box = node_box(area.id)
        color = REGION_COLORS.get(area.region, RULE)
        d.rounded_rectangle(box.rect, radius=9, fill=tint(color, .82), outline=color, width=4)
        name = SHORT_NAMES.get(area.name, area.name)
        c.text(area.x, box.y + 4, name, SMALL, bold=False, fill=INK, anchor="ma", max_width=NODE_W - 4)
        if area.terrain in TERRAIN_ICON:
            c.icon(TERRAIN_ICON[area.terrain], box.x + 6, box.y + 26, 16)
    return c.im


# ---- pieces -------------------------------------------------------------------
def seat_color(seat: int | None) -> tuple[int, int, int]:
    return NON_PLAYER if seat is None or seat < 0 else player_color(seat)


def seat_letter(seat: int | None) -> str:
    return "N" if seat is None or seat < 0 else player_letter(seat)


def chip_label(info: Mapping[str, Any]) -> str:
    if info.get("raider"):
        return f"R×{info['armies']}"
    civ = C.civs.get(info["civ"])
    tag = civ.card + (civ.marker or "") if civ else info["civ"]
    return f"{tag}×{info['armies']}"


@cached_sprite(maxsize=512)
def chip_image(owner: int | None, label: str, raider: bool, w: int, h: int) -> PILImage.Image:
    color = seat_color(owner)
    chip = PILImage.new("RGB", (w, h), color)
    cd = ImageDraw.Draw(chip)
    ink = ink_on(color)
    cd.ellipse([3, 3, h - 3, h - 3], fill=ink)
    cd.text((h / 2, h / 2), seat_letter(owner), font=font(SMALL, True), fill=color, anchor="mm")
    cd.text((h + 3, h / 2), label, font=font(SMALL, True), fill=ink, anchor="lm")
    return chip.rotate(180) if raider else chip  # raiders: upside-down counters (8.0)


def draw_chip(c: Canvas, box: Box, info: Mapping[str, Any]) -> None:
    """The Armies in one Area: player colour + letter, Civilization number and count."""
    chip = chip_image(info.get("owner"), chip_label(info), bool(info.get("raider")), box.w, box.h)
    c.im.paste(chip, (box.x, box.y))
    if info.get("active"):
        c.d.rectangle([box.x - 3, box.y - 3, box.right + 2, box.bottom + 2], outline=HIGHLIGHT_EDGE, width=4)
        c.d.rectangle([box.x - 6, box.y - 6, box.right + 5, box.bottom + 5], outline=HIGHLIGHT, width=3)
    elif info.get("raider"):
        c.d.rectangle([box.x - 1, box.y - 1, box.right, box.bottom], outline=INK, width=2)
    if info.get("active"):
        c.d.rectangle([box.x - 3, box.y - 3, box.right + 2, box.bottom + 2], outline=HIGHLIGHT_EDGE, width=4)
    elif info.get("raider"):
        c.d.rectangle([box.x - 1, box.y - 1, box.right, box.bottom], outline=INK, width=2)


def last_area(view: Mapping[str, Any]) -> str | None:
    """The Area the last move named (`place ur`, `raid babylon`, ...), to highlight it."""
    moves = view.get("last_move") or []
    if not moves:
        return None
    word = moves[0].rsplit(" ", 1)[-1]
    return word if word in C.areas else None


def draw_pieces(c: Canvas, view: Mapping[str, Any], top: int) -> None:
    battle = (view.get("round") or {}).get("battle")
    last = last_area(view)
    wonder_at = {a: w for w, a in view.get("wonders", {}).items()}
    for area in C.areas.values():
        box = node_box(area.id)
        box = Box(box.x, box.y + top, box.w, box.h)
        if area.id == battle:
            c.d.rounded_rectangle([box.x - 5, box.y - 5, box.right + 5, box.bottom + 5], radius=12,
                                  outline=HIGHLIGHT_EDGE, width=5)
        elif area.id == last:
            c.d.rounded_rectangle([box.x - 5, box.y - 5, box.right + 5, box.bottom + 5], radius=12,
                                  outline=HIGHLIGHT, width=5)
        x = box.x + 28
        for _ in view.get("cities", {}).get(area.id, [])[:3]:
            c.icon("cradle-city", x, box.y + 25, 16)
            x += 18
        if area.id in wonder_at:
            c.icon("cradle-wonder", box.right - 24, box.y + 24, 20)
        info = view.get("board", {}).get(area.id)
        if info:
            draw_chip(c, Box(box.x + 4, box.y + 43, box.w - 8, 24), info)


# ---- text panels -------------------------------------------------------------------
def status_line(view: Mapping[str, Any]) -> str:
    phase = view.get("phase")
    rnd = view.get("round")
    if phase == "over":
        return "Game over"
    if phase == "allocate":
        alloc = view.get("allocation") or {}
        return f"Civilization allocation: {alloc.get('cards_left', 0)} cards left in the deck"
    if phase == "events":
        ev = view.get("event") or {}
        civ = C.civs.get(ev.get("civ", ""))
        return f"End of Epoch events: {ev.get('kind', '')} in {civ.name if civ else '?'} ({ev.get('left', 0)} left)"
    if rnd:
        extra = []
        if rnd.get("bonus"):
            result = (rnd.get("bonus_result") or "").split(":")[0].rstrip(".")
            extra.append(f"bonus {rnd['bonus']}: {result}" if result else f"bonus {rnd['bonus']}")
        if rnd.get("battle"):
            extra.append(f"battle for {C.areas[rnd['battle']].name}")
        if rnd.get("displacing"):
            extra.append("Armies leaving the Start Area")
        return f"{rnd['name']} · pool {rnd['pool']}" + "".join(f" · {e}" for e in extra)
    return "Strategy Phase"


def region_text(regions: Mapping[str, str]) -> str:
    """`Regions: D Arabia · C Egypt, Iran · P Anatolia` — grouped by status, highest first, so
    the letter is written once per group and a wide empire still fits its line."""
    groups = []
    for status in ("domination", "control", "presence"):
        names = [REGION_SHORT.get(r, r) for r, s in sorted(regions.items()) if s == status]
        if names:
            groups.append(f"{STATUS_LETTER[status]} {', '.join(names)}")
    return "Regions: " + (" · ".join(groups) or "-")


#: the text width of one column of the score panel
ROW_TEXT_W = (WIDTH - 2 * MARGIN - 20) // 2 - 50


def row_height(rows) -> int:
    """A player's block in the score panel: name, cards, and the Regions on one line — two when
    some player's Regions need them (wide empires late in the game)."""
    region_lines = max([len(wrap(r[3], ROW_TEXT_W, SMALL, max_lines=2)) for r in rows] or [1])
    return line_height(TEXT) + (1 + region_lines) * line_height(SMALL) + 10


def player_lines(view: Mapping[str, Any]) -> list[tuple[int | None, str, str]]:
    """(seat, name/score, details) per player, then the non-player civilization."""
    cards = view.get("cards", {})
    rows = []
    current = view.get("epoch")
    for p in view.get("players", []):
        held = []
        for card in cards.get(str(p["seat"]), []):
            alive = [c for c in card["civs"] if not c["gone"]]
            if not alive:
                continue
            mark = "*" if card["civs"][0]["epoch"] == current else ""
            held.append(card["card"] + mark)
        head = f"{p['name']}  {p['vp']} VP"
        armies = f"{p['armies']} Arm{'y' if p['armies'] == 1 else 'ies'}"
        rows.append((p["seat"], head, f"{armies} · {', '.join(held) or 'no cards'}",
                     region_text(p["regions"])))
    if view.get("non_player"):
        held = [card["card"] for card in cards.get("-1", [])]
        rows.append((None, "Non-player", f"{', '.join(held) or 'no cards'}", "scores no VPs"))
    return rows


def summary_line(view: Mapping[str, Any]) -> str:
    """The Epoch Civilization Summary Card (1.5), shown while cards are allocated."""
    parts = []
    for c in view.get("summary", []):
        start = C.areas[c["start_area"]].name if c["start_area"] in C.areas else c["start_area"]
        parts.append(f"{c['id']} {c['name']} ({start}, {c['armies']})")
    return f"Epoch {view.get('epoch_roman', '')} civilizations: " + "; ".join(parts) if parts else ""


def private_lines(view: Mapping[str, Any], seat: int | None) -> list[str]:
    out: list[str] = []
    if seat is None:
        return out
    alloc = view.get("allocation") or {}
    mine = alloc.get("private") or {}
    if "drawn" in mine:
        out.append(f"Your drawn card (secret): {mine['drawn']['name']}")
    if "kept" in mine:
        out.append(f"You kept (secret until all are dealt): {mine['kept']['name']}")
    names = {p["seat"]: p["name"] for p in view.get("players", [])}
    for to, card in (mine.get("passed") or {}).items():
        out.append(f"You passed {card['name']} to {names.get(int(to), to)}")
    return out


LEGEND = [
    LegendItem("cradle-mountain", "Mountain: stack 1, defender 2 dice"),
    LegendItem("cradle-rough", "Rough: stack 2, defender wins ties"),
    LegendItem("cradle-desert", "Desert: stack 1"),
    LegendItem(None, "Plains (no mark): stack 3"),
    LegendItem("cradle-city", "City"),
    LegendItem("cradle-wonder", "Wonder"),
    LegendItem(None, "R: raiders (upside down) · framed: in its round · *: this Epoch's card · P/C/D: presence/control/domination"),
]


def render(view: Mapping[str, Any], seat: int | None = None) -> Image:
    players = view.get("players", [])
    names = {p["seat"]: p["name"] for p in players}
    title = f"Cradle · Epoch {view.get('epoch_roman', '?')}: {view.get('epoch_name', '')}"
    header = Header(title=title, status=status_line(view),
                    to_act=[(s, names.get(s, "non-player")) for s in view.get("to_act", []) if s is not None],
                    last_move=list(view.get("last_move", [])),  # the engine keeps it short (game.last_lines)
                    subtitle=f"Private view: {names.get(seat, seat)}" if seat is not None else "")
    rows = player_lines(view)
    private = private_lines(view, seat)
    notes = wrap(summary_line(view), WIDTH - 2 * MARGIN - 30, SMALL) if view.get("phase") == "allocate" else []
    hh = header_height(header)
    row_h = row_height(rows)
    n_rows = (len(rows) + 1) // 2
    panel_h = (MARGIN + n_rows * row_h + len(private) * line_height(TEXT) + len(notes) * line_height(SMALL)
               + MARGIN)
    lh = legend_height(LEGEND)
    c = Canvas.blank(WIDTH, hh + MAP_H + panel_h + lh, PAPER)
    c.im.paste(map_layer(WIDTH), (0, hh))
    draw_header(c, header)
    draw_pieces(c, view, hh)
    y = hh + MAP_H
    box = Box(MARGIN, y, WIDTH - 2 * MARGIN, panel_h - MARGIN // 2)
    c.panel(box, fill=PANEL)
    winners = set(view.get("winners") or [])
    col_w = (box.w - 20) // 2
    for k, (s, head, cards, regions) in enumerate(rows):
        x = box.x + 10 + (k % 2) * col_w
        yy = y + MARGIN // 2 + 4 + (k // 2) * row_h
        color = seat_color(s)
        c.d.ellipse([x, yy + 2, x + 30, yy + 32], fill=color, outline=INK, width=2)
        c.text(x + 15, yy + 17, seat_letter(s), SMALL, bold=True, fill=ink_on(color), anchor="mm")
        won = " · winner" if s in winners else ""
        c.text(x + 40, yy + 2, head + won, TEXT, bold=True, fill=INK, max_width=col_w - 50)
        c.text(x + 40, yy + 2 + line_height(TEXT), cards, SMALL, fill=MUTED, max_width=col_w - 50)
        c.paragraph(x + 40, yy + 2 + line_height(TEXT) + line_height(SMALL), regions, col_w - 50, SMALL,
                    fill=MUTED, max_lines=2)
    yy = y + MARGIN // 2 + 4 + n_rows * row_h
    for line in notes:
        c.text(box.x + 14, yy, line, SMALL, fill=INK, max_width=box.w - 30)
        yy += line_height(SMALL)
    for line in private:
        c.d.rectangle([box.x + 8, yy, box.right - 8, yy + line_height(TEXT)], fill=tint(HIGHLIGHT, .4))
        c.text(box.x + 14, yy + 1, line, TEXT, fill=INK, max_width=box.w - 30)
        yy += line_height(TEXT)
    draw_legend(c, LEGEND, hh + MAP_H + panel_h)
    return c.finish(alt_text(view, header, rows, private + [" ".join(notes)] if notes else private))


def alt_text(view: Mapping[str, Any], header: Header, rows, private: list[str]) -> str:
    lines = alt_lines(header)
    if view.get("prompt"):
        lines.append("Now: " + view["prompt"])
    if view.get("winners"):
        names = {p["seat"]: p["name"] for p in view.get("players", [])}
        lines.append("Winner: " + ", ".join(names[w] for w in view["winners"]))
    for s, head, cards, regions in rows:
        lines.append(f"{head}: {cards}; {regions}")
    by_civ: dict[str, list[str]] = {}
    for area, info in sorted(view.get("board", {}).items()):
        label = info.get("label", info["civ"])
        by_civ.setdefault(label, []).append(f"{C.areas[area].name} {info['armies']}")
    for label, where in sorted(by_civ.items()):
        lines.append(f"{label}: " + ", ".join(where))
    if view.get("wonders"):
        names = {w.id: w.name for w in C.wonders}
        lines.append("Wonders: " + ", ".join(f"{names.get(w, w)} in {C.areas[a].name}"
                                             for w, a in view["wonders"].items()))
    lines += private
    return join_alt(lines)


__all__ = ["render"]
