"""Colours: colour-blind-safe player colours (Okabe-Ito) and the house palette.

Colour never carries meaning alone: every player also has a letter and a fill
pattern (`PLAYER_LETTERS`, `PLAYER_PATTERNS`), drawn by `layout.player_badge`
and `layout.fill_pattern`, so a player is recognisable in greyscale too.
"""

from __future__ import annotations

RGB = tuple[int, int, int]

# Okabe & Ito (2008), "Color Universal Design": distinguishable under the common
# forms of colour blindness. Ordered so that the first two (the two-player games)
# differ most in lightness as well as hue.
OKABE_ITO: dict[str, RGB] = {
    "blue": (0, 114, 178),
    "orange": (230, 159, 0),
    "bluish green": (0, 158, 115),
    "reddish purple": (204, 121, 167),
    "vermillion": (213, 94, 0),
    "sky blue": (86, 180, 233),
    "yellow": (240, 228, 66),
    "black": (0, 0, 0),
}
PLAYER_COLOR_NAMES = ["blue", "orange", "bluish green", "reddish purple", "vermillion", "sky blue"]
PLAYER_COLORS: list[RGB] = [OKABE_ITO[n] for n in PLAYER_COLOR_NAMES]
PLAYER_LETTERS = ["A", "B", "C", "D", "E", "F"]
#: Second cue besides colour, used for filled areas (see layout.fill_pattern).
PLAYER_PATTERNS = ["solid", "stripes", "dots", "cross", "hstripes", "vstripes"]

# House colours (chosen for contrast >= 4.5:1 of INK on PAPER / PANEL).
PAPER: RGB = (246, 241, 229)
PANEL: RGB = (255, 252, 244)
PANEL_ALT: RGB = (236, 229, 213)
INK: RGB = (28, 28, 30)
MUTED: RGB = (92, 88, 80)
RULE: RGB = (176, 166, 146)
HEADER_BG: RGB = (44, 52, 64)
HEADER_INK: RGB = (250, 250, 250)
HIGHLIGHT: RGB = (255, 214, 102)  # last move / leftmost province
HIGHLIGHT_EDGE: RGB = (196, 120, 0)
GOOD: RGB = (0, 104, 70)  # requirement met
SHORT: RGB = (180, 50, 20)  # shortfall
COVERED: RGB = (214, 210, 202)  # covered leader / inactive symbol

RESOURCE_COLORS: dict[str, RGB] = {
    "wood": (133, 87, 35),
    "brick": (196, 78, 42),
    "stone": (128, 132, 138),
    "gold": (222, 170, 20),
    "coin": (232, 186, 40),
    "vp": (40, 110, 60),
}


def player_color(seat: int) -> RGB:
    return PLAYER_COLORS[seat % len(PLAYER_COLORS)]


def player_letter(seat: int) -> str:
    return PLAYER_LETTERS[seat % len(PLAYER_LETTERS)]


def player_pattern(seat: int) -> str:
    return PLAYER_PATTERNS[seat % len(PLAYER_PATTERNS)]


def ink_on(bg: RGB) -> RGB:
    """Black or white, whichever reads better on `bg` (WCAG relative luminance)."""
    black = (0, 0, 0)
    return black if contrast(black, bg) >= contrast(HEADER_INK, bg) else HEADER_INK


def tint(color: RGB, amount: float) -> RGB:
    """`color` mixed with white (amount 0 = unchanged, 1 = white)."""
    return tuple(int(round(c + (255 - c) * amount)) for c in color)  # type: ignore[return-value]


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio of two colours (1..21)."""

    def lum(c: RGB) -> float:
        def lin(channel: int) -> float:
            v = channel / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

        return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])

    la, lb = sorted((lum(a), lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)
