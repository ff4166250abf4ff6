"""Rise of Empires images: drawn from views, readable layout, alt text, the same board for every seat."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image as PILImage

import renderers
from engine.rise_of_empires import GAME
from engine.rise_of_empires.data import components
from renderers.common import MARGIN, header_height, tables_header, text_width, wrap
from renderers.rise_of_empires import board as roe
from renderers.rise_of_empires import tables as rt
from renderers.rise_of_empires.labels import header_for


def _play(n: int, steps: int, seed: int = 5):
    s = GAME.setup([f"Player {i + 1}" for i in range(n)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    return s


@pytest.mark.parametrize("players,steps", [(2, 0), (3, 150), (4, 400), (5, 10_000)])
def test_renders_a_png_1200_wide_with_alt_text(players, steps):
    s = _play(players, steps)
    img = renderers.render("rise-of-empires", GAME.view(s, None))
    pic = PILImage.open(io.BytesIO(img.png))
    assert pic.format == "PNG" and pic.size == (1200, img.height) and img.width == 1200
    assert 900 < img.height < 1400 and len(img.png) < 1_000_000  # the map: a phone's screenful
    assert img.alt.startswith("Rise of Empires")
    for p in s.players:
        assert f"{p.name} ({p.colour}): {p.vp} VP" in img.alt
    if GAME.is_over(s):
        assert "Game over" in img.alt and "Winner" in img.alt


def test_cubes_and_control_are_in_the_alt_text():
    s = GAME.setup(["Ann", "Bob"], 1)
    s.cubes["anatolia"] = [3, 1]
    img = renderers.render("rise-of-empires", GAME.view(s, None))
    assert "Anatolia: white 3, red 1 (controlled by white)" in img.alt


def test_tiles_on_offer_are_in_the_alt_text():
    s = GAME.setup(["Ann", "Bob"], 1)
    img = renderers.render("rise-of-empires", GAME.view(s, None))
    line = next(ln for ln in img.alt.splitlines() if ln.startswith("On offer:"))
    assert "Athens (2 gold, 1 VP)" in line and "2 for 4 gold" in line and "7 for 6 vp" not in line


def test_a_seat_sees_the_public_board_with_its_name():
    s = _play(3, 60)
    public = renderers.render("rise-of-empires", GAME.view(s, None))
    mine = renderers.render("rise-of-empires", GAME.view(s, 1), seat=1)
    assert mine.alt.splitlines()[0] == "Rise of Empires — seen by Player 2 (red)"
    assert mine.alt.splitlines()[1:] == public.alt.splitlines()[1:]


def test_the_last_move_is_in_the_header():
    s = _play(4, 40)
    view = dict(GAME.view(s, None))
    view["last_move"] = ["Player 1 (white) places 2 cube(s) in Anatolia."]
    img = renderers.render("rise-of-empires", view)
    assert "Last move: Player 1 (white) places 2 cube(s) in Anatolia." in img.alt


def test_map_regions_do_not_overlap_and_stay_inside_the_map():
    box = roe.map_box(0)
    regions = components().regions.values()
    nodes = {r.id: roe.node_box(box, {"x": r.x, "y": r.y, "sea": r.sea, "name": r.name}) for r in regions}
    ids = list(nodes)
    for i, a in enumerate(ids):
        na = nodes[a]
        assert box.x <= na.x and na.right <= box.right and box.y + 36 <= na.y and na.bottom <= box.bottom, a
        for b in ids[i + 1 :]:
            nb = nodes[b]
            assert not (na.x < nb.right and nb.x < na.right and na.y < nb.bottom and nb.y < na.bottom), (a, b)


def test_the_map_layer_is_cached_per_era():
    roe.map_layer.cache_clear()
    s = GAME.setup(["Ann", "Bob"], 1)
    view = GAME.view(s, None)
    renderers.render("rise-of-empires", view)
    renderers.render("rise-of-empires", view)
    info = roe.map_layer.cache_info()
    assert info.misses == 1 and info.hits == 1


def test_every_tile_on_offer_is_shown_the_panel_grows_instead_of_cutting_names():
    s = _play(5, 0)
    view = GAME.view(s, None)
    short = rt.offer_height(view)
    comp = components()
    view["offer"]["city"] = [
        {"id": c.id, "name": c.name, "wonder": c.wonder, "cost": c.cost_gold, "vp": c.vp} for c in comp.cities.values()
    ]
    tall = rt.offer_height(view)
    assert short == rt.PANEL_H and tall > short
    for _, text in rt._offer_lines(view):
        lines = wrap(text, rt.OFFER_TEXT_W, rt.SMALL)
        assert " ".join(lines).replace(" ", "") == text.replace(" ", "")  # wrapped, nothing cut
    a = renderers.render("rise-of-empires", GAME.view(s, None), None, "tables")
    b = renderers.render("rise-of-empires", view, None, "tables")
    assert b.height - a.height == tall - short


def test_action_display_numbers_the_circles_for_b_turn_removals():
    """6.0 B turn: `remove <row> <circle>` counts circles from the right; the image numbers them."""
    s = _play(4, 0)
    view = GAME.view(s, None)
    im = rt.draw(view)
    top = header_height(tables_header(header_for(view), "players and offers")) + MARGIN
    right = MARGIN + 560 - 12
    x = right - (rt.CIRCLE + 4) + rt.CIRCLE // 2  # circle 1, the rightmost
    strip = im.crop((x - 8, top + 42, x + 8, top + 50)).convert("L")
    assert strip.getextrema()[0] < 160  # a number is drawn above circle 1


def test_a_players_tiles_are_all_named_rows_grow_instead_of_cutting():
    s = _play(5, 0)
    p = s.players[0]
    p.progress = [t for t in components().progress][:12]
    p.cities = [c for c in components().cities if not components().cities[c].wonder][:6]
    view = GAME.view(s, None)
    lines = rt._player_lines(view["players"][0], rt.PLAYER_TEXT_W)
    text = " ".join(lines)
    assert len(lines) > 2 and all(t["name"] in text for t in view["players"][0]["progress"])
    assert all(text_width(line, rt.SMALL) <= rt.PLAYER_TEXT_W for line in lines)
    assert rt.players_height(view) > rt.players_height(GAME.view(_play(5, 0), None))


def test_the_pending_decision_is_in_the_status_and_the_alt_text():
    """6.4: mid-placement the board says cubes are being placed, and the alt text says how many regions are left."""
    s = GAME.setup(["Ann", "Bob"], 1)
    seat = GAME.to_act(s)[0]
    tile = next(a for a in GAME.legal_actions(s, seat) if a.startswith("take empire"))
    s = GAME.apply(s, seat, tile).state
    img = renderers.render("rise-of-empires", GAME.view(s, None))
    lines = img.alt.splitlines()
    assert lines[1].endswith("· Actions · placing cubes")
    now = next(ln for ln in lines if ln.startswith("Now: "))
    assert f"with empire tile {tile.removeprefix('take empire ')}: 0 of" in now and "`" not in now
