"""The Cradle of Civilization images (issue 7, section 3; issue 26): drawn from views only."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image as PILImage

import renderers
from engine.cradle import GAME
from engine.cradle.data import components
from renderers.common import WIDTH, player_color, recording
from renderers.cradle import board as rc
from renderers.cradle import labels, parts
from renderers.cradle import tables as ct

C = components()


def _play_until(pred, seed=1, players=6, options=None, limit=3000):
    rng = random.Random(seed)
    s = GAME.setup([f"P{i}" for i in range(players)], seed, options)
    for _ in range(limit):
        if pred(s):
            return s
        seat = GAME.to_act(s)[0]
        legal = [a for a in GAME.legal_actions(s, seat) if a != "done"] or GAME.legal_actions(s, seat)
        s = GAME.apply(s, seat, rng.choice(legal)).state
    raise AssertionError("position not reached")


def _png(img):
    im = PILImage.open(io.BytesIO(img.png))
    im.load()
    return im.convert("RGB")


def test_render_dispatches_and_gives_a_png_with_alt_text():
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 5)
    img = renderers.render("cradle", GAME.view(s, None))
    im = _png(img)
    assert im.width == WIDTH == img.width and im.height == img.height
    assert f"{s.rnd.civ}" in img.alt and f"pool {s.rnd.pool}" in img.alt
    assert "To act: " in img.alt


def test_every_area_is_drawn_in_its_region_colour():
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 5)
    img = renderers.render("cradle", GAME.view(s, None))
    im = _png(img)
    top = _map_top(s)
    for area in C.areas.values():
        box = rc.node_box(area.id)
        px = im.getpixel((box.x + box.w // 2, top + box.y + 1))
        want = rc.REGION_COLORS[area.region]
        assert max(abs(a - b) for a, b in zip(px, want, strict=False)) < 40, (area.id, px, want)


def _map_top(s):
    """Where the map starts on the map image (under the header and the player key)."""
    return rc.map_top(GAME.view(s, None))


def test_armies_drawn_in_the_owner_colour_with_civilization_number():
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 5)
    view = GAME.view(s, None)
    img = renderers.render("cradle", view)
    im = _png(img)
    top = _map_top(s)
    area, info = next(iter(view["board"].items()))
    box = rc.node_box(area)
    px = im.getpixel((box.right - 8, top + box.y + 43 + 20))
    want = player_color(info["owner"])
    assert max(abs(a - b) for a, b in zip(px, want, strict=False)) < 40
    assert labels.chip_label(info).startswith(C.civs[info["civ"]].card)


def test_raiders_are_drawn_upside_down():
    upright = parts.chip_image(2, "R×1", False, 98, 24)
    flipped = parts.chip_image(2, "R×1", True, 98, 24)
    assert flipped.tobytes() == upright.rotate(180).tobytes() != upright.tobytes()
    assert labels.chip_label({"civ": "r2", "raider": True, "armies": 1}) == "R×1"


def test_static_map_layer_is_cached():
    rc.map_layer(WIDTH)
    before = rc.map_layer.cache_info().hits
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 6)
    renderers.render("cradle", GAME.view(s, None))
    assert rc.map_layer.cache_info().hits == before + 1


def test_header_names_the_civilization_in_its_round_and_its_pool():
    s = _play_until(lambda s: s.rnd is not None and s.rnd.bonus and s.epoch >= 2)
    view = GAME.view(s, None)
    line = labels.status_line(view)
    assert view["round"]["name"] in line and f"pool {view['round']['pool']}" in line
    assert f"bonus {view['round']['bonus']}" in line


def test_battle_status_and_highlight():
    s = _play_until(lambda s: s.rnd is not None and s.rnd.step in ("combat", "lost"))
    view = GAME.view(s, None)
    assert f"battle for {C.areas[s.rnd.area].name}" in labels.status_line(view)
    img = renderers.render("cradle", view)
    im = _png(img)
    top = _map_top(s)
    box = rc.node_box(s.rnd.area)
    assert im.getpixel((box.x - 3, top + box.y + box.h // 2)) != im.getpixel((box.x - 12, top + box.y + box.h // 2))


def test_private_allocation_card_only_in_its_owners_image():
    s = _play_until(lambda s: s.phase == "allocate" and s.alloc is not None and s.alloc.drawn)
    seat = GAME.to_act(s)[0]
    name = C.card_name(s.alloc.drawn)
    mine = renderers.render("cradle", GAME.view(s, seat), seat=seat)
    assert f"Your drawn card (secret): {name}" in mine.alt
    with recording() as written:
        public = renderers.render("cradle", GAME.view(s, None))
        tables = renderers.render("cradle", GAME.view(s, None), None, "tables")
    for text in [public.alt, tables.alt] + [m.text for m in written]:
        assert "Your drawn card" not in text and f"(secret): {name}" not in text
    other = (seat + 1) % s.n
    assert "Your drawn card" not in renderers.render("cradle", GAME.view(s, other), seat=other).alt
    assert "Civilization allocation" in public.alt


def test_scores_region_status_and_non_player_row():
    s = _play_until(lambda s: s.epoch == 2 and s.phase == "strategy", players=4, options={"non_player": True})
    img = renderers.render("cradle", GAME.view(s, None))
    assert "Non-player" in img.alt
    for p in range(4):
        assert f"P{p}  {s.vp[p]} VP" in img.alt
    assert "Regions:" in img.alt


@pytest.mark.parametrize("seed", [2, 3])
def test_final_image_names_the_winner(seed):
    s = _play_until(GAME.is_over, seed=seed, limit=20000)
    view = GAME.view(s, None)
    img = renderers.render("cradle", view)
    assert "Game over" in img.alt
    names = ", ".join(f"P{w}" for w in view["winners"])
    assert f"Winner: {names}" in img.alt


def test_allocation_shows_the_epoch_summary_card():
    s = _play_until(lambda s: s.phase == "allocate" and s.alloc is not None)
    img = renderers.render("cradle", GAME.view(s, None))
    for civ in C.civs_of_epoch[s.epoch]:
        assert f"{civ.id} {civ.name}" in img.alt


def test_the_areas_of_the_last_move_are_framed():
    s = _play_until(lambda s: (s.last or [""])[0].split(": ", 1)[-1].startswith("place "))
    view = GAME.view(s, None)
    area = view["last_move"][0].rsplit(" ", 1)[-1]
    assert area in C.areas
    im = _png(renderers.render("cradle", view, None, "map", [area]))
    plain = _png(renderers.render("cradle", view, None, "map"))
    top = _map_top(s)
    box = rc.node_box(area)
    from renderers.common import HIGHLIGHT_EDGE

    px = im.getpixel((box.x - 3, top + box.y + box.h // 2))
    assert max(abs(a - b) for a, b in zip(px, HIGHLIGHT_EDGE, strict=False)) < 40
    assert plain.getpixel((box.x - 3, top + box.y + box.h // 2)) != px


def _crossed(path, a, b):
    others = [rc.node_box(k) for k in C.areas if k not in (a, b)]
    return sum(1 for box in others if any(rc._hits(path[i], path[i + 1], box, 2) for i in range(len(path) - 1)))


def test_map_borders_bow_round_other_areas_and_stay_on_the_map():
    """A border drawn straight under a third Area's node reads as that Area's border: bow it round."""
    pairs = {tuple(sorted((a, b))) for a, near in C.adjacent.items() for b in near}
    straight = bowed = 0
    for a, b in pairs:
        path = rc.border_path(a, b)
        line = [(C.areas[a].x, C.areas[a].y), (C.areas[b].x, C.areas[b].y)]
        assert _crossed(path, a, b) <= _crossed(line, a, b)
        assert all(0 <= x <= WIDTH and 0 <= y <= rc.MAP_H for x, y in path)
        straight += _crossed(line, a, b)
        bowed += _crossed(path, a, b)
    assert bowed < straight, (bowed, straight)


def test_sea_labels_do_not_cover_areas():
    for sea in C.seas.values():
        b = rc.sea_box(sea.id)
        label = (b.x, b.y, b.right, b.bottom)
        for area in C.areas:
            box = rc.node_box(area)
            apart = label[2] < box.x or box.right < label[0] or label[3] < box.y or box.bottom < label[1]
            assert apart, (sea.id, area)


def test_region_status_grouped_and_a_wide_empire_fits_its_line():
    from renderers.common import MARGIN, text_width, wrap

    regions = {
        "arabian-desert": "domination",
        "egypt": "control",
        "iran": "control",
        "anatolia": "presence",
        "caucasus": "presence",
        "mesopotamia": "presence",
        "levant": "presence",
    }
    line = labels.region_text(regions)
    assert line == "Regions: D Arabia · C Egypt, Iran · P Anatolia, Caucasus, Levant, Mesopot."
    assert ct.ROW_TEXT_W == (WIDTH - 2 * MARGIN - 20) // 2 - 50  # one column of the score panel
    lines = wrap(line, ct.ROW_TEXT_W, ct.SMALL, max_lines=2)
    assert " ".join(lines) == line and all(text_width(x, ct.SMALL) <= ct.ROW_TEXT_W for x in lines)
    row = (0, "p0  1 VP", "1 Army", line)
    assert ct.row_height([row]) > ct.row_height([(0, "p0  1 VP", "1 Army", "Regions: P Egypt")])
    assert labels.region_text({}) == "Regions: -"
