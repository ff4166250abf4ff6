"""Mosaic's public board: the hex map, influence per region, a panel per player, the offers, a legend.

Drawn from a view only (DESIGN.md, Rendering): the header; the hex map with region
colours, ports, cities, port cities, towns, wonders, trade goods, caches, the
hexes an open decision offers (numbered) and the last move framed; influence and
military units per region; a compact panel per player; at game end the final
tally; the four offers and the remaining tiles; a legend. The static map (sea,
hexes, ports, region names) is a cached layer per set of regions in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from engine.mosaic.data import load
from renderers.common import (
    HIGHLIGHT_EDGE,
    INK,
    MARGIN,
    MUTED,
    PANEL,
    PAPER,
    WIDTH,
    Box,
    Canvas,
    LegendItem,
    cached_layer,
    draw_header,
    draw_legend,
    font,
    header_height,
    legend_height,
    measure,
    player_color,
    player_letter,
    tint,
)

from .labels import GOOD_ABBR, PILLAR_ABBR, WONDER_ABBR, final_rows, header_for, offer_items
from .parts import MAP_H, PIECE_DY, R, centre, draw_piece, hex_number, hex_points, paste_label, wrap_text

SEA = (168, 200, 222)
OUT_OF_PLAY = (190, 186, 178)
#: A hex's number: small, dark, at the top of the hex, above the piece, tile or ship drawn on it.
NUMBER_SIZE, NUMBER_DY, NUMBER_INK = 14, -R * 0.66, (40, 34, 28)


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


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
        colour = _rgb(d.regions[h.region].colour) if h.region in in_play else OUT_OF_PLAY
        if h.kind == "port":
            colour = tint(colour, 0.45)
        dr.polygon([(x * ss, y * ss) for x, y in hex_points(cx, cy, R - 1)], fill=colour, outline=(80, 70, 60))
        if h.kind == "port":
            # a small ship: hull and sail
            x, y = cx * ss, (cy + R * 0.35) * ss
            w = R * 0.55 * ss
            dr.polygon(
                [(x - w, y), (x + w, y), (x + w * 0.6, y + w * 0.45), (x - w * 0.6, y + w * 0.45)], fill=(60, 80, 120)
            )
            dr.polygon([(x, y - w * 1.1), (x, y - w * 0.1), (x + w * 0.7, y - w * 0.1)], fill=(250, 250, 250))
    im = im.resize((WIDTH, MAP_H), PILImage.Resampling.LANCZOS)
    c = Canvas(im)
    centres = [centre(h.px) for h in d.hexes.values()]
    for reg, r in d.regions.items():
        xs = [centre(d.hexes[h].px) for h in d.region_hexes[reg]]
        mx = sum(x for x, _ in xs) / len(xs)
        top = min(y for _, y in xs)
        label = r.name + ("" if reg in in_play else " (out of play)")
        lx, ly = _label_spot(label, mx, top - R - 4, centres)
        c.text(lx, ly, label, 24, bold=True, fill=INK if reg in in_play else MUTED, anchor="mb")
    for h in d.hexes.values():
        if h.region in in_play:
            cx, cy = centre(h.px)
            c.text(cx, cy + NUMBER_DY, hex_number(h.id), NUMBER_SIZE, bold=True, fill=NUMBER_INK, anchor="mm")
    return c.im


def places(view: Mapping[str, Any]) -> set[str]:
    """The places the board image names, as the view names them: each region in play (its name
    above it) and each hex in one (its number on it; with the region's name that is how choices
    name a hex, "Assyria 12"). Choices may refer only to these (tests/engine/mosaic/test_choices.py)."""
    d = load()
    in_play = {r["id"] for r in view["regions"] if r["in_play"]}
    return in_play | {h for h, x in d.hexes.items() if x.region in in_play}


def _label_spot(label: str, mx: float, my: float, centres: list[tuple[float, float]]) -> tuple[float, float]:
    """Where a region name goes: the sea spot nearest to just above the region, so it never covers a hex.

    (mx, my) is the wished bottom-centre; the label's box may not come within a hex radius of any hex
    centre nor leave the map.
    """
    w, h = font(24, True).getlength(label) + 8, 28
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


def _recent_hexes(view: Mapping[str, Any]) -> list[str]:
    """Hexes named in the last move's log lines (framed in amber: the last move highlighted)."""
    hexes = load().hexes
    words = " ".join(view.get("last_move") or []).replace("(", " ").replace(".", " ").split()
    return [w for w in words if w in hexes]


