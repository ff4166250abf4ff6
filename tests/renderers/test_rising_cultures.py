"""Rising Cultures images (issue 5, section 2): public board, private hand, hidden information.

States come from seeded random games played through the engine contract
(setup, to_act, legal_actions, apply), with each step's events passed in as
`last_move` exactly as the service does.
"""

from __future__ import annotations

import io
import json
import random
import re

import pytest
from PIL import Image as PILImage

import engine
import renderers
from renderers.common import HIGHLIGHT_EDGE, MIN_TEXT, recording
from renderers.rising_cultures import alt, board, private

GAME = "rising-cultures"
EVERY = 9  # render every 9th state (alt text and views are checked at every state)
MAX_BYTES = 1_000_000


def play(seed: int, options=None):
    """Yield (state, events) for every state of one seeded random game, the final one included."""
    game = engine.get(GAME)
    rng = random.Random(seed)
    state = game.setup(["Alice", "Bob"], seed, options)
    events: list[str] = []
    yield state, events
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        step = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        state, events = step.state, list(step.events)
        yield state, events


def view_of(state, seat, events):
    v = engine.get(GAME).view(state, seat)
    v["last_move"] = events
    return v


def hidden_names(state) -> set[str]:
    """Names of the cards nobody but their owner may know: hands and decks."""
    from engine.rising_cultures.rules import CARDS

    return {CARDS[c].name for p in state.players for c in p.hand + p.deck}


def own_hidden(state, seat) -> set[str]:
    from engine.rising_cultures.rules import CARDS

    p = state.players[seat]
    return {CARDS[c].name for c in p.hand + p.deck}


def mentions(text: str, names: set[str]) -> set[str]:
    return {n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)}


def check_png(img, *, min_h=500, max_h=2600):
    assert img.png[:8] == b"\x89PNG\r\n\x1a\n"
    decoded = PILImage.open(io.BytesIO(img.png))
    assert decoded.format == "PNG" and decoded.size == (img.width, img.height)
    assert img.width == 1200 and min_h <= img.height <= max_h
    assert len(img.png) < MAX_BYTES
    assert img.alt.strip()
    return decoded


GAMES = [
    (3, None, EVERY),
    (8, {"civs": ["egypt", "rome"]}, EVERY),
    (21, {"civs": ["persia", "abbasid"], "match": True}, 2 * EVERY),
]


@pytest.mark.parametrize("seed,options,every", GAMES)
def test_a_seeded_game_renders_at_every_stage_and_keeps_hands_secret(seed, options, every):
    rendered = 0
    for i, (state, events) in enumerate(play(seed, options)):
        secret = hidden_names(state)
        public = view_of(state, None, events)
        assert not mentions(json.dumps(public, ensure_ascii=False), secret), "public view leaks a hidden card"
        text = alt.public(public)
        assert not mentions(text, secret), "public alt text leaks a hidden card"
        for seat in (0, 1):
            private = view_of(state, seat, events)
            other = own_hidden(state, 1 - seat)
            assert not mentions(alt.private(private, seat), other), "private alt shows the opponent's cards"
        over = engine.get(GAME).is_over(state)
        if i % every == 0 or over:
            with recording() as written:
                img = renderers.render(GAME, public)
                tables = renderers.render(GAME, public, None, "tables")
            check_png(img)
            check_png(tables, min_h=300)
            assert img.alt == text
            assert not mentions(img.alt, secret) and not mentions(tables.alt, secret)
            assert not mentions("\n".join(m.text for m in written), secret), "a public image writes a hidden card"
            for seat in (0, 1):
                mine = renderers.render(GAME, view_of(state, seat, events), seat=seat)
                check_png(mine, min_h=400)
                hand_now = view_of(state, seat, events)["players"][seat]["hand"] or []
                for card in hand_now:
                    assert card["name"] in mine.alt
            rendered += 1
    assert over and rendered > 10


