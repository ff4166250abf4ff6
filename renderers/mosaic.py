"""Mosaic images: the public hex map with player panels and offers, and a private image.

`render(view, seat)`: seat None draws the public board (header, hex map with
region colours, ports, cities, port cities, towns, wonders, trade goods, caches,
military units and influence per region; a compact panel per player; the four
offers and the remaining tiles; a legend). With a seat, the private image:
that seat's face-down technologies, draft hand and drafted cards (and a
Republic's look at the deck tops). Drawn from views only (DESIGN.md, Rendering).
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Mapping

from PIL import Image as PILImage
from PIL import ImageDraw

from engine.mosaic.data import load
from engine.mosaic.words import population_fallback_word, population_word, tax_fallback_word, tax_word
from renderers.common import (HIGHLIGHT_EDGE, INK, MARGIN, MUTED, PANEL, PANEL_ALT, PAPER, WIDTH, Box, Canvas,
                              Header, Image, LegendItem, alt_lines, cached_layer, draw_header, draw_legend,
                              font, header_height, ink_on, join_alt, legend_height, player_color, player_letter, tint)

SEA = (168, 200, 222)
OUT_OF_PLAY = (190, 186, 178)
MAP_X0, MAP_Y0, MAP_X1, MAP_Y1 = 14, 126, 930, 726   # source-image window holding every hex
SRC_R = 24.0                                          # hex radius in source-image pixels
SCALE = (WIDTH - 2 * MARGIN) / (MAP_X1 - MAP_X0)
R = SRC_R * SCALE
MAP_H = int((MAP_Y1 - MAP_Y0) * SCALE)
GOOD_ABBR = {"grain": "Gr", "stone": "St", "wine": "Wi", "olive-oil": "Ol", "timber": "Ti", "copper": "Cu",
             "iron": "Fe", "gold": "Au", "marble": "Ma", "papyrus": "Pa", "purple-dye": "Pu", "incense": "In",
             "fish": "Fi"}
PILLAR_ABBR = {"science": "Sci", "economy": "Eco", "food": "Food", "population": "Pop", "building": "Bld",
               "culture": "Cul", "government": "Gov", "military": "Mil", "urbanization": "Urb"}
WONDER_ABBR = {"colosseum-of-rome": "Col", "hanging-gardens": "HGa", "stonehenge": "Stn", "colossus-of-rhodes": "Rho",
               "great-library": "Lib", "lighthouse-of-alexandria": "Lgt", "temple-of-artemis": "Tem",
               "great-pyramid": "Pyr", "sphinx": "Sph"}
PENDING = {"place": "choosing a hex", "military": "military action",
           "unit": "placing free units", "eliminate": "General's removal", "library": "Great Library symbols",
           "art": "Art golden age", "production": "leader production", "seize": "Priestess takes a city"}
PHASES = {"leaders": "Leader draft", "draft": "Starting technology draft", "setup": "Setup: cities and leaders",
          "play": "Play", "over": "Game over"}


def _centre(px: list[int]) -> tuple[float, float]:
    return MARGIN + (px[0] - MAP_X0) * SCALE, (px[1] - MAP_Y0) * SCALE


def _hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return [(cx + r * math.cos(math.pi / 3 * k), cy + r * math.sin(math.pi / 3 * k)) for k in range(6)]


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@cached_layer(maxsize=8)
def _map_layer(in_play: tuple[str, ...]) -> PILImage.Image:
    """The static map: sea, hexes in region colours (greyed when out of play), ports, region names."""
    d = load()
    ss = 2
    im = PILImage.new("RGB", (WIDTH * ss, MAP_H * ss), SEA)
    dr = ImageDraw.Draw(im)
    for h in d.hexes.values():
        cx, cy = _centre(h.px)
        colour = _rgb(d.regions[h.region].colour) if h.region in in_play else OUT_OF_PLAY
        if h.kind == "port":
            colour = tint(colour, .45)
        dr.polygon([(x * ss, y * ss) for x, y in _hex_points(cx, cy, R - 1)], fill=colour, outline=(80, 70, 60))
        if h.kind == "port":
            # a small ship: hull and sail
            x, y = cx * ss, (cy + R * .35) * ss
            w = R * .55 * ss
            dr.polygon([(x - w, y), (x + w, y), (x + w * .6, y + w * .45), (x - w * .6, y + w * .45)], fill=(60, 80, 120))
            dr.polygon([(x, y - w * 1.1), (x, y - w * .1), (x + w * .7, y - w * .1)], fill=(250, 250, 250))
    im = im.resize((WIDTH, MAP_H), PILImage.Resampling.LANCZOS)
    c = Canvas(im)
    centres = [_centre(h.px) for h in d.hexes.values()]
    for reg, r in d.regions.items():
        xs = [_centre(d.hexes[h].px) for h in d.region_hexes[reg]]
        mx = sum(x for x, _ in xs) / len(xs)
        top = min(y for _, y in xs)
        label = r.name + ("" if reg in in_play else " (out of play)")
        lx, ly = _label_spot(label, mx, top - R - 4, centres)
        c.text(lx, ly, label, 24, bold=True, fill=INK if reg in in_play else MUTED, anchor="mb")
    return c.im


def _label_spot(label: str, mx: float, my: float, centres: list[tuple[float, float]]) -> tuple[float, float]:
    """Where a region name goes: the sea spot nearest to just above the region, so it never covers a hex.

    (mx, my) is the wished bottom-centre; the label's box may not come within a hex radius of any hex
    centre nor leave the map.
    """
    w, h = font(24, True).getlength(label) + 8, 28
    clear = R * .95
    near = [(cx, cy) for cx, cy in centres
            if abs(cx - mx) < 320 + w / 2 + clear and abs(cy - my) < 240 + h + clear]

    def free(x: float, y: float) -> bool:
        if x - w / 2 < 2 or x + w / 2 > WIDTH - 2 or y - h < 2 or y > MAP_H - 2:
            return False
        return all(not (x - w / 2 - clear < cx < x + w / 2 + clear and y - h - clear < cy < y + clear)
                   for cx, cy in near)

    for dx, dy in _SPOTS:
        if free(mx + dx, my + dy):
            return mx + dx, my + dy
    return min(max(mx, w / 2), WIDTH - w / 2), max(h, my)


#: Offsets tried for a region name, nearest first (vertical moves count double: names belong above).
_SPOTS = sorted(((dx, dy) for dy in range(-240, 241, 8) for dx in range(-320, 321, 8)),
                key=lambda o: o[0] * o[0] + 2 * o[1] * o[1])


@lru_cache(maxsize=256)
def _label(text: str, size: int = 18, bold: bool = False) -> PILImage.Image:
    """A small text sprite (RGBA), drawn once: map labels repeat on many hexes."""
    f = font(size, bold)
    w = int(f.getlength(text)) + 4
    im = PILImage.new("RGBA", (w, size + 8), (0, 0, 0, 0))
    ImageDraw.Draw(im).text((w / 2, (size + 8) / 2), text, font=f, fill=INK + (255,), anchor="mm")
    return im


def _paste_label(c: Canvas, text: str, cx: float, cy: float, size: int = 18, bold: bool = False,
                 boxed: bool = False) -> None:
    sp = _label(text, size, bold)
    if boxed:
        x0, y0 = cx - sp.width / 2, cy - sp.height / 2 + 2
        c.d.rounded_rectangle([x0 - 2, y0, x0 + sp.width + 2, y0 + sp.height - 4], radius=4, fill=(255, 250, 230),
                              outline=INK)
    c.im.paste(sp, (int(cx - sp.width / 2), int(cy - sp.height / 2)), sp)


def _piece(c: Canvas, kind: str, seat: int, cx: float, cy: float) -> None:
    col = player_color(seat)
    edge = INK
    s = R * .62
    if kind in ("city", "port city"):
        c.d.rectangle([cx - s, cy - s, cx + s, cy + s], fill=col, outline=edge, width=3)
        if kind == "port city":
            c.d.line([cx - s, cy + s - 4, cx + s, cy + s - 4], fill=(255, 255, 255), width=4)
    elif kind == "farm town":
        c.d.polygon([(cx, cy - s * 1.05), (cx + s, cy + s * .8), (cx - s, cy + s * .8)], fill=col, outline=edge, width=3)
    elif kind == "manufactory town":
        c.d.polygon([(cx, cy - s * 1.1), (cx + s * 1.1, cy), (cx, cy + s * 1.1), (cx - s * 1.1, cy)],
                    fill=col, outline=edge, width=3)
    else:  # wonder: a gold star ringed in the owner's colour
        pts = []
        for k in range(10):
            rr = s * 1.15 if k % 2 == 0 else s * .5
            a = -math.pi / 2 + k * math.pi / 5
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        c.d.ellipse([cx - s * 1.2, cy - s * 1.2, cx + s * 1.2, cy + s * 1.2], fill=col, outline=edge, width=2)
        c.d.polygon(pts, fill=(240, 200, 40), outline=edge)
        return
    c.text(cx, cy + (4 if kind == "farm town" else 0), player_letter(seat), 18, bold=True, fill=ink_on(col),
           anchor="mm")


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
        cx, cy = _centre(d.hexes[h].px)
        _paste_label(c, GOOD_ABBR.get(good, good[:2].title()), cx, cy + y0)
    for h in caches:
        cx, cy = _centre(d.hexes[h].px)
        cy += y0
        c.d.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=(250, 240, 200), outline=INK, width=2)
        _paste_label(c, "?", cx, cy + 1, bold=True)
    for h in fish:
        if d.hexes[h].region in in_play:
            cx, cy = _centre(d.hexes[h].px)
            _paste_label(c, "Fi", cx, cy + y0 - R * .35)
    for h in (view.get("pending") or {}).get("hexes", []):
        # The open decision asks for a hex: frame the choices and print the number `hex <id>` needs.
        cx, cy = _centre(d.hexes[h].px)
        c.d.polygon(_hex_points(cx, cy + y0, R - 2), outline=(20, 120, 60), width=4)
        _paste_label(c, h.rsplit("-", 1)[-1], cx, cy + y0 + R * .55, 18, True, boxed=True)
    for h in _recent_hexes(view):
        cx, cy = _centre(d.hexes[h].px)
        c.d.polygon(_hex_points(cx, cy + y0, R - 2), outline=HIGHLIGHT_EDGE, width=5)
    for piece in view.get("pieces", []):
        cx, cy = _centre(d.hexes[piece["hex"]].px)
        _piece(c, piece["kind"], piece["seat"], cx, cy + y0)
    for piece in view.get("pieces", []):
        if piece["kind"] == "wonder" and piece.get("wonder"):
            cx, cy = _centre(d.hexes[piece["hex"]].px)
            _paste_label(c, WONDER_ABBR.get(piece["wonder"], piece["wonder"][:3]), cx, cy + y0 + R * .78, 18, True,
                         boxed=True)


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
                    w = 28 + font(18, True).getlength(str(v)) + 6
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
    c.panel(box, fill=tint(player_color(p["seat"]), .85))
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
        f"Prod: ideas {prod['ideas']} food {prod['food']} stone {prod['stone']} tax {prod['tax']} tariff {prod['tariff']}",
        "Pillars: " + (" ".join(f"{PILLAR_ABBR[k]}{v}" for k, v in p["pillars"].items()) or "none"),
        f"Cities {p['cities']} Towns {p['towns']} Units {sum(p['units'].values())} · Goods {len([g for g, v in p['trade_goods'].items() if v])}"
        f" · Tech {len(p['technologies'])}+{p['face_down']} down",
        "Wonders: " + (", ".join(d.wonders[w].name if len(p["wonders"]) <= 2 else WONDER_ABBR.get(w, w)
                                 for w in p["wonders"]) or "none"),
        "Golden ages: " + (", ".join(d.golden_ages[g].name for g in p["golden_ages"]) or "none")
        + " · Achievements: " + (", ".join(d.achievements[a].name for a in p["achievements"]) or "none"),
    ]
    for ln in lines:
        c.text(x, y, ln, 18, max_width=box.w - 20)
        y += 23


def _build_text(card) -> str:
    """A build card in a few words: type, symbols, cost and what it gives (the offer panel)."""
    kind = card.type.replace("_", " ")
    parts = [f"{card.name} ({kind})", "gives " + " ".join(PILLAR_ABBR[q] for q in card.provides)]
    gains = [f"+{v} {k}" for k, v in card.gain.items()] + [f"+{v} {k} prod" for k, v in card.production.items()]
    if card.type == "project":
        gains.append(f"end: 1 VP per {PILLAR_ABBR[card.vp_pillar]} symbol")
    if card.type == "manufactory_town":
        gains.append("5 VP with " + " ".join(GOOD_ABBR.get(g, g) for g in card.trade_goods))
    cost = " ".join(f"{v} {k[:3] if k == 'population' else k}" for k, v in card.cost.items()) or "free"
    return f"{parts[0]}: {cost}; {parts[1]}" + ("; " + ", ".join(gains) if gains else "")


def _tax_text(card) -> str:
    """A tax & tariff card as the money it gives (its multiplier in the board's formula) and its unrest."""
    if card.kind == "tax":
        return f"{card.multiplier}×population + Gov symbols + tax prod; +{card.unrest} unrest"
    return f"{card.multiplier}×unique goods + cities + tariff prod; +{card.unrest} unrest"


def _offer_items(view: Mapping[str, Any]) -> tuple[list, list]:
    """The two columns of the offers panel: (text, deck count or None for a card line)."""
    d = load()
    r = d.rules
    off = view["offers"]
    decks = view["decks"]
    left = [(f"Technology offer ({r.technology_ideas} ideas)", decks["technology"])]
    for t in off["technology"]:
        if t:
            card = d.technologies[t]
            need = " ".join(f"{PILLAR_ABBR[k]}{v}" for k, v in card.requires.items()) or "—"
            left.append((f"{card.name}: needs {need}; gives {' '.join(PILLAR_ABBR[q] for q in card.provides)}. "
                         f"{card.text}", None))
    left.append(("Build offer", decks["build"]))
    for b in off["build"]:
        if b:
            left.append((_build_text(d.builds[b]), None))
    right = [("Population offer", decks["population"])]
    for pc in off["population"]:
        if pc:
            card = d.population_cards[pc]
            right.append((f"population {population_word(card)}: +{card.population} population for "
                          f"{card.food_cost} food", None))
    if not any(off["population"]) and not decks["population"]:
        right.append((f"All cards used: population {population_fallback_word(d)}: +{r.population_fallback_gain} "
                      f"population for {r.population_fallback_food} food", None))
    right.append(("Tax & tariff offer", decks["tax"]))
    for tc in off["tax"]:
        if tc:
            card = d.tax_cards[tc]
            right.append((f"{card.kind} {tax_word(card)}: {_tax_text(card)}", None))
    if not any(off["tax"]) and not decks["tax"]:
        right.append((f"All cards used: tax {tax_fallback_word(d, 'tax')}: {r.tax_fallback_per_population}×population"
                      f" + Gov symbols + tax prod; tariff {tax_fallback_word(d, 'tariff')}: "
                      f"{r.tariff_fallback_per_trade_good}×unique goods + cities + tariff prod"
                      + (f"; unrest +{r.fallback_unrest}" if r.fallback_unrest else "; no unrest"), None))
    tiles = view["tiles"]
    if view.get("leaders_left"):
        right.append(("Leaders left: " + ", ".join(d.leaders[x].name for x in view["leaders_left"]), None))
    right.append((f"Holding area: {view['holding']} money · scoring cards {view['scorings_revealed']}/3", None))
    right.append(("Wonders left: " + (", ".join(d.wonders[w].name for w in tiles["wonders"]) or "none"), None))
    right.append(("Golden ages left: " + (", ".join(d.golden_ages[g].name for g in tiles["golden_ages"]) or "none"), None))
    right.append(("Achievements left: " + (", ".join(d.achievements[a].name for a in tiles["achievements"]) or "none"), None))
    right.append(("Governments: " + (", ".join(d.governments[g].name + ("*" if g in tiles["governments_flipped"] else "")
                                              for g in tiles["governments"]) or "none"), None))
    return left, right


def _offer_lines(view: Mapping[str, Any], col_w: int) -> list[list[tuple[str, int]]]:
    """Each column's lines (text, indent; indent -1 = a heading), wrapped to the column; a card's
    continuation lines are indented further so each card reads as one block."""
    cols = []
    for items in _offer_items(view):
        lines = []
        for text, deck in items:
            if deck is not None:
                lines.append((f"{text} · deck {deck}", -1))
            else:
                lines += [(ln, 8 if k == 0 else 26) for k, ln in enumerate(_wrap(text, col_w - 18))]
        cols.append(lines)
    return cols


def _offers_height(view: Mapping[str, Any]) -> int:
    col_w = (WIDTH - 2 * MARGIN - 36) // 2
    return max(sum(26 if ind < 0 else 22 for _, ind in col) for col in _offer_lines(view, col_w)) + 18


FINAL_ROW = 24


def _final_rows(view: Mapping[str, Any]) -> list[str]:
    """The lines of the final tally (rulebook, Scoring), in the engine's order; empty before game over."""
    if view["phase"] != "over" or not view["players"] or "score_lines" not in view["players"][0]:
        return []
    return list(view["players"][0]["score_lines"])


def _final_height(view: Mapping[str, Any]) -> int:
    rows = _final_rows(view)
    return 46 + (len(rows) + 2) * FINAL_ROW if rows else 0


def _final_table(c: Canvas, box: Box, view: Mapping[str, Any]) -> None:
    """Game over: every line of the final scoring per player, then the total (ties: wonders, then money)."""
    c.panel(box, fill=PANEL)
    rows = _final_rows(view)
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


def _wrap(text: str, width: int) -> list[str]:
    from renderers.common import wrap
    return wrap(text, width - 8, 18, max_lines=3)


LEGEND = [LegendItem(None, "square: city"), LegendItem(None, "square, white bar: port city"),
          LegendItem(None, "triangle: farm town"), LegendItem(None, "diamond: manufactory town"),
          LegendItem(None, "star + tag: wonder (Pyr, Sph, Lib…)"), LegendItem(None, "▲ A×n: military units (influence panel)"),
          LegendItem(None, "?: cache"), LegendItem(None, "Gr/St/Wi…: trade goods, Fi: fish"),
          LegendItem(None, "*: government refresh used"),
          LegendItem(None, "pillars: Sci science, Eco economy, Pop population, Bld building, Cul culture"),
          LegendItem(None, "Gov government, Mil military, Urb urbanization (Urb1: needs 1)")]


def _header(view: Mapping[str, Any], subtitle: str = "") -> Header:
    names = {p["seat"]: p["name"] for p in view["players"]}
    status = PHASES.get(view["phase"], view["phase"])
    if view["phase"] == "play":
        status += f" · round {view['turn'] // max(1, len(view['players'])) + 1}"
        if view["end"]["stage"]:
            status += " · final rounds" if view["end"]["stage"] == "rounds" else " · Scribe's extra actions"
    if view.get("winners"):
        status += " · winner: " + ", ".join(names[w] for w in view["winners"])
    pend = view.get("pending")
    if pend:
        status += " · " + PENDING.get(pend["kind"], pend["kind"])
    return Header(title="Mosaic", status=status, to_act=[(s, names[s]) for s in view["to_act"]],
                  last_move=list(view.get("last_move") or []), subtitle=subtitle)


def _public(view: Mapping[str, Any]) -> tuple[PILImage.Image, str]:
    header = _header(view)
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
    height = hh + MAP_H + 8 + inf_h + 10 + rows * (panel_h + 10) + (table_h + 10 if table_h else 0) + offers_h + lh + MARGIN
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
        _player_panel(c, Box(col.x, y + (i // per_row) * (panel_h + 10), col.w, panel_h), p, p["seat"] in view["to_act"])
    y += rows * (panel_h + 10)
    if table_h:
        _final_table(c, Box(MARGIN, y, WIDTH - 2 * MARGIN, table_h), view)
        y += table_h + 10
    used = _offers(c, Box(MARGIN, y, WIDTH - 2 * MARGIN, offers_h - 10), view)
    y += min(used, offers_h) + 10
    draw_legend(c, LEGEND, y)
    final_h = y + lh + MARGIN
    im = c.im.crop((0, 0, WIDTH, min(height, final_h)))
    return im, _alt_public(view, header)


def _hex_choices(view: Mapping[str, Any]) -> str:
    """The hexes the open decision allows, each with what lies on it ("" if none)."""
    hexes = (view.get("pending") or {}).get("hexes", [])
    if not hexes:
        return ""
    goods, caches, fish = view.get("trade_goods", {}), set(view.get("caches", [])), set(view.get("fish", []))

    def what(h: str) -> str:
        on = ([goods[h].replace("-", " ")] if h in goods else []) + (["cache"] if h in caches else []) \
            + (["fish (port)"] if h in fish else [])
        return f"{h} ({', '.join(on)})" if on else h
    return f"Hexes to choose from (`hex <id>`, numbered on the map): {', '.join(what(h) for h in hexes)}"


def _alt_public(view: Mapping[str, Any], header: Header) -> str:
    d = load()
    lines = alt_lines(header)
    choices = _hex_choices(view)
    if choices:
        lines.append(choices)
    for r in view["regions"]:
        if r["in_play"]:
            here = [p for p in view["pieces"] if p["region"] == r["id"]]
            top = max(r["influence"], default=0)
            firsts = [player_letter(i) for i, v in enumerate(r["influence"]) if v and v == top]
            lines.append(f"{r['name']}: influence "
                         + ", ".join(f"{p['name']} {v}" for p, v in zip(view["players"], r["influence"]))
                         + (f" (first place: {', '.join(firsts)})" if firsts else "") + "; " +
                         (", ".join(f"{p['kind']} of {player_letter(p['seat'])}" for p in here) or "empty"))
    for p in view["players"]:
        lines.append(f"{p['name']} ({player_letter(p['seat'])}): score {p['score']}, "
                     f"{d.leaders[p['leader']].name if p.get('leader') else 'no leader'}, population {p['population']}, "
                     f"food {p['food']}, stone {p['stone']}, ideas {p['ideas']}, money {p['money']}, unrest {p['net_unrest']}")
    for row in _final_rows(view):
        lines.append(f"Final {row}: " + ", ".join(f"{p['name']} {p['score_lines'].get(row, 0)}" for p in view["players"]))
    for items in _offer_items(view):
        lines += [f"{text} (deck {deck}):" if deck is not None else text for text, deck in items]
    return join_alt(lines)


def _card_text(card: str) -> str:
    """A deck card in words (the Republic's look at the deck tops)."""
    d = load()
    if not card:
        return "empty"
    if card == "scoring":
        return "Empire Scoring card"
    if card in d.technologies:
        return d.technologies[card].name + " (technology)"
    if card in d.builds:
        return f"{d.builds[card].name} ({d.builds[card].type.replace('_', ' ')})"
    if card in d.population_cards:
        pc = d.population_cards[card]
        return f"+{pc.population} population for {pc.food_cost} food"
    if card in d.tax_cards:
        return f"{d.tax_cards[card].kind}: {_tax_text(d.tax_cards[card])}"
    return card


def _leader_text(leader) -> str:
    """A leader's benefit and its starting bonus (Setup: "take the starting benefits")."""
    words = {"population": "+{} population", "military_units": "{} military unit(s)", "random_tech": "{} random technology",
             "farm_town": "{} farm town", "manufactory_town": "{} manufactory town"}
    start = ", ".join(words.get(k, "{} " + k).format(v).replace("1 military unit(s)", "1 military unit")
                      .replace("(s)", "s") for k, v in leader.start.items())
    return f"{leader.name} — {leader.text}" + (f" Start: {start}." if start else "")


def _private(view: Mapping[str, Any], seat: int) -> tuple[PILImage.Image, str]:
    d = load()
    priv = view.get("private") or {}
    name = next((p["name"] for p in view["players"] if p["seat"] == seat), f"seat {seat}")
    header = _header(view, subtitle=f"Private: {name}")
    sections: list[tuple[str, list[str]]] = []

    me = next((p for p in view["players"] if p["seat"] == seat), {})
    have = me.get("pillars", {})

    def tech_lines(ids, status: bool = False, numbered: bool = False):
        out = []
        for k, t in enumerate(ids, 1):
            c = d.technologies[t]
            need = ", ".join(f"{k} {v}" for k, v in c.requires.items()) or "nothing"
            line = (f"{k}. " if numbered else "") + f"{c.name} — needs {need}; gives {', '.join(c.provides)}. {c.text}"
            if status:
                lack = [f"{k} {v - have.get(k, 0)}" for k, v in c.requires.items() if have.get(k, 0) < v]
                line += f" [missing: {', '.join(lack)}]" if lack else " [ready: it flips by itself on your turn]"
            out.append(line)
        return out or ["none"]

    if priv.get("face_down") or view["phase"] not in ("leaders", "draft"):
        sections.append(("Face-down technologies",
                         tech_lines(priv.get("face_down", []), status=view["phase"] == "play")))
    if view["phase"] == "leaders" and view.get("leaders_left"):
        # Setup: the leader choice comes first; a player needs each leader's benefits to pick.
        sections.append(("Leaders to choose from (`leader <name>`)" if seat in view["to_act"]
                         else "Leaders still available",
                         [_leader_text(d.leaders[x]) for x in view["leaders_left"]]))
    if view["phase"] == "leaders" and priv.get("hand"):
        sections.append(("Starting technologies dealt to you (the draft begins once every leader is chosen)",
                         tech_lines(priv.get("hand", []), numbered=True)))
    elif priv.get("hand") or view["phase"] == "draft":
        title = ("Draft hand (pick with `draft <number>`)" if seat in view["to_act"]
                 else "Draft hand (you have picked; these go to your left once everyone has)")
        sections.append((title, tech_lines(priv.get("hand", []), numbered=True)))
    if priv.get("drafted"):
        sections.append(("Drafted (played at the end of setup)", tech_lines(priv.get("drafted", []))))
    peek = priv.get("peek")
    if peek:
        for deck, top in peek.items():
            sections.append((f"Republic: top of the {deck} deck", [_card_text(top[0] if top else "")]))
    hh = header_height(header)
    body = []
    for title, lines in sections:
        body.append((title, True))
        for ln in lines:
            for w in _wrap(ln, WIDTH - 2 * MARGIN - 20):
                body.append((w, False))
    height = hh + MARGIN + sum(32 if b else 24 for _, b in body) + 2 * MARGIN
    c = Canvas.blank(WIDTH, height, PANEL_ALT)
    draw_header(c, header)
    y = hh + MARGIN
    for text, bold in body:
        c.text(MARGIN + (0 if bold else 16), y, text, 22 if bold else 18, bold=bold,
               fill=HIGHLIGHT_EDGE if bold else INK, max_width=WIDTH - 2 * MARGIN - 16)
        y += 32 if bold else 24
    alt = join_alt(alt_lines(header) + [f"{t}:" if b else t for t, b in body])
    return c.im, alt


def render(view: Mapping[str, Any], seat: int | None = None) -> Image:
    from renderers.common import encode_png
    if seat is None or not view.get("private"):
        im, alt = _public(view)
    else:
        im, alt = _private(view, seat)
    return encode_png(im, alt)


__all__ = ["render"]