def _draw_map(c: Canvas, view: Mapping[str, Any], y0: int) -> None:
    d = load()
    in_play = tuple(r["id"] for r in view["regions"] if r["in_play"])
    c.im.paste(_map_layer(in_play), (0, y0))
    goods = view.get("trade_goods", {})
    caches = set(view.get("caches", []))
    fish = set(view.get("fish", []))
    for h, good in goods.items():
        cx, cy = centre(d.hexes[h].px)
        paste_label(c, GOOD_ABBR.get(good, good[:2].title()), cx, cy + y0 + PIECE_DY)
    for h in caches:
        cx, cy = centre(d.hexes[h].px)
        cy += y0 + PIECE_DY
        c.d.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=(250, 240, 200), outline=INK, width=2)
        paste_label(c, "?", cx, cy + 1, bold=True)
    for h in fish:
        if d.hexes[h].region in in_play:
            cx, cy = centre(d.hexes[h].px)
            paste_label(c, "Fi", cx, cy + y0 - R * 0.12)
    for h in (view.get("pending") or {}).get("hexes", []):
        # The open decision asks for a hex: frame the choices (their numbers are on every hex).
        cx, cy = centre(d.hexes[h].px)
        c.d.polygon(hex_points(cx, cy + y0, R - 2), outline=(20, 120, 60), width=4)
    for h in _recent_hexes(view):
        cx, cy = centre(d.hexes[h].px)
        c.d.polygon(hex_points(cx, cy + y0, R - 2), outline=HIGHLIGHT_EDGE, width=5)
    for piece in view.get("pieces", []):
        cx, cy = centre(d.hexes[piece["hex"]].px)
        draw_piece(c, piece["kind"], piece["seat"], cx, cy + y0 + PIECE_DY)
    for piece in view.get("pieces", []):
        if piece["kind"] == "wonder" and piece.get("wonder"):
            cx, cy = centre(d.hexes[piece["hex"]].px)
            tag = WONDER_ABBR.get(piece["wonder"], piece["wonder"][:3])  # inside the hex: the next one's number shows
            paste_label(c, tag, cx, cy + y0 + PIECE_DY + R * 0.48, 15, True, boxed=True)


INF_ROW = 34


def _influence_panel(c: Canvas, box: Box, view: Mapping[str, Any]) -> None:
    """Influence per region (Empire Scoring) and military units, one row per region in play."""
    d = load()
    c.panel(box, fill=PANEL)
    regions = [r for r in view["regions"] if r["in_play"]]
    units: dict[str, list[tuple[int, int]]] = {}
    for p in view["players"]:
        for reg, k in p.get("units", {}).items():
            if k:
                units.setdefault(reg, []).append((p["seat"], k))
    cols = box.inset(8).columns(2, 12)
    c.text(cols[0].x, box.y + 8, "Influence (framed: first place; units ▲)", 20, bold=True)
    for i, r in enumerate(regions):
        col = cols[i % 2]
        y = box.y + 38 + (i // 2) * INF_ROW
        c.d.rectangle([col.x, y + 4, col.x + 20, y + 24], fill=_rgb(d.regions[r["id"]].colour), outline=INK)
        c.text(col.x + 28, y + 14, r["name"], 20, bold=True, anchor="lm", max_width=110)
        x = col.x + 150
        top = max(r["influence"], default=0)
        for seat, v in enumerate(r["influence"]):
            if v:
                if v == top:  # first place now (ties included): framed, as Empire Scoring would pay it
                    w = 28 + measure(str(v), 18, True) + 6
                    c.d.rounded_rectangle([x - 3, y + 1, x + w, y + 29], radius=6, outline=HIGHLIGHT_EDGE, width=3)
                c.badge(seat, x, y + 3, 24)
                x += 28 + c.text(x + 28, y + 14, str(v), 18, bold=True, anchor="lm") + 10
        for seat, k in units.get(r["id"], []):
            if x > col.right - 60:
                break
            c.d.polygon([(x, y + 24), (x + 10, y + 4), (x + 20, y + 24)], fill=player_color(seat), outline=INK)
            x += 22 + c.text(x + 22, y + 14, f"{player_letter(seat)}×{k}", 18, anchor="lm") + 10


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
    LegendItem(None, "star + tag: wonder (Pyr, Sph, Lib…)"),
    LegendItem(None, "▲ A×n: military units (influence panel)"),
    LegendItem(None, "numbers: hexes (choices say Assyria 12)"),
    LegendItem(None, "?: cache"),
    LegendItem(None, "Gr/St/Wi…: trade goods, Fi: fish"),
    LegendItem(None, "*: government refresh used"),
    LegendItem(None, "pillars: Sci science, Eco economy, Pop population, Bld building, Cul culture"),
    LegendItem(None, "Gov government, Mil military, Urb urbanization (Urb1: needs 1)"),
]


def draw(view: Mapping[str, Any]) -> PILImage.Image:
    header = header_for(view)
    hh = header_height(header)
    players = view["players"]
    per_row = 2
    rows = -(-len(players) // per_row)
    panel_h = 36 + 7 * 23 + 16
    offers_h = _offers_height(view) + 10
    table_h = _final_height(view)
    lh = legend_height(LEGEND)
    n_regions = sum(1 for r in view["regions"] if r["in_play"])
    inf_h = 46 + -(-n_regions // 2) * INF_ROW
    height = (
        hh + MAP_H + 8 + inf_h + 10 + rows * (panel_h + 10) + (table_h + 10 if table_h else 0) + offers_h + lh + MARGIN
    )
    c = Canvas.blank(WIDTH, height, PAPER)
    draw_header(c, header)
    y = hh
    _draw_map(c, view, y)
    y += MAP_H + 8
    _influence_panel(c, Box(MARGIN, y, WIDTH - 2 * MARGIN, inf_h), view)
    y += inf_h + 10
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
