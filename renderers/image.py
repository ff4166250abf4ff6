"""The rendered image as it leaves a renderer: PNG bytes, alt text and size.

Kept apart from the drawing code (and from Pillow), so a process that only
passes images on — the bot's main process, receiving them from its drawing
workers — can unpickle one without importing Pillow or any renderer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

#: The images a view is drawn as (renderers/common/package.py): the map, the tables, a seat's image.
PARTS = ("map", "tables", "private")


@dataclass(frozen=True)
class Place:
    """A place on a map image: its name in words ("Assyria 12") and where it is drawn."""

    name: str
    boxes: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True)
class Image:
    """A rendered image: PNG bytes plus its alt text (a text summary of the same view).

    `places` (the map only, issue 52): each place the map names, by the name the view and the
    choices' `refers` give it, as its words and the rectangles (left, top, width, height, in
    this image's pixels) where it is drawn, so a front end can lay the places over the picture
    and tie them to the choices."""

    png: bytes
    alt: str
    width: int
    height: int
    places: Mapping[str, Place] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"Image({self.width}x{self.height}, {len(self.png)} bytes PNG)"
