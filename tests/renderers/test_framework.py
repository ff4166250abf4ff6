"""The rendering framework (issue 5, section 1): dispatch, fonts, palette, icons, layout, encoding."""

from __future__ import annotations

import io
import itertools
import sys
import types

import pytest
from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

import renderers
from renderers.common import (
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    PAPER,
    PLAYER_COLORS,
    PLAYER_LETTERS,
    PLAYER_PATTERNS,
    Box,
    Canvas,
    Header,
    Image,
    LegendItem,
    alt_lines,
    cached_layer,
    contrast,
    draw_header,
    draw_legend,
    ellipsize,
    fill_pattern,
    fit_size,
    font,
    header_height,
    icon,
    ink_on,
    png_bytes,
    recording,
    render_view,
    seat_names,
    view_header,
    wrap,
)
from renderers.common.fonts import BOLD, FONT_DIR, REGULAR
from renderers.common.icons import ICONS, MILITARY, RESOURCES
from renderers.image import Place


# ---- dispatch -----------------------------------------------------------------
def test_render_dispatches_lazily_to_the_module_named_after_the_game(monkeypatch):
    calls = []

    def render(view, seat, part, highlight):
        calls.append((view, seat, part, highlight))
        return Image(png=b"x", alt="dummy", width=1, height=1)

    mod = types.ModuleType("renderers.dummy_game")
    mod.render = render
    monkeypatch.setitem(sys.modules, "renderers.dummy_game", mod)
    out = renderers.render("dummy-game", {"a": 1}, seat=1)
    assert out.alt == "dummy" and calls == [({"a": 1}, 1, None, ())]
    renderers.render("dummy-game", {"a": 1}, None, "map", ["ur"])
    assert calls[-1] == ({"a": 1}, None, "map", ("ur",))


@pytest.mark.parametrize("game_id", ["no-such-game", "", "../engine", "common", "fonts", "a.b", 3])
def test_render_raises_key_error_for_an_unknown_game(game_id):
    with pytest.raises(KeyError):
        renderers.render(game_id, {})


def test_a_broken_game_module_is_not_hidden_as_unknown(monkeypatch):
    """An ImportError inside a real renderer must surface, not read as 'no such game'."""
    import importlib

    real = importlib.import_module

    def fake(name, *a, **k):
        if name == "renderers.broken_game":
            err = ModuleNotFoundError("No module named 'numpyx'")
            err.name = "numpyx"
            raise err
        return real(name, *a, **k)

    monkeypatch.setattr(importlib, "import_module", fake)
    with pytest.raises(ModuleNotFoundError):
        renderers.render("broken-game", {})


# ---- fonts --------------------------------------------------------------------
def test_the_font_is_shipped_with_its_license_and_is_scalable():
    assert REGULAR.is_file() and BOLD.is_file()
    license_text = (FONT_DIR / "LICENSE.txt").read_text()
    assert "Bitstream" in license_text and "Permission is hereby granted" in license_text
    small, big = font(18), font(36, True)
    assert isinstance(small, ImageFont.FreeTypeFont) and small.path == str(REGULAR) and big.path == str(BOLD)
    assert big.getbbox("Hg")[3] > 1.8 * small.getbbox("Hg")[3] * 0.9


# ---- palette ------------------------------------------------------------------
def _simulate_deuteranopia(c):
    """Viénot, Brettel & Mollon (1999) deuteranopia projection in linear RGB."""

    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    m = [(0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0), (-0.02234, 0.02234, 1.0)]
    return tuple(sum(k * v for k, v in zip(row, (r, g, b), strict=True)) for row in m)


