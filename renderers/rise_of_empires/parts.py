"""Rise of Empires pieces: player discs and cube chips in the game's own colours.

Every piece shows its colour's letter too, so colour is never the only cue.
"""

from __future__ import annotations

from renderers.common import INK, MAP_TEXT, Canvas, ink_on, text_width

from .labels import LETTERS

# ---- the game's own colours (2.4), close to Okabe-Ito, each with its letter ----------------
COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (250, 250, 250),
    "red": (213, 94, 0),
    "blue": (0, 114, 178),
    "green": (0, 158, 115),
    "yellow": (240, 228, 66),
}
SMALL = 18  # the smallest text of the tables image (the map's is MAP_TEXT)


class RoeCanvas(Canvas):
    """A canvas whose player badges show the game's colours (white, red, ...) and letters."""

    colours: list[str] = []

    def badge(self, seat: int, x: int, y: int, size: int = 34) -> None:
        name = self.colours[seat] if 0 <= seat < len(self.colours) else "white"
        disc(self, name, x, y, size)


def disc(c: Canvas, colour: str, x: float, y: float, size: int, text: str | None = None) -> None:
    """A player disc: the colour, a dark rim and the colour's letter (colour is never the only cue)."""
    fill = COLOURS.get(colour, (128, 128, 128))
    c.d.ellipse([x, y, x + size, y + size], fill=fill, outline=INK, width=2)
    c.text(
        x + size / 2,
        y + size / 2 + 1,
        text or LETTERS.get(colour, "?"),
        int(size * 0.55),
        bold=True,
        fill=ink_on(fill),
        anchor="mm",
    )


#: A cube chip's count (bold, beside the chip); its letter is as large as the map's smallest text.
COUNT = 21


def chip(c: Canvas, colour: str, x: float, y: float, label: str, size: int = 24) -> int:
    """A square cube chip (the colour and its letter) with the count beside it; returns the width used."""
    fill = COLOURS.get(colour, (128, 128, 128))
    c.d.rectangle([x, y, x + size, y + size], fill=fill, outline=INK, width=2)
    c.text(
        x + size / 2, y + size / 2 + 1, LETTERS.get(colour, "?"), MAP_TEXT, bold=True, fill=ink_on(fill), anchor="mm"
    )
    c.text(x + size + 3, y + size / 2, label, COUNT, bold=True, anchor="lm")
    return chip_width(label, size)


def chip_width(label: str, size: int = 24) -> int:
    """The width `chip` takes, with the gap after it."""
    return size + 3 + text_width(label, COUNT, True) + 10
