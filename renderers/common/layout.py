"""Layout helpers: a canvas with text fitting, panels, badges, header and legend.

Every board image in Epochs is built the same way: a cached static layer
(`cached_layer`) is copied, the changing pieces are drawn on top with a
`Canvas`, and `Canvas.finish` encodes a small palette PNG together with the
alt text. Sizes are in pixels for a 1200 px wide image; no text is drawn below
`fonts.MIN_TEXT` (18 px) so that a phone can read it when zoomed to width.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image as PILImage
from PIL import ImageDraw

from .cache import cached_sprite, cached_text
from .encode import Image, encode_png
from .fonts import MIN_TEXT, font, measure
from .icons import paste_icon
from .marks import note, paste
from .palette import (
    HEADER_BG,
    HEADER_INK,
    HIGHLIGHT,
    HIGHLIGHT_EDGE,
    INK,
    MUTED,
    PANEL,
    PAPER,
    RGB,
    RULE,
    ink_on,
    player_color,
    player_letter,
    player_pattern,
    tint,
)

WIDTH = 1200
MARGIN = 16


@dataclass(frozen=True)
class Box:
    """A rectangle: left, top, width, height."""

    x: int
    y: int
    w: int
    h: int

    @property
    def right(self) -> int:
        return self.x + self.w

    @property
    def bottom(self) -> int:
        return self.y + self.h

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def inset(self, d: int) -> Box:
        return Box(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def moved(self, dx: int, dy: int) -> Box:
        return Box(self.x + dx, self.y + dy, self.w, self.h)

    def columns(self, n: int, gap: int = MARGIN) -> list[Box]:
        """Split into `n` equal columns separated by `gap`."""
        cw = (self.w - gap * (n - 1)) // n
        return [Box(self.x + i * (cw + gap), self.y, cw, self.h) for i in range(n)]


# ---- text -------------------------------------------------------------------
def fit_size(
    text: str, max_width: int, size: int, min_size: int = MIN_TEXT, bold: bool = False, condensed: bool = False
) -> int:
    """The largest size <= `size` (and >= `min_size`) at which `text` fits in `max_width`.

    Width grows about in proportion to the size, so the first guess is that
    proportion; a step or two either way makes it exact (not one try per size)."""
    width = measure(text, size, bold, condensed)
    if width <= max_width or size <= min_size:
        return size
    guess = max(min_size, min(size - 1, int(size * max_width / width)))
    while guess < size - 1 and measure(text, guess + 1, bold, condensed) <= max_width:
        guess += 1
    while guess > min_size and measure(text, guess, bold, condensed) > max_width:
        guess -= 1
    return guess


def ellipsize(text: str, max_width: int, size: int, bold: bool = False) -> str:
    """`text`, cut with an ellipsis so that it fits in `max_width` at `size`."""
    if measure(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def wrap(text: str, max_width: int, size: int, bold: bool = False, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap of `text` to `max_width`; the last allowed line is ellipsized."""
    lines: list[str] = []
    for para in text.split("\n"):
        lines += _wrap_words(para.split(), max_width, size, bold)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = ellipsize(lines[-1] + " …", max_width, size, bold)
    return [ellipsize(ln, max_width, size, bold) for ln in lines]


def _wrap_words(words: list[str], max_width: int, size: int, bold: bool) -> list[str]:
    """Lines of `words`, each as long as fits (a word longer than a line stands alone).

    A line's width is first taken as its words' widths plus spaces (words repeat,
    their widths are memoised), which is never more than the true width by more
    than kerning; the line is then measured once and shortened while it overflows,
    so the result is the same as trying every word on the real line."""
    if not words:
        return [""]
    space = measure(" ", size, bold)
    lines, start = [], 0
    while start < len(words):
        end, width = start + 1, measure(words[start], size, bold)
        while end < len(words) and width + space + measure(words[end], size, bold) <= max_width:
            width += space + measure(words[end], size, bold)
            end += 1
        while end - start > 1 and measure(" ".join(words[start:end]), size, bold) > max_width:
            end -= 1
        lines.append(" ".join(words[start:end]))
        start = end
    return lines