def _state_with(seed, predicate, options=None):
    for state, events in play(seed, options):
        if predicate(state):
            return state, events
    pytest.skip("no such state in this seeded game")


def test_the_private_image_lists_each_use_with_its_shortfall():
    game = engine.get(GAME)

    def short_hand(s):
        return any(
            not c["uses"]["build"]["met"]
            for seat in (0, 1)
            for c in (game.view(s, seat)["players"][seat]["hand"] or [])
        )

    state, events = _state_with(5, short_hand, {"civs": ["rome", "egypt"]})
    seat = next(
        seat
        for seat in (0, 1)
        if any(not c["uses"]["build"]["met"] for c in game.view(state, seat)["players"][seat]["hand"] or [])
    )
    v = view_of(state, seat, events)
    text = alt.private(v, seat)
    card = next(c for c in v["players"][seat]["hand"] if not c["uses"]["build"]["met"])
    line = next(
        ln
        for ln in text.splitlines()
        if ln.startswith("  Uses") and text.splitlines()[text.splitlines().index(ln) - 1].startswith(card["name"])
    )
    b = card["uses"]["build"]
    assert f"coins: +{card['uses']['coins']}" in line and "military:" in line and "resources:" in line
    assert (f"pay {b['coins']} coins" if b["possible"] else f"needs {b['coins']} coins (not enough)") in line
    missing = [f"{n} {r}" for r, n in b["missing"].items() if n]
    assert missing and all(m in line for m in missing)


def test_no_text_is_drawn_smaller_than_18_px_nor_on_the_map_smaller_than_19():
    from renderers.common import MAP_TEXT, recording

    states = list(play(8, {"civs": ["egypt", "rome"]}))
    for state, events in (states[40], states[-1]):
        for part, seat, least in (("map", None, MAP_TEXT), ("tables", None, MIN_TEXT), ("private", 0, MIN_TEXT)):
            with recording() as marks:
                renderers.render(GAME, view_of(state, seat, events), seat, part)
            assert marks and min(m.size for m in marks) >= least, (part, min(marks, key=lambda m: m.size))


def test_static_layers_are_cached_and_rendering_is_deterministic():
    states = list(play(3))
    state, events = states[60]
    v = view_of(state, None, events)
    a = renderers.render(GAME, v)
    before = board.body_layer.cache_info().hits
    b = renderers.render(GAME, v)
    assert board.body_layer.cache_info().hits == before + 1
    assert a.png == b.png and a.alt == b.alt


def test_the_last_move_is_highlighted_on_the_board():
    game = engine.get(GAME)
    state, events = _state_with(8, lambda s: any(p.buildings for p in s.players), {"civs": ["egypt", "rome"]})
    v = game.view(state, None)
    name = next(c["name"] for p in v["players"] for c in p["display"]["buildings"])
    assert name in board.places(v)
    with_move = PILImage.open(io.BytesIO(renderers.render(GAME, v, None, "map", [name]).png)).convert("RGB")
    without = PILImage.open(io.BytesIO(renderers.render(GAME, v).png)).convert("RGB")

    # the amber frame appears around the tile
    def amber(im):
        def near(px):
            return max(abs(a - b) for a, b in zip(px, HIGHLIGHT_EDGE, strict=False)) < 30

        return sum(n for n, px in im.getcolors(1 << 20) if near(px))

    assert amber(with_move) > amber(without) + 200
    nowhere = renderers.render(GAME, v, None, "map", ["Nothing Here"])
    assert nowhere.png == renderers.render(GAME, v).png


