"""The shape of a game's renderer: the package `renderers/<game id with - as _>/`.

Every game's renderer has the same modules, so a reader finds the same kind of
code under the same file name in each (README, "A game's renderer"; a test
checks every registered game against `MODULES`), and one `render_view` joins
them into the image a seat sees.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from .encode import Image, encode_png

#: The modules of a game's renderer package besides `__init__.py` (which exposes `render(view, seat)`).
MODULES = {
    "board": "the public board: draw(view) -> picture; layout, static layers, panels, legend",
    "private": "a seat's image: draw(view, seat) -> picture (a hand, or the board with what only that seat knows)",
    "alt": "alt text from the same view: public(view), private(view, seat)",
    "labels": "words: header_for(view, subtitle), the status line, phase names, abbreviations, card texts",
    "parts": "drawing pieces the images share: sprites, icons, chips, the game's own colours",
}


def render_view(
    view: Mapping[str, Any], seat: int | None, board: ModuleType, private: ModuleType, alt: ModuleType
) -> Image:
    """The image of `view` for `seat`, with its alt text: the public board when `seat` is None,
    otherwise the seat's image."""
    if seat is None:
        return encode_png(board.draw(view), alt.public(view))
    return encode_png(private.draw(view, seat), alt.private(view, seat))