def _simulate_protanopia(c):
    def lin(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    m = [(0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0), (0.00401, -0.00401, 1.0)]
    return tuple(sum(k * v for k, v in zip(row, (r, g, b), strict=True)) for row in m)


@pytest.mark.parametrize("simulate", [_simulate_deuteranopia, _simulate_protanopia])
def test_player_colours_stay_apart_under_red_green_colour_blindness(simulate):
    for a, b in itertools.combinations(PLAYER_COLORS, 2):
        sa, sb = simulate(a), simulate(b)
        assert sum((x - y) ** 2 for x, y in zip(sa, sb, strict=True)) ** 0.5 > 0.04, (a, b)


def test_every_player_has_a_second_cue_besides_colour():
    assert len(set(PLAYER_LETTERS)) == len(PLAYER_LETTERS) >= len(PLAYER_COLORS) == 6
    assert len(set(PLAYER_PATTERNS)) == len(PLAYER_PATTERNS) == 6
    assert len(set(PLAYER_COLORS)) == 6


def test_text_colours_have_enough_contrast():
    """WCAG AA (4.5:1) for every text colour on every background it is drawn on."""
    from renderers.common.palette import COVERED, GOOD, HEADER_BG, HEADER_INK, MUTED, PANEL, PANEL_ALT, SHORT, tint

    assert contrast(INK, PAPER) >= 7
    for c in PLAYER_COLORS + [HIGHLIGHT]:
        assert contrast(ink_on(c), c) >= 4.5, c
    pairs = [
        (MUTED, PAPER),
        (MUTED, PANEL),
        (MUTED, PANEL_ALT),
        (MUTED, COVERED),
        (GOOD, PANEL_ALT),
        (SHORT, PANEL_ALT),
        (HEADER_INK, HEADER_BG),
        (HIGHLIGHT, HEADER_BG),
        (INK, HIGHLIGHT),
        (MUTED, tint(HIGHLIGHT, 0.55)),
    ] + [(INK, tint(c, 0.78)) for c in PLAYER_COLORS]
    for fg, bg in pairs:
        assert contrast(fg, bg) >= 4.5, (fg, bg)


def test_player_patterns_differ_in_greyscale():
    grey = []
    for seat in range(6):
        im = PILImage.new("RGB", (60, 60), PAPER)
        fill_pattern(im, Box(0, 0, 60, 60), seat)
        grey.append(im.convert("L").tobytes())
    assert len(set(grey)) == 6


# ---- icons --------------------------------------------------------------------
def _mask(name, size=48):
    return [a > 128 for a in icon(name, size).getchannel("A").get_flattened_data()]


def test_resource_and_military_icons_differ_by_shape_not_only_colour():
    masks = {n: _mask(n) for n in RESOURCES + MILITARY + ("coin", "vp")}
    for a, b in itertools.combinations(masks, 2):
        inter = sum(x and y for x, y in zip(masks[a], masks[b], strict=True))
        union = sum(x or y for x, y in zip(masks[a], masks[b], strict=True))
        assert inter / union < 0.8, (a, b)


def test_every_icon_draws_something_and_is_cached():
    for name in ICONS:
        im = icon(name, 32)
        assert im.size == (32, 32) and im.mode == "RGBA"
        assert im.getchannel("A").getbbox() is not None, name
        assert icon(name, 32) is im
    assert icon("no-such-icon", 32).getchannel("A").getbbox() is not None


# ---- text fitting ----------------------------------------------------------------
def test_fit_size_shrinks_to_fit_but_never_below_the_minimum():
    text = "Construct a building or place a leader"
    size = fit_size(text, 300, 40)
    assert MIN_TEXT <= size < 40
    assert font(size).getlength(text) <= 300 or size == MIN_TEXT
    assert fit_size(text * 5, 100, 40) == MIN_TEXT


def test_ellipsize_and_wrap_keep_text_inside_the_width():
    text = "Return the remaining card in your hand to the box instead of placing it on your deck"
    cut = ellipsize(text, 200, 22)
    assert cut.endswith("…") and font(22).getlength(cut) <= 200
    lines = wrap(text, 260, 22)
    assert len(lines) > 2 and all(font(22).getlength(ln) <= 260 for ln in lines)
    assert " ".join(lines) == text
    short = wrap(text, 260, 22, max_lines=2)
    assert len(short) == 2 and short[-1].endswith("…")


# ---- layers, header, legend, encoding ------------------------------------------------
def test_cached_layers_are_drawn_once_and_handed_out_as_copies():
    drawn = []

    @cached_layer()
    def background(w, h):
        drawn.append((w, h))
        return PILImage.new("RGB", (w, h), PAPER)

    a = background(50, 40)
    a.putpixel((0, 0), (0, 0, 0))
    b = background(50, 40)
    assert drawn == [(50, 40)] and b.getpixel((0, 0)) == PAPER


def test_header_shows_turn_and_highlights_the_last_move():
    plain = Header("Rising Cultures", "Round 2 of 7", [(0, "Alice")])
    moved = Header("Rising Cultures", "Round 2 of 7", [(0, "Alice")], ["Bob played Forum to the display"])
    assert header_height(moved) > header_height(plain)
    c = Canvas.blank(1200, 300)
    h = draw_header(c, moved)
    colours = {rgb for _, rgb in c.im.crop((0, 0, 1200, h)).getcolors(1_000_000)}
    assert HIGHLIGHT in colours
    assert alt_lines(moved) == [
        "Rising Cultures",
        "Round 2 of 7",
        "To act: Alice (A)",
        "Last move: Bob played Forum to the display.",
    ]


def test_a_views_header_names_who_acts_and_carries_the_last_move():
    view = {
        "players": [{"seat": 0, "name": "Alice"}, {"seat": 1}],
        "to_act": [1, 0, 2, None],
        "last_move": ["Alice built a city"],
    }
    assert seat_names(view) == {0: "Alice", 1: "Player 2"}
    h = view_header(view, "Game", "Round 1", "Alice's hand")
    assert h == Header(
        "Game", "Round 1", [(1, "Player 2"), (0, "Alice"), (2, "Player 3")], ["Alice built a city"], "Alice's hand"
    )
    assert view_header(view, "Game", "", unnamed="non-player").to_act[2] == (2, "non-player")
    named = view_header(view, "Game", "", names={0: "Alice (red)"}, last_move=["older"])
    assert named.to_act[0] == (1, "Player 2") and named.to_act[1] == (0, "Alice (red)")
    assert named.last_move == ["older"]


def test_alt_lines_add_the_open_decision_only_when_there_is_one():
    h = Header("Game", "Round 1")
    assert alt_lines(h) == alt_lines(h, "") == ["Game", "Round 1"]
    assert alt_lines(h, "Alice: choose a region") == ["Game", "Round 1", "Now: Alice: choose a region"]


def test_render_view_draws_the_map_by_default_the_seats_image_for_a_seat_and_the_part_asked_for():
    drawn = []

    def part(kind, size):
        def draw(view, arg=None):
            drawn.append((kind, arg))
            return PILImage.new("RGB", size, PAPER)

        return types.SimpleNamespace(draw=draw)

    alt = types.SimpleNamespace(
        public=lambda view: "map text", tables=lambda view: "tables text", private=lambda view, seat: f"seat {seat}"
    )
    modules = {"board": part("board", (30, 20)), "tables": part("tables", (50, 5))}
    modules["board"].place_boxes = lambda view: {"ur": [Box(1, 2, 3, 4)]}
    modules["board"].place_names = lambda view: {"ur": "Ur"}
    modules["private"] = part("private", (40, 10))
    public = render_view({}, None, None, ["ur"], alt=alt, **modules)
    mine = render_view({}, 1, None, (), alt=alt, **modules)
    tables = render_view({}, None, "tables", ["ur"], alt=alt, **modules)
    assert drawn == [("board", ("ur",)), ("private", 1), ("tables", None)]
    assert (public.width, public.height, public.alt) == (30, 20, "map text")
    assert public.places == {"ur": Place("Ur", ((1, 2, 3, 4),))}  # the map's places come with it (issue 52)
    assert mine.places == {} and render_view({}, None, "tables", (), alt=alt, **modules).places == {}
    assert (mine.width, mine.height, mine.alt) == (40, 10, "seat 1")
    assert (tables.width, tables.height, tables.alt) == (50, 5, "tables text")
    with pytest.raises(ValueError, match="parts are map, tables, private"):
        render_view({}, None, "legend", (), alt=alt, **modules)
    with pytest.raises(ValueError, match="give the seat"):
        render_view({}, None, "private", (), alt=alt, **modules)


def test_legend_wraps_into_rows_within_the_image():
    c = Canvas.blank(600, 400)
    items = [LegendItem(n, n) for n in list(ICONS)] + [LegendItem(None, "Alice", 0)]
    h = draw_legend(c, items, 0)
    assert 80 < h < 400


def test_png_is_a_small_palette_png_of_the_same_size():
    c = Canvas.blank(1200, 800)
    c.text(20, 20, "Rising Cultures", 30, bold=True)
    c.coin(20, 80, 7)
    img = c.finish("alt")
    assert img.png[:8] == b"\x89PNG\r\n\x1a\n" and (img.width, img.height) == (1200, 800)
    decoded = PILImage.open(io.BytesIO(img.png))
    assert decoded.size == (1200, 800) and decoded.mode == "P"
    assert len(png_bytes(c.im)) == len(img.png) < 100_000


def test_canvas_text_is_never_smaller_than_the_minimum():
    with recording() as marks:
        c = Canvas.blank(400, 200)
        c.text(0, 0, "tiny", 10)
        c.text(0, 40, "a long line that cannot fit in forty pixels", 30, max_width=40)
        c.paragraph(0, 80, "wrapped small text", 100, 12)
    assert len(marks) == 4 and min(m.size for m in marks) == MIN_TEXT


# ---- bounded caches and text (issue 15) ----------------------------------------------
def test_image_caches_are_bounded_by_bytes_least_recently_used_first():
    from renderers.common.cache import ImageCache, image_bytes

    im = PILImage.new("RGB", (10, 10))
    size = image_bytes(im)
    assert size == 400  # Pillow keeps RGB at 4 bytes a pixel
    store = ImageCache(budget=2 * size + 10)
    store.put(("f", 1), im, size, 10)
    store.put(("f", 2), im, size, 10)
    assert store.get(("f", 1)) is im  # 1 is now the most recently used
    store.put(("f", 3), im, size, 10)
    assert store.get(("f", 2)) is None and store.get(("f", 1)) is im and store.used <= store.budget
    store.put(("g", 1), PILImage.new("RGB", (40, 40)), 6400, 10)  # larger than the whole budget: not kept
    assert store.get(("g", 1)) is None and len(store) == 2
    store.put(("f", 4), im, size, 2)  # the owner's own bound
    assert store.count("f") == 2


def test_layers_are_kept_compact_with_their_flat_colours_exact():
    from renderers.common.cache import compact

    im = PILImage.new("RGB", (300, 200), PAPER)
    d = ImageDraw.Draw(im)
    d.rectangle([10, 10, 120, 90], fill=(0, 114, 178))
    for i in range(600):  # far more than 256 colours, as anti-aliasing makes
        d.point((150 + i % 150, 100 + i // 150), fill=(i % 256, (i * 7) % 256, (i * 13) % 256))
    small = compact(im)
    assert small.mode == "P"
    back = small.convert("RGB")
    assert back.getpixel((0, 0)) == PAPER and back.getpixel((50, 50)) == (0, 114, 178)
    few = PILImage.new("RGB", (50, 50), (1, 2, 3))
    assert compact(few).convert("RGB").tobytes() == few.tobytes()  # <= 256 colours: exact


def test_canvas_text_pastes_the_same_pixels_imagedraw_draws():
    for anchor, (x, y) in (("la", (10, 5)), ("mm", (200.5, 40)), ("lm", (30.25, 70.5)), ("rm", (390, 100))):
        ours = Canvas.blank(400, 130)
        ours.text(x, y, "Player 1 · 12 VP, Wonders: Pyr", 22, bold=True, anchor=anchor)
        theirs = PILImage.new("RGB", (400, 130), PAPER)
        ImageDraw.Draw(theirs).text(
            (x, y), "Player 1 · 12 VP, Wonders: Pyr", font=font(22, True), fill=INK, anchor=anchor
        )
        assert ours.im.tobytes() == theirs.tobytes(), anchor
