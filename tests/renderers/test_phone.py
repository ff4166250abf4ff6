"""Boards for a phone (issue 26 §4): the handover's picture is the map, readable 450 px wide.

Every game, every player count, early and late in seeded random games: each text the map
image writes (recorded with its font size, renderers/common/marks.py) is at least 7 px high
when the image is shown 450 px wide, every place the map names is written whole, and every
piece count is written. The last move's places are framed where asked and nowhere else; the
tables image holds what left the map.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from PIL import ImageChops

import engine
import renderers
from engine.core import refers_of
from renderers.common import PHONE_TEXT, TextMark, player_letter, recording

CASES = [(g, n) for g in engine.GAMES for n in range(engine.get(g).min_players, engine.get(g).max_players + 1)]


def positions(game_id: str, players: int, seed: int = 4) -> list[tuple[dict, tuple[str, ...]]]:
    """(public view, places of the action that led to it) early and late in a seeded random game."""
    game = engine.get(game_id)
    rng = random.Random(seed)
    state = game.setup([f"Player {i + 1}" for i in range(players)], seed)
    history: list[tuple[Any, tuple[str, ...]]] = [(state, ())]
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        places = refers_of(game, state, seat, action)
        state = game.apply(state, seat, action).state
        history.append((state, places))
    picks = [history[len(history) // 8], history[(7 * len(history)) // 8], history[-1]]
    return [(game.view(s, None), places) for s, places in picks]


def drawn(game_id: str, view: Mapping[str, Any], part: str = "map", highlight=()) -> tuple[Any, list[TextMark]]:
    with recording() as marks:
        image = renderers.render(game_id, view, None, part, highlight)
    return image, marks


def inside(mark: TextMark, box) -> bool:
    cx, cy = mark.x + mark.w / 2, mark.y + mark.h / 2
    return box.x <= cx <= box.right and box.y <= cy <= box.bottom


# ---- what each map must write: its places' names and its piece counts ---------------------------
def expected(game_id: str, view: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """(text, the box it must be written in, or None: anywhere) for every place name and piece
    count the map of `view` shows."""
    board = renderers.module_for(game_id).board
    boxes = board.place_boxes(view)
    out: list[tuple[str, Any]] = []
    if game_id == "mosaic":
        from engine.mosaic.data import load
        from renderers.mosaic.parts import hex_number

        d = load()
        for place in board.places(view):
            if place in d.hexes:
                out.append((hex_number(place), boxes[place][0]))
            else:
                out.append((d.regions[place].name, boxes[place][0]))
        for r in view["regions"]:
            if r["in_play"]:
                out += [(str(v), None) for v in r["influence"] if v]
        for p in view["players"]:
            out += [(f"{player_letter(p['seat'])}×{k}", None) for k in p["units"].values() if k]
        for piece in view["pieces"]:
            out.append((player_letter(piece["seat"]), boxes[piece["hex"]][0]))
    elif game_id == "rise-of-empires":
        for r in view["regions"]:
            node = boxes[r["id"]][0]
            out.append((r["name"], node))
            out += [(str(n), node) for n in r.get("cubes") or [] if n]
    elif game_id == "cradle":
        from engine.cradle.data import components
        from renderers.cradle.labels import chip_label

        c = components()
        for place in board.places(view):
            name = board.area_label(place) if place in c.areas else c.seas[place].name
            out.append((name, boxes[place][0]))
        for area, info in view["board"].items():
            out.append((chip_label(info), boxes[area][0]))
    elif game_id == "rising-cultures":
        out += [(name, None) for name in board.places(view)]
        for p in view["players"]:
            out += [(str(n), None) for n in (p.get("resources") or {}).values()]
            out += [(str(n), None) for n in ((p.get("military") or {}).get("strength") or {}).values()]
    return out


@pytest.mark.parametrize("game_id,players", CASES)
def test_the_map_at_450_px_keeps_every_place_name_and_piece_count_at_7_px_or_more(game_id, players):
    for view, places in positions(game_id, players):
        image, marks = drawn(game_id, view, "map", places)
        small = [m for m in marks if m.at_phone(image.width) < PHONE_TEXT]
        assert not small, f"{game_id} {players}p: {small[0].text!r} at {small[0].at_phone(image.width):.2f} px"
        lines = " ".join(m.text for m in marks)  # a name wrapped onto a tile's two lines reads on
        for text, box in expected(game_id, view):
            found = any(m.text == text and (box is None or inside(m, box)) for m in marks)
            found = found or (box is None and text in lines)
            assert found, f"{game_id} {players}p: {text!r} is not written whole" + (f" in {box}" if box else "")


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_the_highlight_is_drawn_where_asked_and_nowhere_the_view_does_not_name(game_id):
    """Compared before the PNG's palette is chosen (a frame anywhere shifts a few shades
    everywhere once the picture is reduced to 128 colours): the picture changes only in the
    boxes where the place is drawn, and a name the view does not hold changes nothing."""
    game = engine.get(game_id)
    board = renderers.module_for(game_id).board
    for view, _ in positions(game_id, game.max_players, seed=6)[:2]:
        plain = board.draw(view, ())
        boxes = board.place_boxes(view)
        assert set(boxes) == board.places(view)
        for place in sorted(boxes)[:: max(1, len(boxes) // 6)]:
            changed = ImageChops.difference(board.draw(view, (place,)), plain).getbbox()
            assert changed, f"{game_id}: highlighting {place} changed nothing"
            grown = [(b.x - 10, b.y - 10, b.right + 10, b.bottom + 10) for b in boxes[place]]
            union = tuple(f(g[k] for g in grown) for k, f in enumerate((min, min, max, max)))
            assert union[0] <= changed[0] and union[1] <= changed[1], (place, changed, union)
            assert changed[2] <= union[2] and changed[3] <= union[3], (place, changed, union)
            for box in grown:  # each spot where the place is drawn is framed
                assert ImageChops.difference(board.draw(view, (place,)).crop(box), plain.crop(box)).getbbox()
        png = renderers.render(game_id, view).png
        for stranger in (["no-such-place"], ["Player 1"], [""]):
            assert renderers.render(game_id, view, None, "map", stranger).png == png


#: Words that only the tables image writes (they left the map image), per game.
TABLES_ONLY = {
    "mosaic": ("Technology offer", "Build offer", "Population offer", "square: city"),
    "rise-of-empires": ("Action display", "Tiles on offer", "Players in turn order", "controls the region"),
    "cradle": ("Mountain: stack 1, defender 2 dice", "City", "Wonder"),
    "rising-cultures": ("victory points", "cards in hand", "unlocked / requirement met"),
}


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_the_tables_image_holds_what_left_the_map(game_id):
    game = engine.get(game_id)
    for view, _ in positions(game_id, game.min_players, seed=8)[:2]:
        _, on_map = drawn(game_id, view)
        tables, on_tables = drawn(game_id, view, "tables")
        map_text = {m.text for m in on_map}
        table_text = " ".join(m.text for m in on_tables)
        for words in TABLES_ONLY[game_id]:
            assert words in table_text and words not in map_text, words
        for p in view["players"]:  # every player's figures: their name heads their row or panel
            assert p["name"] in table_text and p["name"] in tables.alt
        assert tables.width == 1200 and len(tables.png) < 1_000_000


def test_the_score_breakdown_and_offers_left_the_map_for_the_tables():
    """Examples of figures that moved: Mosaic's player panels, Rising Cultures' VP sums."""
    view, _ = positions("mosaic", 3)[1]
    _, on_map = drawn("mosaic", view)
    _, on_tables = drawn("mosaic", view, "tables")
    score = f"Score {view['players'][0]['score']} (VP {view['players'][0]['vp']})"
    assert not any(score in m.text for m in on_map) and any(score in m.text for m in on_tables)
    view, _ = positions("rising-cultures", 2)[1]
    total = view["players"][0]["score"]["total"]
    _, on_tables = drawn("rising-cultures", view, "tables")
    assert any(m.text.startswith(f"{total} VP = cards") for m in on_tables)


def test_an_unknown_part_is_refused_with_the_parts_allowed():
    view = engine.get("cradle").view(engine.get("cradle").setup(["a", "b", "c", "d"], 1), None)
    with pytest.raises(ValueError, match="map, tables, private"):
        renderers.render("cradle", view, None, "legend")