def test_public_board_shows_province_row_marker_and_counts_in_alt_text():
    states = list(play(8, {"civs": ["egypt", "rome"]}))
    state, events = states[30]
    v = view_of(state, None, events)
    text = alt.public(v)
    row = v["province_row"]
    assert row and f"{row[0]['name']} (round {7 - len(row) + 1}" in text
    for p in v["players"]:
        cards = "1 card" if p["hand_count"] == 1 else f"{p['hand_count']} cards"
        assert f"hand {cards}, deck {p['deck_count']}" in text
        assert f"{p['coins']} coins" in text
    holder = v["players"][v["marker"]]["name"]
    assert re.search(rf"^{holder} .*holds the progress marker", text, re.M)
    # Phase III 1): most symbols among the types on the card; a tie goes to the marker holder
    counts = [sum(p["military"]["strength"].get(sym, 0) for sym in row[0]["symbols"]) for p in v["players"]]
    assert f"{row[0]['name']} now: Alice {counts[0]}, Bob {counts[1]} (a tie goes to {holder}" in text
    assert "Nile:" in text  # Egypt is in play


def test_alt_text_counts_one_card_in_the_singular():
    state = next(s for s, _ in play(8) if s.phase == "play" and any(len(p.hand) == 1 for p in s.players))
    v = view_of(state, None, [])
    text = alt.public(v)
    assert "hand 1 card," in text and "1 cards" not in text


def test_a_view_without_a_hand_renders_a_clear_private_message():
    state, events = next(iter(play(3)))
    v = view_of(state, None, events)
    img = renderers.render(GAME, v, seat=1)
    assert "No hand is visible" in img.alt


def test_an_empty_or_partial_view_still_renders():
    """A renderer never crashes on missing keys: the bot must always be able to post something."""
    for seat in (None, 0):
        img = renderers.render(GAME, {}, seat=seat)
        check_png(img, min_h=400)


def test_a_progress_move_in_the_last_move_frames_the_level_reached():
    found = next(
        (
            (state, events)
            for state, events in play(8, {"civs": ["egypt", "rome"]})
            if any("moves up to progress level" in e for e in events)
        ),
        None,
    )
    if found is None:
        pytest.skip("no progress move in this seeded game")
    state, events = found
    v = view_of(state, None, events)
    mover = next(
        p for p in v["players"] if any(e.startswith(p["name"] + " (") and "progress level" in e for e in events)
    )
    assert board.recent_level(v, mover) == mover["progress"]["level"] > 0
    other = next(p for p in v["players"] if p is not mover)
    assert board.recent_level(v, other) == 0


def test_rendering_in_worker_threads_gives_the_same_images():
    """The service renders with asyncio.to_thread: shared caches and fonts must not race."""
    import concurrent.futures as cf

    from renderers.rising_cultures import parts

    game = engine.get(GAME)
    jobs = []
    for state, events in list(play(8, {"civs": ["egypt", "rome"]}))[::25]:
        for seat in (None, 0):
            v = game.view(state, seat)
            v["last_move"] = events
            jobs.append((v, seat))
    serial = [renderers.render(GAME, v, seat=seat).png for v, seat in jobs]
    for f in (
        board.body_layer,
        private.body_layer,
        parts.province_card,
        parts.display_tile,
        parts.band_cell,
        parts.level_cell,
        parts.province_chip,
    ):
        f.cache_clear()
    with cf.ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda job: renderers.render(GAME, job[0], seat=job[1]).png, jobs))
    assert threaded == serial


def test_setup_private_view_says_what_the_opening_choice_is():
    """Setup: overlap 2 of the 4 drawn cards in the resource area, then return 1 to the top
    and 1 to the bottom of the deck - the owner's hand says which step is asked now."""
    import engine

    g = engine.get("rising-cultures")
    s = g.setup(["Alice", "Bob"], 3, {"civs": ["rome", "persia"]})
    text = alt.private(g.view(s, 0), 0)
    assert "Setup: put 2 of these cards into your resource area (0 of 2 done)." in text  # no typed command (issue 52)
    for _ in range(2):
        s = g.apply(s, 0, g.legal_actions(s, 0)[0]).state
    text = alt.private(g.view(s, 0), 0)
    assert "Setup: choose the card for the top of your deck; the other goes to the bottom." in text