def line_height(size: int) -> int:
    return int(size * 1.25)


@cached_text(maxsize=4096)
def text_mask(
    text: str, size: int, bold: bool, anchor: str, fx: float, fy: float, condensed: bool = False
) -> tuple[PILImage.Image | None, int, int]:
    """The glyph coverage of one line as an "L" mask, and where its top-left goes
    relative to the (whole-pixel) anchor point; `fx`, `fy` are the anchor's fractions
    of a pixel, which Pillow renders with. None for a line with no ink (spaces)."""
    f = font(size, bold, condensed)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    if right <= left or bottom <= top:
        return None, 0, 0
    pad = 2
    mask = PILImage.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(mask).text((pad - left + fx, pad - top + fy), text, font=f, fill=255, anchor=anchor)
    return mask, left - pad, top - pad


class Canvas:
    """An RGB image plus drawing helpers; `finish(alt)` gives the encoded `Image`.

    `min_text` is the smallest size its text may shrink to (`MIN_TEXT`; a map image's
    canvas: `MAP_TEXT`). Every line it writes is noted (marks.py)."""

    def __init__(self, base: PILImage.Image, min_text: int = MIN_TEXT):
        self.im = base
        self.d = ImageDraw.Draw(base)
        self.min_text = min_text

    @classmethod
    def blank(cls, width: int, height: int, color: RGB = PAPER, min_text: int = MIN_TEXT) -> Canvas:
        return cls(PILImage.new("RGB", (width, height), color), min_text)

    @property
    def width(self) -> int:
        return self.im.width

    @property
    def height(self) -> int:
        return self.im.height

    # text
    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: int = 22,
        *,
        bold: bool = False,
        fill: RGB = INK,
        anchor: str = "la",
        max_width: int | None = None,
    ) -> int:
        """Draw one line (shrunk down to `min_text` to fit `max_width`; then, a regular line, in
        the condensed face; then ellipsized); returns its width."""
        size = max(size, self.min_text)
        condensed = False
        if max_width is not None and measure(text, size, bold) > max_width:
            fitted = fit_size(text, max_width, size, self.min_text, bold=bold)
            if measure(text, fitted, bold) > max_width and not bold and measure(text, fitted, False, True) <= max_width:
                condensed = True  # a name whole, a little narrower, rather than cut
                size = fit_size(text, max_width, size, self.min_text, condensed=True)
            else:
                size = fitted
                text = ellipsize(text, max_width, size, bold)
        self._draw_text(x, y, text, size, bold, fill, anchor, condensed)
        return int(measure(text, size, bold, condensed))

    def _draw_text(
        self, x: float, y: float, text: str, size: int, bold: bool, fill: RGB, anchor: str, condensed: bool = False
    ) -> None:
        """Paste the line's cached glyph mask in `fill` (what ImageDraw.text does, without
        rasterising the glyphs again: most of a board's lines recur from board to board)."""
        ix, iy = math.floor(x), math.floor(y)
        mask, dx, dy = text_mask(text, size, bold, anchor, x - ix, y - iy, condensed)
        if mask is not None:
            self.im.paste(fill, (ix + dx, iy + dy), mask)
            note(text, size, ix + dx, iy + dy, mask.width, mask.height)

    def paragraph(
        self,
        x: int,
        y: int,
        text: str,
        max_width: int,
        size: int = 22,
        *,
        bold: bool = False,
        fill: RGB = INK,
        max_lines: int | None = None,
    ) -> int:
        """Draw wrapped text; returns the height used."""
        size = max(size, self.min_text)
        lines = wrap(text, max_width, size, bold, max_lines)
        lh = line_height(size)
        for i, ln in enumerate(lines):
            self._draw_text(x, y + i * lh, ln, size, bold, fill, "la")
        return lh * len(lines)

    def paste(self, src: PILImage.Image, x: float, y: float, mask: PILImage.Image | None = None) -> None:
        """Paste a picture (a cached layer or sprite), noting the text it holds where it lands."""
        paste(self.im, src, (int(x), int(y)), mask)

    # shapes
    def panel(self, box: Box, fill: RGB = PANEL, outline: RGB = RULE, width: int = 2, radius: int = 10) -> None:
        self.d.rounded_rectangle(box.rect, radius=radius, fill=fill, outline=outline, width=width)

    def highlight(self, box: Box, width: int = 5, radius: int = 10) -> None:
        """The 'this just happened / this is next' frame: thick amber outline."""
        self.d.rounded_rectangle(box.rect, radius=radius, outline=HIGHLIGHT_EDGE, width=width)

    def icon(self, name: str, x: int, y: int, size: int = 28, color: RGB | None = None) -> None:
        paste_icon(self.im, name, x, y, size, color)

    def icon_count(
        self, name: str, count: int | str, x: int, y: int, size: int = 28, *, fill: RGB = INK, bold: bool = True
    ) -> int:
        """Icon followed by a number ("[wood] 3"); returns the width used."""
        self.icon(name, x, y, size)
        w = self.text(x + size + 4, y + size // 2, str(count), int(size * 0.85), bold=bold, fill=fill, anchor="lm")
        return size + 4 + w

    def coin(self, x: int, y: int, value: int | str, size: int = 34) -> None:
        """A coin with its value written on it."""
        self.icon("coin", x, y, size)
        self.text(x + size / 2, y + size / 2 + 1, str(value), int(size * 0.55), bold=True, anchor="mm")

    def badge(self, seat: int, x: int, y: int, size: int = 34) -> None:
        player_badge(self.im, seat, x, y, size)

    def finish(self, alt: str, *, colors: int = 128) -> Image:
        return encode_png(self.im, alt, colors=colors)


def sprite_text(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    *,
    fill: Any = INK,
    bold: bool = False,
    anchor: str = "la",
    max_width: int | None = None,
) -> None:
    """One line drawn straight with Pillow (inside a sprite), noted like `Canvas.text` (marks.py).
    Past `max_width` a bold line drops to regular, then to the condensed face, keeping its size."""
    condensed = False
    if max_width is not None and measure(text, size, bold) > max_width:
        bold = False
        condensed = measure(text, size) > max_width
    f = font(size, bold, condensed)
    d.text(xy, text, font=f, fill=fill, anchor=anchor)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    note(text, size, xy[0] + left, xy[1] + top, right - left, bottom - top)


# ---- player cues ---------------------------------------------------------------
def fill_pattern(im: PILImage.Image, box: Box, seat: int, *, radius: int = 0) -> None:
    """Fill `box` with the seat's colour and pattern (the second, non-colour cue)."""
    color = player_color(seat)
    pattern = player_pattern(seat)
    layer = PILImage.new("RGB", (box.w, box.h), color)
    d = ImageDraw.Draw(layer)
    ink = tint(color, 0.55)
    step = 12
    if pattern == "stripes":
        for k in range(-box.h, box.w, step):
            d.line([k, box.h, k + box.h, 0], fill=ink, width=4)
    elif pattern == "dots":
        for yy in range(step // 2, box.h, step):
            for xx in range(step // 2, box.w, step):
                d.ellipse([xx - 2, yy - 2, xx + 2, yy + 2], fill=ink)
    elif pattern == "cross":
        for k in range(-box.h, box.w, step):
            d.line([k, box.h, k + box.h, 0], fill=ink, width=3)
            d.line([k, 0, k + box.h, box.h], fill=ink, width=3)
    elif pattern == "hstripes":
        for yy in range(0, box.h, step):
            d.line([0, yy, box.w, yy], fill=ink, width=4)
    elif pattern == "vstripes":
        for xx in range(0, box.w, step):
            d.line([xx, 0, xx, box.h], fill=ink, width=4)
    mask = PILImage.new("L", (box.w, box.h), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, box.w - 1, box.h - 1], radius=radius, fill=255)
    im.paste(layer, (box.x, box.y), mask)


#: A badge's letter is this much of the badge's size (a 31 px badge: a 19 px letter).
BADGE_LETTER = 0.62
BADGE_SS = 4


@cached_sprite(maxsize=64)
def _badge(seat: int, size: int) -> PILImage.Image:
    ss = BADGE_SS
    big = PILImage.new("RGBA", (size * ss, size * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    color = player_color(seat)
    d.ellipse([0, 0, size * ss - 1, size * ss - 1], fill=color, outline=INK, width=2 * ss)
    letter = int(size * ss * BADGE_LETTER)
    d.text(
        (size * ss / 2, size * ss / 2), player_letter(seat), font=font(letter, True), fill=ink_on(color), anchor="mm"
    )
    note(player_letter(seat), letter / ss, 0, 0, size, size)
    return big.resize((size, size), PILImage.Resampling.LANCZOS)


def player_badge(im: PILImage.Image, seat: int, x: int, y: int, size: int = 34) -> None:
    """A disc in the seat's colour with its letter (A, B, ...): colour plus a second cue."""
    b = _badge(seat, size)
    paste(im, b, (int(x), int(y)), b)


# ---- header and legend -----------------------------------------------------------
@dataclass
class Header:
    """What every image's header says (issue 5: game, round/phase, whose turn, last move)."""

    title: str
    status: str = ""  # "Round 3 of 7 · Phase II: play cards"
    to_act: Sequence[tuple[int, str]] = ()  # (seat, name) of those who must act now
    last_move: Sequence[str] = ()  # event lines of the last move
    subtitle: str = ""  # e.g. "Private: Alice's hand"


def seat_names(view: Mapping[str, Any]) -> dict[int, str]:
    """Seat -> name of the view's players ("Player n" where a name is missing)."""
    return {p.get("seat", i): p.get("name", f"Player {i + 1}") for i, p in enumerate(view.get("players") or [])}


def view_header(
    view: Mapping[str, Any],
    title: str,
    status: str,
    subtitle: str = "",
    *,
    names: Mapping[int, str] | None = None,
    unnamed: str = "",
    last_move: Sequence[str] | None = None,
) -> Header:
    """A game view's header: who acts, named from `names` (by default `seat_names(view)`; a seat not
    there is `unnamed`, or "Player n"), and the last move the service adds to the view (or `last_move`)."""
    names = seat_names(view) if names is None else names
    to_act = [(s, names.get(s, unnamed or f"Player {s + 1}")) for s in view.get("to_act") or [] if s is not None]
    moves = (view.get("last_move") or []) if last_move is None else last_move
    return Header(title=title, status=status, to_act=to_act, last_move=list(moves), subtitle=subtitle)


HEADER_TITLE = 34
HEADER_TEXT = 24


def header_height(h: Header, width: int = WIDTH) -> int:
    inner = width - 2 * MARGIN
    height = MARGIN + line_height(HEADER_TITLE) + line_height(HEADER_TEXT) + 8
    if h.last_move:
        lines = _last_move_lines(h, inner - 24)
        height += 12 + line_height(HEADER_TEXT) * len(lines) + 16
    return height + MARGIN


def _last_move_lines(h: Header, width: int) -> list[str]:
    text = "Last move: " + "; ".join(s.rstrip(".") for s in h.last_move if s)
    return wrap(text, width, HEADER_TEXT, max_lines=3)


def draw_header(c: Canvas, h: Header) -> int:
    """Draw the header band at the top of `c`; returns its height."""
    height = header_height(h, c.width)
    c.d.rectangle([0, 0, c.width, height], fill=HEADER_BG)
    y = MARGIN
    title_w = c.text(MARGIN, y, h.title, HEADER_TITLE, bold=True, fill=HEADER_INK, max_width=c.width // 2 - MARGIN)
    if h.subtitle:
        c.text(
            MARGIN + title_w + 18,
            y + 8,
            h.subtitle,
            HEADER_TEXT,
            fill=HIGHLIGHT,
            max_width=c.width - title_w - 3 * MARGIN - 18,
        )
    y += line_height(HEADER_TITLE)
    x = MARGIN
    if h.status:
        x += c.text(x, y, h.status, HEADER_TEXT, fill=HEADER_INK, max_width=c.width // 2) + 24
    if h.to_act:
        x += c.text(x, y, "To act:", HEADER_TEXT, bold=True, fill=HEADER_INK)
        for seat, name in h.to_act:
            if x > c.width - 120:
                break
            x += 10
            c.badge(seat, x, y - 3, 32)  # its letter 19.75 px, as large as a map's text (MAP_TEXT)
            x += 38
            x += c.text(x, y, name, HEADER_TEXT, bold=True, fill=HEADER_INK, max_width=max(60, c.width - x - MARGIN))
    y += line_height(HEADER_TEXT) + 8
    if h.last_move:
        lines = _last_move_lines(h, c.width - 2 * MARGIN - 24)
        box = Box(MARGIN, y + 6, c.width - 2 * MARGIN, line_height(HEADER_TEXT) * len(lines) + 16)
        c.d.rounded_rectangle(box.rect, radius=8, fill=HIGHLIGHT, outline=HIGHLIGHT_EDGE, width=3)
        for i, ln in enumerate(lines):
            c.text(box.x + 12, box.y + 8 + i * line_height(HEADER_TEXT), ln, HEADER_TEXT, fill=INK)
    return height


def below(h: Header, body: PILImage.Image, gap: int = MARGIN) -> PILImage.Image:
    """`body` under the header band `h` (a tables image, a seat's image)."""
    return stack(header_image(h), body, gap=gap)


def header_image(h: Header, width: int = WIDTH) -> PILImage.Image:
    c = Canvas.blank(width, header_height(h, width))
    draw_header(c, h)
    return c.im


def stack(*parts: PILImage.Image, gap: int = 0) -> PILImage.Image:
    """The pictures one under the other, `gap` between them (their text noted where it lands)."""
    width = max(p.width for p in parts)
    im = PILImage.new("RGB", (width, sum(p.height for p in parts) + gap * (len(parts) - 1)), PAPER)
    y = 0
    for p in parts:
        paste(im, p, (0, y))
        y += p.height + gap
    return im


def tables_header(h: Header, subtitle: str) -> Header:
    """The header of a tables image: the game, status and who acts, without the last move
    (the map image beside it shows that)."""
    return replace(h, last_move=(), subtitle=subtitle)


# ---- the player key of a map image -------------------------------------------------
@dataclass(frozen=True)
class KeyEntry:
    """One player in a map's key: their badge, a label ("Alice 22 VP"), framed when acting."""

    seat: int
    label: str
    acting: bool = False


KEY_TEXT = 22
KEY_BADGE = 32
KEY_GAP = 24


def _key_rows(entries: Sequence[KeyEntry], width: int) -> list[list[tuple[KeyEntry, int]]]:
    rows: list[list[tuple[KeyEntry, int]]] = [[]]
    x = 0
    for e in entries:
        w = KEY_BADGE + 8 + min(int(measure(e.label, KEY_TEXT, True)), width - KEY_BADGE - 8) + KEY_GAP
        if x + w > width and rows[-1]:
            rows.append([])
            x = 0
        rows[-1].append((e, w))
        x += w
    return rows


def player_key_height(entries: Sequence[KeyEntry], width: int = WIDTH) -> int:
    """Height of the key band: one row of badges and labels per line that fits."""
    if not entries:
        return 0
    return 12 + len(_key_rows(entries, width - 2 * MARGIN)) * (KEY_BADGE + 10) + 2


def map_top(head: Header, entries: Sequence[KeyEntry], width: int = WIDTH) -> int:
    """Where a map image's map starts: under its header and its player key."""
    return header_height(head, width) + player_key_height(entries, width)


def draw_player_key(c: Canvas, entries: Sequence[KeyEntry], y: int) -> int:
    """Who is who on the map (the pieces carry the players' letters and colours): each
    player's badge and label in a band at `y`; the players to act framed in amber.
    Returns the band's height."""
    height = player_key_height(entries, c.width)
    yy = y + 10
    for row in _key_rows(entries, c.width - 2 * MARGIN):
        x = MARGIN
        for e, w in row:
            if e.acting:
                c.d.rounded_rectangle(
                    [x - 4, yy - 4, x + w - KEY_GAP + 6, yy + KEY_BADGE + 4], radius=10, outline=HIGHLIGHT_EDGE, width=4
                )
            c.badge(e.seat, x, yy, KEY_BADGE)
            room = w - KEY_GAP - KEY_BADGE - 8
            c.text(x + KEY_BADGE + 8, yy + KEY_BADGE / 2, e.label, KEY_TEXT, bold=True, anchor="lm", max_width=room)
            x += w
        yy += KEY_BADGE + 10
    return height


@dataclass(frozen=True)
class LegendItem:
    icon: str | None
    label: str
    seat: int | None = None  # a player's badge instead of an icon


LEGEND_TEXT = 20
LEGEND_ICON = 26


def _legend_rows(items: Sequence[LegendItem], width: int) -> list[list[tuple[LegendItem, int]]]:
    rows: list[list[tuple[LegendItem, int]]] = [[]]
    x = 0
    for it in items:
        w = LEGEND_ICON + 6 + int(measure(it.label, LEGEND_TEXT)) + 22
        if x + w > width and rows[-1]:
            rows.append([])
            x = 0
        rows[-1].append((it, w))
        x += w
    return rows


def legend_height(items: Sequence[LegendItem], width: int = WIDTH) -> int:
    rows = _legend_rows(items, width - 2 * MARGIN - 24)
    return MARGIN + 10 + len(rows) * (LEGEND_ICON + 10)


def draw_legend(c: Canvas | PILImage.Image, items: Sequence[LegendItem], y: int, width: int | None = None) -> int:
    """Draw a legend band starting at `y`; returns its height."""
    if not isinstance(c, Canvas):
        c = Canvas(c)
    width = width or c.width
    height = legend_height(items, width)
    box = Box(MARGIN, y + MARGIN // 2, width - 2 * MARGIN, height - MARGIN)
    c.panel(box, fill=tint(PAPER, 0.4), outline=RULE)
    rows = _legend_rows(items, box.w - 24)
    yy = box.y + 10
    for row in rows:
        x = box.x + 12
        for it, w in row:
            if it.seat is not None:
                c.badge(it.seat, x, yy, LEGEND_ICON)
            elif it.icon:
                c.icon(it.icon, x, yy, LEGEND_ICON)
            c.text(x + LEGEND_ICON + 6, yy + LEGEND_ICON // 2, it.label, LEGEND_TEXT, fill=MUTED, anchor="lm")
            x += w
        yy += LEGEND_ICON + 10
    return height


def alt_lines(h: Header, prompt: str = "") -> list[str]:
    """The header as alt-text lines, first in every image's text summary; then the open decision in
    words ("Now: ...") for a game whose view carries a `prompt`."""
    out = [h.title + (f" — {h.subtitle}" if h.subtitle else "")]
    if h.status:
        out.append(h.status)
    if h.to_act:
        out.append("To act: " + ", ".join(f"{name} ({player_letter(seat)})" for seat, name in h.to_act))
    if h.last_move:
        out.append("Last move: " + "; ".join(s.rstrip(".") for s in h.last_move if s) + ".")
    if prompt:
        out.append("Now: " + prompt)
    return out


def join_alt(lines: Iterable[str]) -> str:
    return "\n".join(ln for ln in lines if ln)
